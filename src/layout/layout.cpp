#include "tirx_verify/layout/layout.hpp"

namespace tirx {

const TileLayout& Layout::tile() const {
  if (const auto* c = std::get_if<ComposeLayout>(&v_)) return c->tile;
  return std::get<TileLayout>(v_);
}

TileLayout& Layout::tile() {
  if (auto* c = std::get_if<ComposeLayout>(&v_)) return c->tile;
  return std::get<TileLayout>(v_);
}

const SwizzleSpec* Layout::swizzle() const {
  if (const auto* c = std::get_if<ComposeLayout>(&v_)) return &c->swizzle;
  return nullptr;
}

void Layout::validate() const {
  if (const auto* c = std::get_if<ComposeLayout>(&v_))
    c->validate();
  else
    std::get<TileLayout>(v_).validate();
}

Coord Layout::apply(std::int64_t flat) const {
  return std::visit([&](const auto& l) { return l.apply(flat); }, v_);
}
Coord Layout::apply_iters(std::span<const std::int64_t> digits) const {
  return std::visit([&](const auto& l) { return l.apply_iters(digits); }, v_);
}
Coord Layout::apply(std::span<const std::int64_t> coord, std::span<const std::int64_t> shape) const {
  return std::visit([&](const auto& l) { return l.apply(coord, shape); }, v_);
}

std::vector<Coord> Layout::images(std::span<const std::int64_t> digits) const {
  std::vector<Coord> out = tile().replica_images(digits);
  if (const SwizzleSpec* s = swizzle())
    for (Coord& c : out)
      if (c.has(AxisId::m)) c.set(AxisId::m, s->apply(c.get(AxisId::m)));
  return out;
}

}  // namespace tirx
