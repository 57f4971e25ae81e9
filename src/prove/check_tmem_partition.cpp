// tmem.partition — every element a warp holds in its registers lies in that warp's TMEM
// lane sub-partition, so the warp can reach it with tcgen05.ld/st.
//
// PTX ISA 9.1 §9.7.16.8.1 "Access restrictions": warp w of a warpgroup (w = warp id % 4) may
// access TMEM lanes [32w, 32w + 31] only. Given the TMEM buffer layout and the register fragment
// that reads or writes it (--access), each logical element e is held by thread t = frag(e) of
// warp w = (t / warp_size) % warps_per_warpgroup and stored at lane TLane(e) (any replica copy
// will do for a read). Witness: the element, its thread and warp, the lanes of its copies and
// the lanes that warp may reach.
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "fragment.hpp"
#include "symbolic_internal.hpp"
#include "symbolic_results.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::prove {

CheckResult check_tmem_partition(const CheckInput& in) {
  CheckResult res;
  res.id = "tmem.partition";
  res.engine = "enum";
  if (in.scope != Scope::kTmem || !in.access) {
    res.status = Status::kNotApplicable;
    res.message = in.scope != Scope::kTmem ? "not a tmem buffer" : "no --access fragment given";
    return res;
  }
  const MachineLimits& ml = in.machine;
  if (!ml.tmem_lanes || !ml.warps_per_warpgroup) {
    res.status = Status::kNotApplicable;
    res.message = "the target has no tensor memory";
    return res;
  }
  const std::int64_t n = in.layout.size();
  if (in.access->size() != n)
    throw InputError("layout.well-formed",
                     fmt::format("--access fragment has {} elements, the TMEM buffer {}", in.access->size(), n));
  const std::int64_t part = ml.tmem_lanes / ml.warps_per_warpgroup;
  const TileLayout& tl = in.layout.tile();
  // Element e: fills res with the failure and returns false when no copy is in its warp's lanes.
  auto element_ok = [&](std::int64_t e) {
    const FragmentSlot f = fragment_slot(in.access->apply(e), ml);
    const std::int64_t warp = (f.thread / ml.warp_size) % ml.warps_per_warpgroup;
    bool ok = false;
    nlohmann::json lanes = nlohmann::json::array();
    for_each_replica_image(tl, tl.split(e), [&](const Coord& c) {
      const std::int64_t lane = c.get(AxisId::TLane);
      if (lanes.size() < 64) lanes.push_back(lane);  // the witness lists the first 64 copies
      if (lane >= part * warp && lane < part * (warp + 1)) ok = true;
    });
    if (!ok) {
      res.status = Status::kFail;
      res.witness = {{"element", point_json(in, e, 0)},
                     {"thread", f.thread},
                     {"warp", warp},
                     {"lanes", lanes},
                     {"allowed", {part * warp, part * (warp + 1) - 1}}};
      res.message = fmt::format("element {} is held by thread {} (warp {} of its warpgroup) but lives in TMEM lane "
                                "{}; warp {} may only access lanes {}..{}",
                                nlohmann::json(logical_coord(e, in.shape)).dump(), f.thread, warp, lanes.dump(), warp,
                                part * warp, part * (warp + 1) - 1);
    }
    return ok;
  };
  // Past the enumeration crossover (auto) or with --engine z3: the symbolic engine's partition
  // query with every integer a constant (z3_symbolic_pairs.cpp): O(iters) terms at any size. A
  // pass is the answer; for a fail the enumeration below finds the witness (the first element in
  // flat order), and must find one.
  const std::int64_t points = point_count(in.layout.tile());
  const bool by_z3 = in.engine == Engine::kZ3 || (in.engine == Engine::kAuto && points > in.limits.enum_crossover_points);
  std::optional<symbolic::Answer> z3_answer;
  if (by_z3) {
    try {
      z3_answer = symbolic::tmem_partition(symres::constant_layout(in.layout), symres::constant_layout(*in.access), {},
                                           ml, in.limits);
    } catch (const NotSymbolic& e) {
      z3_answer = symbolic::Answer{};
      z3_answer->message = e.what();
    }
    if (z3_answer->status == Status::kPass) {
      res.status = Status::kPass;
      res.engine = "z3";
      res.message = fmt::format("all {} elements lie in the sub-partition of the warp that holds them ({})", n,
                                z3_answer->message);
      return res;
    }
    if (z3_answer->status == Status::kUndecided && in.engine == Engine::kZ3) {
      res.status = Status::kUndecided;
      res.engine = "z3";
      res.message = z3_answer->message;
      return res;
    }
    res.engine = "z3+enum";
  }
  const bool z3_fail = z3_answer && z3_answer->status == Status::kFail;
  if (z3_fail && points > in.limits.max_enumeration_points && z3_answer->element) {
    // Too many points to find the first failing element: the element z3 names, re-evaluated.
    if (!element_ok(*z3_answer->element)) return res;
  }
  if (points > in.limits.max_enumeration_points) {
    res.status = Status::kUndecided;
    res.message = fmt::format("enumeration limit: {} elements x {} replica copies exceed max_enumeration_points={}{}", n,
                              in.layout.tile().replica_count(), in.limits.max_enumeration_points,
                              z3_fail      ? " (z3 says some element lies outside its warp's lanes; the witness search "
                                             "needs the enumeration)"
                              : z3_answer ? "; z3: " + z3_answer->message
                                          : std::string());
    return res;
  }
  Pacer pace(in.limits.budget, "tmem.partition sweep", static_cast<double>(point_count(tl)));
  for (std::int64_t e = 0; e < n; ++e) {
    pace.step(tl.replica_count());
    if (!element_ok(e)) return res;
  }
  if (z3_fail) {
    res.status = Status::kUndecided;
    res.message = "ENGINES DISAGREE on tmem.partition: z3 found an element outside its warp's lanes, the enumeration "
                  "none; treated as undecided (engine bug)";
    return res;
  }
  res.status = Status::kPass;
  res.message = fmt::format("all {} elements lie in the sub-partition of the warp that holds them", n);
  return res;
}

}  // namespace tirx::prove
