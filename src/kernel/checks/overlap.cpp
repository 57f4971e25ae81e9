// kernel.overlap: buffers that are live at the same time share no storage; totals fit the target.
//
// Storage is compared at byte granularity: TMEM as (lane, 32-bit column, byte in the cell) with
// the target's 128 lanes x 512 columns (PTX ISA 9.1 §9.7.16.1), shared memory as absolute byte
// addresses in the CTA's window (bytes_per_cta from models/targets). A buffer occupies the
// bytes its layout's elements (every replica) cover, from its placement. Buffers with the same
// storage root (a base and its views) alias on purpose and are not compared; two buffers
// conflict only when their live ranges ("live": [first_op, last_op], default the whole kernel)
// intersect. Totals: the sum of tcgen05.alloc columns (or, without alloc ops, the largest column
// any TMEM buffer reaches) against the target's TMEM columns; the highest shared byte any buffer
// reaches against bytes_per_cta.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "checks.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::checks {

namespace {

// The storage one buffer covers: sorted unique byte keys.
struct Footprint {
  std::vector<std::int64_t> keys;  // sorted, unique
  bool ok = false;
  std::string why_not;
};

// TMEM key: ((lane * columns) + col) * 4 + byte.
std::int64_t tmem_key(const TmemCell& c, std::int64_t byte, std::int64_t columns) {
  return ((c.lane * columns) + c.col) * 4 + c.bit / 8 + byte;
}

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
  const auto& shape = b.model->shape;
  std::int64_t n = 1;
  for (auto e : shape) n = checked_mul(n, e);
  const std::int64_t bytes_per_elem = std::max<std::int64_t>(1, b.elem_bits / 8);
  const std::int64_t columns = ctx.target->tmem ? ctx.target->tmem->columns : 0;
  std::vector<std::int64_t> coord(shape.size(), 0);
  std::vector<std::pair<std::int64_t, std::int64_t>> tagged;  // key, flat element
  for (std::int64_t flat = 0; flat < n; ++flat) {
    if (b.scope == prove::Scope::kTmem) {
      for (const TmemCell& c : tmem_images(b, coord))
        for (std::int64_t k = 0; k < bytes_per_elem; ++k) tagged.emplace_back(tmem_key(c, k, columns), flat);
    } else {
      for (std::int64_t addr : smem_byte_images(b, coord))
        for (std::int64_t k = 0; k < bytes_per_elem; ++k) tagged.emplace_back(addr + k, flat);
    }
    for (std::size_t d = shape.size(); d-- > 0;) {  // row-major odometer
      if (++coord[d] < shape[d]) break;
      coord[d] = 0;
    }
  }
  std::sort(tagged.begin(), tagged.end());
  for (std::size_t i = 0; i < tagged.size(); ++i) {
    if (i && tagged[i].first == tagged[i - 1].first) continue;
    f.keys.push_back(tagged[i].first);
  }
  f.ok = true;  // elements for witnesses are found again by element_at()
  return f;
}

// The element of `b` (row-major coordinate) that covers storage key `key`.
std::vector<std::int64_t> element_at(const KernelContext& ctx, const ResolvedBuffer& b, std::int64_t key) {
  const auto& shape = b.model->shape;
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  const std::int64_t bytes_per_elem = std::max<std::int64_t>(1, b.elem_bits / 8);
  const std::int64_t columns = ctx.target->tmem ? ctx.target->tmem->columns : 0;
  std::vector<std::int64_t> coord(shape.size(), 0);
  for (std::int64_t flat = 0; flat < n; ++flat) {
    if (b.scope == prove::Scope::kTmem) {
      for (const TmemCell& c : tmem_images(b, coord))
        for (std::int64_t k = 0; k < bytes_per_elem; ++k)
          if (tmem_key(c, k, columns) == key) return coord;
    } else {
      for (std::int64_t addr : smem_byte_images(b, coord))
        if (key >= addr && key < addr + bytes_per_elem) return coord;
    }
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++coord[d] < shape[d]) break;
      coord[d] = 0;
    }
  }
  return {};
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

}  // namespace

std::vector<KernelFinding> overlap(const KernelContext& ctx) {
  std::vector<KernelFinding> out;
  const KernelModel& m = *ctx.model;
  const std::size_t nb = ctx.buffers.size();
  std::vector<Footprint> fp(nb);
  std::vector<bool> in_scope(nb, false);
  for (std::size_t j = 0; j < nb; ++j) {
    const ResolvedBuffer& b = ctx.buffers[j];
    if (!is_storage(b)) continue;
    if (b.scope == prove::Scope::kTmem && !ctx.target->tmem) continue;
    in_scope[j] = true;
    if (!b.placed) continue;
    fp[j] = footprint(ctx, b);
  }
  std::vector<bool> failed(nb, false);
  for (std::size_t a = 0; a < nb; ++a) {
    if (!in_scope[a] || !fp[a].ok) continue;
    for (std::size_t c = a + 1; c < nb; ++c) {
      if (!in_scope[c] || !fp[c].ok) continue;
      const ResolvedBuffer &ba = ctx.buffers[a], &bc = ctx.buffers[c];
      if (ba.scope != bc.scope || ba.root == bc.root) continue;
      const auto [a0, a1] = live_range(m, *ba.model);
      const auto [c0, c1] = live_range(m, *bc.model);
      if (a1 < c0 || c1 < a0) continue;
      std::vector<std::int64_t> common;
      std::set_intersection(fp[a].keys.begin(), fp[a].keys.end(), fp[c].keys.begin(), fp[c].keys.end(),
                            std::back_inserter(common));
      if (common.empty()) continue;
      const std::int64_t key = common.front();
      const auto ea = element_at(ctx, ba, key), ec = element_at(ctx, bc, key);
      KernelFinding f = buffer_finding(
          ctx, a, prove::Status::kFail,
          fmt::format("buffers '{}' and '{}' are live at the same time and share {} storage units, first {}: "
                      "element {} of '{}' and element {} of '{}'",
                      ba.model->name, bc.model->name, common.size(), cell_text(ctx, ba, key), coord_text(ea),
                      ba.model->name, coord_text(ec), bc.model->name));
      f.related = {bc.model->name};
      f.witness = {{"a", {{"buffer", ba.model->name}, {"element", ea}}},
                   {"b", {{"buffer", bc.model->name}, {"element", ec}}},
                   {"cell", cell_json(ctx, ba, key)},
                   {"shared_units", common.size()}};
      f.fix = "place one of them elsewhere, declare one a view of the other (\"view_of\") if they alias on purpose, "
              "or give them disjoint \"live\" ranges";
      failed[a] = failed[c] = true;
      out.push_back(std::move(f));
    }
  }
  for (std::size_t j = 0; j < nb; ++j) {
    if (!in_scope[j] || failed[j]) continue;
    const ResolvedBuffer& b = ctx.buffers[j];
    if (!b.placed) {
      out.push_back(buffer_finding(ctx, j, prove::Status::kNotApplicable,
                                   "no placement: where the buffer lives is unknown (docs/model-format.md)"));
    } else if (!fp[j].ok) {
      out.push_back(buffer_finding(ctx, j, prove::Status::kNotApplicable, "not compared: " + fp[j].why_not));
    } else {
      out.push_back(buffer_finding(ctx, j, prove::Status::kPass,
                                   fmt::format("shares no storage with a buffer live at the same time ({} bytes)",
                                               fp[j].keys.size())));
    }
  }
  // Totals against the target.
  std::int64_t smem_end = 0;
  std::string smem_last;
  std::int64_t tmem_cols = 0;
  std::string tmem_last;
  for (std::size_t j = 0; j < nb; ++j) {
    if (!fp[j].ok || fp[j].keys.empty()) continue;
    const ResolvedBuffer& b = ctx.buffers[j];
    if (b.scope == prove::Scope::kShared && fp[j].keys.back() + 1 > smem_end) {
      smem_end = fp[j].keys.back() + 1;
      smem_last = b.model->name;
    }
    if (b.scope == prove::Scope::kTmem) {
      const std::int64_t columns = ctx.target->tmem->columns;
      for (auto k : fp[j].keys)
        if ((k / 4) % columns + 1 > tmem_cols) {
          tmem_cols = (k / 4) % columns + 1;
          tmem_last = b.model->name;
        }
    }
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
  return out;
}

}  // namespace tirx::kernel::checks
