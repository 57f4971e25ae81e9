// Block-scaled MMA scale-factor layouts: sf_tmem_layout and sf_smem_layout
// (TVM python/tvm/tirx/operator/tile_primitive/cuda/gemm_async/tcgen05.py).
//
// Scale factors are 8-bit; four share one 32-bit TMEM cell (TCol counts bytes here, so one
// 32-bit column = 4 TCol units). PTX ISA 9.1 §9.7.16.10.7: the scale factors of row x sit at
// lane x%32 of every 32-lane sub-partition (hence the replica R[4:32@TLane]), 32-bit column
// x/32, byte = the scale index s within the MMA.
//
//   sf_tmem_layout(128, 16, 4) = S[(4,32,4,4):(4@TCol,1@TLane,16@TCol,1@TCol)] + R[4:32@TLane]
//     element (r, k): TLane r%32 (+32j), TCol 4*(r/32) + 16*(k/4) + k%4
//   sf_smem_layout(128, 16, 4) = S[(4,32,4,4):(4,16,512,1)]   (bytes)
//     element (r, k) with r = 32i + lane: byte 16*lane + 4*i + 512*(k/4) + k%4
// The shared-memory form is what one tcgen05.cp.32x128b.warpx4 copies into the TMEM form.
#include <fmt/format.h>

#include "tirx_verify/layout/arch.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {

namespace {

using arch::kScaleFactorsPerCell;  // 4
using arch::kTmemLanesPerWarp;      // 32

constexpr Axis kLane = AxisId::TLane;
constexpr Axis kCol = AxisId::TCol;

[[noreturn]] void sf_fail(const char* op, const std::string& msg) {
  throw InputError("layout.well-formed", fmt::format("{}: {}", op, msg));
}

void check_common(const char* op, std::int64_t rows, std::int64_t sf_k, std::int64_t sf_per_mma,
                  std::int64_t sf_reuse, std::optional<std::int64_t> pipe_depth) {
  if (rows < 1 || sf_k < 1 || sf_per_mma < 1 || sf_reuse < 1)
    sf_fail(op, fmt::format("rows, SF_K, sf_per_mma and sf_reuse must be >= 1, got ({}, {}, {}, {})", rows, sf_k,
                         sf_per_mma, sf_reuse));
  if (pipe_depth && *pipe_depth < 1) sf_fail(op, fmt::format("pipe_depth must be >= 1, got {}", *pipe_depth));
}

}  // namespace

TileLayout sf_tmem_layout(std::int64_t rows, std::int64_t sf_k, std::int64_t sf_per_mma, std::int64_t sf_reuse,
                          std::optional<std::int64_t> pipe_depth) {
  const char* op = "sf_tmem_layout";
  check_common(op, rows, sf_k, sf_per_mma, sf_reuse, pipe_depth);
  if (sf_k % sf_per_mma != 0) sf_fail(op, fmt::format("SF_K={} must be a multiple of sf_per_mma={}", sf_k, sf_per_mma));
  // TVM floor-divides rows by 32 and silently drops a remainder; we reject it.
  if (rows % kTmemLanesPerWarp != 0)
    sf_fail(op, fmt::format("rows={} must be a multiple of {}", rows, kTmemLanesPerWarp));
  const std::int64_t k_steps = sf_k / sf_per_mma;     // MMA K steps with distinct scale factors
  const std::int64_t m_chunks = rows / kTmemLanesPerWarp;
  const std::int64_t cell = kScaleFactorsPerCell;
  const std::int64_t stage_cols = checked_mul(m_chunks, cell, "sf_tmem_layout columns");

  // One MMA's scale factors for 32 rows, copied to all four sub-partitions.
  const TileLayout atom({Iter{kTmemLanesPerWarp, 1, kLane}, Iter{sf_per_mma, 1, kCol}},
                        {Iter{arch::kTmemLanes / kTmemLanesPerWarp, kTmemLanesPerWarp, kLane}});
  // Where the atom of (row chunk, K step) goes: row chunks one cell apart; K steps packed into
  // the free bytes of a cell when sf_per_mma < 4, else one row-chunk stage apart.
  TileLayout outer;
  if (k_steps == 1) {
    outer = TileLayout({Iter{m_chunks, cell, kCol}});
  } else {
    std::int64_t pack = cell / sf_per_mma;
    while (pack > 1 && k_steps % pack != 0) pack /= 2;
    if (pack > 1 && k_steps / pack == 1)
      outer = TileLayout({Iter{m_chunks, cell, kCol}, Iter{pack, sf_per_mma, kCol}});
    else if (pack > 1)
      outer = TileLayout({Iter{m_chunks, cell, kCol}, Iter{k_steps / pack, stage_cols, kCol},
                          Iter{pack, sf_per_mma, kCol}});
    else
      outer = TileLayout({Iter{m_chunks, cell, kCol}, Iter{k_steps, stage_cols, kCol}});
  }
  const std::int64_t left_shape[] = {m_chunks, k_steps};
  const std::int64_t right_shape[] = {kTmemLanesPerWarp, sf_per_mma};
  TileLayout base = direct_sum(Layout(atom), outer, left_shape, right_shape).tile();
  if (sf_reuse == 1 && !pipe_depth) return base;
  // Extra iters take the axis of the first shard iter (TCol, except for a single row chunk,
  // where the canonical base starts on TLane: TVM's edge case, kept).
  const Axis first = base.shard.front().axis;
  if (sf_reuse > 1) base.shard.push_back(Iter{sf_reuse, 0, first, /*broadcast=*/true});  // declared
  if (pipe_depth) base.shard.insert(base.shard.begin(), Iter{*pipe_depth, stage_cols, first});
  return base;
}

TileLayout sf_smem_layout(std::int64_t rows, std::int64_t sf_k, std::int64_t sf_per_mma, std::int64_t sf_reuse,
                          std::optional<std::int64_t> pipe_depth) {
  const char* op = "sf_smem_layout";
  check_common(op, rows, sf_k, sf_per_mma, sf_reuse, pipe_depth);
  const std::int64_t super_rows = arch::kScaleFactorSuperRows;  // 128 rows per tcgen05.cp
  const std::int64_t cell = kScaleFactorsPerCell;
  if (rows % super_rows != 0) sf_fail(op, fmt::format("rows={} must be a multiple of {}", rows, super_rows));
  if (cell % sf_per_mma != 0) sf_fail(op, fmt::format("sf_per_mma={} must divide {}", sf_per_mma, cell));
  if (sf_k % cell != 0) sf_fail(op, fmt::format("SF_K={} must be a multiple of {}", sf_k, cell));
  // Bytes: one lane row of the copy is 16 bytes = 4 row chunks x 4 scale bytes; 32 lane rows
  // make a 512-byte super block; K super blocks follow each other.
  const std::int64_t chunks = super_rows / kTmemLanesPerWarp;  // 4
  const std::int64_t lane_bytes = cell * chunks;               // 16
  const std::int64_t super_bytes = lane_bytes * kTmemLanesPerWarp;  // 512
  const std::int64_t k_outer = sf_k / cell;
  const std::int64_t in_cell = cell / sf_per_mma;
  const std::int64_t k_bytes = checked_mul(super_bytes, k_outer, "sf_smem_layout size");
  const std::int64_t stage_bytes = checked_mul(k_bytes, rows / super_rows, "sf_smem_layout size");
  std::vector<Iter> raw = {
      {rows / super_rows, k_bytes, AxisId::m}, {chunks, cell, AxisId::m},   {kTmemLanesPerWarp, lane_bytes, AxisId::m},
      {k_outer, super_bytes, AxisId::m},       {sf_per_mma, in_cell, AxisId::m}, {in_cell, 1, AxisId::m},
  };
  if (sf_reuse > 1) raw.push_back(Iter{sf_reuse, 0, AxisId::m, /*broadcast=*/true});  // declared
  TileLayout l;
  if (pipe_depth) l.shard.push_back(Iter{*pipe_depth, stage_bytes, AxisId::m});
  for (const Iter& it : raw)
    if (it.extent != 1) l.shard.push_back(it);
  return l;
}

}  // namespace tirx
