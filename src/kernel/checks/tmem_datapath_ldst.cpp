// kernel.tmem-datapath, parts (a) and (c): tcgen05.ld/st ops, and tile-level copy_async with
// dispatch tcgen05 through the plan TVM's dispatcher derives (kernel/lower_tcgen05.hpp).
//
// For every issue: the lane field under tirx-verify's model (hw::resolve_lane_field: a field
// naming a sub-partition other than 0 and w % 4 is a warning, a 16-lane access crossing its
// sub-partition an error), the columns it covers against the TMEM allocation, then every element
// of the regions (kernel/tmem_access.hpp). On wrong data the fix is searched: the same issues
// shifted by the first disagreement's lane / column difference, or another shape with the same
// registers, re-checked on every element; a candidate that makes them all agree is the fix
// ("use row immediate 16").
#include <fmt/format.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/lower_tcgen05.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tmem_datapath.hpp"

namespace tirx::kernel::checks {

namespace {

std::string lanes_text(int first, int count) { return fmt::format("{}..{}", first, first + count - 1); }

// Lane-field and column problems of each issue.
void issue_problems(const KernelContext& ctx, ImageCache& cache, const ResolvedBuffer& t,
                    const std::vector<LdStIssue>& issues, bool store, std::vector<Problem>& out) {
  const hw::Target& target = *ctx.target;
  const int wpw = target.warps_per_warpgroup, sub = target.tmem_subpartition_lanes();
  std::string alloc_why;
  const auto alloc = allocated_columns(ctx, cache, t, alloc_why);
  const std::int64_t limit = alloc ? *alloc : target.tmem->columns;
  if (!alloc) alloc_why = fmt::format("the target's {} TMEM columns", target.tmem->columns);
  bool col_reported = false;
  for (const LdStIssue& is : issues) {
    const int w = is.warp % wpw;
    const hw::LaneFieldAccess a = hw::resolve_lane_field(target, is.instr.shape, static_cast<int>(is.taddr.lane), w);
    const std::string name = hw::spelling(is.instr, store);
    const nlohmann::json iw = {{"warp", is.warp}, {"warp_in_wg", w}, {"lane_field", is.taddr.lane},
                               {"col_field", is.taddr.col}, {"spelling", name}};
    if (a.outside) {
      out.push_back({Severity::kError,
                     fmt::format("warp {} passes lane field {} to {}: outside TMEM's {} lanes", is.warp, is.taddr.lane,
                                 name, target.tmem->lanes),
                     {{"lane_field", iw}}, ""});
    } else if (a.crosses) {
      out.push_back({Severity::kError,
                     fmt::format("warp {} passes lane field {} to {}: its {}-lane access (lanes {}) crosses the "
                                 "sub-partition of warp {} (lanes {}, PTX ISA 9.1 §9.7.16.8.1)",
                                 is.warp, is.taddr.lane, name, a.lanes, lanes_text(a.first_lane, a.lanes), w,
                                 lanes_text(sub * w, sub)),
                     {{"lane_field", iw}, {"lanes", {a.first_lane, a.first_lane + a.lanes - 1}}},
                     a.lanes == sub ? "use lane field 0 (or 32 x (warp % 4))" : "use row immediate 0 or 16"});
    } else if (a.names_other_subpartition) {
      out.push_back({Severity::kWarning,
                     fmt::format("lane field {} names sub-partition {}; warp {} may access only sub-partition {} "
                                 "(PTX §9.7.16.8.1)",
                                 is.taddr.lane, a.named_subpartition, is.warp, w),
                     {{"lane_field", iw}, {"named_subpartition", a.named_subpartition}, {"own_subpartition", w}},
                     fmt::format("pass lane field {} (warp-relative) or {} (absolute)", is.taddr.lane % sub,
                                 sub * w + is.taddr.lane % sub)});
    }
    const std::int64_t last = is.taddr.col + hw::column_footprint(is.instr) - 1;
    if (!col_reported && (is.taddr.col < 0 || last >= limit)) {
      col_reported = true;
      out.push_back({Severity::kError,
                     fmt::format("warp {}'s {} covers TMEM columns {}..{}, past the {} columns allocated ({})", is.warp,
                                 name, is.taddr.col, last, limit, alloc_why),
                     {{"columns", {is.taddr.col, last}}, {"allocated_cols", limit}, {"instruction", iw}},
                     ""});
    }
  }
}

// The text of a fix that moves every issue by (dl lanes, dc columns).
std::string shift_fix(const std::vector<LdStIssue>& shifted, std::int64_t dl, std::int64_t dc, int sub) {
  std::vector<std::string> parts;
  if (dl != 0) {
    bool relative = true, uniform = true;
    for (const auto& is : shifted) {
      relative = relative && is.taddr.lane < sub;
      uniform = uniform && is.taddr.lane == shifted.front().taddr.lane;
    }
    if (relative && uniform)
      parts.push_back(fmt::format("use row immediate {}", shifted.front().taddr.lane));
    else if (uniform)
      parts.push_back(fmt::format("use lane field {}", shifted.front().taddr.lane));
    else
      parts.push_back(fmt::format("add {} to every lane field", dl));
  }
  if (dc != 0) {
    bool uniform = true;
    for (const auto& is : shifted) uniform = uniform && is.taddr.col == shifted.front().taddr.col;
    parts.push_back(uniform ? fmt::format("use column {}", shifted.front().taddr.col)
                            : fmt::format("add {} to every column field", dc));
  }
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? " and " : "") + parts[i];
  return s;
}

// Searches a fix for a disagreement (file header). Empty when none is found.
std::string search_fix(const KernelContext& ctx, ImageCache& cache, const Region& tmem, const Region& regs,
                       const std::vector<int>& warps, const std::vector<LdStIssue>& issues,
                       const LdStDisagreement& d, bool store) {
  const int sub = ctx.target->tmem_subpartition_lanes();
  if (d.issue >= 0) {
    const std::int64_t dl = d.layout.lane - d.moved.lane, dc = d.layout.col - d.moved.col;
    if ((dl != 0 || dc != 0) && d.layout.bit == d.moved.bit) {
      std::vector<LdStIssue> shifted = issues;
      bool valid = true;
      for (auto& is : shifted) {
        is.taddr.lane += dl;
        is.taddr.col += dc;
        valid = valid && is.taddr.lane >= 0 && is.taddr.col >= 0;
      }
      if (valid && compare_ldst(ctx, cache, tmem, regs, warps, shifted).ok()) return shift_fix(shifted, dl, dc, sub);
    }
  }
  // Another shape with the same registers per thread.
  const hw::LdStInstr cur = issues.front().instr;
  const int regs_now = hw::regs_per_thread(cur);
  for (hw::LdStShape s : hw::kAllLdStShapes) {
    if (s == cur.shape || s == hw::LdStShape::k16x32bx2) continue;
    hw::LdStInstr alt = cur;
    alt.shape = s;
    alt.num = 1;
    const int per = hw::regs_per_thread(alt);
    if (regs_now % per != 0) continue;
    alt.num = regs_now / per;
    try {
      hw::validate(alt);
    } catch (const InputError&) {
      continue;
    }
    std::vector<LdStIssue> changed = issues;
    for (auto& is : changed) is.instr.shape = s, is.instr.num = alt.num;
    if (compare_ldst(ctx, cache, tmem, regs, warps, changed).ok())
      return fmt::format("use {}", hw::spelling(alt, store));
  }
  return {};
}

// When every warp issues one instruction of one shape: the .num whose registers the fragment
// holds.
std::string count_fix(const std::vector<LdStIssue>& issues, const LdStCountMismatch& c, bool store) {
  for (const auto& is : issues)
    if (is.instr.shape != issues.front().instr.shape || is.instr.num != issues.front().instr.num) return {};
  for (std::size_t a = 0; a < issues.size(); ++a)
    for (std::size_t b = a + 1; b < issues.size(); ++b)
      if (issues[a].warp == issues[b].warp) return {};
  hw::LdStInstr alt = issues.front().instr;
  const std::int64_t per_rep = hw::regs_per_thread(alt) / alt.num;
  const std::int64_t regs = c.bits_held / 32;
  if (c.bits_held % 32 != 0 || regs % per_rep != 0) return {};
  alt.num = static_cast<int>(regs / per_rep);
  try {
    hw::validate(alt);
  } catch (const InputError&) {
    return {};
  }
  return fmt::format("use {} (the fragment's {} registers per thread)", hw::spelling(alt, store), regs);
}

// The data comparison of issues against the regions, as problems. Returns the element count.
std::int64_t data_problems(const KernelContext& ctx, ImageCache& cache, const Region& tmem, const Region& regs,
                           const std::vector<int>& warps, const std::vector<LdStIssue>& issues, bool store,
                           const std::string& plan, std::vector<Problem>& out, std::string& note) {
  const LdStComparison cmp = compare_ldst(ctx, cache, tmem, regs, warps, issues);
  // A count mismatch is the cause of the element disagreements it brings: report it first.
  if (cmp.count) {
    const LdStCountMismatch& c = *cmp.count;
    const ResolvedBuffer& rb = *ctx.buffer(regs.buffer);
    const std::int64_t bits = rb.elem_bits;
    out.push_back(
        {Severity::kError,
         fmt::format("the fragment gives lane {} of warp {} {} elements of '{}' ({} bits), but its {} move {} "
                     "registers ({} bits)",
                     c.lane, c.warp, c.bits_held / bits, regs.text, c.bits_held, store ? "tcgen05.st" : "tcgen05.ld",
                     c.bits_moved / 32, c.bits_moved),
         {{"thread", {{"warp", c.warp}, {"lane", c.lane}}},
          {"fragment_elements", c.bits_held / bits},
          {"fragment_bits", c.bits_held},
          {"instruction_registers", c.bits_moved / 32}},
         count_fix(issues, c, store)});
  }
  if (cmp.first) {
    const LdStDisagreement& d = *cmp.first;
    std::string msg;
    const std::string elem = fmt::format("element {} of '{}' (= {} of '{}')", coord_text(d.tmem_coord), tmem.buffer,
                                         coord_text(d.regs_coord), regs.buffer);
    const std::string reg = fmt::format("warp {} lane {} register {}{}", d.reg.warp, d.reg.lane, d.reg.reg,
                                        d.reg.bit ? fmt::format(" bit {}", d.reg.bit) : "");
    const std::string cell = fmt::format("lane {} column {}{}", d.layout.lane, d.layout.col,
                                         d.layout.bit ? fmt::format(" bit {}", d.layout.bit) : "");
    if (d.issue < 0) {
      msg = fmt::format("{}: the fragment holds it in {}, which no {} of warp {} moves ({})", elem, reg,
                        store ? "tcgen05.st" : "tcgen05.ld", d.reg.warp, plan);
    } else {
      const LdStIssue& is = issues[static_cast<std::size_t>(d.issue)];
      const std::string moved = fmt::format("lane {} column {}{}", d.moved.lane, d.moved.col,
                                            d.moved.bit ? fmt::format(" bit {}", d.moved.bit) : "");
      msg = fmt::format("{}: the TMEM layout puts it at {} and the fragment in {}, but warp {}'s {} at lane field {} "
                        "(lanes {}) column {} {} that register {} {}",
                        elem, cell, reg, is.warp, hw::spelling(is.instr, store), is.taddr.lane,
                        lanes_text(d.first_lane, hw::shape_lanes(is.instr.shape)), is.taddr.col,
                        store ? "stores" : "loads", store ? "to" : "from", moved);
    }
    msg += fmt::format(" ({} of {} elements disagree)", cmp.disagreements, cmp.elements);
    nlohmann::json w = disagreement_json(d, issues, store);
    w["disagreeing_elements"] = cmp.disagreements;
    w["elements"] = cmp.elements;
    out.push_back({Severity::kError, msg, w, search_fix(ctx, cache, tmem, regs, warps, issues, d, store)});
  }
  if (cmp.idle && !store)
    note = fmt::format("; {} threads hold no element and load registers nothing reads", cmp.idle_threads);
  if (cmp.idle && store) {
    const LdStCountMismatch& c = *cmp.idle;
    out.push_back({Severity::kWarning,
                   fmt::format("{} threads of the issuing warps (first lane {} of warp {}) hold no element of '{}', yet "
                               "tcgen05.st stores their {} registers into TMEM cells outside '{}'",
                               cmp.idle_threads, c.lane, c.warp, regs.text, c.bits_moved / 32, tmem.text),
                   {{"thread", {{"warp", c.warp}, {"lane", c.lane}}}, {"idle_threads", cmp.idle_threads},
                    {"instruction_registers", c.bits_moved / 32}},
                   "use a 16-lane shape (.16x*b) for a 16-lane layout, or mask the idle lanes' data"});
  }
  return cmp.elements;
}

}  // namespace

KernelFinding tmem_ldst_op(const KernelContext& ctx, ImageCache& cache, std::size_t i, const LdStOp& l) {
  const Op& op = ctx.op(i);
  std::vector<std::string> related = {l.tmem.buffer, l.regs.buffer};
  try {
    const ResolvedBuffer& t = *ctx.buffer(l.tmem.buffer);
    const std::int64_t first_reg = lowest_register(ctx, cache, l.regs, op.warps);
    std::vector<LdStIssue> issues;
    for (std::size_t k = 0; k < op.warps.size(); ++k) {
      const AddressRef& a = l.taddr ? *l.taddr : l.taddr_per_warp[k];
      issues.push_back({op.warps[k], l.instr, tmem_address(ctx, a), first_reg});
    }
    std::vector<Problem> problems;
    issue_problems(ctx, cache, t, issues, l.store, problems);
    const std::string plan = fmt::format("{} from warps {}", hw::spelling(l.instr, l.store), nlohmann::json(op.warps).dump());
    std::string note;
    const std::int64_t n = data_problems(ctx, cache, l.tmem, l.regs, op.warps, issues, l.store, plan, problems, note);
    return problems_finding(ctx, i, std::move(problems),
                            fmt::format("{}: all {} elements of '{}' and '{}' agree (registers from {}){}", plan, n,
                                        l.tmem.text, l.regs.text, first_reg, note),
                            related);
  } catch (const InputError& e) {
    return exception_finding(ctx, i, e, related);
  }
}

KernelFinding tmem_copy_op(const KernelContext& ctx, ImageCache& cache, std::size_t i, const CopyOp& c) {
  const Op& op = ctx.op(i);
  std::vector<std::string> related = {c.src.buffer, c.dst.buffer};
  try {
    const Tcgen05CopyPlan p = lower_tcgen05_copy(ctx, op, c);
    const ResolvedBuffer& t = *ctx.buffer(p.tmem.buffer);
    std::vector<Problem> problems;
    issue_problems(ctx, cache, t, p.issues, p.store, problems);
    std::string note;
    const std::int64_t n = data_problems(ctx, cache, p.tmem, p.regs, op.warps, p.issues, p.store, p.path, problems, note);
    for (auto& pr : problems) {
      if (!pr.witness.is_object()) pr.witness = nlohmann::json::object();
      pr.witness["plan"] = p.path;
      pr.message = fmt::format("derived plan {}: {}", p.path, pr.message);
      if (p.row_imm) pr.witness["derived_row"] = p.derived_row;
    }
    return problems_finding(ctx, i, std::move(problems),
                            fmt::format("derived plan {}: all {} elements agree{}", p.path, n, note), related);
  } catch (const InputError& e) {
    return exception_finding(ctx, i, e, related);
  }
}

}  // namespace tirx::kernel::checks
