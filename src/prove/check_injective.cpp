// layout.injective — no two logical elements (replica copies included) share a storage cell.
//
// Engines: first the structural sufficient condition (injective_structural.cpp), which proves
// the common case from the strides alone; when it does not apply, enumeration. Sweep visits every (element, replica) point in odometer order and maps
// it to its storage cell (the storage axes of the scope, after the XOR swizzle for a
// ComposeLayout). When the cells fit a dense box (the common case: TMEM, registers, a shared
// tile) an owner array detects the first collision without hashing; otherwise a hash map does.
// Stride-0 shard iters are an explicit broadcast (TVM's broadcast()/sf_reuse): elements that
// differ only in those digits share cells by design, so those digits are visited at 0 only
// and the result says so.
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"

namespace tirx::prove {

namespace {

struct PointRef {
  std::int64_t flat, replica;
};

// Finds the point with the given ordinal in sweep order.
PointRef nth_point(const Sweep& sw, std::uint64_t ordinal) {
  PointRef out{0, 0};
  std::uint64_t i = 0;
  sw.for_each([&](std::int64_t flat, std::int64_t r, const std::int64_t*) {
    if (i++ == ordinal) {
      out = {flat, r};
      return false;
    }
    return true;
  });
  return out;
}

}  // namespace

CheckResult check_injective(const CheckInput& in) {
  CheckResult res;
  res.id = "layout.injective";
  res.engine = "enum";
  const TileLayout& tile = in.layout.tile();
  const SwizzleSpec* swz = in.layout.swizzle();
  std::int64_t zero_stride = 0;
  for (const Iter& it : tile.shard)
    if (it.stride == 0 && it.extent > 1) ++zero_stride;
  const std::string broadcast_note =
      zero_stride ? fmt::format(" ({} stride-0 shard iter(s) treated as explicit broadcast)", zero_stride) : "";
  if (injective_by_strides(tile, in.scope)) {
    res.engine = "structural";
    res.status = Status::kPass;
    res.message = fmt::format("{} elements x {} replica copies: on every storage axis each stride exceeds the "
                              "reach of the smaller ones{}",
                              tile.size(), tile.replica_count(), broadcast_note);
    return res;
  }
  const Sweep sw(tile, /*include_replicas=*/true, /*exclude_zero_stride_shard=*/true);
  if (sw.points() > in.limits.max_enumeration_points) {
    res.status = Status::kUndecided;
    res.message = fmt::format("enumeration limit: {} points exceed max_enumeration_points={}", sw.points(),
                              in.limits.max_enumeration_points);
    return res;
  }
  const std::vector<Axis> cell_axes = storage_axes(tile, in.scope);
  std::vector<int> slots;
  for (Axis a : cell_axes) slots.push_back(sw.index_of(a));
  const int m_slot = sw.index_of(AxisId::m);

  // Dense box of the cells.
  std::vector<std::int64_t> lo, ext;
  bool dense = true;
  std::int64_t cells = 1;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    std::int64_t l = sw.min(slots[i]), h = sw.max(slots[i]);
    if (swz && slots[i] == m_slot) {  // the swizzle stays inside aligned periods
      const std::int64_t p = swz->period();
      l = floor_div(l, p) * p;
      h = floor_div(h, p) * p + p - 1;
    }
    lo.push_back(l);
    const std::int64_t e = h - l + 1;
    ext.push_back(e);
    if (__builtin_mul_overflow(cells, e, &cells) || cells > in.limits.max_dense_cells) dense = false;
  }

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
    std::vector<std::uint32_t> owner(static_cast<std::size_t>(cells), 0);
    if (sw.points() >= (std::int64_t{1} << 32) - 1) {
      res.status = Status::kUndecided;
      res.message = "enumeration limit: more than 2^32 points";
      return res;
    }
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
    res.status = Status::kPass;
    res.message = fmt::format("{} points ({} elements x {} replica copies) occupy distinct cells on ({}){}",
                              sw.points(), sw.points() / sw.replicas(), sw.replicas(),
                              [&] {
                                std::string s;
                                for (std::size_t i = 0; i < cell_axes.size(); ++i)
                                  s += fmt::format("{}{}", i ? ", " : "", cell_axes[i].name());
                                return s;
                              }(),
                              broadcast_note);
    return res;
  }
  const PointRef a = nth_point(sw, first), b = nth_point(sw, second);
  nlohmann::json cell = nlohmann::json::object();
  for (std::size_t i = 0; i < cell_axes.size(); ++i) cell[std::string(cell_axes[i].name())] = cell_values[i];
  res.status = Status::kFail;
  res.witness = {{"a", point_json(in, a.flat, a.replica)}, {"b", point_json(in, b.flat, b.replica)}, {"cell", cell}};
  if (a.flat == b.flat)
    res.message = fmt::format("element {} has two replica copies ({} and {}) in the same cell {}",
                              nlohmann::json(logical_coord(a.flat, in.shape)).dump(), a.replica, b.replica,
                              cell.dump());
  else
    res.message = fmt::format("elements {} (replica {}) and {} (replica {}) share the cell {}{}",
                              nlohmann::json(logical_coord(a.flat, in.shape)).dump(), a.replica,
                              nlohmann::json(logical_coord(b.flat, in.shape)).dump(), b.replica, cell.dump(),
                              broadcast_note);
  return res;
}

}  // namespace tirx::prove
