// tirx_verify/layout/layout.hpp — Layout: either a TileLayout or a ComposeLayout.
//
// The value type the rest of tirx-verify passes around. Both alternatives share the queries
// and the three apply() forms; `tile()` gives the affine part (for a ComposeLayout, the
// pre-swizzle tile) and `swizzle()` the XOR swizzle if there is one.
#pragma once

#include <optional>
#include <variant>

#include "tirx_verify/layout/compose_layout.hpp"
#include "tirx_verify/layout/tile_layout.hpp"

namespace tirx {

class Layout {
 public:
  Layout() = default;
  Layout(TileLayout t) : v_(std::move(t)) {}       // NOLINT: implicit on purpose
  Layout(ComposeLayout c) : v_(std::move(c)) {}    // NOLINT

  bool is_compose() const { return std::holds_alternative<ComposeLayout>(v_); }
  const TileLayout& tile() const;
  TileLayout& tile();
  const SwizzleSpec* swizzle() const;  // nullptr for a TileLayout
  const ComposeLayout& as_compose() const { return std::get<ComposeLayout>(v_); }

  void validate() const;
  std::int64_t size() const { return tile().size(); }
  std::int64_t span() const { return tile().span(); }

  Coord apply(std::int64_t flat) const;
  Coord apply_iters(std::span<const std::int64_t> digits) const;
  Coord apply(std::span<const std::int64_t> coord, std::span<const std::int64_t> shape) const;
  // Every physical image of the element with these shard digits (replicas included; for a
  // ComposeLayout the swizzle is applied to each image's m).
  std::vector<Coord> images(std::span<const std::int64_t> digits) const;

  friend bool operator==(const Layout&, const Layout&) = default;

 private:
  std::variant<TileLayout, ComposeLayout> v_;
};

}  // namespace tirx
