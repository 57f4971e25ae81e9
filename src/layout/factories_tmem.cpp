// TMEM accumulator layouts: tmem_datapath_layout, default_tmem_layout, tmem_mma_operand_layout
// (TVM python/tvm/tirx/layout.py).
//
// tcgen05.mma writes its M x N accumulator into TMEM in one of seven data-path organisations
// (PTX ISA 9.1 §9.7.16.10.5 "Data Path Layout Organization"). The layout maps a logical
// (row r, column c) to (TLane, TCol); TCol counts buffer elements.
//
//   letter  instruction            rows  layout                                        lane of (r, c)
//   A, D    M=256 ::2 / M=128 ::1   128   S[(128,N):(1@TLane,1@TCol)]                   r
//   B, E    M=128 ::2 dense / .ws    64   S[(64,2,N/2):(1@TLane,64@TLane,1@TCol)]       r + 64*(c / (N/2))
//   C, F    M=128 ::2 sparse / M=64  64   S[(4,16,N):(32@TLane,1@TLane,1@TCol)]         32*(r/16) + 16*sub_slab + r%16
//   G       M=32 .ws                 32   S[(32,4,N/4):(1@TLane,32@TLane,1@TCol)]       r + 32*(c / (N/4))
//
// Layout F/C use half of each warp's 32-lane sub-partition: sub_slab 0 -> lanes
// {0..15, 32..47, 64..79, 96..111}, sub_slab 1 (a +16@TLane offset) -> {16..31, 48..63, ...}.
#include <fmt/format.h>

#include "tirx_verify/layout/arch.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {

namespace {

using arch::kTmemHalfLanes;
using arch::kTmemHalfSlabLanes;
using arch::kTmemLanes;
using arch::kTmemLanesPerWarp;

constexpr Axis kTmemLane = AxisId::TLane;
constexpr Axis kTmemCol = AxisId::TCol;

[[noreturn]] void tmem_fail(const std::string& op, const std::string& msg) {
  throw InputError("layout.well-formed", op + ": " + msg);
}

// Logical rows of each data path (PTX ISA 9.1 §9.7.16.10.5: M per CTA).
std::int64_t datapath_rows(char letter) {
  switch (letter) {
    case 'A': case 'D': return kTmemLanes;
    case 'B': case 'C': case 'E': case 'F': return kTmemHalfLanes;
    case 'G': return kTmemLanesPerWarp;
    default: return 0;
  }
}

TileLayout lanes_by_cols(std::int64_t rows, std::int64_t cols) {
  return TileLayout({Iter{rows, 1, kTmemLane}, Iter{cols, 1, kTmemCol}});
}

}  // namespace

TileLayout tmem_datapath_layout(std::string_view datapath, std::int64_t rows, std::int64_t cols, int sub_slab) {
  const std::string op = "tmem_datapath_layout";
  const char letter = datapath.size() == 1 ? datapath[0] : '?';
  const std::int64_t expect_rows = datapath_rows(letter);
  if (expect_rows == 0) tmem_fail(op, fmt::format("unknown datapath '{}' (expected one of A B C D E F G)", datapath));
  if (rows != expect_rows)
    tmem_fail(op, fmt::format("datapath {} expects rows={}, got {}", letter, expect_rows, rows));
  if (sub_slab != 0 && sub_slab != 1) tmem_fail(op, fmt::format("sub_slab must be 0 or 1, got {}", sub_slab));
  if (cols < 1) tmem_fail(op, fmt::format("cols must be >= 1, got {}", cols));
  auto only_slab0 = [&](const char* why) {
    if (sub_slab != 0) tmem_fail(op, fmt::format("datapath {} {}; sub_slab must be 0", letter, why));
  };
  switch (letter) {
    case 'A':
    case 'D':
      only_slab0("already spans both 16-lane sub-slabs of every warp");
      return lanes_by_cols(rows, cols);
    case 'G':
      only_slab0("folds column quarters over whole 32-lane sub-partitions");
      if (cols % 4 != 0) tmem_fail(op, fmt::format("datapath G expects cols divisible by 4, got {}", cols));
      return TileLayout({Iter{rows, 1, kTmemLane}, Iter{4, kTmemLanesPerWarp, kTmemLane}, Iter{cols / 4, 1, kTmemCol}});
    case 'B':
    case 'E':
      only_slab0("folds column halves over the two 64-lane halves");
      if (cols % 2 != 0) tmem_fail(op, fmt::format("datapath {} expects even cols, got {}", letter, cols));
      return TileLayout({Iter{rows, 1, kTmemLane}, Iter{2, kTmemHalfLanes, kTmemLane}, Iter{cols / 2, 1, kTmemCol}});
    default: {  // 'C', 'F': 16 rows per warp sub-partition, half of its lanes.
      const std::int64_t warps = rows / kTmemHalfSlabLanes;
      TileLayout l({Iter{warps, kTmemLanesPerWarp, kTmemLane}, Iter{kTmemHalfSlabLanes, 1, kTmemLane}, Iter{cols, 1, kTmemCol}});
      if (sub_slab == 1) l.offset.set(kTmemLane, kTmemHalfSlabLanes);
      return l;
    }
  }
}

TileLayout default_tmem_layout(std::int64_t rows, std::int64_t cols) {
  if (rows < 1 || cols < 1)
    tmem_fail("default_tmem_layout", fmt::format("rows and cols must be >= 1, got ({}, {})", rows, cols));
  if (rows == kTmemLanes) return tmem_datapath_layout("D", rows, cols);
  return lanes_by_cols(rows, cols);
}

namespace {

// (instruction M, cta_group, ws, sparse) -> data-path letter (TVM _mma_datapath_letter).
char mma_datapath_letter(const TmemOperandArgs& a) {
  const std::string op = "tmem_mma_operand_layout";
  if (a.sparse)
    tmem_fail(op, fmt::format("sparse A (datapath C) is not supported (M={}, cta_group={})", a.M, a.cta_group));
  if (a.ws && !(a.cta_group == 1 && a.M == 64))
    tmem_fail(op, fmt::format("ws=True only valid for cta_group=1, M=64 (datapath E); got M={}, cta_group={}", a.M,
                         a.cta_group));
  if (a.cta_group == 1 && a.M == 128) return 'D';
  if (a.cta_group == 1 && a.M == 64) return a.ws ? 'E' : 'F';
  if (a.cta_group == 2 && a.M == 256) return 'A';
  if (a.cta_group == 2 && a.M == 128) return 'B';
  tmem_fail(op, fmt::format("no datapath for M={}, cta_group={}, ws={} (supported: cta_group 1 with M 64/128, "
                       "cta_group 2 with M 128/256)",
                       a.M, a.cta_group, a.ws));
}

}  // namespace

TileLayout tmem_mma_operand_layout(std::string_view operand, std::span<const std::int64_t> shape,
                                   const DType& /*dtype: TVM takes it but the layout is in elements*/,
                                   const TmemOperandArgs& args) {
  const std::string op = "tmem_mma_operand_layout";
  const char dp = mma_datapath_letter(args);
  const std::int64_t per_cta_rows = args.M / args.cta_group;
  for (std::int64_t e : shape)
    if (e < 1) tmem_fail(op, fmt::format("shape extents must be >= 1, got {}", e));
  auto check_rows = [&](std::int64_t r) {
    if (r != per_cta_rows)
      tmem_fail(op, fmt::format("M={}, cta_group={} expects {} rows per CTA, got {}", args.M, args.cta_group,
                           per_cta_rows, r));
  };
  const bool folded = dp == 'B' || dp == 'E';
  const std::size_t rank = shape.size();
  TileLayout l;
  if (operand == "D") {
    if (!args.group.empty()) {
      if (rank != 2) tmem_fail(op, fmt::format("group= needs a 2-D (m, N) shape, got rank {}", rank));
      const auto& g = args.group;
      if (g.size() != 3 || g[1] != 2) tmem_fail(op, "group must be (s,2,n)");
      if (g[0] < 1 || g[2] < 1) tmem_fail(op, "group extents must be >= 1");
      if (checked_mul(checked_mul(g[0], 2), g[2]) != shape[1])
        tmem_fail(op, fmt::format("group ({},2,{}) does not multiply to N={}", g[0], g[2], shape[1]));
      if (!folded) tmem_fail(op, fmt::format("group= is only for datapath B/E, got {}", dp));
      check_rows(shape[0]);
      l = TileLayout({Iter{shape[0], 1, kTmemLane}, Iter{g[0], g[2], kTmemCol}, Iter{2, kTmemHalfLanes, kTmemLane},
                      Iter{g[2], 1, kTmemCol}});
    } else if (rank == 2) {
      check_rows(shape[0]);
      l = tmem_datapath_layout(std::string_view(&dp, 1), shape[0], shape[1]);
    } else if (rank == 3 && shape[0] == 2 && folded) {  // batched C[2, m, N/2]
      check_rows(shape[1]);
      l = TileLayout({Iter{2, kTmemHalfLanes, kTmemLane}, Iter{shape[1], 1, kTmemLane}, Iter{shape[2], 1, kTmemCol}});
    } else if (rank == 3 && shape[1] == 2 && folded) {  // (m, 2, N/2)
      check_rows(shape[0]);
      l = TileLayout({Iter{shape[0], 1, kTmemLane}, Iter{2, kTmemHalfLanes, kTmemLane}, Iter{shape[2], 1, kTmemCol}});
    } else if (rank == 4 && shape[2] == 2 && folded) {  // (m, s, 2, n)
      check_rows(shape[0]);
      l = TileLayout({Iter{shape[0], 1, kTmemLane}, Iter{shape[1], shape[3], kTmemCol}, Iter{2, kTmemHalfLanes, kTmemLane},
                      Iter{shape[3], 1, kTmemCol}});
    } else {
      tmem_fail(op, fmt::format("unsupported accumulator shape of rank {} for datapath {}", rank, dp));
    }
  } else if (operand == "A") {
    if (dp == 'A' || dp == 'D') {
      if (rank != 2) tmem_fail(op, fmt::format("datapath {} needs a 2-D (m, K) A operand, got rank {}", dp, rank));
      check_rows(shape[0]);
      l = tmem_datapath_layout(std::string_view(&dp, 1), shape[0], shape[1]);
    } else if (dp == 'B' && rank == 2) {  // replicated to both 64-lane halves
      check_rows(shape[0]);
      l = lanes_by_cols(shape[0], shape[1]);
      l.replica.push_back(Iter{2, kTmemHalfLanes, kTmemLane});
    } else if (folded && rank == 3 && shape[0] == 2) {  // bank-batched (2, m, K)
      check_rows(shape[1]);
      l = TileLayout({Iter{2, kTmemHalfLanes, kTmemLane}, Iter{shape[1], 1, kTmemLane}, Iter{shape[2], 1, kTmemCol}});
    } else if (folded) {
      tmem_fail(op, fmt::format("datapath {} needs the A operand as {}(2, m, K), got rank {}", dp,
                           dp == 'B' ? "(m, K) or " : "", rank));
    } else {  // F: lanes 0..m-1 as they are
      if (rank != 2) tmem_fail(op, fmt::format("datapath F needs a 2-D (m, K) A operand, got rank {}", rank));
      check_rows(shape[0]);
      l = lanes_by_cols(shape[0], shape[1]);
    }
  } else {
    tmem_fail(op, fmt::format("operand must be 'A' or 'D', got '{}'", operand));
  }
  return canonicalize(l);
}

}  // namespace tirx
