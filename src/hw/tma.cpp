#include "tirx_verify/hw/tma.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {

// The H200 readback (tests/golden/hw/h200_tma.json): a tile load whose inner start coordinate
// is not 16-byte aligned faults with "an illegal instruction was encountered".
constexpr std::int64_t kInnerOriginAlignBytes = 16;
// cuTensorMapEncodeTiled (cuda.h, CUDA 13.0): globalStrides[i] < 2^40.
constexpr std::int64_t kMaxStrideBytes = std::int64_t{1} << 40;

[[noreturn]] void box_error(std::string msg, std::string note = {}) {
  throw InputError("tma.box", std::move(msg), {}, std::nullopt, std::move(note));
}

// Every rule of the header except the data size (check_data).
void validate(const Target& target, const GlobalTensor& g, const TmaTileLoad& l) {
  int rank = static_cast<int>(g.dims.size());
  if (rank < 1 || rank > target.tma_rank_max)
    box_error(fmt::format("tensor rank {} is outside [1, {}]", rank, target.tma_rank_max));
  if (g.elem_bytes != 1 && g.elem_bytes != 2 && g.elem_bytes != 4 && g.elem_bytes != 8)
    box_error(fmt::format("element size {} bytes: TMA element types are 1, 2, 4 or 8 bytes", g.elem_bytes));
  if (static_cast<int>(g.strides_bytes.size()) != rank - 1)
    box_error(fmt::format("a rank-{} tensor needs {} global strides (dims 1..), got {}", rank, rank - 1,
                          g.strides_bytes.size()));
  if (static_cast<int>(l.box.size()) != rank || static_cast<int>(l.coords.size()) != rank)
    box_error(fmt::format("box and coordinates need {} entries each (the tensor rank)", rank));
  for (int i = 0; i < rank; ++i) {
    if (g.dims[i] < 1) box_error(fmt::format("tensor dimension {} has extent {}", i, g.dims[i]));
    if (l.box[i] < 1 || l.box[i] > target.tma_box_dim_max)
      box_error(fmt::format("box dimension {} is {}; it must be in [1, {}]", i, l.box[i], target.tma_box_dim_max));
    if (i > 0) {
      // cuda.h: a multiple of 16 below 2^40; no order (H200 readback h200_tma_nd.json).
      const std::int64_t s = g.strides_bytes[i - 1];
      if (s < 0 || s % 16 != 0 || s >= kMaxStrideBytes)
        box_error(fmt::format("global stride of dimension {} is {} bytes; it must be a multiple of 16 in [0, 2^40)",
                              i, s));
    }
  }
  std::int64_t inner = l.box[0] * g.elem_bytes;
  if (inner % target.tma_inner_box_bytes_multiple != 0)
    box_error(fmt::format("inner box extent {} bytes is not a multiple of {}", inner,
                          target.tma_inner_box_bytes_multiple));
  if (!target.has_tma_swizzle(to_string(l.swizzle)))
    throw InputError("swizzle.legal",
                     fmt::format("swizzle mode {} does not exist on {}", to_string(l.swizzle), target.name));
  int span = tma_swizzle_span_bytes(l.swizzle);
  if (span > 0 && inner > span)
    box_error(fmt::format("inner box extent {} bytes exceeds the {} swizzle span of {} bytes", inner,
                          to_string(l.swizzle), span),
              "cuTensorMapEncodeTiled rejects boxDim[0] * elemsize > swizzle span");
  if ((l.coords[0] * g.elem_bytes) % kInnerOriginAlignBytes != 0)
    box_error(fmt::format("the box's inner start coordinate {} is at byte {} of a row, not a multiple of {}: the H200 "
                          "raises \"illegal instruction\" for such a tile load",
                          l.coords[0], l.coords[0] * g.elem_bytes, kInnerOriginAlignBytes),
              "start the box on a 16-byte boundary of the row (tests/golden/hw/h200_tma.json, tag \"origin\")");
  if (l.smem_dst % static_cast<std::uint64_t>(target.tma_smem_dst_align_bytes) != 0)
    box_error(fmt::format("shared-memory destination 0x{:X} is not {}-byte aligned", l.smem_dst,
                          target.tma_smem_dst_align_bytes));
}

// The tensor's bytes must hold every element its dims and strides reach.
void check_data(const GlobalTensor& g) {
  std::int64_t need = checked_mul(g.dims[0], g.elem_bytes, "tensor extent");
  for (std::size_t i = 1; i < g.dims.size(); ++i)
    need = checked_add(need, checked_mul(g.strides_bytes[i - 1], g.dims[i] - 1, "tensor extent"), "tensor extent");
  if (static_cast<std::int64_t>(g.bytes.size()) < need)
    box_error(fmt::format("tensor data has {} bytes; its dims and strides need {}", g.bytes.size(), need));
}

}  // namespace

TmaBoxGeometry tma_box_geometry(const Target& target, const GlobalTensor& g, const TmaTileLoad& l) {
  validate(target, g, l);
  TmaBoxGeometry geo;
  geo.smem_dst = l.smem_dst;
  geo.row_pitch = tma_box_row_pitch(g, l);
  geo.elem_bytes = g.elem_bytes;
  geo.swizzle = tma_swizzle_functor(l.swizzle);
  geo.rows = 1;
  for (std::size_t i = 1; i < l.box.size(); ++i) geo.rows *= l.box[i];  // <= 256^4, fits
  return geo;
}

std::int64_t tma_box_row_pitch(const GlobalTensor& g, const TmaTileLoad& l) {
  return std::max<std::int64_t>(l.box.empty() ? 0 : l.box[0] * g.elem_bytes, tma_swizzle_span_bytes(l.swizzle));
}

std::int64_t tma_box_smem_bytes(const GlobalTensor& g, const TmaTileLoad& l) {
  std::int64_t rows = 1;
  for (std::size_t i = 1; i < l.box.size(); ++i) rows *= l.box[i];
  return rows * tma_box_row_pitch(g, l);
}

std::vector<TmaElementPlacement> tma_tile_placement(const Target& target, const GlobalTensor& g,
                                                    const TmaTileLoad& l) {
  const TmaBoxGeometry geo = tma_box_geometry(target, g, l);
  check_data(g);
  int rank = static_cast<int>(g.dims.size());
  std::int64_t count = 1;
  for (auto b : l.box) count *= b;  // <= 256^5, fits
  std::vector<TmaElementPlacement> out;
  out.reserve(static_cast<std::size_t>(count));
  std::vector<std::int64_t> e(rank, 0);
  for (std::int64_t linear = 0; linear < count; ++linear) {
    TmaElementPlacement p;
    p.box_coord = e;
    for (int i = 0; i < rank; ++i) {
      std::int64_t c = l.coords[i] + e[i];
      if (c < 0 || c >= g.dims[i]) p.out_of_bounds = true;
    }
    const std::int64_t row = linear / l.box[0];  // box row: (e1, e2, ...) flattened
    p.smem_address = geo.address(row, e[0]);
    out.push_back(std::move(p));
    for (int i = 0; i < rank; ++i) {  // next box coordinate, dim 0 fastest
      if (++e[i] < l.box[i]) break;
      e[i] = 0;
    }
  }
  return out;
}

void tma_tile_load(const Target& target, const GlobalTensor& g, const TmaTileLoad& l, SharedMemory& smem) {
  auto placement = tma_tile_placement(target, g, l);
  smem.check_range(l.smem_dst, static_cast<std::uint64_t>(tma_box_smem_bytes(g, l)), "TMA tile load destination");
  int rank = static_cast<int>(g.dims.size());
  std::vector<std::uint8_t> elem(static_cast<std::size_t>(g.elem_bytes));
  for (const auto& p : placement) {
    std::fill(elem.begin(), elem.end(), 0);
    if (!p.out_of_bounds) {
      std::int64_t off = (l.coords[0] + p.box_coord[0]) * g.elem_bytes;
      for (int i = 1; i < rank; ++i) off += (l.coords[i] + p.box_coord[i]) * g.strides_bytes[i - 1];
      for (int b = 0; b < g.elem_bytes; ++b) elem[b] = g.bytes[static_cast<std::size_t>(off + b)];
    }
    smem.write(p.smem_address, elem);
  }
}

}  // namespace tirx::hw
