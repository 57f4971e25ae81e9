// tirx_verify/prove/equivalent.hpp — are two layouts the same map? (library entry point of the
// layout.equivalent check)
//
// Two layouts are equivalent on a shape when they have the same number of elements and every
// element (named by its row-major flat index over the shape) has the same SET of physical images
// under both: replica copies compared as sets, swizzles applied, and an axis one layout does not
// mention read as 0. Structure may differ freely:
//
//   A                              B                              equivalent?
//   S[64:1]                        S[(8,8):(8,1)]                 yes (same map, other iters)
//   S[(4,32):(32,1)] + 0@laneid    S[128:1]                       yes (a zero offset is absent)
//   S[(64,384):(1@TLane,1@TCol)]   S[(64,384):(1@TLane,1@TCol)]   no: element 0 has images
//     + R[2:64@TLane]                                             {(0,0),(64,0)} vs {(0,0)}
//
// Typical uses: canonicalize(L) == L, the default M=128 TMEM allocation == Layout D, a factory's
// output == the layout a descriptor denotes.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {

struct EquivalenceOptions {
  Engine engine = Engine::kAuto;  // kAuto: gf2 if both are power-of-two and carry-free, else enum/z3
  bool cross_check = false;       // run enum, gf2 and z3 and require agreement
  EngineLimits limits;
};

// The layout.equivalent result for (a, b): kPass, kFail with witness
//   {"element": {"logical": [...], "flat": f}, "a": [images], "b": [images], "first": true}
// (the first differing element when "first" is true; images as {"axis": value} objects over the
// axes either layout uses), or kUndecided naming the limit. `shape` (optional) names elements by
// logical coordinate; its product must equal both sizes (InputError "layout.well-formed").
CheckResult equivalent(const Layout& a, const Layout& b, std::optional<std::vector<std::int64_t>> shape = std::nullopt,
                       const EquivalenceOptions& options = {});

}  // namespace tirx::prove
