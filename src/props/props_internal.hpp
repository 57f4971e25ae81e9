// Internal: helpers the property files share, and one factory per property file. Not installed.
//
// The reference evaluator here is deliberately naive and written from the spec formulas
// (spec tirx_semantics (a), (d), (f)), not from the engine code it checks: digits by repeated
// division, each axis a plain sum, the XOR swizzle with floor division and bit masks.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "tirx_verify/layout/layout.hpp"
#include "tirx_verify/props/generators.hpp"
#include "tirx_verify/props/properties.hpp"

namespace tirx::props {

// One value per registered axis (absent axes read 0, as TVM's result.get(axis, 0)).
using Point = std::array<std::int64_t, kNumAxes>;

Point point_of(const Coord& c);
std::string show_point(const Point& p);  // "{laneid: 3, m: 7}" (non-zero axes; "{}" if none)

// Mixed-radix digits of flat index x over the shard extents, last digit fastest; the outermost
// digit keeps the undivided remainder (x may exceed the size).
std::vector<std::int64_t> ref_digits(const TileLayout& l, std::int64_t x);
// Replica digits of replica ordinal r (last replica iter fastest).
std::vector<std::int64_t> ref_replica_digits(const TileLayout& l, std::int64_t r);
// The swizzle formula of spec (f) on an element address m (floor division for negative m).
std::int64_t ref_swizzle(const SwizzleSpec& s, std::int64_t m);
// D(x) + O + r: the image of shard digits `d` and replica digits `rd`, swizzled if compose.
Point ref_image(const Layout& l, const std::vector<std::int64_t>& d, const std::vector<std::int64_t>& rd);
// Every image of element x (all replica combinations), sorted.
std::vector<Point> ref_images(const Layout& l, std::int64_t x);

// Row-major coordinates of flat index x in `shape`.
std::vector<std::int64_t> rm_coord(std::int64_t x, const std::vector<std::int64_t>& shape);

// Text helpers for failure messages.
std::string show_ints(const std::vector<std::int64_t>& v, const char* sep = ",");  // "3,4"
std::string layout_text(const Layout& l);  // builder notation
// Fails the current case: "<what>\nreproduce: <command>".
[[noreturn]] void fail(const std::string& what, const std::string& reproduce);

// One factory per property (defined in prop_<name>.cpp).
Property notation_roundtrip_property();
Property canonicalize_replicas_property();
Property apply_forms_property();
Property tcgen05_atom_property();
Property swizzle_bijection_property();
Property tma_compose_property();
Property prove_injective_property();
Property prove_bounds_property();
Property prove_equivalent_property();
Property smem_wavefronts_property();
Property smem_bank_engines_property();

}  // namespace tirx::props
