// tirx_verify/prove/enum_engine.hpp — the enumeration engine: visit every point, decide exactly.
//
// Built on Sweep (layout/sweep.hpp): an odometer over the shard digits (last fastest) and, per
// element, its replica copies, keeping one running int64 per axis — no division in the loop.
// Cost is linear in the number of points; the answer is exact for any concrete layout
// (non-power-of-two extents, negative strides, carries, swizzles alike).
//
//   property     how                                                        limit
//   injective    owner array over the dense cell box (first owner wins),    max_enumeration_points,
//                hash map when the box is too large                         max_dense_cells
//   bounds       closed form per affine axis (interval, see below); a sweep  max_enumeration_points
//                for the swizzled address
//   equivalent   two odometers in lock step over the flat index, image sets  max_enumeration_points
//                compared element by element
//
// Interval arithmetic is the closed form of a sweep over an affine axis: the digits vary
// independently, so an axis sum c_0*s_0 + ... + O reaches its minimum and maximum at a corner
// (digit e-1 where the stride is positive, 0 where negative). `interval_bounds` decides every
// non-swizzled target that way in O(iters), with the violating corner as witness.
//
// Declared broadcast shard iters (Iter::is_declared_broadcast: TVM's broadcast(), sf_reuse)
// are a read-only view for injectivity: elements that differ only in those digits share cells
// by design, so those digits stay at 0. Every other stride-0 iter is swept like any iter (and
// collides at once).
//
// Budget (EngineLimits::budget): every sweep polls the deadline every 2^16 points (a Pacer) and
// charges its owner array / hash map before allocating it; running out throws BudgetExceeded.
#pragma once

#include <span>

#include "tirx_verify/prove/engine.hpp"

namespace tirx::prove::enumerate {

// What the injectivity sweep of a layout will cost, computed in O(iters) without running it:
// the points, the bounding box of the storage cells, which structure holds the owners, and the
// estimated bytes and seconds (kEnum*NsPerPoint / BytesPer* of check.hpp). Auto mode uses it to
// skip a sweep that cannot fit the budget.
struct EnumCost {
  struct BoxAxis {
    int slot = 0;               // Sweep slot of the storage axis
    std::int64_t lo = 0;        // box: [lo, lo + extent) (valid when box_fits_int64)
    std::int64_t extent = 0;
  };
  std::int64_t points = 0;
  std::vector<BoxAxis> axes;    // one per storage axis, storage_axes order
  bool box_fits_int64 = false;  // the box has fewer than 2^63 cells and int64 bounds
  bool dense = false;           // owner array over the box (else the hashed owner map)
  std::int64_t cells = 0;       // cells in the box (INT64_MAX when it does not fit)
  std::int64_t bytes = 0;       // estimated peak memory of the owner structure
  double seconds = 0;           // estimated sweep time
};
EnumCost injective_cost(const Layout& l, Scope scope, const EngineLimits& limits);

// Injectivity of `l` on the storage axes of `scope` (storage_axes in checks_internal.hpp).
// The witness is the first collision in sweep order: b is the first point whose cell an
// earlier point a already holds. Throws BudgetExceeded when the budget runs out.
InjectivityAnswer injective(const Layout& l, Scope scope, const EngineLimits& limits);

// Every target by sweeping all points (swizzled or not). The witness is the first point in
// sweep order outside a target's range, targets checked in order.
BoundsAnswer bounds(const Layout& l, std::span<const BoundTarget> targets, const EngineLimits& limits);

// The non-swizzled targets by interval arithmetic (swizzled ones are skipped: kNotApplicable
// when there is one). The witness is the corner reaching the extreme value.
BoundsAnswer interval_bounds(const Layout& l, std::span<const BoundTarget> targets);

// Equal image sets for every flat index (sizes must be equal: the caller checks). The witness
// is the first differing flat index.
EquivalenceAnswer equivalent(const Layout& a, const Layout& b, const EngineLimits& limits);

}  // namespace tirx::prove::enumerate
