// layout.injective — no two logical elements (replica copies included) share a storage cell.
//
// The storage cell of a point is its value on the storage axes of the scope (storage_axes), after
// the XOR swizzle for a ComposeLayout. Two distinct points — two elements, or two replica copies
// of one element — must never share one. Stride-0 shard iters are an explicit broadcast (TVM's
// broadcast()/sf_reuse): elements that differ only in those digits share cells by design, so
// every engine fixes those digits at 0 and the result says so.
//
// Engines (auto: the cheapest that decides): first the structural sufficient condition
// (injective_structural.cpp: on each storage axis every stride exceeds the reach of the smaller
// ones — O(iters), proves most real layouts); then gf2 (rank of the digit-bit matrix) when every
// extent and stride is a power of two without carries; else enumeration (owner array) up to
// EngineLimits::enum_crossover_points points; else Z3 (two points, distinct digits, equal cells).
// Under --cross-check the structural verdict is compared too (it can only say "pass").
// Witness: {"a": point, "b": point, "cell": {axis: value}}, re-checked by evaluating both points.
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/gf2.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace tirx::prove {

namespace {

InjectivityAnswer run_engine(Engine e, const CheckInput& in) {
  switch (e) {
    case Engine::kGf2: return gf2::injective(in.layout, in.scope);
    case Engine::kZ3: return z3engine::injective(in.layout, in.scope, in.limits);
    default: return enumerate::injective(in.layout, in.scope, in.limits);
  }
}

// Same point of the domain once broadcast digits are ignored?
bool same_point(const TileLayout& l, const Element& a, const Element& b) {
  for (std::size_t k = 0; k < l.shard.size(); ++k)
    if (l.shard[k].stride != 0 && a.digits[k] != b.digits[k]) return false;
  return a.replica == b.replica;
}

bool valid(const TileLayout& l, const Element& e) {
  if (e.digits.size() != l.shard.size() || e.replica.size() != l.replica.size()) return false;
  for (std::size_t k = 0; k < l.shard.size(); ++k)
    if (e.digits[k] < 0 || e.digits[k] >= l.shard[k].extent || (l.shard[k].stride == 0 && e.digits[k] != 0))
      return false;
  for (std::size_t k = 0; k < l.replica.size(); ++k)
    if (e.replica[k] < 0 || e.replica[k] >= l.replica[k].extent) return false;
  return true;
}

}  // namespace

CheckResult check_injective(const CheckInput& in) {
  const TileLayout& tile = in.layout.tile();
  const std::vector<Axis> cell_axes = storage_axes(tile, in.scope);
  const Sweep sw(tile, /*include_replicas=*/true, /*exclude_zero_stride_shard=*/true);
  std::int64_t zero_stride = 0;
  for (const Iter& it : tile.shard)
    if (it.stride == 0 && it.extent > 1) ++zero_stride;
  const std::string broadcast_note =
      zero_stride ? fmt::format(" ({} stride-0 shard iter(s) treated as explicit broadcast)", zero_stride) : "";
  std::string axes_text;
  for (std::size_t i = 0; i < cell_axes.size(); ++i) axes_text += fmt::format("{}{}", i ? ", " : "", cell_axes[i].name());

  auto attempt = [&](Engine e) {
    CheckResult res;
    res.id = "layout.injective";
    res.engine = std::string(engine_name(e));
    const InjectivityAnswer ans = run_engine(e, in);
    res.status = ans.status;
    res.message = ans.message;
    if (ans.status == Status::kPass) {
      res.message = fmt::format("{} points ({} elements x {} replica copies) occupy distinct cells on ({}){} — {}",
                                sw.points(), sw.points() / sw.replicas(), sw.replicas(), axes_text, broadcast_note,
                                ans.message);
    }
    if (ans.status != Status::kFail) return res;
    if (!ans.a || !ans.b || !valid(tile, *ans.a) || !valid(tile, *ans.b))
      return witness_rejected(res, "a point outside the digit ranges");
    if (same_point(tile, *ans.a, *ans.b)) return witness_rejected(res, "the two points are the same");
    const Coord ca = image_of(in.layout, *ans.a), cb = image_of(in.layout, *ans.b);
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
      res.message = fmt::format("elements {} (replica {}) and {} (replica {}) share the cell {}{}",
                                nlohmann::json(logical_coord(fa, in.shape)).dump(), ra,
                                nlohmann::json(logical_coord(fb, in.shape)).dump(), rb, cell.dump(), broadcast_note);
    return res;
  };
  const std::vector<Engine> engines = {Engine::kEnum, Engine::kGf2, Engine::kZ3};
  const std::vector<Engine> order = sw.points() <= in.limits.enum_crossover_points
                                        ? std::vector<Engine>{Engine::kGf2, Engine::kEnum, Engine::kZ3}
                                        : std::vector<Engine>{Engine::kGf2, Engine::kZ3, Engine::kEnum};
  const bool structural = in.engine == Engine::kAuto && injective_by_strides(tile, in.scope);
  const std::string structural_message =
      fmt::format("{} elements x {} replica copies: on every storage axis each stride exceeds the reach of the "
                  "smaller ones{}",
                  tile.size(), tile.replica_count(), broadcast_note);
  if (structural && !in.cross_check) {
    CheckResult res;
    res.id = "layout.injective";
    res.engine = "structural";
    res.status = Status::kPass;
    res.message = structural_message;
    return res;
  }
  CheckResult r = dispatch(in, order, engines, attempt);
  if (structural) {  // cross-check: the sufficient condition is one more verdict to compare
    if (r.status == Status::kFail && r.message.find("ENGINES DISAGREE") == std::string::npos) {
      r.message = fmt::format("ENGINES DISAGREE on layout.injective: structural pass ({}); {} fail ({})",
                              structural_message, r.engine, r.message);
      nlohmann::json engines_json = nlohmann::json::array();
      engines_json.push_back({{"engine", "structural"}, {"status", "pass"}});
      engines_json.push_back({{"engine", r.engine}, {"status", "fail"}, {"witness", r.witness}});
      r.witness = {{"engines", engines_json}};
    } else if (r.status == Status::kPass) {
      r.engine = "structural+" + r.engine;
      r.message += " [structural: pass]";
    }
  }
  return r;
}

}  // namespace tirx::prove
