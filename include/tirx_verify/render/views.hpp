// tirx_verify/render/views.hpp — the four pictures of a layout, and a finding drawn where it is.
//
// Each view enumerates every (element, replica) point of the layout (layout/sweep.hpp; the
// swizzle applied to m) and places it in a Grid (grid.hpp):
//
//   view      rows x columns (full resolution)          a cell holds          label
//   logical   prod(shape[:-1]) x shape[-1]               one logical element   its physical image(s)
//   tmem      TMEM lanes x TCol (elements)               one TMEM cell         the logical element(s)
//   smem      128-byte lines x 32 banks (4-byte words)   one 4-byte word       the logical element(s)
//   threads   thread x register slot (m, elements)       one register slot     the logical element(s)
//
// (8,16) example, logical view, the README's first apply layout (tile_layout.hpp):
//   cell (0,0) "w5 l0 m0" and, dashed, its replica "w9 l0 m0"; cell (0,8) "w6 l0 m0" / "w10 l0 m0".
//
// Marked on the grid: replica copies (kReplica), two different elements at one storage slot
// (kCollision: the same TMEM cell, byte address or (thread, register slot)), cells outside the
// storage (kOutOfBounds: lane >= the target's TMEM lanes, TCol past the allocation or the
// machine, a thread or register past the machine's), the elements --mark names (kMarked).
// Bands: the warps' 32-lane TMEM sub-partitions (PTX ISA 9.1 §9.7.16.8.1) and their 16-lane
// half-slabs (the .16x*b data paths, §9.7.16.10.5; hw/tcgen05_dispatch.hpp), the 32-bit column
// boundaries of packed TMEM elements (hw/tmem.hpp), the swizzle period and the 16-byte chunks
// of a 128-byte line, a warp's threads, the 32-bit registers of packed elements.
//
// Units: TCol and m count buffer elements (as the layout does); the smem view converts m to bytes
// with the dtype (element address * bits / 8, swizzled first); TMEM columns of 32 bits hold
// 32 / bits elements (bits < 32). Colours (palette.hpp) stand for the owner (ColorBy).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/render/grid.hpp"

namespace tirx::render {

enum class View { kAuto, kLogical, kTmem, kSmem, kThreads };
// "auto", "logical", "tmem", "smem", "threads"; throws InputError("cli.usage") otherwise.
View parse_view(std::string_view s);
std::string_view view_name(View v);
// The view kAuto picks for a buffer: tmem for scope tmem; smem for shared with a known dtype;
// threads for scope local with thread axes and m; logical otherwise.
View default_view(const prove::CheckInput& in);

// What the colours stand for:
//   thread      the CTA-linear thread of the image: tx + laneid + warp_size*(warpid + wid_in_wg)
//               + tid_in_wg + warpgroup_size*wgid (the axes the layout uses)
//   warp        that thread / warp_size
//   lane-block  TMEM lane / 32 (the warp sub-partition)
//   chunk       the 16-byte chunk of a 128-byte line the image's byte address is in (banks 4k..4k+3)
//   row         the logical row (flat index / last dimension)
//   outer       the first logical coordinate (a stage or a tile of a 3-D shape)
//   vector      the logical 16-byte vector of the element in its row ((column * bits) / 128)
//   none        no colour
// kAuto: logical view: thread if the layout has a thread axis, else lane-block for tmem, chunk
// for shared memory with a dtype, row otherwise; tmem and threads views: outer for a shape of
// rank 3 or more, else row; smem view: vector.
enum class ColorBy { kAuto, kThread, kWarp, kLaneBlock, kChunk, kRow, kOuter, kVector, kNone };
ColorBy parse_color_by(std::string_view s);  // the names above; throws InputError("cli.usage")
std::string_view color_by_name(ColorBy c);

// A logical coordinate pattern: one value per dimension of the shape, nullopt = any ("*,0").
using MarkPattern = std::vector<std::optional<std::int64_t>>;
// "*,0" -> {nullopt, 0}; throws InputError("cli.usage") naming `option` on bad text.
MarkPattern parse_mark(const std::string& text, const std::string& option);

struct RenderOptions {
  View view = View::kAuto;
  ColorBy color_by = ColorBy::kAuto;
  // Drawn cells per side; a larger grid is aggregated into blocks (grid.hpp).
  std::int64_t max_rows = 128, max_cols = 128;
  // Most (element, replica) points one picture enumerates; more is InputError("render.size")
  // naming the count (the enumeration costs ~10 ns a point: 2^24 points ~0.2 s).
  std::int64_t max_points = std::int64_t{1} << 24;
  std::vector<MarkPattern> marks;  // logical elements to mark (kMarked)
};

// Most points RenderOptions::max_points may be set to.
inline constexpr std::int64_t kMaxRenderPoints = std::int64_t{1} << 26;

// The picture of `in.layout` in the chosen view. Uses in.shape (default: the shard extents
// split as (prod of all but the last, last)), in.elem_bits (smem and threads views, TMEM
// packing), in.scope, in.alloc_cols and in.machine (lanes, columns, warp size). Polls
// in.limits.budget's deadline. Throws InputError: "cli.usage" for a view the layout cannot be
// drawn in (the tmem view without TLane/TCol, smem without --dtype or with a thread axis,
// threads without a thread axis and m, a --mark of the wrong rank), "render.size" past
// max_points; BudgetExceeded when the budget runs out.
Grid build_view(const prove::CheckInput& in, const RenderOptions& opt);

// The picture of one failed check result `r` of `in`: the view its witness is best seen in,
// with the witness marked (kFinding) and the message as the first note.
//   layout.injective   tmem/smem/threads/logical view (by scope): both elements and their cell
//   layout.bounds      same: the element outside its range, the range's end shaded
//   smem.bank-conflicts  the worst instruction's 32 thread addresses on the 128-byte lines x 32
//                      banks grid, the colliding threads marked and the bank column shaded
//   other checks       the scope's default view, the witness's "element" (a point object or a
//                      logical coordinate) and a kernel check's "writer"/"reader" element marked
// Throws as build_view.
Grid build_finding(const prove::CheckInput& in, const prove::CheckResult& r, const RenderOptions& opt);

}  // namespace tirx::render
