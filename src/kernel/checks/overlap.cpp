// kernel.overlap: buffers that are live at the same time share no storage; totals fit the target.
//
// Storage is compared at byte granularity: TMEM as (lane, 32-bit column, byte in the cell) with
// the target's 128 lanes x 512 columns (PTX ISA 9.1 §9.7.16.1), shared memory as absolute byte
// addresses in the CTA's window (bytes_per_cta from models/targets). A buffer occupies the
// bytes its layout's elements (every replica) cover, from its placement. Buffers with the same
// storage root (a base and its views) alias on purpose and are not compared; two buffers
// conflict only when their live ranges ("live": [first_op, last_op], default the whole kernel)
// intersect. Bounding boxes (Box) are compared first; only buffers whose boxes meet another
// root's are swept into bitmaps. A shared view lies inside the bytes its storage root covers
// (from the root's lowest to its highest byte): a view reaching past them names storage its base
// does not have. Totals: the sum of tcgen05.alloc columns (or, without alloc ops, the largest column
// any TMEM buffer reaches) against the target's TMEM columns; the highest shared byte any buffer
// reaches against bytes_per_cta.
#include <algorithm>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "checks.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/budget.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/sweep.hpp"
#include "tirx_verify/layout/swizzle_block.hpp"

namespace tirx::kernel::checks {

namespace {

// The storage one buffer covers, as a bitmap of byte keys from `lo`: shared memory keys are byte
// addresses, TMEM keys ((lane * columns) + col) * 4 + byte.
struct Footprint {
  std::int64_t lo = 0, hi = -1;      // keys [lo, hi] (lo aligned down to a multiple of 64)
  std::int64_t first = 0;            // the lowest key covered
  std::vector<std::uint64_t> bits;   // bit k: key lo + k is covered
  std::int64_t count = 0;
  std::int64_t max_col = -1;         // TMEM: the highest 32-bit column a key reaches
  bool ok = false;
  std::string why_not;
};

std::int64_t tmem_key(const TmemCell& c, std::int64_t columns) { return ((c.lane * columns) + c.col) * 4 + c.bit / 8; }

// Visits every storage key b covers (each element's bytes, every replica), with its flat index.
template <class F>
// The sweep polls the command's deadline (EngineLimits::budget) every 2^16 keys.
void for_each_key(const KernelContext& ctx, const ResolvedBuffer& b, F&& f) {
  const std::int64_t bytes_per_elem = std::max<std::int64_t>(1, b.elem_bits / 8);
  Pacer pace(ctx.limits.budget, fmt::format("storage keys of buffer '{}'", b.model->name),
             static_cast<double>(b.layout->size()) * static_cast<double>(b.layout->tile().replica_count()) *
                 static_cast<double>(bytes_per_elem),
             "keys");
  if (b.scope == prove::Scope::kTmem) {
    const std::int64_t columns = ctx.target->tmem->columns;
    for_each_tmem_cell(b, ctx.limits.max_enumeration_points, [&](std::int64_t flat, const TmemCell& c) {
      pace.step(bytes_per_elem);
      for (std::int64_t k = 0; k < bytes_per_elem; ++k) f(flat, tmem_key(c, columns) + k);
    });
  } else {
    for_each_smem_byte(b, ctx.limits.max_enumeration_points, [&](std::int64_t flat, std::int64_t addr) {
      pace.step(bytes_per_elem);
      for (std::int64_t k = 0; k < bytes_per_elem; ++k) f(flat, addr + k);
    });
  }
}

// Keys past this span are not compared (a placement or layout this far apart is reported by
// layout.bounds / the totals): 2^27 keys = 16 MiB of bitmap.
constexpr std::int64_t kMaxSpan = std::int64_t{1} << 27;

// A buffer of at most this many keys (every corpus buffer: the largest has 2^18) is swept once,
// its keys kept in a charged list (8 bytes each) until the bitmap is filled; a larger one is
// swept twice (bounds, then bits), so its memory stays the bitmap's.
constexpr double kCollectKeys = double(std::int64_t{1} << 22);

Footprint footprint(const KernelContext& ctx, const ResolvedBuffer& b) {
  Footprint f;
  if (!b.layout) {
    f.why_not = "its layout did not parse";
    return f;
  }
  if (b.elem_bits <= 0) {
    f.why_not = "it has no dtype";
    return f;
  }
  try {
    const bool tmem = b.scope == prove::Scope::kTmem;
    const std::int64_t columns = tmem ? ctx.target->tmem->columns : 1;
    const double keys_estimate = static_cast<double>(b.layout->size()) *
                                 static_cast<double>(b.layout->tile().replica_count()) *
                                 static_cast<double>(std::max<std::int64_t>(1, b.elem_bits / 8));
    const bool collect = keys_estimate <= kCollectKeys;
    std::vector<std::int64_t> keys;
    MemoryCharge keys_charge;
    if (collect) {
      keys_charge = charge(ctx.limits.budget, static_cast<std::int64_t>(keys_estimate) * 8,
                           fmt::format("storage keys of buffer '{}'", b.model->name));
      keys.reserve(static_cast<std::size_t>(keys_estimate));
    }
    std::int64_t lo = INT64_MAX, hi = INT64_MIN;
    for_each_key(ctx, b, [&](std::int64_t, std::int64_t key) {
      lo = std::min(lo, key);
      hi = std::max(hi, key);
      if (tmem) f.max_col = std::max(f.max_col, (key / 4) % columns);
      if (collect) keys.push_back(key);
    });
    if (lo > hi) {
      f.why_not = "it has no elements";
      return f;
    }
    if (hi - lo >= kMaxSpan) {
      f.why_not = fmt::format("its storage spans {} bytes, past the {} this check compares", hi - lo + 1, kMaxSpan);
      return f;
    }
    f.first = lo;
    lo -= ((lo % 64) + 64) % 64;  // word-aligned, so two bitmaps AND word by word
    f.lo = lo;
    f.hi = hi;
    f.bits.assign(static_cast<std::size_t>((hi - lo) / 64 + 1), 0);
    auto mark = [&](std::int64_t key) {
      const std::int64_t k = key - lo;
      std::uint64_t& w = f.bits[static_cast<std::size_t>(k / 64)];
      const std::uint64_t bit = std::uint64_t{1} << (k % 64);
      if (!(w & bit)) ++f.count;
      w |= bit;
    };
    if (collect) {
      for (std::int64_t key : keys) mark(key);
    } else {
      for_each_key(ctx, b, [&](std::int64_t, std::int64_t key) { mark(key); });
    }
  } catch (const InputError& e) {
    f.why_not = e.message();
    return f;
  }
  f.ok = true;
  return f;
}

// A cheap bound of a buffer's storage, from the extremes of its coordinates (O(iters)): shared
// bytes [lo, hi], or TMEM lanes [lo, hi] x 32-bit columns [col_lo, col_hi]. Exact for affine
// layouts; a swizzle changes only the bits of m below the top of its XOR field, so m's interval
// is rounded out to those aligned blocks. Two buffers whose boxes do not
// meet share no storage, and their bitmaps are never built.
struct Box {
  bool ok = false;
  bool exact = true;  // false when widened by a swizzle
  std::int64_t lo = 0, hi = -1, col_lo = 0, col_hi = -1;
};

Box box_of(const ResolvedBuffer& b) {
  Box x;
  if (!b.layout || b.elem_bits <= 0) return x;
  try {
    const Sweep sw(b.layout->tile(), true);
    auto range = [&](AxisId a) {
      const int slot = sw.index_of(Axis(a));
      return slot < 0 ? std::pair<std::int64_t, std::int64_t>{0, 0} : std::pair{sw.min(slot), sw.max(slot)};
    };
    if (b.scope == prove::Scope::kTmem) {
      const auto [l0, l1] = range(AxisId::TLane);
      const auto [c0, c1] = range(AxisId::TCol);
      x.lo = checked_add(b.tmem_lane, l0);
      x.hi = checked_add(b.tmem_lane, l1);
      x.col_lo = checked_add(b.tmem_col, floor_div(checked_mul(c0, b.elem_bits), 32));
      x.col_hi = checked_add(b.tmem_col, floor_div(checked_add(checked_mul(c1, b.elem_bits), b.elem_bits - 1), 32));
    } else {
      auto [m0, m1] = range(AxisId::m);
      if (const SwizzleSpec* z = b.layout->swizzle(); z && z->swizzle_len > 0) {
        std::tie(m0, m1) = swizzled_range(*z, m0, m1);  // swizzle_block.hpp
        x.exact = false;
      }
      const std::int64_t bytes = std::max<std::int64_t>(1, b.elem_bits / 8);
      x.lo = checked_add(b.smem_base_bytes, floor_div(checked_mul(m0, b.elem_bits), 8));
      x.hi = checked_add(checked_add(b.smem_base_bytes, floor_div(checked_mul(m1, b.elem_bits), 8)), bytes - 1);
    }
  } catch (const InputError&) {
    return x;  // overflow: no bound; the bitmap footprint reports why
  }
  x.ok = true;
  return x;
}

bool boxes_meet(const Box& a, const Box& b, bool tmem) {
  if (!a.ok || !b.ok) return true;  // unknown: compare the footprints
  if (a.hi < b.lo || b.hi < a.lo) return false;
  return !tmem || !(a.col_hi < b.col_lo || b.col_hi < a.col_lo);
}

// The first key both footprints cover and how many they share; nullopt when none. Both bitmaps
// start at a multiple of 64, so they are compared a 64-bit word at a time.
std::optional<std::pair<std::int64_t, std::int64_t>> first_common(const Footprint& a, const Footprint& b) {
  const std::int64_t lo = std::max(a.lo, b.lo), hi = std::min(a.hi, b.hi);
  std::optional<std::int64_t> first;
  std::int64_t n = 0;
  for (std::int64_t w = lo; w <= hi; w += 64) {
    const std::uint64_t x =
        a.bits[static_cast<std::size_t>((w - a.lo) / 64)] & b.bits[static_cast<std::size_t>((w - b.lo) / 64)];
    if (!x) continue;
    if (!first) first = w + __builtin_ctzll(x);
    n += __builtin_popcountll(x);
  }
  if (!first) return std::nullopt;
  return std::make_pair(*first, n);
}

// The element of `b` (buffer coordinate) whose storage covers `key`.
std::vector<std::int64_t> element_at(const KernelContext& ctx, const ResolvedBuffer& b, std::int64_t key) {
  std::int64_t found = -1;
  for_each_key(ctx, b, [&](std::int64_t flat, std::int64_t k) {
    if (k == key && found < 0) found = flat;
  });
  return found < 0 ? std::vector<std::int64_t>{} : coord_of_flat(b, found);
}

std::pair<std::size_t, std::size_t> live_range(const KernelModel& m, const BufferModel& b) {
  if (!b.live) return {0, m.ops.empty() ? 0 : m.ops.size() - 1};
  return {*m.op_index(b.live->first), *m.op_index(b.live->second)};
}

bool is_storage(const ResolvedBuffer& b) {
  return b.scope == prove::Scope::kTmem || b.scope == prove::Scope::kShared;
}

nlohmann::json cell_json(const KernelContext& ctx, const ResolvedBuffer& b, std::int64_t key) {
  if (b.scope == prove::Scope::kTmem) {
    const std::int64_t columns = ctx.target->tmem->columns;
    return {{"TLane", key / 4 / columns}, {"TCol", (key / 4) % columns}, {"byte", key % 4}};
  }
  return {{"smem_byte", key}};
}

std::string cell_text(const KernelContext& ctx, const ResolvedBuffer& b, std::int64_t key) {
  if (b.scope == prove::Scope::kTmem) {
    const std::int64_t columns = ctx.target->tmem->columns;
    return fmt::format("TMEM cell (lane {}, column {}) byte {}", key / 4 / columns, (key / 4) % columns, key % 4);
  }
  return fmt::format("shared byte {}", key);
}

// The TMEM allocation lifecycle, for a kernel with tcgen05.alloc ops, walking the ops in program
// order: every op that reads or writes a TMEM buffer runs while an allocation is held; a
// tcgen05.dealloc frees the columns an earlier tcgen05.alloc took (the same count; PTX ISA 9.1
// §9.7.16.7.1: dealloc releases an allocation, and the CTA must release all of it before it
// exits). The first problem fails the finding (error); allocations still held at the end are a
// warning (the model's pass may stop before the kernel's teardown).
KernelFinding tmem_lifecycle(const KernelContext& ctx) {
  const KernelModel& m = *ctx.model;
  std::vector<std::pair<std::int64_t, std::size_t>> held;  // (columns, alloc op)
  std::optional<std::size_t> last_dealloc;
  auto fail = [&](std::size_t i, const std::string& kind, const std::string& msg, const std::string& fix) {
    KernelFinding f = kernel_finding(ctx, prove::Status::kFail, msg);
    nlohmann::json h = nlohmann::json::array();
    for (const auto& [cols, at] : held) h.push_back({{"op", m.ops[at].name}, {"cols", cols}});
    f.witness = {{"kind", kind}, {"op", m.ops[i].name}, {"held", h}};
    f.related = {m.ops[i].name};
    f.fix = fix;
    return f;
  };
  for (std::size_t i = 0; i < m.ops.size(); ++i) {
    const Op& op = m.ops[i];
    if (const auto* a = std::get_if<AllocOp>(&op.data)) {
      if (!a->dealloc) {
        held.emplace_back(a->cols, i);
        continue;
      }
      const auto it = std::find_if(held.begin(), held.end(), [&](const auto& h) { return h.first == a->cols; });
      if (it != held.end()) {
        held.erase(it);
        last_dealloc = i;
        continue;
      }
      if (held.empty())
        return fail(i, "dealloc without alloc",
                    fmt::format("op '{}' deallocates {} TMEM columns while no allocation is held{}", op.name, a->cols,
                                last_dealloc ? fmt::format(" (op '{}' freed the last one)", m.ops[*last_dealloc].name)
                                             : std::string()),
                    "free each tcgen05.alloc once");
      std::string sizes;
      for (const auto& h : held) sizes += fmt::format("{}{}", sizes.empty() ? "" : ", ", h.first);
      return fail(i, "dealloc size",
                  fmt::format("op '{}' deallocates {} TMEM columns, but the allocations held take {} columns "
                              "(tcgen05.dealloc frees what one tcgen05.alloc took, PTX ISA 9.1 §9.7.16.7.1)",
                              op.name, a->cols, sizes),
                  fmt::format("deallocate {} columns", held.front().first));
    }
    if (!held.empty()) continue;
    for (const auto* names : {&op.reads, &op.writes})
      for (const auto& name : *names)
        if (const ResolvedBuffer* b = ctx.buffer(name); b && b->scope == prove::Scope::kTmem)
          return fail(i, last_dealloc ? "use after dealloc" : "use before alloc",
                      last_dealloc ? fmt::format("op '{}' uses TMEM buffer '{}' after op '{}' deallocated the kernel's "
                                                 "TMEM",
                                                 op.name, name, m.ops[*last_dealloc].name)
                                   : fmt::format("op '{}' uses TMEM buffer '{}' before any tcgen05.alloc", op.name, name),
                      last_dealloc ? "move the tcgen05.dealloc after the last TMEM access"
                                   : "allocate TMEM (tcgen05.alloc) before its first use");
  }
  if (!held.empty()) {
    KernelFinding f = kernel_finding(
        ctx, prove::Status::kFail,
        fmt::format("TMEM lifecycle: {} column(s) allocated by op '{}' are never deallocated (the CTA must release its "
                    "TMEM before it exits, PTX ISA 9.1 §9.7.16.7.1)",
                    held.front().first, m.ops[held.front().second].name));
    f.severity = Severity::kWarning;
    f.witness = {{"kind", "never deallocated"}, {"op", m.ops[held.front().second].name}};
    f.fix = "add the tcgen05.dealloc of the kernel's teardown";
    return f;
  }
  return kernel_finding(ctx, prove::Status::kPass,
                        "TMEM lifecycle: every TMEM access runs while an allocation is held; every tcgen05.dealloc "
                        "frees what a tcgen05.alloc took");
}

}  // namespace

std::vector<KernelFinding> overlap(const KernelContext& ctx) {
  std::vector<KernelFinding> out;
  const KernelModel& m = *ctx.model;
  const std::size_t nb = ctx.buffers.size();
  std::vector<bool> in_scope(nb, false);
  std::vector<Box> boxes(nb);
  for (std::size_t j = 0; j < nb; ++j) {
    const ResolvedBuffer& b = ctx.buffers[j];
    if (!is_storage(b)) continue;
    if (b.scope == prove::Scope::kTmem && !ctx.target->tmem) continue;
    in_scope[j] = true;
    if (b.placed) boxes[j] = box_of(b);
  }
  // The candidate pairs: placed, same scope, different storage roots, live at the same time,
  // boxes that meet. Only their buffers get a bitmap footprint (built once, on first use).
  std::vector<Footprint> fp(nb);
  std::vector<bool> have_fp(nb, false), compared(nb, false), failed(nb, false);
  auto footprint_of = [&](std::size_t j) -> const Footprint& {
    if (!have_fp[j]) {
      fp[j] = footprint(ctx, ctx.buffers[j]);
      have_fp[j] = true;
    }
    return fp[j];
  };
  for (std::size_t a = 0; a < nb; ++a) {
    if (!in_scope[a] || !ctx.buffers[a].placed) continue;
    for (std::size_t c = a + 1; c < nb; ++c) {
      if (!in_scope[c] || !ctx.buffers[c].placed) continue;
      const ResolvedBuffer &ba = ctx.buffers[a], &bc = ctx.buffers[c];
      if (ba.scope != bc.scope || ba.root == bc.root) continue;
      const auto [a0, a1] = live_range(m, *ba.model);
      const auto [c0, c1] = live_range(m, *bc.model);
      if (a1 < c0 || c1 < a0) continue;
      if (!boxes_meet(boxes[a], boxes[c], ba.scope == prove::Scope::kTmem)) continue;
      const Footprint &fa = footprint_of(a), &fc = footprint_of(c);
      if (!fa.ok || !fc.ok) continue;
      compared[a] = compared[c] = true;
      const auto common = first_common(fa, fc);
      if (!common) continue;
      const auto [key, shared_units] = *common;
      const auto ea = element_at(ctx, ba, key), ec = element_at(ctx, bc, key);
      KernelFinding f = buffer_finding(
          ctx, a, prove::Status::kFail,
          fmt::format("buffers '{}' and '{}' are live at the same time and share {} storage units, first {}: "
                      "element {} of '{}' and element {} of '{}'",
                      ba.model->name, bc.model->name, shared_units, cell_text(ctx, ba, key), coord_text(ea),
                      ba.model->name, coord_text(ec), bc.model->name));
      f.related = {bc.model->name};
      f.witness = {{"a", {{"buffer", ba.model->name}, {"element", ea}}},
                   {"b", {{"buffer", bc.model->name}, {"element", ec}}},
                   {"cell", cell_json(ctx, ba, key)},
                   {"shared_units", shared_units}};
      f.fix = "place one of them elsewhere, declare one a view of the other (\"view_of\") if they alias on purpose, "
              "or give them disjoint \"live\" ranges";
      failed[a] = failed[c] = true;
      out.push_back(std::move(f));
    }
  }
  // A shared view inside its storage root's bytes.
  for (std::size_t j = 0; j < nb; ++j) {
    const ResolvedBuffer& v = ctx.buffers[j];
    if (!in_scope[j] || !v.placed || v.scope != prove::Scope::kShared || v.root == j) continue;
    const std::size_t r = v.root;
    if (r >= nb || !in_scope[r] || !ctx.buffers[r].placed) continue;
    const Footprint &fv = footprint_of(j), &fr = footprint_of(r);
    const ResolvedBuffer& base = ctx.buffers[r];
    if (!fv.ok || !fr.ok) {  // its containment is not decided: never a pass
      out.push_back(buffer_finding(ctx, j, prove::Status::kNotApplicable,
                                   fmt::format("not compared with its base '{}': {}", base.model->name,
                                               fv.ok ? "the base's storage: " + fr.why_not : fv.why_not)));
      failed[j] = true;
      continue;
    }
    if (fv.first >= fr.first && fv.hi <= fr.hi) continue;
    // The first byte outside: below the base's first byte, else the lowest one past its last.
    std::int64_t key = fv.first;
    if (fv.first >= fr.first) {
      for (std::int64_t k = std::max(fr.hi + 1, fv.lo); k <= fv.hi; ++k) {
        const std::uint64_t w = fv.bits[static_cast<std::size_t>((k - fv.lo) / 64)];
        if (!w) {
          k += 63 - (k - fv.lo) % 64;  // the rest of an empty word
          continue;
        }
        if (w >> ((k - fv.lo) % 64) & 1) {
          key = k;
          break;
        }
      }
    }
    const auto ev = element_at(ctx, v, key);
    KernelFinding f = buffer_finding(
        ctx, j, prove::Status::kFail,
        fmt::format("view '{}' reaches {} (its element {}), outside the storage of its base '{}' (shared bytes [{}, "
                    "{}]): a view reinterprets its base's bytes and must lie inside them",
                    v.model->name, cell_text(ctx, v, key), coord_text(ev), base.model->name, fr.first, fr.hi));
    f.related = {base.model->name};
    f.witness = {{"view", v.model->name}, {"element", ev}, {"cell", cell_json(ctx, v, key)},
                 {"base", base.model->name}, {"base_bytes", {fr.first, fr.hi}}};
    f.fix = fmt::format("start the view inside '{}' or give '{}' the shape that covers it", base.model->name,
                        base.model->name);
    failed[j] = true;
    out.push_back(std::move(f));
  }
  for (std::size_t j = 0; j < nb; ++j) {
    if (!in_scope[j] || failed[j]) continue;
    const ResolvedBuffer& b = ctx.buffers[j];
    if (!b.placed) {
      out.push_back(buffer_finding(ctx, j, prove::Status::kNotApplicable,
                                   "no placement: where the buffer lives is unknown (docs/model-format.md)"));
    } else if (have_fp[j] && !fp[j].ok) {
      out.push_back(buffer_finding(ctx, j, prove::Status::kNotApplicable, "not compared: " + fp[j].why_not));
    } else if (!boxes[j].ok && !have_fp[j]) {
      const Footprint& f = footprint_of(j);  // no bound: the footprint says why (or covers it)
      out.push_back(f.ok ? buffer_finding(ctx, j, prove::Status::kPass,
                                          fmt::format("shares no storage with a buffer live at the same time ({} bytes)",
                                                      f.count))
                         : buffer_finding(ctx, j, prove::Status::kNotApplicable, "not compared: " + f.why_not));
    } else if (compared[j]) {
      out.push_back(buffer_finding(ctx, j, prove::Status::kPass,
                                   fmt::format("shares no storage with a buffer live at the same time ({} bytes "
                                               "compared byte by byte)",
                                               fp[j].count)));
    } else {
      const Box& x = boxes[j];
      const std::string where =
          b.scope == prove::Scope::kTmem
              ? fmt::format("TMEM lanes [{}, {}] x columns [{}, {}]", x.lo, x.hi, x.col_lo, x.col_hi)
              : fmt::format("shared bytes [{}, {}]", x.lo, x.hi);
      out.push_back(buffer_finding(
          ctx, j, prove::Status::kPass,
          fmt::format("shares no storage with a buffer live at the same time (its {} meet no other storage's)", where)));
    }
  }
  // Totals against the target: the highest shared byte and TMEM column any placed buffer
  // reaches. Boxes are exact except where a swizzle widened them; those buffers are swept
  // (highest box first) until no other box can reach further.
  std::int64_t smem_end = 0;
  std::string smem_last;
  std::int64_t tmem_cols = 0;
  std::string tmem_last;
  std::vector<std::size_t> widened;
  for (std::size_t j = 0; j < nb; ++j) {
    if (!in_scope[j] || !ctx.buffers[j].placed) continue;
    const ResolvedBuffer& b = ctx.buffers[j];
    const Box& x = boxes[j];
    if (!x.ok) {
      const Footprint& f = footprint_of(j);
      if (!f.ok || f.count == 0) continue;
      if (b.scope == prove::Scope::kShared && f.hi + 1 > smem_end) smem_end = f.hi + 1, smem_last = b.model->name;
      if (b.scope == prove::Scope::kTmem && f.max_col + 1 > tmem_cols) tmem_cols = f.max_col + 1, tmem_last = b.model->name;
      continue;
    }
    if (b.scope == prove::Scope::kTmem) {
      if (x.col_hi + 1 > tmem_cols) tmem_cols = x.col_hi + 1, tmem_last = b.model->name;
    } else if (!x.exact) {
      widened.push_back(j);
    } else if (x.hi + 1 > smem_end) {
      smem_end = x.hi + 1, smem_last = b.model->name;
    }
  }
  std::sort(widened.begin(), widened.end(), [&](std::size_t p, std::size_t q) { return boxes[p].hi > boxes[q].hi; });
  for (std::size_t j : widened) {
    if (boxes[j].hi + 1 <= smem_end) break;  // no later box reaches further than what is known
    const Footprint& f = footprint_of(j);
    if (f.ok && f.count > 0 && f.hi + 1 > smem_end) smem_end = f.hi + 1, smem_last = ctx.buffers[j].model->name;
  }
  if (!smem_last.empty()) {
    const std::int64_t cap = ctx.target->smem_bytes_per_cta;
    KernelFinding f = kernel_finding(
        ctx, smem_end <= cap ? prove::Status::kPass : prove::Status::kFail,
        fmt::format("shared memory: the buffers reach byte {} ({}), the target has {} bytes per CTA", smem_end,
                    smem_last, cap));
    if (smem_end > cap) f.witness = {{"needed_bytes", smem_end}, {"capacity_bytes", cap}, {"buffer", smem_last}};
    out.push_back(std::move(f));
  }
  std::int64_t alloc_cols = 0;
  std::vector<std::string> bad_allocs;
  bool have_alloc = false;
  for (const Op& op : m.ops)
    if (const auto* a = std::get_if<AllocOp>(&op.data); a && !a->dealloc) {
      have_alloc = true;
      alloc_cols = checked_add(alloc_cols, a->cols);
      const auto& g = *ctx.target->tmem;
      if (a->cols < g.alloc_min_columns || a->cols > g.alloc_max_columns || (a->cols & (a->cols - 1)) != 0)
        bad_allocs.push_back(fmt::format("op '{}' allocates {} columns: tcgen05.alloc takes a power of two in [{}, {}] "
                                         "(PTX ISA 9.1 §9.7.16.7.1)",
                                         op.name, a->cols, g.alloc_min_columns, g.alloc_max_columns));
    }
  if ((have_alloc || !tmem_last.empty()) && ctx.target->tmem) {
    const std::int64_t cap = ctx.target->tmem->columns;
    const std::int64_t need = have_alloc ? alloc_cols : tmem_cols;
    const bool ok = need <= cap && bad_allocs.empty() && (!have_alloc || tmem_cols <= alloc_cols);
    std::string msg =
        have_alloc ? fmt::format("TMEM: tcgen05.alloc ops take {} columns, the buffers reach column {} ({}), the "
                                 "target has {}",
                                 alloc_cols, tmem_cols, tmem_last.empty() ? "none" : tmem_last, cap)
                   : fmt::format("TMEM: the buffers reach column {} ({}), the target has {}", tmem_cols, tmem_last, cap);
    for (const auto& b : bad_allocs) msg += "; " + b;
    KernelFinding f = kernel_finding(ctx, ok ? prove::Status::kPass : prove::Status::kFail, msg);
    if (!ok) f.witness = {{"allocated_cols", alloc_cols}, {"reached_cols", tmem_cols}, {"capacity_cols", cap}};
    out.push_back(std::move(f));
  }
  const bool any_alloc_op =
      std::any_of(m.ops.begin(), m.ops.end(), [](const Op& op) { return std::holds_alternative<AllocOp>(op.data); });
  if (any_alloc_op && ctx.target->tmem) out.push_back(tmem_lifecycle(ctx));
  return out;
}

}  // namespace tirx::kernel::checks
