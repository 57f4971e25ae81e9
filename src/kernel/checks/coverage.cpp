// kernel.coverage: the ops that write a buffer write each element exactly once per pass, and
// every element an op reads was written before.
//
// Storage, not names: the ops are followed on the storage cells their regions occupy (a view
// and its base share cells), in the hardware's units — shared memory and global memory as bit
// addresses, TMEM as (lane, 32-bit column, bit), registers as (CTA warp, lane, 32-bit register,
// bit) through the op's warps (images.hpp). Each storage root that some op writes is cut into
// units of the smallest element size among the buffers that touch it, and every unit walks a
// small state machine in program order (reads of an op before its writes):
//
//   unwritten --write--> written by op W --read--> read --write--> written by op W' ...
//
// Failures (the first in program order per buffer, with both parts):
//   * an op reads a unit no earlier op wrote (a read-modify-write MMA accumulating into an
//     accumulator nothing cleared is the same thing: "accumulate": false on the first K step);
//   * an op writes a unit another op wrote and nothing read since (for registers see below);
//   * one op writes a unit twice: two elements of its region share the cell, or — for a write
//     whose data comes from registers (st.shared, stmatrix, tcgen05.st, thread copies) — the
//     source fragment holds the element in two threads, which then both store it;
//   * an op writes a buffer declared "broadcast" (a broadcast view is read-only);
//   * a write of which later ops read a part and never the rest: TMEM (an accumulator whose
//     columns or lanes no tcgen05.ld reads — a warp partition that leaves output unwritten) is
//     an error, shared memory a warning (the bytes are loaded for nothing); global memory is
//     the kernel's output and registers are consumed by arithmetic the model does not describe,
//     so neither is asked.
// Registers: the format has no op for thread arithmetic. An accumulating mma.sync / wgmma whose
// C/D registers no op wrote reads an accumulator the kernel zeroed with mov (counted in the pass
// message, not a failure; TMEM accumulators have no such escape). A register write that re-covers
// every still-unread unit of an earlier write is taken as the next iteration of a loop whose
// consumer the model does not show (counted in the pass message); a write that overwrites only
// part of an earlier unread write is the bug of tile-ai/tilelang PR #2952 (a tcgen05.ld segment
// re-using the registers of the previous one) and fails with both register ranges.
//
// Work: O(region elements x replicas) per access, units in flat arrays; at most kMaxCoverageUnits per
// storage root (beyond: undecided naming the limit).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <span>
#include <numeric>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "checks.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tma.hpp"
#include "tirx_verify/kernel/op_access.hpp"
#include "tirx_verify/kernel/region_sweep.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::checks {

namespace {

constexpr std::int64_t kMaxCoverageUnits = std::int64_t{1} << 23;  // units walked per storage root

enum class Space { kShared, kGlobal, kTmem, kLocal, kOther };

Space space_of(const ResolvedBuffer& b) {
  switch (b.scope) {
    case prove::Scope::kShared: return Space::kShared;
    case prove::Scope::kGlobal: return Space::kGlobal;
    case prove::Scope::kTmem: return Space::kTmem;
    case prove::Scope::kLocal: return Space::kLocal;
    default: return Space::kOther;
  }
}

// Bit keys, dense per space: shared = absolute bit address; global = bit offset from the
// tensor base; TMEM = (lane * columns + column) * 32 + bit (columns: the target's);
// registers = ((warp * 32 + lane) * regs + register) * 32 + bit (regs: the most registers any
// buffer of the storage root spans).
struct Keys {
  Space space = Space::kOther;
  std::int64_t stride = 1;  // TMEM columns per lane, or registers per thread

  std::int64_t key(const ResolvedBuffer& b, const Coord& c, const std::vector<int>& warps) const {
    switch (space) {
      case Space::kShared: return smem_bit_of(b, c);
      case Space::kGlobal: return checked_mul(c.get(AxisId::m), b.elem_bits);
      case Space::kTmem: {
        const TmemCell t = tmem_cell_of(b, c);
        if (t.lane < 0 || t.col < 0 || t.col >= stride)
          throw InputError("layout.bounds",
                           fmt::format("buffer '{}': TMEM cell (lane {}, column {}) is outside the {} columns of TMEM",
                                       b.model->name, t.lane, t.col, stride));
        return (t.lane * stride + t.col) * 32 + t.bit;
      }
      case Space::kLocal: {
        const RegCell r = reg_cell_of(b, c, warps);
        if (r.reg < 0 || r.reg >= stride || r.warp < 0)
          throw InputError("layout.bounds",
                           fmt::format("fragment '{}': register {} is outside the fragment's {} registers",
                                       b.model->name, r.reg, stride));
        return ((static_cast<std::int64_t>(r.warp) * 32 + r.lane) * stride + r.reg) * 32 + r.bit;
      }
      case Space::kOther: break;
    }
    return 0;
  }

  // (warp * 32 + lane, register) of a register key.
  std::pair<std::int64_t, std::int64_t> thread_reg(std::int64_t key) const {
    return {key / 32 / stride, (key / 32) % stride};
  }

  nlohmann::json cell_json(std::int64_t key) const {
    switch (space) {
      case Space::kShared:
        return key % 8 ? nlohmann::json{{"smem_byte", key / 8}, {"bit", key % 8}}
                       : nlohmann::json{{"smem_byte", key / 8}};
      case Space::kGlobal:
        return key % 8 ? nlohmann::json{{"global_byte", key / 8}, {"bit", key % 8}}
                       : nlohmann::json{{"global_byte", key / 8}};
      case Space::kTmem:
        return {{"lane", key / 32 / stride}, {"col", (key / 32) % stride}, {"bit", key % 32}};
      case Space::kLocal: {
        const auto [thread, reg] = thread_reg(key);
        return {{"warp", thread / 32}, {"lane", thread % 32}, {"reg", reg}, {"bit", key % 32}};
      }
      case Space::kOther: break;
    }
    return nullptr;
  }

  std::string cell_text(std::int64_t key) const {
    const std::string bit = key % 32 ? fmt::format(" bit {}", key % 32) : "";
    switch (space) {
      case Space::kShared:
        return key % 8 ? fmt::format("shared byte {} bit {}", key / 8, key % 8) : fmt::format("shared byte {}", key / 8);
      case Space::kGlobal: return fmt::format("global byte {}", key / 8);
      case Space::kTmem: return fmt::format("TMEM lane {}, column {}{}", key / 32 / stride, (key / 32) % stride, bit);
      case Space::kLocal: {
        const auto [thread, reg] = thread_reg(key);
        return fmt::format("warp {} lane {} register {}{}", thread / 32, thread % 32, reg, bit);
      }
      case Space::kOther: break;
    }
    return "?";
  }
};

std::string_view space_noun(Space s) {
  switch (s) {
    case Space::kShared: return "shared memory";
    case Space::kGlobal: return "global memory";
    case Space::kTmem: return "TMEM";
    case Space::kLocal: return "registers";
    case Space::kOther: break;
  }
  return "storage";
}

// One region access of one op, with the first unit of every (element, replica) point.
struct Access {
  std::size_t op = 0;
  RegionAccess acc;
  const TmaOp* tma = nullptr;  // the shared side of a TMA: the box's bytes, not the region's elements
  int box_elem_bits = 0;
  bool boxed = false;          // units are the box's (tma set and the hardware accepted the TMA)
  std::size_t buffer = 0;    // the region's buffer
  std::size_t root = 0;
  std::int64_t replicas = 1;
  std::int64_t units_per_elem = 1;
  // point i * replicas + r -> its first unit; shared between accesses of the same region.
  std::shared_ptr<std::vector<std::int64_t>> units = std::make_shared<std::vector<std::int64_t>>();
  const std::vector<std::int64_t>& unit() const { return *units; }
  // The state cell of every (point, unit k) in the root's state arrays, point-major.
  std::shared_ptr<const std::vector<std::int32_t>> cells;
};

enum class Kind { kBroadcastWrite, kTwoThreads, kSameOpTwice, kDoubleWrite, kReadUnwritten, kUnread };

struct Violation {
  explicit Violation(Kind k) : kind(k) {}
  Kind kind;
  Severity severity = Severity::kError;
  std::size_t access = 0;               // the offending access
  std::int64_t point = 0;               // its (element, replica) point
  std::int64_t unit = 0;
  std::optional<std::size_t> other;     // the other access (first writer)
  std::int64_t other_point = 0;
  std::int64_t threads[2] = {0, 0};     // kTwoThreads: the two (warp * 32 + lane)
  std::int64_t count = 1;               // kUnread: units
};

struct Root {
  bool has_writer = false;
  Space space = Space::kOther;
  Keys keys;
  std::int64_t gran_bits = 0;           // unit size in bits
  std::string why_not;                  // not analysed
  bool undecided = false;
  std::int64_t points = 0;
  std::int64_t implicit_passes = 0;     // register rewrites taken as loop iterations
  std::int64_t implicit_inits = 0;      // register accumulators first read by an MMA (zeroed by arithmetic),
                                        // or global elements a TMA reduction adds to
};

// Region element index and replica of a point.
std::int64_t elem_of(const Access& a, std::int64_t point) { return point / a.replicas; }

std::string regs_range_text(const std::pair<std::int64_t, std::int64_t>& r) {
  return fmt::format("[{}, {})", r.first, r.second);
}

// Whether every coordinate of `l` on `axis`, times `scale`, plus `base` stays far from int64's
// limits (|value| < 2^58), so the per-element key needs no checked arithmetic.
bool small(const Layout& l, AxisId axis, std::int64_t scale, std::int64_t base) {
  const TileLayout& t = l.tile();
  const std::int64_t cap = std::int64_t{1} << 58;
  std::int64_t reach = std::abs(t.offset.get(axis));
  auto add = [&](const std::vector<Iter>& iters) {
    for (const Iter& it : iters)
      if (it.axis == axis) {
        if (it.extent > cap || std::abs(it.stride) > cap / std::max<std::int64_t>(1, it.extent - 1)) return false;
        reach += (it.extent - 1) * std::abs(it.stride);
        if (reach > cap) return false;
      }
    return true;
  };
  if (!add(t.shard) || !add(t.replica)) return false;
  if (axis == AxisId::m && l.swizzle()) reach = std::max(reach, l.swizzle()->period() + reach);  // XOR stays below
  return reach < cap / std::max<std::int64_t>(1, scale) && std::abs(base) < cap;
}

class Coverage {
 public:
  explicit Coverage(const KernelContext& ctx) : ctx_(ctx), m_(*ctx.model) {}

  std::vector<KernelFinding> run() {
    collect();
    for (std::size_t r = 0; r < roots_.size(); ++r)
      if (roots_[r].has_writer && roots_[r].why_not.empty()) compute_units(r);
    walk();
    return findings();
  }

 private:
  void collect() {
    roots_.assign(ctx_.buffers.size(), Root{});
    for (std::size_t i = 0; i < m_.ops.size(); ++i) {
      for (const RegionAccess& ra : op_accesses(m_.ops[i], m_)) {
        const ResolvedBuffer* b = ctx_.buffer(ra.region->buffer);
        if (!b) continue;
        Access a;
        a.op = i;
        a.acc = ra;
        a.buffer = b->index;
        a.root = b->root;
        if (const auto* t = std::get_if<TmaOp>(&m_.ops[i].data); t && ra.region == &t->smem) {
          a.tma = t;
          a.box_elem_bits = t->tensor_map.elem_bytes * 8;
        }
        if (ra.write) roots_[a.root].has_writer = true;
        accesses_.push_back(std::move(a));
      }
    }
    // Unit size and applicability per root.
    for (const Access& a : accesses_) {
      Root& r = roots_[a.root];
      if (!r.has_writer || !r.why_not.empty()) continue;
      const ResolvedBuffer& b = ctx_.buffers[a.buffer];
      const Space s = space_of(b);
      if (s == Space::kOther) {
        r.why_not = fmt::format("buffer '{}' has scope '{}', whose storage cells are not modelled", b.model->name,
                                b.model->scope);
        continue;
      }
      r.space = s;
      if (!b.layout) {
        r.why_not = fmt::format("buffer '{}' has no usable layout ({})", b.model->name, b.layout_error);
        continue;
      }
      if (b.elem_bits <= 0) {
        r.why_not = fmt::format("buffer '{}' has no dtype", b.model->name);
        continue;
      }
      r.gran_bits = r.gran_bits ? std::gcd(r.gran_bits, static_cast<std::int64_t>(b.elem_bits)) : b.elem_bits;
      if (a.tma && a.box_elem_bits > 0) r.gran_bits = std::gcd(r.gran_bits, static_cast<std::int64_t>(a.box_elem_bits));
      r.keys.space = s;
      if (s == Space::kTmem) {
        if (!ctx_.target->tmem) {
          r.why_not = fmt::format("target {} has no TMEM", ctx_.target->name);
          continue;
        }
        r.keys.stride = ctx_.target->tmem->columns;
      } else if (s == Space::kLocal) {
        // Registers the buffer's layout spans: m in [0, span) elements of elem_bits each.
        const std::int64_t span = std::max<std::int64_t>(1, b.layout->tile().span(AxisId::m));
        r.keys.stride = std::max(r.keys.stride, (checked_mul(span, b.elem_bits) + 31) / 32);
      }
    }
  }

  void compute_units(std::size_t root) {
    Root& r = roots_[root];
    // Ops re-use regions (every K step accumulates into the same D): one sweep per distinct
    // (buffer, region, warps of a register access).
    std::map<std::tuple<std::size_t, std::string, std::vector<int>>, std::size_t> seen;
    for (std::size_t id = 0; id < accesses_.size(); ++id) {
      Access& a = accesses_[id];
      if (a.root != root) continue;
      const ResolvedBuffer& b = ctx_.buffers[a.buffer];
      const std::vector<int>& warps = m_.ops[a.op].warps;
      auto key = std::make_tuple(a.buffer, a.acc.region->text,
                                 r.space == Space::kLocal ? warps : std::vector<int>{});
      if (a.tma && box_units(a)) {
        r.points = checked_add(r.points, static_cast<std::int64_t>(a.unit().size()) * a.units_per_elem);
        continue;
      }
      auto [it, fresh] = seen.emplace(std::move(key), id);
      a.units_per_elem = b.elem_bits / r.gran_bits;
      if (!fresh) {
        const Access& same = accesses_[it->second];
        a.replicas = same.replicas;
        a.units = same.units;
        r.points = checked_add(r.points, static_cast<std::int64_t>(a.unit().size()) * a.units_per_elem);
        continue;
      }
      try {
        RegionSweep sw(b, *a.acc.region);
        a.replicas = sw.replicas();
        r.points = checked_add(r.points, checked_mul(sw.points(), a.units_per_elem));
        if (r.points > kMaxCoverageUnits) {
          r.undecided = true;
          r.why_not = fmt::format("enumeration limit: the ops touch more than {} storage units of '{}'", kMaxCoverageUnits,
                                  ctx_.model->buffers[root].name);
          return;
        }
        auto units = std::make_shared<std::vector<std::int64_t>>(static_cast<std::size_t>(sw.points()));
        const Keys& keys = r.keys;
        const std::int64_t g = r.gran_bits;
        const std::int64_t reps = a.replicas;
        std::int64_t* out = units->data();
        const int shift = is_pow2(g) ? log2_exact(g) : -1;
        const Layout& l = *b.layout;
        const std::int64_t bits = b.elem_bits;
        if (shift >= 0 && r.space == Space::kShared && small(l, AxisId::m, bits, b.smem_base_bytes * 8)) {
          const std::int64_t base = b.smem_base_bytes * 8;
          const int mi = static_cast<int>(AxisId::m);
          sw.for_each([&](std::int64_t i, std::int64_t rep, const Coord& c) {
            out[i * reps + rep] = (base + c.value[mi] * bits) >> shift;
          });
        } else if (shift >= 0 && r.space == Space::kTmem && small(l, AxisId::TCol, bits, 0) &&
                   small(l, AxisId::TLane, 1, b.tmem_lane) && std::abs(b.tmem_col) < (std::int64_t{1} << 40)) {
          const int li = static_cast<int>(AxisId::TLane), ci = static_cast<int>(AxisId::TCol);
          const std::int64_t lane0 = b.tmem_lane, col0 = b.tmem_col, cols = keys.stride;
          sw.for_each([&](std::int64_t i, std::int64_t rep, const Coord& c) {
            const std::int64_t lane = lane0 + c.value[li], colbits = c.value[ci] * bits;
            const std::int64_t col = col0 + (colbits >> 5);
            if (lane < 0 || col < 0 || col >= cols) (void)keys.key(b, c, warps);  // throws, naming the cell
            out[i * reps + rep] = (((lane * cols + col) << 5) + (colbits & 31)) >> shift;
          });
        } else {
          sw.for_each([&](std::int64_t i, std::int64_t rep, const Coord& c) {
            const std::int64_t key = keys.key(b, c, warps);
            out[i * reps + rep] = shift >= 0 ? key >> shift : floor_div(key, g);
          });
        }
        a.units = std::move(units);
      } catch (const InputError& e) {
        r.why_not = fmt::format("op '{}' on '{}': [{}] {}", m_.ops[a.op].name, a.acc.region->text, e.check_id(),
                                e.message());
        return;
      }
    }
  }

  // The shared side of a TMA: the bytes the box occupies (hw::tma_box_geometry), OOB
  // elements included (a load zero-fills them). False when the hardware refuses the TMA (its
  // rule is kernel.tma-layout's finding): the region stands in.
  bool box_units(Access& a) {
    const TmaOp& t = *a.tma;
    const TensorMapModel& tm = t.tensor_map;
    try {
      hw::GlobalTensor g;
      g.elem_bytes = tm.elem_bytes;
      g.dims = tm.dims;
      g.strides_bytes = tm.strides_bytes;
      hw::TmaTileLoad load;
      load.box = t.smem_box();  // gather4: four rows of box[0] (PTX ISA §5.5.3.4)
      load.coords = t.box_origin();
      load.swizzle = tm.swizzle;
      std::int64_t dst = 0;
      if (t.smem_address) {
        dst = smem_address(ctx_, *t.smem_address);
      } else {
        const ResolvedBuffer& b = ctx_.buffers[a.buffer];
        dst = smem_byte_images(b, t.smem.coord(0)).front();
      }
      if (dst < 0) return false;
      load.smem_dst = static_cast<std::uint64_t>(dst);
      const hw::TmaBoxGeometry geo = hw::tma_box_geometry(*ctx_.target, g, load);
      // gather4 rows narrower than the swizzle span: their pitch is not known (kernel.tma-layout
      // says undecided); the region stands in
      if (t.is_gather4() && geo.row_pitch != tm.box.front() * tm.elem_bytes) return false;
      const Root& r = roots_[a.root];
      a.units_per_elem = a.box_elem_bits / r.gran_bits;
      a.replicas = 1;
      a.boxed = true;
      const std::int64_t row_elems = tm.box.front();
      auto units = std::make_shared<std::vector<std::int64_t>>(static_cast<std::size_t>(geo.rows * row_elems));
      std::size_t i = 0;
      for (std::int64_t row = 0; row < geo.rows; ++row)  // box order: dim 0 fastest
        for (std::int64_t e0 = 0; e0 < row_elems; ++e0)
          (*units)[i++] = checked_mul(static_cast<std::int64_t>(geo.address(row, e0)), 8) / r.gran_bits;
      a.units = std::move(units);
      return true;
    } catch (const InputError&) {
      return false;
    }
  }

  // The state of one storage unit of a root (8 bytes).
  struct Cell {
    std::int32_t group = -1;   // write group of the last write (group_writer_ names its access), -1: never written
    std::int32_t wpoint : 31 = 0;  // that access's point
    std::uint32_t read : 1 = 0;    // read since the last write
  };

  // The state cells of a root: one per distinct unit its accesses touch (dense over [lo, hi]
  // when that range is small, else the sorted distinct units), and each access's cell indices.
  std::span<Cell> make_state(std::size_t root) {
    std::int64_t lo = INT64_MAX, hi = INT64_MIN, n = 0;
    std::vector<const std::vector<std::int64_t>*> seen;  // regions shared by several accesses: once
    for (const Access& a : accesses_) {
      if (a.root != root) continue;
      n += static_cast<std::int64_t>(a.unit().size()) * a.units_per_elem;
      if (std::find(seen.begin(), seen.end(), a.units.get()) != seen.end()) continue;
      seen.push_back(a.units.get());
      const auto [mn, mx] = std::minmax_element(a.unit().begin(), a.unit().end());
      if (mn == a.unit().end()) continue;
      lo = std::min(lo, *mn);
      hi = std::max(hi, *mx + a.units_per_elem - 1);
    }
    if (n == 0) return {};
    const bool dense = hi - lo < std::max<std::int64_t>(8 * n, 1 << 18);
    // Sparse roots (a global output tile in a wide tensor): units numbered in first-seen order
    // through an open-addressing table (no sort).
    std::size_t cap = 16;
    if (!dense)
      while (cap < 2 * static_cast<std::size_t>(n)) cap *= 2;
    std::vector<std::int64_t> keys(dense ? 0 : cap, INT64_MIN);
    std::vector<std::int32_t> vals(dense ? 0 : cap, -1);
    std::int32_t next = 0;
    auto index_of = [&](std::int64_t u) -> std::int32_t {
      if (dense) return static_cast<std::int32_t>(u - lo);
      std::size_t h = static_cast<std::size_t>(static_cast<std::uint64_t>(u) * 0x9E3779B97F4A7C15ull) & (cap - 1);
      while (keys[h] != INT64_MIN && keys[h] != u) h = (h + 1) & (cap - 1);
      if (keys[h] == INT64_MIN) {
        keys[h] = u;
        vals[h] = next++;
      }
      return vals[h];
    };
    std::map<const std::vector<std::int64_t>*, std::shared_ptr<const std::vector<std::int32_t>>> done;
    for (Access& a : accesses_) {
      if (a.root != root) continue;
      auto& c = done[a.units.get()];
      if (!c) {
        auto cells = std::make_shared<std::vector<std::int32_t>>();
        cells->reserve(a.unit().size() * static_cast<std::size_t>(a.units_per_elem));
        for (std::int64_t u : a.unit())
          for (std::int64_t k = 0; k < a.units_per_elem; ++k) cells->push_back(index_of(u + k));
        c = std::move(cells);
      }
      a.cells = c;
    }
    // One arena reused across roots and models: no page faults for a fresh array each time.
    static thread_local std::vector<Cell> arena;
    const std::size_t size = dense ? static_cast<std::size_t>(hi - lo + 1) : static_cast<std::size_t>(next);
    if (arena.size() < size) arena.resize(size);
    std::fill(arena.begin(), arena.begin() + static_cast<std::ptrdiff_t>(size), Cell{});
    return {arena.data(), size};
  }

  void add_violation(const Violation& v) {
    const std::size_t subject = accesses_[v.access].buffer;
    auto& slot = first_[subject];
    ++counts_[subject];
    if (!slot || (v.severity == Severity::kError && slot->severity != Severity::kError)) slot = v;
  }

  // The access that last wrote a cell (its group's current owner).
  std::int32_t writer_of(const Cell& c) const { return group_writer_[static_cast<std::size_t>(c.group)]; }

  void walk() {
    live_.assign(accesses_.size(), 0);
    consumed_.assign(accesses_.size(), 0);
    group_writer_.resize(accesses_.size());
    for (std::size_t i = 0; i < accesses_.size(); ++i) group_writer_[i] = static_cast<std::int32_t>(i);
    for (std::size_t root = 0; root < roots_.size(); ++root) {
      const Root& r = roots_[root];
      if (!r.has_writer || !r.why_not.empty()) continue;
      std::span<Cell> st = make_state(root);
      if (st.empty()) continue;
      run_group_ = -1;
      run_cells_ = nullptr;
      for (std::size_t id = 0; id < accesses_.size(); ++id) {
        Access& a = accesses_[id];
        if (a.root != root) continue;
        if (a.acc.rmw && run_group_ >= 0 && a.cells.get() == run_cells_) {
          // The next read-modify-write of exactly the cells the run's last access wrote, which
          // no other access touched since (K steps into one accumulator): every cell is read and
          // written again; only who owns the group changes.
          const auto prev = static_cast<std::size_t>(group_writer_[static_cast<std::size_t>(run_group_)]);
          live_[id] = live_[prev];
          live_[prev] = 0;
          consumed_[prev] = 1;
          group_writer_[static_cast<std::size_t>(run_group_)] = static_cast<std::int32_t>(id);
          if (ctx_.buffers[a.buffer].model->broadcast) write_units(st, id);  // reports it (slow, rare)
          continue;
        }
        if (!a.acc.write || a.acc.rmw) read_units(st, id);
        if (a.acc.write) {
          write_units(st, id);
          run_group_ = static_cast<std::int32_t>(id);
          run_cells_ = a.cells.get();
        }
      }
      // Writes later ops read in part only.
      if (r.space == Space::kTmem || r.space == Space::kShared) {
        for (std::size_t id = 0; id < accesses_.size(); ++id) {
          Access& a = accesses_[id];
          if (a.root != root || !a.acc.write || !consumed_[id] || live_[id] == 0) continue;
          const auto& cells = *a.cells;
          for (std::size_t j = 0; j < cells.size(); ++j) {
            const Cell& c = st[static_cast<std::size_t>(cells[j])];
            if (c.group < 0 || writer_of(c) != static_cast<std::int32_t>(id) || c.read) continue;
            Violation v{Kind::kUnread};
            v.severity = is_accumulator(a) ? Severity::kError : Severity::kWarning;
            v.access = id;
            v.point = static_cast<std::int64_t>(j) / a.units_per_elem;
            v.unit = a.unit()[static_cast<std::size_t>(v.point)] + static_cast<std::int64_t>(j) % a.units_per_elem;
            v.count = live_[id];
            add_violation(v);
            break;
          }
        }
      }
    }
  }

  // The D of an MMA (tcgen05.mma, gemm_async): its result is the kernel's output.
  bool is_accumulator(const Access& a) const {
    const OpData& d = m_.ops[a.op].data;
    return a.acc.write && (std::holds_alternative<MmaOp>(d) || std::holds_alternative<GemmAsyncOp>(d));
  }

  std::int64_t unit_of(const Access& a, std::size_t j) const {
    return a.unit()[j / static_cast<std::size_t>(a.units_per_elem)] +
           static_cast<std::int64_t>(j % static_cast<std::size_t>(a.units_per_elem));
  }

  void read_units(std::span<Cell> st, std::size_t id) {
    Access& a = accesses_[id];
    const auto& cells = *a.cells;
    // A register accumulator zeroed by thread arithmetic, or a TMA reduction into global memory
    // (copy_async "reduce"): it adds to what the host or an earlier launch left there.
    const bool local_rmw = a.acc.rmw && (roots_[a.root].space == Space::kLocal || roots_[a.root].space == Space::kGlobal);
    bool reported = false;
    std::int64_t* live = live_.data();
    std::uint8_t* consumed = consumed_.data();
    const std::int32_t* gw = group_writer_.data();
    std::int32_t run = run_group_;
    for (std::size_t j = 0; j < cells.size(); ++j) {
      Cell& c = st[static_cast<std::size_t>(cells[j])];
      if (c.group == run) run = -1;  // the run's cells are touched
      if (c.group < 0) {
        if (reported) continue;
        reported = true;
        if (local_rmw) {
          // A register accumulator (mma.sync C, wgmma D) zeroed by thread arithmetic (mov), or a
          // global reduction target.
          ++roots_[a.root].implicit_inits;
          continue;
        }
        Violation v{Kind::kReadUnwritten};
        v.access = id;
        v.point = static_cast<std::int64_t>(j) / a.units_per_elem;
        v.unit = unit_of(a, j);
        add_violation(v);
        continue;
      }
      if (!c.read) {
        c.read = 1;
        const auto w = static_cast<std::size_t>(gw[c.group]);
        --live[w];
        consumed[w] = 1;
      }
    }
    run_group_ = run;
  }

  void write_units(std::span<Cell> st, std::size_t id) {
    Access& a = accesses_[id];
    const Root& r = roots_[a.root];
    const ResolvedBuffer& b = ctx_.buffers[a.buffer];
    if (b.model->broadcast) {
      Violation v{Kind::kBroadcastWrite};
      v.access = id;
      v.unit = a.unit().empty() ? 0 : a.unit().front();
      add_violation(v);
    }
    if (a.acc.writer_threads) check_writer_threads(id);
    const auto& cells = *a.cells;
    const std::int32_t self = static_cast<std::int32_t>(id);
    // Earlier writes nobody read yet, per writer: how many of their units this write takes over.
    std::vector<std::pair<std::int32_t, std::int64_t>> pending;  // (writer, units hit)
    std::vector<std::int64_t> live_before;                        // the writer's live count before this write
    std::optional<Violation> first_overlap;
    bool same_op_reported = false;
    for (std::size_t j = 0; j < cells.size(); ++j) {
      Cell& c = st[static_cast<std::size_t>(cells[j])];
      const std::int64_t p = static_cast<std::int64_t>(j) / a.units_per_elem;
      if (c.group == run_group_) run_group_ = -1;  // the run's cells are touched
      if (c.group == self) {
        if (!same_op_reported && c.wpoint / a.replicas != p / a.replicas &&
            !broadcast_twins(a, c.wpoint / a.replicas, p / a.replicas)) {
          Violation v{Kind::kSameOpTwice};
          v.access = id;
          v.point = p;
          v.unit = unit_of(a, j);
          v.other = id;
          v.other_point = c.wpoint;
          add_violation(v);
          same_op_reported = true;
        }
        continue;
      }
      if (c.group >= 0 && !c.read) {
        const std::int32_t w = writer_of(c);
        auto it = std::find_if(pending.begin(), pending.end(), [&](const auto& e) { return e.first == w; });
        if (it == pending.end()) {
          pending.emplace_back(w, 1);
          live_before.push_back(live_[static_cast<std::size_t>(w)]);
        } else {
          ++it->second;
        }
        if (!first_overlap) {
          Violation v{Kind::kDoubleWrite};
          v.access = id;
          v.point = p;
          v.unit = unit_of(a, j);
          v.other = static_cast<std::size_t>(w);
          v.other_point = c.wpoint;
          first_overlap = v;
        }
        --live_[static_cast<std::size_t>(w)];
      }
      c.group = self;
      c.wpoint = static_cast<std::int32_t>(p);
      c.read = 0;
      ++live_[id];
    }
    if (first_overlap) {
      // Registers: re-covering every unread unit of each earlier write is the next iteration.
      bool next_iteration = r.space == Space::kLocal;
      for (std::size_t k = 0; k < pending.size(); ++k)
        if (pending[k].second != live_before[k]) next_iteration = false;
      if (next_iteration)
        ++roots_[a.root].implicit_passes;
      else
        add_violation(*first_overlap);
    }
  }

  // Two region elements that differ only in the digits of stride-0 shard iters: the layout
  // broadcasts them to one cell on purpose (docs/checks.md "Storage cells by scope").
  bool broadcast_twins(const Access& a, std::int64_t e1, std::int64_t e2) const {
    if (a.boxed) return false;
    const ResolvedBuffer& b = ctx_.buffers[a.buffer];
    const TileLayout& t = b.layout->tile();
    auto flat = [&](std::int64_t e) {
      const std::vector<std::int64_t> c = a.acc.region->coord(e);
      std::int64_t f = 0;
      for (std::size_t d = 0; d < c.size(); ++d) f = f * b.model->shape[d] + c[d];
      return t.split(f);
    };
    const auto d1 = flat(e1), d2 = flat(e2);
    for (std::size_t k = 0; k < t.shard.size(); ++k)
      if (t.shard[k].stride != 0 && d1[k] != d2[k]) return false;
    return true;
  }

  // A write from registers: element i of the written region is stored by every thread that
  // holds element i of the source register region.
  void check_writer_threads(std::size_t id) {
    const Access& a = accesses_[id];
    const Region& src = *a.acc.writer_threads;
    const ResolvedBuffer* sb = ctx_.buffer(src.buffer);
    if (!sb || !sb->layout || sb->elem_bits <= 0) return;
    try {
      RegionSweep sw(*sb, src);
      if (sw.replicas() < 2) return;
      const std::vector<int>& warps = m_.ops[a.op].warps;
      std::int64_t cur = -1, first_thread = -1;
      sw.for_each([&](std::int64_t i, std::int64_t, const Coord& c) {
        const RegCell rc = reg_cell_of(*sb, c, warps);
        const std::int64_t t = static_cast<std::int64_t>(rc.warp) * 32 + rc.lane;
        if (i != cur) {
          cur = i;
          first_thread = t;
          return true;
        }
        if (t == first_thread) return true;
        Violation v{Kind::kTwoThreads};
        v.access = id;
        v.point = i * a.replicas;
        v.unit = a.unit().empty() ? 0 : a.unit()[static_cast<std::size_t>(v.point)];
        v.threads[0] = first_thread;
        v.threads[1] = t;
        add_violation(v);
        return false;
      });
    } catch (const InputError&) {
      // The fragment's own problems are kernel.fragment's.
    }
  }

  // Register range [lo, hi) an access covers in the thread of `unit` (registers only).
  std::pair<std::int64_t, std::int64_t> regs_of_thread(const Access& a, std::int64_t unit) const {
    const std::int64_t g = roots_[a.root].gran_bits;
    const Keys& keys = roots_[a.root].keys;
    const std::int64_t thread = keys.thread_reg(unit * g).first;
    std::int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (std::int64_t u : a.unit()) {
      const auto [t, reg] = keys.thread_reg(u * g);
      if (t != thread) continue;
      const std::int64_t last = keys.thread_reg(u * g + a.units_per_elem * g - 1).second;
      lo = std::min(lo, reg);
      hi = std::max(hi, last + 1);
    }
    return {lo, hi};
  }

  // A TMA box point: its box coordinate (dim 0 first) and the region element at its first byte.
  std::vector<std::int64_t> box_coord(const Access& a, std::int64_t point) const {
    std::vector<std::int64_t> e;
    for (std::int64_t extent : a.tma->tensor_map.box) {
      e.push_back(point % extent);
      point /= extent;
    }
    return e;
  }
  std::optional<std::vector<std::int64_t>> box_element(const Access& a, std::int64_t point) const {
    const ResolvedBuffer& b = ctx_.buffers[a.buffer];
    const std::int64_t want = a.unit()[static_cast<std::size_t>(point)] * roots_[a.root].gran_bits;
    std::optional<std::int64_t> found;
    try {
      RegionSweep sw(b, *a.acc.region);
      sw.for_each([&](std::int64_t i, std::int64_t, const Coord& c) {
        if (smem_bit_of(b, c) != want) return true;
        found = i;
        return false;
      });
    } catch (const InputError&) {
    }
    if (!found) return std::nullopt;
    return a.acc.region->coord(*found);
  }

  nlohmann::json part_json(const Access& a, std::int64_t point) const {
    nlohmann::json j = {{"op", m_.ops[a.op].name}, {"buffer", ctx_.model->buffers[a.buffer].name}};
    if (a.boxed) {
      j["box"] = box_coord(a, point);
      const auto e = box_element(a, point);
      j["element"] = e ? nlohmann::json(*e) : nlohmann::json(nullptr);
      return j;
    }
    j["element"] = a.acc.region->coord(elem_of(a, point));
    if (a.replicas > 1) j["replica"] = point % a.replicas;
    return j;
  }

  std::string elem_text(const Access& a, std::int64_t point) const {
    const std::string& name = ctx_.model->buffers[a.buffer].name;
    if (a.boxed) {
      const auto e = box_element(a, point);
      return fmt::format("box element {} ({})", coord_text(box_coord(a, point)),
                         e ? fmt::format("element {} of '{}'", coord_text(*e), name)
                           : fmt::format("outside the region '{}'", a.acc.region->text));
    }
    return fmt::format("element {} of '{}'", coord_text(a.acc.region->coord(elem_of(a, point))), name);
  }

  // ", and 'op' moves 'src' into 'dst'" for an op with one read region.
  std::string moves_text(const Access& a) const {
    for (const RegionAccess& ra : op_accesses(m_.ops[a.op], m_))
      if (!ra.write && ra.region != a.acc.region)
        return fmt::format(", and '{}' moves '{}' into '{}'", m_.ops[a.op].name, ra.region->text, a.acc.region->text);
    return "";
  }

  KernelFinding fail_finding(std::size_t subject, const Violation& v) const {
    const Access& a = accesses_[v.access];
    const Root& r = roots_[a.root];
    const std::string& opname = m_.ops[a.op].name;
    const std::int64_t key = v.unit * r.gran_bits;
    KernelFinding f = buffer_finding(ctx_, subject, prove::Status::kFail, "");
    f.severity = v.severity;
    f.related = {opname};
    nlohmann::json w = {{"kind", ""}, {"buffer", ctx_.model->buffers[subject].name}, {"cell", r.keys.cell_json(key)}};
    const std::string more =
        counts_.at(subject) > 1 ? fmt::format(" ({} problems on this buffer, this is the first)", counts_.at(subject))
                                : "";
    switch (v.kind) {
      case Kind::kBroadcastWrite:
        w["kind"] = "broadcast write";
        w["op"] = opname;
        f.message = fmt::format("op '{}' writes '{}', which is declared \"broadcast\": a broadcast view repeats "
                                "elements on purpose and is read-only{}",
                                opname, ctx_.model->buffers[a.buffer].name, more);
        f.fix = "write the buffer the view is taken of, or drop \"broadcast\" if the view is meant to be written";
        break;
      case Kind::kTwoThreads: {
        w["kind"] = "two threads";
        w["second"] = part_json(a, v.point);
        w["threads"] = {{{"warp", v.threads[0] / 32}, {"lane", v.threads[0] % 32}},
                        {{"warp", v.threads[1] / 32}, {"lane", v.threads[1] % 32}}};
        f.message = fmt::format(
            "op '{}' stores {} ({}) from two threads: its source '{}' holds element {} in warp {} lane {} and in "
            "warp {} lane {}{}",
            opname, elem_text(a, v.point), r.keys.cell_text(key), a.acc.writer_threads->text,
            coord_text(a.acc.writer_threads->coord(elem_of(a, v.point))), v.threads[0] / 32, v.threads[0] % 32,
            v.threads[1] / 32, v.threads[1] % 32, more);
        f.fix = "store each element from one thread (predicate the store on the replica index), or use a source "
                "fragment without replicas";
        break;
      }
      case Kind::kSameOpTwice: {
        w["kind"] = "one op writes a cell twice";
        w["first"] = part_json(a, v.other_point);
        w["second"] = part_json(a, v.point);
        f.message = fmt::format("op '{}' writes {} twice in one instruction: {} and {} of its region occupy it{}",
                                opname, r.keys.cell_text(key), elem_text(a, v.other_point), elem_text(a, v.point),
                                more);
        f.fix = "give the region a layout that puts distinct elements in distinct cells (see layout.injective)";
        break;
      }
      case Kind::kDoubleWrite: {
        const Access& o = accesses_[*v.other];
        const std::string& other = m_.ops[o.op].name;
        f.related = {m_.ops[o.op].name, opname};
        w["kind"] = "written twice";
        w["first"] = part_json(o, v.other_point);
        w["second"] = part_json(a, v.point);
        if (r.space == Space::kLocal) {
          const auto ro = regs_of_thread(o, v.unit), ra = regs_of_thread(a, v.unit);
          w["first"]["regs"] = {ro.first, ro.second};
          w["second"]["regs"] = {ra.first, ra.second};
          const nlohmann::json c = r.keys.cell_json(key);
          f.message = fmt::format(
              "op '{}' writes registers {} of warp {} lane {} that op '{}' wrote ({}) and no op read since: register "
              "range {} overlaps {}; {} held {} from '{}'{}{}",
              opname, regs_range_text(ra), c["warp"].get<std::int64_t>(), c["lane"].get<std::int64_t>(), other,
              regs_range_text(ro), regs_range_text({std::max(ra.first, ro.first), std::min(ra.second, ro.second)}),
              regs_range_text(ro), r.keys.cell_text(key), elem_text(o, v.other_point), other, moves_text(a), more);
          if (ra.first >= ro.first && ra.first < ro.second)
            f.fix = fmt::format("start '{}' at register {}, after the registers {} of '{}' (advance the register "
                                "offset in 32-bit registers)",
                                opname, ro.second, regs_range_text(ro), other);
          else
            f.fix = "give the two ops disjoint register ranges";
        } else {
          f.message = fmt::format("{} ({}) is written by op '{}' and again by op '{}' with no read in between: "
                                  "the first write is lost{}",
                                  elem_text(a, v.point), r.keys.cell_text(key), other, opname, more);
          f.fix = fmt::format("make '{}' and '{}' write disjoint regions, or read the first result before '{}' "
                              "overwrites it",
                              other, opname, opname);
        }
        break;
      }
      case Kind::kReadUnwritten: {
        w["kind"] = "read before written";
        w["reader"] = part_json(a, v.point);
        if (a.acc.rmw) {
          f.message = fmt::format("op '{}' accumulates into {} ({}), which no earlier op wrote: the accumulator "
                                  "starts from whatever the {} held{}",
                                  opname, elem_text(a, v.point), r.keys.cell_text(key), space_noun(r.space), more);
          f.fix = fmt::format("the first K step must overwrite: \"accumulate\": false on '{}' (enable_input_d = 0)",
                              opname);
        } else {
          f.message = fmt::format("op '{}' reads {} ({}), which no earlier op wrote{}", opname, elem_text(a, v.point),
                                  r.keys.cell_text(key), more);
          f.fix = "add the op that writes these elements before it, or correct the region it reads";
        }
        break;
      }
      case Kind::kUnread: {
        w["kind"] = "never read";
        w["writer"] = part_json(a, v.point);
        w["unread_units"] = v.count;
        w["unit_bits"] = r.gran_bits;
        f.message = fmt::format(
            "op '{}' writes {} ({}) and {} {}-bit units with it that no later op reads, while later ops read the rest "
            "of what it wrote{}{}",
            opname, elem_text(a, v.point), r.keys.cell_text(key), v.count, r.gran_bits,
            is_accumulator(a) ? ": a warp partition or column split that leaves part of the result behind" : "",
            more);
        f.fix = is_accumulator(a)
                    ? fmt::format("add the tcgen05.ld (warps / columns) that reads the rest of '{}'",
                                  ctx_.model->buffers[a.buffer].name)
                    : "load only what is read, or add the op that reads the rest";
        break;
      }
    }
    f.witness = std::move(w);
    return f;
  }

  std::vector<KernelFinding> findings() const {
    std::vector<KernelFinding> out;
    std::vector<bool> written(ctx_.buffers.size(), false);
    std::vector<std::int64_t> writers(ctx_.buffers.size(), 0);
    for (const Access& a : accesses_)
      if (a.acc.write) {
        written[a.buffer] = true;
        ++writers[a.buffer];
      }
    for (std::size_t j = 0; j < ctx_.buffers.size(); ++j) {
      const Root& r = roots_[ctx_.buffers[j].root];
      auto it = first_.find(j);
      if (it != first_.end() && it->second) {
        out.push_back(fail_finding(j, *it->second));
        continue;
      }
      if (!written[j]) continue;
      if (!r.why_not.empty()) {
        out.push_back(buffer_finding(ctx_, j, r.undecided ? prove::Status::kUndecided : prove::Status::kNotApplicable,
                                     r.why_not));
        continue;
      }
      std::string msg = fmt::format("{} op(s) write it; every {}-bit unit of {} they touch is written once per pass and "
                                    "written before it is read",
                                    writers[j], r.gran_bits, space_noun(r.space));
      if (r.implicit_passes)
        msg += fmt::format(" ({} register rewrite(s) with no op reading in between taken as loop iterations whose "
                           "consumer is thread arithmetic)",
                           r.implicit_passes);
      if (r.implicit_inits && r.space == Space::kGlobal)
        msg += fmt::format(" ({} TMA reduction(s) add to global memory no op wrote: what the host or an earlier "
                           "launch left there)",
                           r.implicit_inits);
      else if (r.implicit_inits)
        msg += fmt::format(" ({} accumulating MMA(s) read register accumulators no op wrote: taken as zeroed by thread "
                           "arithmetic (mov), which the format does not describe)",
                           r.implicit_inits);
      out.push_back(buffer_finding(ctx_, j, prove::Status::kPass, msg));
    }
    return out;
  }

  const KernelContext& ctx_;
  const KernelModel& m_;
  std::vector<Root> roots_;
  std::vector<Access> accesses_;
  std::map<std::size_t, std::optional<Violation>> first_;
  // Per access: units whose last writer it is and that nobody read since; whether a later op
  // read a unit it wrote.
  std::vector<std::int64_t> live_;
  std::vector<std::uint8_t> consumed_;
  // Write groups: the cells one slow-path write set carry its access id as their group; a run of
  // read-modify-writes of exactly those cells (K steps) hands the group on without touching them.
  std::vector<std::int32_t> group_writer_;
  std::int32_t run_group_ = -1;                          // the group a run may continue, -1: none
  const std::vector<std::int32_t>* run_cells_ = nullptr; // its cells
  std::map<std::size_t, std::int64_t> counts_;
};

}  // namespace

std::vector<KernelFinding> coverage(const KernelContext& ctx) { return Coverage(ctx).run(); }

}  // namespace tirx::kernel::checks
