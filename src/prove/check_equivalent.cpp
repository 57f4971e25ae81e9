// layout.equivalent — two layouts are the same map on a shape (equivalent.hpp).
//
// Engines (auto: the cheapest that decides): gf2 when both layouts are power-of-two and
// carry-free (equal affine maps modulo the replica span); else enumeration (two odometers in
// lock step) up to EngineLimits::enum_crossover_points points; else Z3 (digits of both layouts
// tied by flat(a) = flat(b), an image of one outside the image set of the other).
// Witness: the first differing element and both image sets, re-checked by direct evaluation.
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/equivalent.hpp"
#include "tirx_verify/prove/gf2.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace tirx::prove {

namespace {

EquivalenceAnswer run_engine(Engine e, const Layout& a, const Layout& b, const EngineLimits& limits) {
  switch (e) {
    case Engine::kGf2: return gf2::equivalent(a, b);
    case Engine::kZ3: return z3engine::equivalent(a, b, limits);
    default: return enumerate::equivalent(a, b, limits);
  }
}

nlohmann::json images_json(const std::vector<std::vector<std::int64_t>>& set, const std::vector<Axis>& axes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : set) {
    nlohmann::json c = nlohmann::json::object();
    for (std::size_t i = 0; i < axes.size(); ++i) c[std::string(axes[i].name())] = row[i];
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

CheckResult check_equivalent(const CheckInput& in) {
  CheckResult res;
  res.id = "layout.equivalent";
  res.engine = "structural";
  if (!in.other) {
    res.status = Status::kNotApplicable;
    res.message = "no second layout to compare with";
    return res;
  }
  const Layout& a = in.layout;
  const Layout& b = *in.other;
  b.validate();
  if (in.shape) {
    std::int64_t prod = 1;
    for (std::int64_t d : *in.shape) prod = checked_mul(prod, d, "shape product");
    for (const auto& [l, which, text] : {std::tuple{&a, "first", &in.text}, std::tuple{&b, "second", &in.other_text}})
      if (prod != l->size())
        throw InputError("layout.well-formed",
                         fmt::format("shape {} has {} elements but the {} layout has {}",
                                     nlohmann::json(*in.shape).dump(), prod, which, l->size()),
                         *text);
  }
  if (a.size() != b.size()) {
    res.status = Status::kFail;
    res.message = fmt::format("the layouts have different sizes: {} and {} elements", a.size(), b.size());
    res.witness = {{"size_a", a.size()}, {"size_b", b.size()}};
    return res;
  }
  const std::vector<Axis> axes = union_axes(a, b);
  auto attempt = [&](Engine e) {
    CheckResult r;
    r.id = "layout.equivalent";
    r.engine = std::string(engine_name(e));
    const EquivalenceAnswer ans = run_engine(e, a, b, in.limits);
    r.status = ans.status;
    r.message = ans.message;
    if (ans.status == Status::kPass)
      r.message = fmt::format("both layouts map each of the {} elements to the same image set — {}", a.size(),
                              ans.message);
    if (ans.status != Status::kFail) return r;
    if (!ans.flat || *ans.flat < 0 || *ans.flat >= a.size())
      return witness_rejected(r, "no element in range");
    const auto ia = image_set(a, *ans.flat, axes), ib = image_set(b, *ans.flat, axes);
    if (ia == ib) return witness_rejected(r, fmt::format("element {} has equal image sets", *ans.flat));
    nlohmann::json element = {{"logical", logical_coord(*ans.flat, in.shape)}, {"flat", *ans.flat}};
    r.witness = {{"element", element}, {"a", images_json(ia, axes)}, {"b", images_json(ib, axes)}, {"first", ans.first}};
    r.message = fmt::format("{}element {}: first layout -> {}, second layout -> {}", ans.first ? "first differing " : "",
                            nlohmann::json(logical_coord(*ans.flat, in.shape)).dump(),
                            images_json(ia, axes).dump(), images_json(ib, axes).dump());
    return r;
  };
  std::int64_t points = 0;
  if (__builtin_mul_overflow(a.size(), std::max(a.tile().replica_count(), b.tile().replica_count()), &points))
    points = INT64_MAX;
  const std::vector<Engine> engines = {Engine::kEnum, Engine::kGf2, Engine::kZ3};
  const std::vector<Engine> order = points <= in.limits.enum_crossover_points
                                        ? std::vector<Engine>{Engine::kGf2, Engine::kEnum, Engine::kZ3}
                                        : std::vector<Engine>{Engine::kGf2, Engine::kZ3, Engine::kEnum};
  return dispatch(in, order, engines, attempt);
}

CheckResult equivalent(const Layout& a, const Layout& b, std::optional<std::vector<std::int64_t>> shape,
                       const EquivalenceOptions& options) {
  CheckInput in;
  in.layout = a;
  in.other = b;
  in.shape = std::move(shape);
  in.engine = options.engine;
  in.cross_check = options.cross_check;
  in.limits = options.limits;
  a.validate();
  Stopwatch sw;
  CheckResult r = check_equivalent(in);
  r.seconds = sw.seconds();
  return r;
}

}  // namespace tirx::prove
