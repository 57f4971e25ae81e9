// Shared vocabulary of the proof engines (engine.hpp): elements in digit form and their images.
#include "tirx_verify/prove/engine.hpp"

#include <algorithm>

#include "tirx_verify/layout/checked.hpp"

namespace tirx::prove {

std::int64_t flat_index(const TileLayout& l, const Element& e) {
  std::int64_t f = 0;
  for (std::size_t k = 0; k < l.shard.size(); ++k)
    f = checked_add(checked_mul(f, l.shard[k].extent, "flat index"), e.digits.at(k), "flat index");
  return f;
}

std::int64_t replica_index(const TileLayout& l, const Element& e) {
  std::int64_t r = 0;
  for (std::size_t k = 0; k < l.replica.size(); ++k)
    r = checked_add(checked_mul(r, l.replica[k].extent, "replica index"), e.replica.at(k), "replica index");
  return r;
}

Element element_at(const TileLayout& l, std::int64_t flat, std::int64_t replica) {
  Element e;
  e.digits.assign(l.shard.size(), 0);
  for (std::size_t k = l.shard.size(); k-- > 0;) {
    e.digits[k] = k == 0 ? flat : flat % l.shard[k].extent;
    flat /= l.shard[k].extent;
  }
  e.replica.assign(l.replica.size(), 0);
  for (std::size_t k = l.replica.size(); k-- > 0;) {
    e.replica[k] = replica % l.replica[k].extent;
    replica /= l.replica[k].extent;
  }
  return e;
}

Coord image_of(const Layout& l, const Element& e) {
  const TileLayout& t = l.tile();
  Coord c = t.apply_iters(e.digits);
  for (std::size_t k = 0; k < t.replica.size(); ++k)
    c.add(t.replica[k].axis, checked_mul(e.replica.at(k), t.replica[k].stride, "replica image"));
  if (const SwizzleSpec* s = l.swizzle())
    if (c.has(AxisId::m)) c.set(AxisId::m, s->apply(c.get(AxisId::m)));
  return c;
}

std::vector<std::vector<std::int64_t>> image_set(const Layout& l, std::int64_t flat, std::span<const Axis> axes) {
  const std::vector<std::int64_t> digits = l.tile().split(flat);
  std::vector<std::vector<std::int64_t>> out;
  for (const Coord& c : l.images(digits)) {
    std::vector<std::int64_t> row;
    for (Axis a : axes) row.push_back(axis_value(c, a));
    out.push_back(std::move(row));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Axis> union_axes(const Layout& a, const Layout& b) {
  std::vector<Axis> out;
  for (const auto& info : axis_registry())
    if (a.tile().uses_axis(info.id) || b.tile().uses_axis(info.id)) out.push_back(info.id);
  return out;
}

}  // namespace tirx::prove
