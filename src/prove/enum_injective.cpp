// Enumeration engine, injectivity: the owner-array / hash-map sweep (see enum_engine.hpp).
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/prove/enum_engine.hpp"

namespace tirx::prove::enumerate {

namespace {

// The point with the given ordinal in sweep order, as an Element.
Element nth_point(const TileLayout& tile, const Sweep& sw, std::uint64_t ordinal) {
  std::int64_t flat = 0, rep = 0;
  std::uint64_t i = 0;
  sw.for_each([&](std::int64_t f, std::int64_t r, const std::int64_t*) {
    if (i++ == ordinal) {
      flat = f;
      rep = r;
      return false;
    }
    return true;
  });
  return element_at(tile, flat, rep);
}

}  // namespace

InjectivityAnswer injective(const Layout& l, Scope scope, const EngineLimits& limits) {
  InjectivityAnswer ans;
  const TileLayout& tile = l.tile();
  const SwizzleSpec* swz = l.swizzle();
  const Sweep sw(tile, /*include_replicas=*/true, /*exclude_zero_stride_shard=*/true);
  if (sw.points() > limits.max_enumeration_points) {
    ans.status = Status::kUndecided;
    ans.message = fmt::format("enumeration limit: {} points exceed max_enumeration_points={}", sw.points(),
                              limits.max_enumeration_points);
    return ans;
  }
  const std::vector<Axis> cell_axes = storage_axes(tile, scope);
  std::vector<int> slots;
  for (Axis a : cell_axes) slots.push_back(sw.index_of(a));
  const int m_slot = sw.index_of(AxisId::m);

  // Dense box of the cells.
  std::vector<std::int64_t> lo, ext;
  bool dense = true;
  std::int64_t cells = 1;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    std::int64_t lv = sw.min(slots[i]), h = sw.max(slots[i]);
    if (swz && slots[i] == m_slot) {  // the swizzle stays inside aligned periods
      const std::int64_t p = swz->period();
      lv = floor_div(lv, p) * p;
      h = floor_div(h, p) * p + p - 1;
    }
    lo.push_back(lv);
    const std::int64_t e = h - lv + 1;
    ext.push_back(e);
    if (__builtin_mul_overflow(cells, e, &cells) || cells > limits.max_dense_cells) dense = false;
  }
  // A sparse box (a few points spread far apart) would allocate far more than it visits.
  if (dense && cells / 64 > sw.points() + 4096) dense = false;

  bool found = false;
  std::uint64_t first = 0, second = 0;
  std::vector<std::int64_t> cell_values(slots.size());
  auto cell_of = [&](const std::int64_t* v) {
    for (std::size_t i = 0; i < slots.size(); ++i) {
      std::int64_t x = v[slots[i]];
      if (swz && slots[i] == m_slot) x = swz->apply(x);
      cell_values[i] = x;
    }
  };
  std::uint64_t ordinal = 0;
  if (dense) {
    if (sw.points() >= (std::int64_t{1} << 32) - 1) {
      ans.status = Status::kUndecided;
      ans.message = "enumeration limit: more than 2^32 points";
      return ans;
    }
    std::vector<std::uint32_t> owner(static_cast<std::size_t>(cells), 0);
    sw.for_each([&](std::int64_t, std::int64_t, const std::int64_t* v) {
      cell_of(v);
      std::int64_t idx = 0;
      for (std::size_t i = 0; i < slots.size(); ++i) idx = idx * ext[i] + (cell_values[i] - lo[i]);
      std::uint32_t& o = owner[static_cast<std::size_t>(idx)];
      if (o != 0) {
        found = true;
        first = o - 1;
        second = ordinal;
        return false;
      }
      o = static_cast<std::uint32_t>(++ordinal);
      return true;
    });
  } else {
    std::unordered_map<std::string, std::uint64_t> owner;
    owner.reserve(static_cast<std::size_t>(std::min<std::int64_t>(sw.points(), 1 << 24)));
    sw.for_each([&](std::int64_t, std::int64_t, const std::int64_t* v) {
      cell_of(v);
      std::string key(reinterpret_cast<const char*>(cell_values.data()), cell_values.size() * sizeof(std::int64_t));
      auto [it, inserted] = owner.emplace(std::move(key), ordinal);
      if (!inserted) {
        found = true;
        first = it->second;
        second = ordinal;
        return false;
      }
      ++ordinal;
      return true;
    });
  }
  if (!found) {
    ans.status = Status::kPass;
    ans.message = dense ? fmt::format("every point swept, owner array over {} cells", cells)
                        : std::string("every point swept, cells hashed");
    return ans;
  }
  ans.status = Status::kFail;
  ans.a = nth_point(tile, sw, first);
  ans.b = nth_point(tile, sw, second);
  return ans;
}

}  // namespace tirx::prove::enumerate
