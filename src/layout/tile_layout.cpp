#include "tirx_verify/layout/tile_layout.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/apply_to_shape.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {

// ---------------- OffsetMap ----------------

void OffsetMap::add(Axis a, std::int64_t v) {
  for (auto& e : entries_)
    if (e.axis == a) {
      e.value = checked_add(e.value, v, "offset");
      return;
    }
  set(a, v);
}

void OffsetMap::set(Axis a, std::int64_t v) {
  for (auto& e : entries_)
    if (e.axis == a) {
      e.value = v;
      return;
    }
  auto it = std::lower_bound(entries_.begin(), entries_.end(), a,
                             [](const Entry& e, Axis x) { return e.axis < x; });
  entries_.insert(it, Entry{a, v});
}

void OffsetMap::erase(Axis a) {
  std::erase_if(entries_, [a](const Entry& e) { return e.axis == a; });
}

std::int64_t OffsetMap::get(Axis a) const {
  for (const auto& e : entries_)
    if (e.axis == a) return e.value;
  return 0;
}

bool OffsetMap::has(Axis a) const {
  return std::any_of(entries_.begin(), entries_.end(), [a](const Entry& e) { return e.axis == a; });
}

// ---------------- TileLayout ----------------

TileLayout TileLayout::row_major(std::span<const std::int64_t> shape) {
  TileLayout l;
  std::int64_t stride = 1;
  l.shard.resize(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    l.shard[i] = Iter{shape[i], stride, AxisId::m};
    stride = checked_mul(stride, shape[i], "row-major stride");
  }
  return l;
}

void TileLayout::validate() const {
  auto check_iters = [](const std::vector<Iter>& iters, const char* what) {
    std::int64_t prod = 1;
    for (std::size_t i = 0; i < iters.size(); ++i) {
      const Iter& it = iters[i];
      if (it.extent < 1)
        throw InputError("layout.well-formed",
                         fmt::format("{} iter {} has extent {} (extents must be >= 1)", what, i, it.extent));
      prod = checked_mul(prod, it.extent, fmt::format("the {} extent product", what));
      // (extent-1)*stride must be representable for span/apply.
      checked_mul(it.extent - 1, it.stride, fmt::format("{} iter {} extent*stride", what, i));
    }
  };
  check_iters(shard, "shard");
  check_iters(replica, "replica");
  for (const Axis a : axes()) (void)span(a);  // throws on overflow
}

std::int64_t TileLayout::size() const {
  std::int64_t p = 1;
  for (const Iter& it : shard) p = checked_mul(p, it.extent, "layout size");
  return p;
}

std::int64_t TileLayout::size(Axis a) const {
  std::int64_t p = 1;
  for (const Iter& it : shard)
    if (it.axis == a) p = checked_mul(p, it.extent, "layout size");
  return p;
}

namespace {
template <class Pred>
std::int64_t span_where(const TileLayout& l, Pred pred) {
  std::int64_t s = 1;
  for (const auto* iters : {&l.shard, &l.replica})
    for (const Iter& it : *iters)
      if (pred(it.axis)) s = checked_add(s, checked_mul(it.extent - 1, it.stride, "span"), "span");
  for (const auto& e : l.offset.entries())
    if (pred(e.axis)) s = checked_add(s, e.value, "span");
  return s;
}
}  // namespace

std::int64_t TileLayout::span(Axis a) const {
  return span_where(*this, [a](Axis x) { return x == a; });
}

std::int64_t TileLayout::span() const {
  return span_where(*this, [](Axis x) { return x.is_memory(); });
}

std::vector<Axis> TileLayout::axes() const {
  std::uint32_t mask = 0;
  for (const Iter& it : shard) mask |= 1u << it.axis.index();
  for (const Iter& it : replica) mask |= 1u << it.axis.index();
  for (const auto& e : offset.entries()) mask |= 1u << e.axis.index();
  std::vector<Axis> out;
  for (const auto& info : axis_registry())
    if ((mask >> static_cast<int>(info.id)) & 1u) out.push_back(info.id);
  return out;
}

bool TileLayout::uses_axis(Axis a) const {
  const auto ax = axes();
  return std::find(ax.begin(), ax.end(), a) != ax.end();
}

bool TileLayout::has_thread_axis_in_shard() const {
  return std::any_of(shard.begin(), shard.end(), [](const Iter& it) { return it.axis.is_thread(); });
}

std::int64_t TileLayout::replica_count() const {
  std::int64_t p = 1;
  for (const Iter& it : replica) p = checked_mul(p, it.extent, "replica count");
  return p;
}

std::vector<std::int64_t> TileLayout::split(std::int64_t flat) const {
  if (flat < 0)
    throw InputError("layout.bounds", fmt::format("flat index {} is negative", flat));
  std::vector<std::int64_t> digits(shard.size(), 0);
  std::int64_t rem = flat;
  for (std::size_t k = shard.size(); k-- > 1;) {
    digits[k] = rem % shard[k].extent;
    rem /= shard[k].extent;
  }
  if (!shard.empty()) digits[0] = rem;  // outermost digit takes the undivided remainder (TVM)
  return digits;
}

Coord TileLayout::apply(std::int64_t flat) const {
  const auto digits = split(flat);
  return apply_iters(digits);
}

Coord TileLayout::apply_iters(std::span<const std::int64_t> digits) const {
  if (digits.size() != shard.size())
    throw InputError("layout.well-formed",
                     fmt::format("apply: {} coordinates given but the shard has {} iters "
                                 "(per-iter form; pass --shape for logical coordinates)",
                                 digits.size(), shard.size()));
  Coord c;
  for (std::size_t k = 0; k < shard.size(); ++k)
    c.add(shard[k].axis, checked_mul(digits[k], shard[k].stride, "apply"));
  for (const auto& e : offset.entries()) c.add(e.axis, e.value);
  return c;
}

Coord TileLayout::apply(std::span<const std::int64_t> coord, std::span<const std::int64_t> shape) const {
  const ShardDigits d = shard_digits(*this, coord, shape);  // grouped per dimension, or flattened
  return d.grouped ? d.layout.apply_iters(d.digits) : apply_iters(d.digits);
}

std::vector<Coord> TileLayout::replica_images(std::span<const std::int64_t> digits) const {
  const Coord base = apply_iters(digits);
  std::vector<Coord> out;
  out.reserve(static_cast<std::size_t>(replica_count()));
  std::vector<std::int64_t> r(replica.size(), 0);
  while (true) {
    Coord c = base;
    for (std::size_t t = 0; t < replica.size(); ++t)
      c.add(replica[t].axis, checked_mul(r[t], replica[t].stride, "replica"));
    out.push_back(c);
    std::size_t t = replica.size();
    while (t > 0) {
      --t;
      if (++r[t] < replica[t].extent) break;
      r[t] = 0;
      if (t == 0) return out;
    }
    if (replica.empty()) return out;
  }
}

}  // namespace tirx
