// src/layout/ops_util.hpp — small helpers shared by the layout-algebra files (not public API).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::detail {

// Throws InputError("layout.well-formed") naming `op` unless every extent is >= 1; returns the
// product (checked).
inline std::int64_t checked_shape_size(std::span<const std::int64_t> shape, std::string_view op,
                                       std::string_view which = "shape") {
  std::int64_t n = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 1)
      throw InputError("layout.well-formed",
                       fmt::format("{}: {} extent {} at dimension {} must be >= 1", op, which, shape[d], d));
    n = checked_mul(n, shape[d], "shape size");
  }
  return n;
}

// S[n:1] for the product n of `shape`: what a bare swizzle's tile means over that shape.
inline TileLayout identity_tile(std::span<const std::int64_t> shape, std::string_view op) {
  return TileLayout({Iter{checked_shape_size(shape, op), 1, Axis(AxisId::m)}});
}

// The tile a ComposeLayout's operation works on: a bare swizzle (one stride-1 iter on m, no
// replica or offset) is replaced by the identity over `shape`, as TVM does.
inline TileLayout compose_base(const ComposeLayout& c, std::span<const std::int64_t> shape, std::string_view op) {
  return c.is_swizzle_only() ? identity_tile(shape, op) : c.tile;
}

}  // namespace tirx::detail
