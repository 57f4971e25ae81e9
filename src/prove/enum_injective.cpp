// Enumeration engine, injectivity: the owner-array / hashed owner-map sweep (see enum_engine.hpp).
//
// The storage cells of all points lie in a bounding box (per storage axis [min, max] from the
// Sweep, widened to whole swizzle periods on m). When the box has at most max_dense_cells cells
// and is not much sparser than the points, an owner array over the box (4 bytes per cell) says
// which point holds each cell; otherwise a hashed owner map (cell_table.hpp) keyed by the cell's
// index in the box (or by its values when the box itself overflows int64). Both are charged to
// the budget before they are allocated; the sweep polls the deadline every 2^16 points.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "cell_table.hpp"
#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/prove/enum_engine.hpp"

namespace tirx::prove::enumerate {

namespace {

// The point with the given ordinal in sweep order (visited shard digits as an odometer, last
// fastest, declared broadcast digits at 0; the replica copies of each element fastest).
Element nth_point(const TileLayout& tile, std::uint64_t ordinal) {
  Element e;
  e.digits.assign(tile.shard.size(), 0);
  e.replica.assign(tile.replica.size(), 0);
  for (std::size_t k = tile.replica.size(); k-- > 0;) {
    const auto ext = static_cast<std::uint64_t>(tile.replica[k].extent);
    e.replica[k] = static_cast<std::int64_t>(ordinal % ext);
    ordinal /= ext;
  }
  for (std::size_t k = tile.shard.size(); k-- > 0;) {
    if (tile.shard[k].is_declared_broadcast()) continue;
    const auto ext = static_cast<std::uint64_t>(tile.shard[k].extent);
    e.digits[k] = static_cast<std::int64_t>(ordinal % ext);
    ordinal /= ext;
  }
  return e;
}

}  // namespace

EnumCost injective_cost(const Layout& l, Scope scope, const EngineLimits& limits) {
  const TileLayout& tile = l.tile();
  const Sweep sw(tile, /*include_replicas=*/true, /*exclude_declared_broadcast=*/true);
  EnumCost c;
  c.points = sw.points();
  const SwizzleSpec* swz = l.swizzle();
  const int m_slot = sw.index_of(AxisId::m);
  __int128 cells = 1;
  bool fits = true;
  for (Axis a : storage_axes(tile, scope)) {
    const int slot = sw.index_of(a);
    __int128 lo = sw.min(slot), hi = sw.max(slot);
    if (swz && slot == m_slot) {  // the swizzle stays inside aligned periods
      const std::int64_t p = swz->period();
      lo = static_cast<__int128>(floor_div(sw.min(slot), p)) * p;
      hi = static_cast<__int128>(floor_div(sw.max(slot), p)) * p + p - 1;
    }
    const __int128 extent = hi - lo + 1;
    cells *= extent;
    if (cells > (static_cast<__int128>(1) << 100)) cells = static_cast<__int128>(1) << 100;
    if (lo < INT64_MIN || extent >= INT64_MAX) fits = false;
    c.axes.push_back({slot, fits ? static_cast<std::int64_t>(lo) : 0, fits ? static_cast<std::int64_t>(extent) : 0});
  }
  c.box_fits_int64 = fits && cells < static_cast<__int128>(INT64_MAX);
  // A sparse box (a few points spread far apart) would allocate far more than it visits.
  c.dense = c.box_fits_int64 && cells <= limits.max_dense_cells && cells / 64 <= sw.points() + 4096 &&
            sw.points() < (std::int64_t{1} << 32) - 1;
  c.cells = c.box_fits_int64 ? static_cast<std::int64_t>(cells) : INT64_MAX;
  const std::size_t width = c.box_fits_int64 ? 1 : c.axes.size();
  if (c.dense) {
    c.bytes = c.cells * kEnumDenseBytesPerCell;
    c.seconds = static_cast<double>(c.points) * kEnumDenseNsPerPoint * 1e-9;
  } else {
    // The first table: the next power of two at or above twice the points (cell_table.hpp).
    std::int64_t slots = 1024;
    while (slots < std::min<std::int64_t>(c.points, std::int64_t{1} << 31) * 2) slots <<= 1;
    c.bytes = slots * CellTable::slot_bytes(width);
    c.seconds = static_cast<double>(c.points) * kEnumHashedNsPerPoint * 1e-9;
  }
  return c;
}

InjectivityAnswer injective(const Layout& l, Scope scope, const EngineLimits& limits) {
  InjectivityAnswer ans;
  const TileLayout& tile = l.tile();
  const SwizzleSpec* swz = l.swizzle();
  const Sweep sw(tile, /*include_replicas=*/true, /*exclude_declared_broadcast=*/true);
  if (sw.points() > limits.max_enumeration_points) {
    ans.status = Status::kUndecided;
    ans.message = fmt::format("enumeration limit: {} points exceed max_enumeration_points={}", sw.points(),
                              limits.max_enumeration_points);
    return ans;
  }
  const EnumCost cost = injective_cost(l, scope, limits);
  const int m_slot = sw.index_of(AxisId::m);
  const std::size_t n = cost.axes.size();
  std::vector<std::int64_t> cell_values(n);
  auto cell_of = [&](const std::int64_t* v) {
    for (std::size_t i = 0; i < n; ++i) {
      std::int64_t x = v[cost.axes[i].slot];
      if (swz && cost.axes[i].slot == m_slot) x = swz->apply(x);
      cell_values[i] = x;
    }
  };
  // The cell's index in the box (fits int64 when box_fits_int64; every value is inside the box).
  auto box_index = [&]() {
    std::int64_t idx = 0;
    for (std::size_t i = 0; i < n; ++i)
      idx = idx * cost.axes[i].extent + (cell_values[i] - cost.axes[i].lo);
    return idx;
  };
  Pacer pace(limits.budget, "enumeration", static_cast<double>(sw.points()));
  bool found = false;
  std::uint64_t first = 0, second = 0, ordinal = 0;
  if (cost.dense) {
    MemoryCharge held = charge(limits.budget, cost.bytes, "the owner array of the enumeration");
    std::vector<std::uint32_t> owner(static_cast<std::size_t>(cost.cells), 0);
    // The box index is linear in the values (coefficient per sweep slot), so along a block of
    // the sweep (sweep.hpp: two digits, each moving one axis by a constant stride) it is
    // idx0 + i * di2 + j * di; only a swizzled m that moves inside the block needs the values
    // point by point.
    std::vector<std::int64_t> coef(sw.axes().size(), 0);
    for (std::size_t i = n, mult = 1; i-- > 0;) {
      if (cost.axes[i].slot >= 0) coef[static_cast<std::size_t>(cost.axes[i].slot)] = static_cast<std::int64_t>(mult);
      mult *= static_cast<std::size_t>(cost.axes[i].extent);
    }
    auto claim = [&](std::int64_t idx) {
      std::uint32_t& o = owner[static_cast<std::size_t>(idx)];
      if (o != 0) {
        found = true;
        first = o - 1;
        second = ordinal;
        return false;
      }
      o = static_cast<std::uint32_t>(++ordinal);
      return true;
    };
    sw.for_each_run([&](const Sweep::Run& b) {
      pace.step(b.count * b.count2);
      if (swz && m_slot >= 0 && (b.slot == m_slot || b.slot2 == m_slot)) {
        std::int64_t* v = b.values;
        const std::int64_t v2 = b.slot2 >= 0 ? v[b.slot2] : 0;
        bool go = true;
        for (std::int64_t i = 0; go && i < b.count2; ++i) {
          if (b.slot2 >= 0) v[b.slot2] = v2 + i * b.stride2;
          const std::int64_t v1 = b.slot >= 0 ? v[b.slot] : 0;
          for (std::int64_t j = 0; go && j < b.count; ++j) {
            if (b.slot >= 0) v[b.slot] = v1 + j * b.stride;
            cell_of(v);
            go = claim(box_index());
          }
          if (b.slot >= 0) v[b.slot] = v1;
        }
        if (b.slot2 >= 0) v[b.slot2] = v2;
        return go;
      }
      cell_of(b.values);
      const std::int64_t idx0 = box_index();
      const std::int64_t di = b.slot >= 0 ? coef[static_cast<std::size_t>(b.slot)] * b.stride : 0;
      const std::int64_t di2 = b.slot2 >= 0 ? coef[static_cast<std::size_t>(b.slot2)] * b.stride2 : 0;
      for (std::int64_t i = 0; i < b.count2; ++i) {
        const std::int64_t row = idx0 + i * di2;  // a cell of the box: in [0, cells)
        for (std::int64_t j = 0; j < b.count; ++j)
          if (!claim(row + j * di)) return false;
      }
      return true;
    });
  } else {
    CellTable owner(cost.box_fits_int64 ? 1 : n, sw.points(), limits.budget);
    std::int64_t key = 0;
    sw.for_each([&](std::int64_t, std::int64_t, const std::int64_t* v) {
      pace.step();
      cell_of(v);
      const std::int64_t* k = cell_values.data();
      if (cost.box_fits_int64) {
        key = box_index();
        k = &key;
      }
      const std::uint64_t prev = owner.insert(k, ordinal);
      if (prev != CellTable::kEmpty) {
        found = true;
        first = prev;
        second = ordinal;
        return false;
      }
      ++ordinal;
      return true;
    });
  }
  if (!found) {
    ans.status = Status::kPass;
    ans.message = cost.dense ? fmt::format("every point swept, owner array over {} cells", cost.cells)
                             : std::string("every point swept, cells hashed");
    return ans;
  }
  ans.status = Status::kFail;
  ans.a = nth_point(tile, first);
  ans.b = nth_point(tile, second);
  return ans;
}

}  // namespace tirx::prove::enumerate
