// Shared-memory MMA operand layouts: mma_shared_layout and parse_swizzle_mode
// (TVM python/tvm/tirx/operator/tile_primitive/cuda/tma_utils.py).
//
// K-major canonical layouts (PTX ISA 9.1 §9.7.16.3.3 "Canonical Layouts"): with an S-byte
// swizzle (S = 32/64/128) a row of the operand is S bytes and 8 rows form one swizzle atom;
// the XOR permutes the 16-byte chunks of each row by the row index. In ComposeLayout terms
// (M, B, S) = (log2(16 bytes / element), mode, 3), and the atom covers [8, S*8/bits] elements.
// The atom is tiled over the rows of one K block first, then over all dimensions:
//
//   dtype    mode   shape      layout
//   float16  128B   (64,256)   ComposeLayout(3,3,3, S[(64,4,64):(64,4096,1)])
//   float16  64B    (64,64)    ComposeLayout(3,2,3, S[(64,2,32):(32,2048,1)])
//   float32  128B   (64,256)   ComposeLayout(2,3,3, S[(64,8,32):(32,2048,1)])
//   float16  NONE   (64,64)    S[(64,8,8):(8,512,1)]   (8x16-byte core matrices, K-interleaved)
//
// Reading the 128B float16 result: row r advances 64 elements (one 128-byte line), column
// block j/64 advances a whole 64-row stack of atoms (4096 elements).
#include <algorithm>
#include <cctype>
#include <string>

#include <fmt/format.h>

#include "tirx_verify/layout/arch.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {

namespace {

[[noreturn]] void smem_fail(const std::string& msg) {
  throw InputError("layout.well-formed", "mma_shared_layout: " + msg);
}

// Bytes of one swizzle row per mode: 16 << mode (PTX ISA 9.1 §9.7.16.3.3; TVM atom shapes
// [8, 256/512/1024 bits]).
std::int64_t swizzle_row_bytes(SwizzleMode m) { return arch::kCoreMatrixRowBytes << static_cast<int>(m); }

}  // namespace

SwizzleMode parse_swizzle_mode(std::string_view text) {
  std::string t(text);
  for (const char* prefix : {"SwizzleMode.", "tma_utils.SwizzleMode."})
    if (t.rfind(prefix, 0) == 0) t = t.substr(std::string_view(prefix).size());
  std::string u;
  for (char c : t) u.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (u == "0" || u == "NONE" || u == "SWIZZLE_NONE") return SwizzleMode::kNone;
  if (u == "1" || u == "32B" || u == "SWIZZLE_32B" || u == "SWIZZLE_32B_ATOM") return SwizzleMode::k32B;
  if (u == "2" || u == "64B" || u == "SWIZZLE_64B" || u == "SWIZZLE_64B_ATOM") return SwizzleMode::k64B;
  if (u == "3" || u == "128B" || u == "SWIZZLE_128B" || u == "SWIZZLE_128B_ATOM" || u == "AUTO")
    return SwizzleMode::k128B;
  throw InputError("layout.well-formed", fmt::format("unknown swizzle mode '{}'", text), std::string(text),
                   std::size_t{0},
                   "use SWIZZLE_NONE, SWIZZLE_32B_ATOM, SWIZZLE_64B_ATOM, SWIZZLE_128B_ATOM (or 0..3)");
}

Layout mma_shared_layout(const DType& dtype, SwizzleMode mode, std::span<const std::int64_t> shape) {
  const int mode_value = static_cast<int>(mode);
  if (mode_value < 0 || mode_value > 3) smem_fail(fmt::format("swizzle mode {} is not 0..3", mode_value));
  if (shape.size() < 2) smem_fail(fmt::format("the shape needs at least 2 dimensions (rows, K), got {}", shape.size()));
  for (std::int64_t e : shape)
    if (e < 1) smem_fail(fmt::format("shape extents must be >= 1, got {}", e));
  const std::int64_t chunk_bits = arch::kCoreMatrixRowBytes * 8;  // 128
  if (dtype.bits < 1 || dtype.bits > chunk_bits || chunk_bits % dtype.bits != 0)
    smem_fail(fmt::format("dtype {} ({} bits) does not divide a 16-byte chunk", dtype.name, dtype.bits));
  const std::int64_t per_chunk = chunk_bits / dtype.bits;  // elements per 16-byte chunk
  const std::size_t rank = shape.size();
  const std::int64_t rows = shape[rank - 2], k = shape[rank - 1];

  if (mode == SwizzleMode::kNone) {
    // 8-row x 16-byte core matrices stacked along M, then K chunk by K chunk.
    if (k % per_chunk != 0) return Layout(canonicalize(TileLayout::row_major(shape)));
    const std::int64_t mk = checked_mul(rows, k, "mma_shared_layout size");
    TileLayout l;
    std::vector<std::int64_t> lead_strides(rank - 2);
    std::int64_t stride = mk;
    for (std::size_t d = rank - 2; d-- > 0;) {
      lead_strides[d] = stride;
      stride = checked_mul(stride, shape[d], "mma_shared_layout size");
    }
    for (std::size_t d = 0; d + 2 < rank; ++d) l.shard.push_back(Iter{shape[d], lead_strides[d], AxisId::m});
    l.shard.push_back(Iter{rows, per_chunk, AxisId::m});
    l.shard.push_back(Iter{k / per_chunk, checked_mul(rows, per_chunk, "mma_shared_layout stride"), AxisId::m});
    l.shard.push_back(Iter{per_chunk, 1, AxisId::m});
    return Layout(canonicalize(l));
  }

  const int per_element = log2_exact(per_chunk);
  const SwizzleSpec spec{per_element, mode_value, static_cast<int>(log2_exact(arch::kSwizzleAtomRows)), true};
  const std::int64_t atom_rows = arch::kSwizzleAtomRows;
  const std::int64_t atom_cols = swizzle_row_bytes(mode) * 8 / dtype.bits;
  // TVM does not check these; a smaller or non-multiple shape gives a division by zero or a
  // layout smaller than the buffer there.
  if (rows % atom_rows != 0)
    smem_fail(fmt::format("rows={} must be a multiple of the {}-row swizzle atom", rows, atom_rows));
  if (k % atom_cols != 0)
    smem_fail(fmt::format("K={} must be a multiple of the swizzle atom width {} ({}-byte rows of {})", k, atom_cols,
                     swizzle_row_bytes(mode), dtype.name));
  std::vector<std::int64_t> atom_shape(rank, 1);
  atom_shape[rank - 2] = atom_rows;
  atom_shape[rank - 1] = atom_cols;
  std::vector<std::int64_t> column_shape = atom_shape;
  column_shape[rank - 2] = rows;
  const Layout atom(ComposeLayout(spec, TileLayout({Iter{spec.period(), 1, AxisId::m}})));
  return canonicalize(tile_to(tile_to(atom, column_shape, atom_shape), shape, column_shape));
}

}  // namespace tirx
