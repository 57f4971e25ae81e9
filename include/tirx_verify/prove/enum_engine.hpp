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
// Stride-0 shard iters are an explicit broadcast for injectivity (TVM's broadcast()/sf_reuse):
// elements that differ only in those digits share cells by design, so those digits stay at 0.
#pragma once

#include <span>

#include "tirx_verify/prove/engine.hpp"

namespace tirx::prove::enumerate {

// Injectivity of `l` on the storage axes of `scope` (storage_axes in checks_internal.hpp).
// The witness is the first collision in sweep order: b is the first point whose cell an
// earlier point a already holds.
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
