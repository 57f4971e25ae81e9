// smem.bank-conflicts by Z3 (tirx_verify/prove/bank_engines.hpp): one access as a table of
// addresses, and a buffer layout with its access fragment over every --param binding.
#include <fmt/format.h>

#include <bit>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/bank_engines.hpp"
#include "z3_symbolic_terms.hpp"

namespace tirx::prove::banks {

namespace {

z3::expr uval(z3::context& ctx, std::uint64_t v, unsigned w) { return ctx.bv_val(static_cast<std::uint64_t>(v), w); }

}  // namespace

AccessVerdict z3_access(const hw::Target& t, const std::vector<std::uint64_t>& addr, std::uint64_t mask, const PhaseModel& m,
                        const EngineLimits& limits) {
  return z3enc::guarded<AccessVerdict>(limits, [&] {
    AccessVerdict out;
    const int ws = t.warp_size;
    if (static_cast<int>(addr.size()) != ws || ws > 64) {
      out.message = "not one address per thread of a warp of at most 64";
      return out;
    }
    z3enc::Session session(limits);
    z3::context& ctx = session.ctx();
    constexpr unsigned kW = 64, kLaneBits = 7;
    const z3::expr a = ctx.bv_const("lane_a", kLaneBits), b = ctx.bv_const("lane_b", kLaneBits);
    // The per-thread tables as Z3 terms: active(l) and addr(l) by an ite chain over the lane.
    auto table = [&](const z3::expr& lane, auto value, z3::expr otherwise) {
      for (int l = ws - 1; l >= 0; --l) otherwise = z3::ite(lane == uval(ctx, static_cast<std::uint64_t>(l), kLaneBits), value(l), otherwise);
      return otherwise;
    };
    auto active = [&](const z3::expr& lane) {
      return table(lane, [&](int l) { return ctx.bool_val(((mask >> l) & 1u) != 0); }, ctx.bool_val(false));
    };
    auto address = [&](const z3::expr& lane) {
      return table(lane, [&](int l) { return uval(ctx, addr[static_cast<std::size_t>(l)], kW); }, uval(ctx, 0, kW));
    };
    z3::solver s = (z3::tactic(ctx, "simplify") & z3::tactic(ctx, "bit-blast") & z3::tactic(ctx, "sat")).mk_solver();
    s.add(z3::ult(a, uval(ctx, static_cast<std::uint64_t>(ws), kLaneBits)));
    s.add(z3::ult(b, uval(ctx, static_cast<std::uint64_t>(ws), kLaneBits)));
    s.add(a != b && active(a) && active(b));
    // The phase: P, or 2P when the uniform-pair shortcut holds for the whole access (every pair of
    // active threads t, t ^ k on one address, for one k).
    z3::expr phase = uval(ctx, static_cast<std::uint64_t>(m.phase_threads), kLaneBits);
    if (m.merged_phase_threads) {
      z3::expr_vector any(ctx);
      for (int k : m.pair_masks) {
        z3::expr_vector all(ctx);
        for (int l = 0; l < ws; ++l) {
          const int u = l ^ k;
          if (u >= ws) continue;
          const z3::expr ll = uval(ctx, static_cast<std::uint64_t>(l), kLaneBits), uu = uval(ctx, static_cast<std::uint64_t>(u), kLaneBits);
          all.push_back(z3::implies(active(ll) && active(uu), address(ll) == address(uu)));
        }
        any.push_back(all.empty() ? ctx.bool_val(true) : z3::mk_and(all));
      }
      phase = z3::ite(z3::mk_or(any), uval(ctx, static_cast<std::uint64_t>(m.merged_phase_threads), kLaneBits), phase);
    }
    s.add(z3::udiv(a, phase) == z3::udiv(b, phase));
    // Words: addr / bank_bytes + j, j < width / bank_bytes; one bank, different words.
    const int per = m.width_bytes / t.bank_bytes;
    const z3::expr ja = ctx.bv_const("j_a", kW), jb = ctx.bv_const("j_b", kW);
    s.add(z3::ult(ja, uval(ctx, static_cast<std::uint64_t>(per), kW)) && z3::ult(jb, uval(ctx, static_cast<std::uint64_t>(per), kW)));
    const z3::expr bb = uval(ctx, static_cast<std::uint64_t>(t.bank_bytes), kW), nb = uval(ctx, static_cast<std::uint64_t>(t.banks), kW);
    const z3::expr wa = z3::udiv(address(a), bb) + ja, wb = z3::udiv(address(b), bb) + jb;
    s.add(z3::urem(wa, nb) == z3::urem(wb, nb) && wa != wb);
    switch (session.check(s)) {
      case z3::unsat:
        out.status = Status::kPass;
        out.message = "no two active threads of one phase request one bank at different words (unsat)";
        break;
      case z3::sat: {
        const z3::model md = s.get_model();
        out.status = Status::kFail;
        out.lane_a = static_cast<int>(z3enc::numeral(md.eval(a, true)));
        out.lane_b = static_cast<int>(z3enc::numeral(md.eval(b, true)));
        out.message = fmt::format("threads {} and {} of one phase request one bank at different words", out.lane_a,
                                  out.lane_b);
        break;
      }
      default: out.message = session.why(); break;
    }
    return out;
  });
}

namespace {

using symbolic::Point;
using symbolic::Terms;

// One fragment point with its thread, register slot and the byte address of its element.
struct Access {
  Point point;
  z3::expr thread, slot, warp, lane, instr, sub, addr;
};

z3::expr swizzled(const Terms& t, const SwizzleSpec& z, const z3::expr& v) {
  z3::context& ctx = t.ctx();
  const unsigned w = t.width();
  const std::uint64_t field = ((std::uint64_t{1} << z.swizzle_len) - 1) << z.per_element;
  const z3::expr S = ctx.bv_val(z.atom_len, w), F = ctx.bv_val(field, w);
  return z.swizzle_inner ? (v ^ (z3::lshr(v, S) & F)) : (v ^ z3::shl(v & F, S));
}

// The buffer's m for flat element index `flat`: the buffer's shard digits from the flat index
// (row-major over its extents), or the fragment's own digits when both have the same extents.
z3::expr buffer_m(const Terms& t, const SymLayout& buf, const SymLayout& acc, const Point& p, const z3::expr& flat) {
  bool same = buf.shard.size() == acc.shard.size();
  for (std::size_t k = 0; same && k < buf.shard.size(); ++k) same = buf.shard[k].extent.str() == acc.shard[k].extent.str();
  const Axis m(AxisId::m);
  z3::expr v = t.num(0);
  z3::expr below = t.num(1);  // product of the extents after iter k
  for (std::size_t i = buf.shard.size(); i-- > 0;) {
    const SymIter& it = buf.shard[i];
    const z3::expr ext = t.term(it.extent);
    if (it.axis == m) {
      const z3::expr d = same ? p.vars[i] : (i == 0 ? z3::udiv(flat, below) : z3::urem(z3::udiv(flat, below), ext));
      v = v + d * t.term(it.stride);
    }
    below = below * ext;
  }
  for (const auto& [a, off] : buf.offset)
    if (a == m) v = v + t.term(off);
  if (buf.swizzle && buf.swizzle->swizzle_len > 0) v = swizzled(t, *buf.swizzle, v);
  return v;
}

Access make_access(const Terms& t, const SymbolicAccess& in, const std::string& prefix) {
  const Point p = symbolic::encode(t, in.access, in.params, prefix, false);
  z3::expr flat = t.num(0);
  for (std::size_t k = 0; k < in.access.shard.size(); ++k) flat = flat * t.term(in.access.shard[k].extent) + p.vars[k];
  const std::int64_t ws = in.machine.warp_size, wg = in.machine.warp_size * in.machine.warps_per_warpgroup;
  auto on = [&](AxisId a) { return p.on(t, Axis(a), false); };
  const z3::expr thread = on(AxisId::tx) + on(AxisId::tid_in_wg) + on(AxisId::laneid) +
                          t.num(ws) * (on(AxisId::wid_in_wg) + on(AxisId::warpid)) + t.num(wg) * on(AxisId::wgid);
  const z3::expr slot = on(AxisId::m);
  const std::int64_t k = in.width_bytes / in.elem_bytes;
  const z3::expr addr = buffer_m(t, in.buffer, in.access, p, flat) * t.num(in.elem_bytes);
  return Access{p,
                thread,
                slot,
                z3::udiv(thread, t.num(ws)),
                z3::urem(thread, t.num(ws)),
                z3::udiv(slot, t.num(k)),
                z3::urem(slot, t.num(k)),
                addr};
}

// Every instruction has all warp_size lanes active: the fragment's lanes come from constant
// laneid iters (shard or replica) that reach each lane exactly once, with no other thread axis
// below the warp (tx, tid_in_wg) and no laneid offset. Varying those digits alone then moves an
// element to every lane of the same warp and register slot.
bool full_lanes(const SymbolicAccess& in) {
  const Axis lane(AxisId::laneid);
  std::vector<std::pair<std::int64_t, std::int64_t>> iters;  // (extent, stride)
  for (const auto* list : {&in.access.shard, &in.access.replica})
    for (const SymIter& it : *list) {
      if (it.axis == Axis(AxisId::tx) || it.axis == Axis(AxisId::tid_in_wg)) return false;
      if (it.axis != lane) continue;
      if (!it.extent.is_const() || !it.stride.is_const()) return false;
      iters.emplace_back(it.extent.constant(), it.stride.constant());
    }
  for (const auto& [a, v] : in.access.offset)
    if ((a == lane || a == Axis(AxisId::tx) || a == Axis(AxisId::tid_in_wg)) && !(v.is_const() && v.constant() == 0)) return false;
  const std::int64_t ws = in.machine.warp_size;
  std::int64_t count = 1;
  for (const auto& [e, st] : iters) {
    if (e < 1 || count > ws) return false;
    count *= e;
  }
  if (count != ws) return false;
  std::vector<char> seen(static_cast<std::size_t>(ws), 0);
  for (std::int64_t n = 0; n < count; ++n) {
    std::int64_t v = 0, r = n;
    for (const auto& [e, st] : iters) {
      v += (r % e) * st;
      r /= e;
    }
    if (v < 0 || v >= ws || seen[static_cast<std::size_t>(v)]) return false;
    seen[static_cast<std::size_t>(v)] = 1;
  }
  return true;
}

}  // namespace

SymbolicVerdict z3_layout(const hw::Target& tg, const SymbolicAccess& in, const EngineLimits& limits) {
  return z3enc::guarded<SymbolicVerdict>(limits, [&]() -> SymbolicVerdict {
    SymbolicVerdict out;
    if (in.elem_bytes < 1 || in.width_bytes % in.elem_bytes != 0 || in.machine.warp_size < 1) {
      out.message = "no element size, access width or warp size";
      return out;
    }
    const PhaseModel pm = phase_model(tg, in.width_bytes, /*is_store=*/false);
    z3enc::Session session(limits);
    z3::context& ctx = session.ctx();
    // Width: the larger layout's, plus the byte scaling and the thread index's factors.
    const unsigned w = std::max(symbolic::width(in.buffer, in.params), symbolic::width(in.access, in.params)) + 12;
    const Terms t(ctx, false, w, in.params);
    const Access p = make_access(t, in, "p_"), q = make_access(t, in, "q_");
    z3::expr_vector base(ctx);
    for (const auto& d : t.domain()) base.push_back(d);
    for (const SymLayout* l : {&in.buffer, &in.access})
      for (const auto& e : symbolic::extents_positive(t, *l)) base.push_back(e);
    for (const auto& c : p.point.constraints) base.push_back(c);
    for (const auto& c : q.point.constraints) base.push_back(c);
    const z3::expr zero = t.num(0);
    const z3::expr nonneg = z3::sge(p.thread, zero) && z3::sge(p.slot, zero) && z3::sge(q.thread, zero) && z3::sge(q.slot, zero);
    auto solve = [&](const z3::expr& bad) {
      z3::solver s = t.solver();
      s.add(base);
      s.add(bad);
      return std::make_pair(session.check(s, 0.5), s);
    };
    auto fail_at = [&](z3::solver& s, std::string kind, std::string why) {
      const z3::model md = s.get_model();
      out.status = Status::kFail;
      out.kind = std::move(kind);
      out.binding = t.binding(md);
      out.warp = z3enc::numeral(md.eval(p.warp, true));
      out.instruction = z3enc::numeral(md.eval(p.instr, true));
      out.message = std::move(why);
      return out;
    };
    // 0. The fragment has as many elements as the buffer at every binding.
    {
      z3::expr na = t.num(1), nb = t.num(1);
      for (const SymIter& it : in.access.shard) na = na * t.term(it.extent);
      for (const SymIter& it : in.buffer.shard) nb = nb * t.term(it.extent);
      z3::solver s = t.solver();
      for (const auto& d : t.domain()) s.add(d);
      for (const SymLayout* l : {&in.buffer, &in.access})
        for (const auto& e : symbolic::extents_positive(t, *l)) s.add(e);
      s.add(na != nb);
      const z3::check_result r = session.check(s, 0.25);
      if (r == z3::sat) {
        out.status = Status::kFail;
        out.kind = "size";
        out.binding = t.binding(s.get_model());
        out.message = "the --access fragment and the buffer have different element counts";
        return out;
      }
      if (r != z3::unsat) {
        out.message = session.why();
        return out;
      }
    }
    // 1. One aligned vector per thread and instruction (and no negative thread or slot).
    {
      const z3::expr neg = z3::slt(p.thread, zero) || z3::slt(p.slot, zero);
      const z3::expr torn = p.thread == q.thread && p.instr == q.instr && p.sub == zero && q.sub != zero &&
                            q.addr != p.addr + q.sub * t.num(in.elem_bytes);
      const z3::expr unaligned = p.sub == zero && z3::srem(p.addr, t.num(in.width_bytes)) != zero;
      auto [r, s] = solve(neg || (nonneg && (torn || unaligned)));
      if (r == z3::sat) return fail_at(s, "vector", "a thread's register slots of one instruction are not one aligned vector");
      if (r != z3::unsat) {
        out.message = session.why();
        return out;
      }
    }
    // 2. Two threads of one warp, instruction and phase at different words of one bank.
    const int per = in.width_bytes / tg.bank_bytes;
    const z3::expr ja = ctx.bv_const("j_p", w), jb = ctx.bv_const("j_q", w);
    const z3::expr wp = z3::udiv(p.addr, t.num(tg.bank_bytes)) + ja, wq = z3::udiv(q.addr, t.num(tg.bank_bytes)) + jb;
    const z3::expr clash = nonneg && p.sub == zero && q.sub == zero && p.warp == q.warp && p.instr == q.instr &&
                           p.thread != q.thread && z3::ult(ja, t.num(per)) && z3::ult(jb, t.num(per)) &&
                           z3::urem(wp, t.num(tg.banks)) == z3::urem(wq, t.num(tg.banks)) && wp != wq;
    auto same_phase = [&](int threads) { return z3::udiv(p.lane, t.num(threads)) == z3::udiv(q.lane, t.num(threads)); };
    {
      auto [r, s] = solve(clash && same_phase(pm.phase_threads));
      if (r == z3::sat)
        return fail_at(s, "conflict",
                       fmt::format("two threads of one {}-thread phase request one bank at different words", pm.phase_threads));
      if (r != z3::unsat) {
        out.message = session.why();
        return out;
      }
    }
    if (!pm.merged_phase_threads || pm.merged_phase_threads == pm.phase_threads) {
      out.status = Status::kPass;
      out.message = fmt::format("unsat in bit-vectors of width {}: no two threads of one {}-thread phase share a bank at "
                                "different words",
                                w, pm.phase_threads);
      return out;
    }
    // 3. Merged phases: a clash there counts only where the shortcut holds for its instruction:
    //    for one k, every active pair (r, s = r ^ k) of that instruction on one address. First
    //    instruction by instruction (a found instruction whose shortcut does not hold is
    //    excluded), at most kRounds of them.
    //    When every instruction has all lanes active (full_lanes), the shortcut holding at an
    //    instruction implies that the clashing threads' partners p ^ k, q ^ k (which exist) read
    //    p's and q's addresses: asking for that too over-approximates the instructions where
    //    the shortcut holds, so unsat proves the merged phases clean at once (the usual case:
    //    distinct elements at distinct addresses never pair up).
    std::optional<z3::expr> weak;
    if (full_lanes(in)) {
      const Access p2 = make_access(t, in, "p2_"), q2 = make_access(t, in, "q2_");
      for (const auto& c : p2.point.constraints) base.push_back(c);
      for (const auto& c : q2.point.constraints) base.push_back(c);
      z3::expr_vector any(ctx);
      for (int k : pm.pair_masks)
        any.push_back(p2.warp == p.warp && p2.instr == p.instr && p2.sub == zero && p2.lane == (p.lane ^ t.num(k)) &&
                      p2.addr == p.addr && q2.warp == q.warp && q2.instr == q.instr && q2.sub == zero &&
                      q2.lane == (q.lane ^ t.num(k)) && q2.addr == q.addr);
      weak = z3::mk_or(any);
    }
    z3::expr_vector excluded(ctx);
    constexpr int kRounds = 8;
    for (int round = 0; round < kRounds; ++round) {
      z3::expr bad = clash && same_phase(pm.merged_phase_threads);
      if (weak) bad = bad && *weak;
      for (const auto& e : excluded) bad = bad && !e;
      auto [r, s] = solve(bad);
      if (r == z3::unsat) {
        out.status = Status::kPass;
        out.message = fmt::format("unsat in bit-vectors of width {}: no two threads of one {}-thread phase share a bank at "
                                  "different words, nor of one merged {}-thread phase where the uniform-pair shortcut "
                                  "holds ({} instructions excluded)",
                                  w, pm.phase_threads, pm.merged_phase_threads, excluded.size());
        return out;
      }
      if (r != z3::sat) {
        out.message = session.why();
        return out;
      }
      const z3::model md = s.get_model();
      const Env binding = t.binding(md);
      const z3::expr wv = md.eval(p.warp, true), iv = md.eval(p.instr, true);
      z3::expr at = p.warp == wv && p.instr == iv;
      for (const ParamRange& pr : in.params) at = at && t.term(SymExpr::param(pr.name)) == t.num(binding.at(pr.name));
      // Does the shortcut hold there? For each k: no active pair (t, t ^ k) on different addresses.
      bool holds = false;
      for (int k : pm.pair_masks) {
        const z3::expr broken = at && q.warp == wv && q.instr == iv && nonneg && p.sub == zero && q.sub == zero &&
                                q.lane == (p.lane ^ t.num(k)) && p.addr != q.addr;
        auto [rk, sk] = solve(broken);
        if (rk == z3::unsat) {
          holds = true;
          break;
        }
        if (rk != z3::sat) {
          out.message = session.why();
          return out;
        }
      }
      if (holds)
        return fail_at(s, "conflict",
                       fmt::format("two threads of one merged {}-thread phase (the uniform-pair shortcut holds for the "
                                   "instruction) request one bank at different words",
                                   pm.merged_phase_threads));
      excluded.push_back(at);
    }
    // 3b. More instructions than rounds: one quantified query (the pair's digits universally
    //     quantified, Z3's quantified bit-vector solver).
    const Access r = make_access(t, in, "r_"), sq = make_access(t, in, "s_");
    auto narrow = [](const z3::expr& v) {
      return v.is_app() && v.decl().decl_kind() == Z3_OP_ZERO_EXT ? v.arg(0) : v;
    };
    {
      z3::expr_vector bound(ctx);
      for (const Access* a : {&r, &sq})
        for (const auto& v : a->point.vars) bound.push_back(narrow(v));
      z3::expr_vector domain(ctx);
      for (const Access* a : {&r, &sq})
        for (const auto& c : a->point.constraints) domain.push_back(c);
      z3::expr_vector holds(ctx);
      for (int k : pm.pair_masks) {
        const z3::expr pair = z3::mk_and(domain) && z3::sge(r.thread, zero) && z3::sge(r.slot, zero) &&
                              z3::sge(sq.thread, zero) && z3::sge(sq.slot, zero) && r.sub == zero && sq.sub == zero &&
                              r.warp == p.warp && sq.warp == p.warp && r.instr == p.instr && sq.instr == p.instr &&
                              sq.lane == (r.lane ^ t.num(k));
        holds.push_back(bound.empty() ? z3::implies(pair, r.addr == sq.addr)
                                      : z3::forall(bound, z3::implies(pair, r.addr == sq.addr)));
      }
      z3::solver s = z3::solver(ctx, "BV");
      s.add(base);
      s.add(clash && same_phase(pm.merged_phase_threads) && z3::mk_or(holds));
      for (const auto& e : excluded) s.add(!e);
      const z3::check_result res = session.check(s, 0.5);
      if (res == z3::unsat) {
        out.status = Status::kPass;
        out.message = fmt::format("unsat in bit-vectors of width {}: no two threads of one {}-thread phase share a bank at "
                                  "different words, nor of one merged {}-thread phase where the uniform-pair shortcut "
                                  "holds (quantified)",
                                  w, pm.phase_threads, pm.merged_phase_threads);
        return out;
      }
      if (res == z3::sat)
        return fail_at(s, "conflict",
                       fmt::format("two threads of one merged {}-thread phase (the uniform-pair shortcut holds for the "
                                   "instruction) request one bank at different words",
                                   pm.merged_phase_threads));
    }
    out.message = fmt::format("z3: the quantified merged-phase query is undecided ({}) after {} instructions that "
                              "conflict only in merged phases where the shortcut does not hold",
                              session.why(), excluded.size());
    return out;
  });
}

}  // namespace tirx::prove::banks
