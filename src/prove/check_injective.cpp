// layout.injective — no two logical elements (replica copies included) share a storage cell.
//
// The storage cell of a point is its value on the storage axes of the scope (storage_axes), after
// the XOR swizzle for a ComposeLayout. Two distinct points — two elements, or two replica copies
// of one element — must never share one (DESIGN.md, "Injectivity is about storage").
//
// Broadcasts. A stride-0 shard iter makes the elements that differ only in its digit share
// every cell. That is a defect (a contraction: `S[(2,64):(0,1)]` in shared memory) unless the
// buffer is a read-only broadcast view that says so: the iter was made by broadcast() or as the
// sf_reuse iter of an sf_* factory (Iter::broadcast), or the caller declared the whole buffer a
// broadcast (CheckInput::allow_broadcast: --allow-broadcast, a model's "broadcast": true). Declared
// broadcast digits are fixed at 0 by every engine and the pass message names those iters; an
// undeclared one fails at once (structural), witness: digit 0 against digit 1 of that iter.
//
// Engines (auto: the cheapest that decides): first the structural decisions
// (injective_structural.cpp: a contraction fails; on each storage axis every stride exceeds the
// reach of the smaller ones passes — O(iters), proves most real layouts); then gf2 (rank of the
// digit-bit matrix) when every extent and stride is a power of two without carries; else
// enumeration (owner array or hashed owner map) up to EngineLimits::enum_crossover_points points;
// else Z3 (two points, distinct digits, equal cells); enumeration after a Z3 limit only when its
// estimated cost fits the budget that is left. A ComposeLayout is decided on its tile (the
// swizzle is a bijection of addresses; engine "swizzle-bijection+..."), except under a forced
// engine or --cross-check, which run on the swizzled form. Under --cross-check the structural verdict is one
// more verdict to compare. Witness: {"a": point, "b": point, "cell": {axis: value}} (plus
// "broadcast_iter" for a contraction), re-checked by evaluating both points.
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/gf2.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace tirx::prove {

namespace {

InjectivityAnswer run_injective_engine(Engine e, const Layout& l, const CheckInput& in) {
  switch (e) {
    case Engine::kGf2: return gf2::injective(l, in.scope);
    case Engine::kZ3: return z3engine::injective(l, in.scope, in.limits);
    default: return enumerate::injective(l, in.scope, in.limits);
  }
}

// Same point of the domain once declared broadcast digits are ignored?
bool same_point(const TileLayout& l, const Element& a, const Element& b) {
  for (std::size_t k = 0; k < l.shard.size(); ++k)
    if (!l.shard[k].is_declared_broadcast() && a.digits[k] != b.digits[k]) return false;
  return a.replica == b.replica;
}

bool valid(const TileLayout& l, const Element& e) {
  if (e.digits.size() != l.shard.size() || e.replica.size() != l.replica.size()) return false;
  for (std::size_t k = 0; k < l.shard.size(); ++k)
    if (e.digits[k] < 0 || e.digits[k] >= l.shard[k].extent || (l.shard[k].is_declared_broadcast() && e.digits[k] != 0))
      return false;
  for (std::size_t k = 0; k < l.replica.size(); ++k)
    if (e.replica[k] < 0 || e.replica[k] >= l.replica[k].extent) return false;
  return true;
}

std::string iter_text(const Iter& it) { return fmt::format("{}:{}@{}", it.extent, it.stride, it.axis.name()); }

// "; declared broadcast: shard iter 4 (4:0@m), by the layout's factory" — empty without one.
std::string broadcast_note(const TileLayout& declared, const TileLayout& original) {
  std::string iters;
  bool by_caller = false;
  std::size_t count = 0;
  for (std::size_t k = 0; k < declared.shard.size(); ++k) {
    const Iter& it = declared.shard[k];
    if (!it.is_declared_broadcast() || it.extent == 1) continue;
    const bool factory = original.shard[k].broadcast;
    by_caller = by_caller || !factory;
    iters += fmt::format("{}{} ({})", iters.empty() ? "" : ", ", k, iter_text(it));
    ++count;
  }
  if (iters.empty()) return {};
  return fmt::format("; declared broadcast (read-only view, by {}): shard iter{} {} — the elements that differ only in "
                     "{} digit share cells by design",
                     by_caller ? "--allow-broadcast / the buffer's \"broadcast\"" : "the layout's factory",
                     count > 1 ? "s" : "", iters, count > 1 ? "those" : "its");
}

}  // namespace

CheckResult check_injective(const CheckInput& in) {
  const Layout layout = in.allow_broadcast ? declare_broadcasts(in.layout) : in.layout;
  const TileLayout& tile = layout.tile();
  const std::vector<Axis> cell_axes = storage_axes(tile, in.scope);
  const Sweep sw(tile, /*include_replicas=*/true, /*exclude_declared_broadcast=*/true);
  const std::string note = broadcast_note(tile, in.layout.tile());
  const std::int64_t distinct = sw.points() / sw.replicas();
  const std::string elements_text =
      distinct == tile.size() ? fmt::format("{} elements", distinct)
                              : fmt::format("{} elements ({} once the declared broadcast digits are fixed at 0)",
                                            tile.size(), distinct);
  std::string axes_text;
  for (std::size_t i = 0; i < cell_axes.size(); ++i) axes_text += fmt::format("{}{}", i ? ", " : "", cell_axes[i].name());

  // One engine's answer as a result; a failure's witness re-checked by direct evaluation.
  auto to_result = [&](std::string engine, const InjectivityAnswer& ans) {
    CheckResult res;
    res.id = "layout.injective";
    res.engine = std::move(engine);
    res.status = ans.status;
    res.message = ans.message;
    if (ans.status == Status::kPass)
      res.message = fmt::format("{} x {} replica copies occupy distinct cells on ({}){} — {}", elements_text,
                                sw.replicas(), axes_text, note, ans.message);
    if (ans.status != Status::kFail) return res;
    if (!ans.a || !ans.b || !valid(tile, *ans.a) || !valid(tile, *ans.b))
      return witness_rejected(res, "a point outside the digit ranges");
    if (same_point(tile, *ans.a, *ans.b)) return witness_rejected(res, "the two points are the same");
    const Coord ca = image_of(layout, *ans.a), cb = image_of(layout, *ans.b);
    nlohmann::json cell = nlohmann::json::object();
    for (Axis a : cell_axes) {
      if (axis_value(ca, a) != axis_value(cb, a))
        return witness_rejected(res, fmt::format("the points differ on {}", a.name()));
      cell[std::string(a.name())] = axis_value(ca, a);
    }
    const std::int64_t fa = flat_index(tile, *ans.a), fb = flat_index(tile, *ans.b);
    const std::int64_t ra = replica_index(tile, *ans.a), rb = replica_index(tile, *ans.b);
    res.witness = {{"a", point_json(in, fa, ra)}, {"b", point_json(in, fb, rb)}, {"cell", cell}};
    if (fa == fb)
      res.message = fmt::format("element {} has two replica copies ({} and {}) in the same cell {}",
                                nlohmann::json(logical_coord(fa, in.shape)).dump(), ra, rb, cell.dump());
    else
      res.message = fmt::format("elements {} (replica {}) and {} (replica {}) share the cell {}",
                                nlohmann::json(logical_coord(fa, in.shape)).dump(), ra,
                                nlohmann::json(logical_coord(fb, in.shape)).dump(), rb, cell.dump());
    return res;
  };

  // Structural: a contraction fails, the stride condition passes, else nothing is concluded.
  std::optional<CheckResult> structural;
  const std::optional<std::size_t> contraction = contraction_iter(tile);
  const std::string contraction_note =
      contraction ? fmt::format(": shard iter {} ({}) has stride 0, an undeclared broadcast — the elements that "
                                "differ only in its digit share every cell. A read-only broadcast view passes when "
                                "declared (--allow-broadcast, \"broadcast\": true in a kernel model, or TVM's "
                                "broadcast())",
                                *contraction, iter_text(tile.shard[*contraction]))
                  : std::string();
  if (contraction) {
    InjectivityAnswer ans;
    ans.status = Status::kFail;
    Element a{std::vector<std::int64_t>(tile.shard.size(), 0), std::vector<std::int64_t>(tile.replica.size(), 0)};
    Element b = a;
    b.digits[*contraction] = 1;
    ans.a = std::move(a);
    ans.b = std::move(b);
    CheckResult r = to_result("structural", ans);
    if (r.status == Status::kFail) {
      r.witness["broadcast_iter"] = *contraction;
      r.message += contraction_note;
    }
    structural = std::move(r);
  } else if (in.engine == Engine::kAuto && injective_by_strides(tile, in.scope)) {
    CheckResult r;
    r.id = "layout.injective";
    r.engine = "structural";
    r.status = Status::kPass;
    r.message = fmt::format("{} x {} replica copies: on every storage axis each stride exceeds the reach of the "
                            "smaller ones{}",
                            elements_text, sw.replicas(), note);
    structural = std::move(r);
  }
  if (structural && !in.cross_check && in.engine == Engine::kAuto) return *structural;

  // The swizzle-is-a-bijection rule: a valid ComposeLayout's XOR swizzle (S >= B, so the field it
  // XORs into is not one it reads) is a bijection of int64 addresses, applied to m alone, so two
  // points share a swizzled cell exactly when they share an unswizzled one. Under auto (no
  // cross-check) the engines decide the tile instead: no bit-vector encoding of the XOR. A witness of the tile is one of the
  // layout (equal m stay equal), and to_result re-checks it on the swizzled layout.
  const bool by_bijection = layout.is_compose() && in.engine == Engine::kAuto && !in.cross_check;
  const Layout decided_on = by_bijection ? Layout(tile) : layout;
  auto attempt = [&](Engine e) {
    CheckResult res = to_result(std::string(engine_name(e)), run_injective_engine(e, decided_on, in));
    if (by_bijection && (res.status == Status::kPass || res.status == Status::kFail)) {
      res.engine = "swizzle-bijection+" + res.engine;
      if (res.status == Status::kPass)
        res.message += "; decided on the tile: the swizzle is a bijection of addresses";
    }
    return res;
  };
  const std::vector<Engine> engines = {Engine::kEnum, Engine::kGf2, Engine::kZ3};
  const std::vector<Engine> order = sw.points() <= in.limits.enum_crossover_points
                                        ? std::vector<Engine>{Engine::kGf2, Engine::kEnum, Engine::kZ3}
                                        : std::vector<Engine>{Engine::kGf2, Engine::kZ3, Engine::kEnum};
  auto gate = [&](Engine e) -> std::string {
    if (e != Engine::kEnum) return {};
    const enumerate::EnumCost c = enumerate::injective_cost(decided_on, in.scope, in.limits);
    return enum_gate(in, c.seconds, c.bytes, c.points);
  };
  CheckResult r = dispatch(in, order, engines, attempt, gate);
  if (!in.cross_check || !structural) {
    if (r.status == Status::kFail && contraction && r.witness.contains("a") && r.witness.contains("b")) {
      // A forced engine's witness: the note explains it when the two elements differ only in
      // the stride-0 digit; otherwise it is one more fact about the layout.
      const std::int64_t fa = r.witness["a"].value("flat", std::int64_t{-1});
      const std::int64_t fb = r.witness["b"].value("flat", std::int64_t{-1});
      bool only_that_digit = fa >= 0 && fb >= 0 && fa != fb;
      if (only_that_digit) {
        const Element ea = element_at(tile, fa), eb = element_at(tile, fb);
        for (std::size_t k = 0; k < ea.digits.size(); ++k)
          if (k != *contraction && ea.digits[k] != eb.digits[k]) only_that_digit = false;
      }
      r.witness["broadcast_iter"] = *contraction;
      r.message += only_that_digit ? contraction_note
                                   : fmt::format("; also, shard iter {} ({}) has stride 0, an undeclared broadcast",
                                                 *contraction, iter_text(tile.shard[*contraction]));
    }
    return r;
  }
  // Cross-check: the structural verdict is one more to compare.
  const bool decided = r.status == Status::kPass || r.status == Status::kFail;
  if (!decided || r.message.find("ENGINES DISAGREE") != std::string::npos) return r;
  if (r.status != structural->status) {
    nlohmann::json engines_json = nlohmann::json::array();
    engines_json.push_back(
        {{"engine", "structural"}, {"status", status_name(structural->status)}, {"witness", structural->witness}});
    engines_json.push_back({{"engine", r.engine}, {"status", status_name(r.status)}, {"witness", r.witness}});
    r.message = fmt::format("ENGINES DISAGREE on layout.injective: structural {} ({}); {} {} ({})",
                            status_name(structural->status), structural->message, r.engine, status_name(r.status),
                            r.message);
    r.status = Status::kFail;
    r.witness = {{"engines", engines_json}};
    return r;
  }
  if (r.status == Status::kFail) {  // the contraction's own witness names the iter
    CheckResult s = *structural;
    s.engine = "structural+" + r.engine;
    s.message += fmt::format(" [cross-check: {}]", r.message);
    return s;
  }
  r.engine = "structural+" + r.engine;
  r.message += " [structural: pass]";
  return r;
}

}  // namespace tirx::prove
