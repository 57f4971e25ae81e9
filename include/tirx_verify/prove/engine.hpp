// tirx_verify/prove/engine.hpp — what a proof engine is asked and what it answers.
//
// Every engine (enum_engine.hpp, gf2.hpp, z3_engine.hpp) names a logical element the same way
// the solver encoding does (DESIGN.md, "Proof engines"): by its shard digits c_0..c_{n-1}
// (outermost first, c_k in [0, extent_k)) plus one replica digit per replica iter. The digit
// tuple and the flat index are in one-to-one correspondence (mixed radix, last digit fastest):
//
//   S[(4,8):(1@TLane,4@TCol)] + R[2:64@TLane]
//   digits (c0,c1) | replica (r0) | flat = 8*c0 + c1 | replica index | (TLane, TCol)
//   (0, 0)         | (0)          | 0                | 0             | (0, 0)
//   (1, 2)         | (1)          | 10               | 1             | (65, 8)
//
// An engine answers one of four things:
//   kPass          the property holds for every element (a proof, not a sample)
//   kFail          it does not, and here is the witness (elements in digit form)
//   kUndecided     a limit was hit (the message names it: points, cells, timeout, memory)
//   kNotApplicable this engine cannot decide this input (the message says why, e.g. gf2 on a
//                  non-power-of-two extent); the check asks another engine
// Witnesses are re-checked by direct evaluation (Layout::images) in the check before they are
// reported, so an engine bug can never turn into a wrong "fail".
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tirx_verify/layout/layout.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {

// One (element, replica copy) point of a layout's domain.
struct Element {
  std::vector<std::int64_t> digits;   // one per shard iter, outermost first
  std::vector<std::int64_t> replica;  // one per replica iter (empty when there are none)
  friend bool operator==(const Element&, const Element&) = default;
};

// Flat logical index of the element (mixed radix over the shard extents).
std::int64_t flat_index(const TileLayout& l, const Element& e);
// Index of the replica copy (mixed radix over the replica extents, last fastest), as
// TileLayout::replica_images orders the copies.
std::int64_t replica_index(const TileLayout& l, const Element& e);
// The element with flat index `flat` (0 <= flat < size) and replica copy `replica`.
Element element_at(const TileLayout& l, std::int64_t flat, std::int64_t replica = 0);
// The physical coordinate of that copy, after the swizzle of a ComposeLayout.
Coord image_of(const Layout& l, const Element& e);

// layout.injective: two distinct points with the same storage cell.
struct InjectivityAnswer {
  Status status = Status::kUndecided;
  std::string message;               // limit or reason for kUndecided / kNotApplicable
  std::optional<Element> a, b;       // kFail: a precedes b in sweep order when the engine can say
};

// layout.bounds: one coordinate that must stay inside [lo, hi). `swizzled`: the value is the
// swizzled address of a ComposeLayout (only for axis m); otherwise the affine tile value.
struct BoundTarget {
  Axis axis;
  bool swizzled = false;
  std::int64_t lo = 0;
  std::optional<std::int64_t> hi;  // exclusive; nullopt = unbounded above
  std::string why;                 // where the range comes from (for messages)
};

struct BoundsAnswer {
  Status status = Status::kUndecided;
  std::string message;
  std::size_t target = 0;            // kFail: index of the violated target
  std::optional<Element> element;    // kFail: an element (copy) outside the range
  std::int64_t value = 0;            // kFail: its value on the target
};

// layout.equivalent: an element whose image sets differ. The element is named by its flat index
// (the two layouts split it over different shard iters).
struct EquivalenceAnswer {
  Status status = Status::kUndecided;
  std::string message;
  std::optional<std::int64_t> flat;  // kFail: the first differing element when `first`
  bool first = true;                 // false when the engine could not prove no earlier one exists
};

// The value of `c` on axis `a` with absent axes read as 0 (how equivalence compares images of
// layouts that mention different axes: S[8:1@laneid] + 0@m equals S[8:1@laneid]).
inline std::int64_t axis_value(const Coord& c, Axis a) { return c.has(a) ? c.get(a) : 0; }

// Sorted, de-duplicated image set of the element `flat` of `l` (every replica copy, swizzled),
// compared on `axes` only (absent axes as 0). Used by every equivalence engine's re-check.
std::vector<std::vector<std::int64_t>> image_set(const Layout& l, std::int64_t flat, std::span<const Axis> axes);

// Axes used by either layout, registry order.
std::vector<Axis> union_axes(const Layout& a, const Layout& b);

}  // namespace tirx::prove
