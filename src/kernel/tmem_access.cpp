// tcgen05.ld/st issues against a TMEM region and a register fragment (tmem_access.hpp).
#include "tirx_verify/kernel/tmem_access.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {

std::optional<std::int64_t> ImageCache::kernel_alloc_columns() {
  if (!alloc_columns_) {
    std::optional<std::int64_t> total;
    for (const Op& op : ctx_.model->ops)
      if (const auto* a = std::get_if<AllocOp>(&op.data); a && !a->dealloc) total = checked_add(total.value_or(0), a->cols);
    alloc_columns_ = total;
  }
  return *alloc_columns_;
}

const TmemImageTable& ImageCache::tmem(const ResolvedBuffer& b) {
  auto it = tmem_.find(b.index);
  if (it == tmem_.end()) it = tmem_.emplace(b.index, tmem_image_table(b, max_points_)).first;
  return it->second;
}

const RegImageTable& ImageCache::regs(const ResolvedBuffer& b, const std::vector<int>& warps) {
  auto key = std::make_pair(b.index, warps);
  auto it = regs_.find(key);
  if (it == regs_.end()) it = regs_.emplace(key, reg_image_table(b, warps, max_points_)).first;
  return it->second;
}

const std::vector<std::int64_t>& ImageCache::flats(const ResolvedBuffer& b, const Region& r) {
  std::string dims;  // the bound dimensions, not the text: a region is what its bounds say
  for (const auto& d : r.dims) dims += fmt::format("{}:{}{},", d.lo, d.hi, d.point ? "p" : "");
  auto key = std::make_pair(b.index, dims);
  auto it = flats_.find(key);
  if (it == flats_.end()) it = flats_.emplace(key, region_flat_indices(r, b.model->shape)).first;
  return it->second;
}

namespace {

const ResolvedBuffer& require_buffer(const KernelContext& ctx, const std::string& name) {
  const ResolvedBuffer* b = ctx.buffer(name);
  if (!b) throw InputError("model.schema", fmt::format("no buffer '{}'", name));
  return *b;
}

// Per issue: its first lane under the lane-field model, its register window, and the cells of
// its instruction relative to base (0, 0) for every (thread, register): rel[t * regs + r].
struct PreparedIssue {
  const LdStIssue* issue = nullptr;
  int first_lane = 0;
  std::int64_t regs = 0;
  const std::vector<hw::LdStCell>* rel = nullptr;
};

bool same_instr(const hw::LdStInstr& a, const hw::LdStInstr& b) {
  return a.shape == b.shape && a.num == b.num && a.pack == b.pack && a.imm == b.imm;
}

}  // namespace

LdStComparison compare_ldst(const KernelContext& ctx, ImageCache& cache, const Region& tmem, const Region& regs,
                            const std::vector<int>& warps, const std::vector<LdStIssue>& issues) {
  const hw::Target& target = *ctx.target;
  const ResolvedBuffer& tb = require_buffer(ctx, tmem.buffer);
  const ResolvedBuffer& rb = require_buffer(ctx, regs.buffer);
  const TmemImageTable& tt = cache.tmem(tb);
  const RegImageTable& rt = cache.regs(rb, warps);
  const std::vector<std::int64_t>& tf = cache.flats(tb, tmem);
  const std::vector<std::int64_t>& rf = cache.flats(rb, regs);
  if (tf.size() != rf.size())
    throw InputError("model.schema", fmt::format("regions '{}' ({} elements) and '{}' ({}) differ in size", tmem.text,
                                                 tf.size(), regs.text, rf.size()));
  const int wpw = target.warps_per_warpgroup, ws = target.warp_size;
  // Warps are small non-negative integers (CTA warp indices): index tables by them.
  int max_warp = 0;
  for (int w : warps) max_warp = std::max(max_warp, w);
  for (const auto& is : issues) max_warp = std::max(max_warp, is.warp);
  std::vector<std::vector<PreparedIssue>> by_warp(static_cast<std::size_t>(max_warp) + 1);
  std::vector<std::pair<hw::LdStInstr, std::vector<hw::LdStCell>>> rel_tables;  // one per distinct instruction
  rel_tables.reserve(issues.size());
  for (const auto& is : issues) {
    if (is.warp < 0) throw InputError("tmem.address", fmt::format("warp {} is not a CTA warp index", is.warp));
    const hw::LaneFieldAccess a =
        hw::resolve_lane_field(target, is.instr.shape, static_cast<int>(is.taddr.lane), is.warp % wpw);
    const int regs = hw::regs_per_thread(is.instr);
    const std::vector<hw::LdStCell>* rel = nullptr;
    for (const auto& [in, cells] : rel_tables)
      if (same_instr(in, is.instr)) rel = &cells;
    if (!rel) {
      std::vector<hw::LdStCell> cells;
      cells.reserve(static_cast<std::size_t>(ws) * regs);
      for (int t = 0; t < ws; ++t)
        for (int r = 0; r < regs; ++r) cells.push_back(hw::ldst_cell(is.instr, hw::TmemAddress{}, t, r));
      rel_tables.emplace_back(is.instr, std::move(cells));
      rel = &rel_tables.back().second;
    }
    by_warp[static_cast<std::size_t>(is.warp)].push_back({&is, a.first_lane, regs, rel});
  }
  std::vector<int> slot(static_cast<std::size_t>(max_warp) + 1, -1);
  for (std::size_t i = 0; i < warps.size(); ++i)
    if (warps[i] >= 0) slot[static_cast<std::size_t>(warps[i])] = static_cast<int>(i);
  std::vector<std::int64_t> held(warps.size() * static_cast<std::size_t>(ws), 0);
  const std::int64_t bits = rb.elem_bits;

  LdStComparison out;
  out.elements = static_cast<std::int64_t>(tf.size());
  for (std::size_t i = 0; i < tf.size(); ++i) {
    const auto timgs = tt.of(tf[i]);
    bool element_ok = true;
    for (const RegCell& g : rt.of(rf[i])) {
      if (g.warp < 0) reg_images(rb, regs.coord(static_cast<std::int64_t>(i)), warps);  // throws the reason
      const int s = g.warp >= 0 && g.warp <= max_warp ? slot[static_cast<std::size_t>(g.warp)] : -1;
      if (s >= 0) held[static_cast<std::size_t>(s) * ws + g.lane] += bits;
      if (!element_ok) continue;
      const PreparedIssue* found = nullptr;
      if (g.warp >= 0 && g.warp <= max_warp)
        for (const PreparedIssue& p : by_warp[static_cast<std::size_t>(g.warp)])
          if (g.reg >= p.issue->first_reg && g.reg < p.issue->first_reg + p.regs) {
            found = &p;
            break;
          }
      TmemCell moved;
      bool ok = false;
      if (found) {
        const hw::LdStInstr& in = found->issue->instr;
        // ldst_cell is base + a relative cell (the lane and column fields add, tcgen05_ldst.hpp).
        hw::LdStCell c = (*found->rel)[static_cast<std::size_t>(g.lane * found->regs + (g.reg - found->issue->first_reg))];
        c.lane += found->first_lane;
        c.col += static_cast<int>(found->issue->taddr.col);
        if (c.col_hi >= 0) c.col_hi += static_cast<int>(found->issue->taddr.col);
        const int half = target.tmem->cell_bits / 2;
        if (in.pack)
          moved = g.bit < half ? TmemCell{c.lane, c.col, g.bit} : TmemCell{c.lane, c.col_hi, g.bit - half};
        else
          moved = TmemCell{c.lane, c.col, g.bit};
        ok = std::find(timgs.begin(), timgs.end(), moved) != timgs.end();
      }
      if (ok) continue;
      element_ok = false;
      if (!out.first) {
        LdStDisagreement d;
        d.index = static_cast<std::int64_t>(i);
        d.tmem_coord = tmem.coord(d.index);
        d.regs_coord = regs.coord(d.index);
        d.layout = timgs.empty() ? TmemCell{} : timgs.front();
        d.reg = g;
        if (found) {
          d.issue = static_cast<int>(found->issue - issues.data());
          d.moved = moved;
          d.first_lane = found->first_lane;
        }
        out.first = d;
      }
    }
    if (!element_ok) ++out.disagreements;
  }
  for (std::size_t s = 0; s < warps.size(); ++s) {
    const int w = warps[s];
    std::int64_t moved_bits = 0;
    if (w >= 0)
      for (const PreparedIssue& p : by_warp[static_cast<std::size_t>(w)])
        moved_bits = checked_add(moved_bits, checked_mul(p.regs, target.tmem->cell_bits));
    for (int lane = 0; lane < ws; ++lane) {
      const std::int64_t h = held[s * ws + lane];
      if (h == moved_bits) continue;
      const LdStCountMismatch c{w, lane, h, moved_bits};
      if (h == 0) {
        ++out.idle_threads;
        if (!out.idle) out.idle = c;
      } else if (!out.count) {
        out.count = c;
      }
    }
  }
  return out;
}

std::int64_t lowest_register(const KernelContext& ctx, ImageCache& cache, const Region& regs,
                             const std::vector<int>& warps) {
  const ResolvedBuffer& rb = require_buffer(ctx, regs.buffer);
  const RegImageTable& rt = cache.regs(rb, warps);
  std::int64_t lo = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t f : cache.flats(rb, regs))
    for (const RegCell& g : rt.of(f)) lo = std::min(lo, g.reg);
  return lo == std::numeric_limits<std::int64_t>::max() ? 0 : lo;
}

nlohmann::json disagreement_json(const LdStDisagreement& d, const std::vector<LdStIssue>& issues, bool store) {
  nlohmann::json j = {
      {"element", {{"tmem", d.tmem_coord}, {"regs", d.regs_coord}}},
      {"layout", {{"lane", d.layout.lane}, {"col", d.layout.col}, {"bit", d.layout.bit}}},
      {"register", {{"warp", d.reg.warp}, {"lane", d.reg.lane}, {"reg", d.reg.reg}, {"bit", d.reg.bit}}},
  };
  if (d.issue >= 0) {
    const LdStIssue& is = issues[static_cast<std::size_t>(d.issue)];
    j["instruction"] = {{"spelling", hw::spelling(is.instr, store)},
                        {"warp", is.warp},
                        {"lane_field", is.taddr.lane},
                        {"col_field", is.taddr.col},
                        {"first_lane", d.first_lane},
                        {"reg", d.reg.reg - is.first_reg},
                        {"lane", d.moved.lane},
                        {"col", d.moved.col},
                        {"bit", d.moved.bit}};
  } else {
    j["instruction"] = nullptr;
  }
  return j;
}

}  // namespace tirx::kernel
