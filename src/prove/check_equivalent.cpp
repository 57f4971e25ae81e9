// layout.equivalent — two layouts are the same map on a shape (equivalent.hpp).
//
// Engines (auto: the cheapest that decides): gf2 when both layouts are power-of-two and
// carry-free (equal affine maps modulo the replica span); else enumeration (two odometers in
// lock step) up to EngineLimits::enum_crossover_points points; else Z3 (digits of both layouts
// tied by flat(a) = flat(b), an image of one outside the image set of the other).
// Witness: the first differing element and both image sets, re-checked by direct evaluation.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "checks_internal.hpp"
#include "image_sets.hpp"
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

nlohmann::json images_json(const std::vector<Image>& set, const std::vector<Axis>& axes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : set) {
    nlohmann::json c = nlohmann::json::object();
    for (std::size_t i = 0; i < axes.size(); ++i) c[std::string(axes[i].name())] = row[i];
    out.push_back(std::move(c));
  }
  return out;
}

// The listed images, "... (N images)" when there are more than the list holds (count < 0: no count).
std::string images_text(const std::vector<Image>& listed, std::int64_t count, const std::vector<Axis>& axes) {
  constexpr std::size_t kInMessage = 8;
  std::vector<Image> head(listed.begin(), listed.begin() + std::min(listed.size(), kInMessage));
  std::string s = images_json(head, axes).dump();
  if (count > static_cast<std::int64_t>(head.size()) || (count < 0 && listed.size() > head.size()))
    s.insert(s.size() - 1, fmt::format(", ... ({} images)", count < 0 ? static_cast<std::int64_t>(listed.size()) : count));
  return s;
}

// How the image sets of element `flat` differ, bounded: at most kListedImages images per side and
// per "only" list, the counts of replica copies. nullopt: the sets are equal. `unresolved`: the
// sets are too large to build and no difference was found among the first images of either side.
struct Difference {
  std::vector<Image> a, b, a_only, b_only;
  std::int64_t a_count = 0, b_count = 0;
  bool streamed = false;    // the sets were too large to build: one missing image was found by streaming
  bool unresolved = false;
};

std::optional<Difference> difference(const Layout& a, const Layout& b, std::int64_t flat, const std::vector<Axis>& axes,
                                     Budget* budget) {
  Difference d;
  d.a_count = a.tile().replica_count();
  d.b_count = b.tile().replica_count();
  auto take = [](std::vector<Image>& out, const std::vector<Image>& from) {
    for (const Image& i : from)
      if (out.size() < kListedImages) out.push_back(i);
  };
  if (d.a_count <= kMaxMaterializedImages && d.b_count <= kMaxMaterializedImages) {
    MemoryCharge ha, hb;
    const std::vector<Image> ia = materialize(a, flat, axes, budget, ha), ib = materialize(b, flat, axes, budget, hb);
    if (ia == ib) return std::nullopt;
    std::vector<Image> only_a, only_b;
    std::set_difference(ia.begin(), ia.end(), ib.begin(), ib.end(), std::back_inserter(only_a));
    std::set_difference(ib.begin(), ib.end(), ia.begin(), ia.end(), std::back_inserter(only_b));
    take(d.a, ia);
    take(d.b, ib);
    take(d.a_only, only_a);
    take(d.b_only, only_b);
    d.a_count = static_cast<std::int64_t>(ia.size());
    d.b_count = static_cast<std::int64_t>(ib.size());
    return d;
  }
  // Too many copies to build: look for one of the first images of a side that the other lacks
  // (decoded, or streaming the other side's copies: no memory, O(copies) each), then for an
  // extreme image of one side outside the other's range.
  d.streamed = true;
  d.a = first_images(a, flat, axes, kListedImages);
  d.b = first_images(b, flat, axes, kListedImages);
  for (const Image& i : d.a)
    if (!contains(b, flat, axes, i, budget)) {
      d.a_only.push_back(i);
      return d;
    }
  for (const Image& i : d.b)
    if (!contains(a, flat, axes, i, budget)) {
      d.b_only.push_back(i);
      return d;
    }
  // The ranges of each side's copies on each affine axis: where one side reaches further, its
  // extreme image lies outside the other's range, so the other side lacks it (no streaming).
  const std::vector<Extreme> ea = extremes(a, flat, axes), eb = extremes(b, flat, axes);
  for (const Extreme& x : ea)
    for (const Extreme& y : eb) {
      if (x.axis != y.axis) continue;
      if (x.hi > y.hi) return d.a_only.push_back(x.max_image), d;
      if (x.lo < y.lo) return d.a_only.push_back(x.min_image), d;
      if (y.hi > x.hi) return d.b_only.push_back(y.max_image), d;
      if (y.lo < x.lo) return d.b_only.push_back(y.min_image), d;
    }
  d.unresolved = true;
  return d;
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
  // An engine found a differing element whose image sets are too large to compare: the sets are
  // that large for every element (replica counts are per layout), so another engine's witness
  // would end the same way; auto mode does not spend the budget on it.
  bool unresolvable = false;
  auto attempt_on = [&](Engine e, const Layout& ea, const Layout& eb) {
    CheckResult r;
    r.id = "layout.equivalent";
    r.engine = std::string(engine_name(e));
    const EquivalenceAnswer ans = run_engine(e, ea, eb, in.limits);
    r.status = ans.status;
    r.message = ans.message;
    if (ans.status == Status::kPass)
      r.message = fmt::format("both layouts map each of the {} elements to the same image set — {}", a.size(),
                              ans.message);
    if (ans.status != Status::kFail) return r;
    if (!ans.flat || *ans.flat < 0 || *ans.flat >= a.size())
      return witness_rejected(r, "no element in range");
    const std::optional<Difference> d = difference(a, b, *ans.flat, axes, in.limits.budget);
    if (!d) return witness_rejected(r, fmt::format("element {} has equal image sets", *ans.flat));
    if (d->unresolved) {
      unresolvable = true;
      r.status = Status::kUndecided;
      r.message = fmt::format(
          "{} says element {} differs, but its image sets ({} and {} replica copies) are too large to compare "
          "(more than {}), none of the first {} images of either side is missing from the other, and both "
          "sides span the same range on every axis",
          r.engine, *ans.flat, d->a_count, d->b_count, kMaxMaterializedImages, kListedImages);
      return r;
    }
    nlohmann::json element = {{"logical", logical_coord(*ans.flat, in.shape)}, {"flat", *ans.flat}};
    r.witness = {{"element", element},
                 {"a", images_json(d->a, axes)},
                 {"b", images_json(d->b, axes)},
                 {"a_count", d->a_count},
                 {"b_count", d->b_count},
                 {"a_only", images_json(d->a_only, axes)},
                 {"b_only", images_json(d->b_only, axes)},
                 {"first", ans.first}};
    r.message = fmt::format("{}element {}: first layout -> {}, second layout -> {}", ans.first ? "first differing " : "",
                            nlohmann::json(logical_coord(*ans.flat, in.shape)).dump(),
                            images_text(d->a, d->a_count, axes), images_text(d->b, d->b_count, axes));
    if (d->streamed) {  // one image of one side shown missing from the other by a full pass
      r.message += d->a_only.empty()
                       ? fmt::format("; the second's image {} is not among the first's", images_json(d->b_only, axes).dump())
                       : fmt::format("; the first's image {} is not among the second's", images_json(d->a_only, axes).dump());
    } else if (d->a_count > static_cast<std::int64_t>(d->a.size()) || d->b_count > static_cast<std::int64_t>(d->b.size())) {
      r.message += fmt::format("; only in the first: {}, only in the second: {}", images_text(d->a_only, -1, axes),
                               images_text(d->b_only, -1, axes));
    }
    return r;
  };
  // The swizzle-is-a-bijection rule: two ComposeLayouts with the same (valid: S >= B) swizzle map
  // an element to the same image set exactly when their tiles do (the swizzle is a bijection of
  // m applied to m alone). Under auto without --cross-check the engines decide the tiles — gf2
  // then applies to swizzled operands too and z3 needs no bit-vector XOR; a differing element of
  // the tiles differs on the layouts, and attempt_on re-checks it on the layouts (difference()).
  const bool by_bijection = a.is_compose() && b.is_compose() && *a.swizzle() == *b.swizzle() &&
                            in.engine == Engine::kAuto && !in.cross_check;
  const Layout ta = by_bijection ? Layout(a.tile()) : a, tb = by_bijection ? Layout(b.tile()) : b;
  auto attempt = [&](Engine e) {
    CheckResult r = attempt_on(e, ta, tb);
    if (by_bijection && (r.status == Status::kPass || r.status == Status::kFail)) {
      r.engine = "swizzle-bijection+" + r.engine;
      if (r.status == Status::kPass) r.message += "; decided on the tiles: both carry the same swizzle, a bijection of m";
    }
    return r;
  };
  std::int64_t points = 0;
  if (__builtin_mul_overflow(a.size(), std::max(a.tile().replica_count(), b.tile().replica_count()), &points))
    points = INT64_MAX;
  const std::vector<Engine> engines = {Engine::kEnum, Engine::kGf2, Engine::kZ3};
  const std::vector<Engine> order = points <= in.limits.enum_crossover_points
                                        ? std::vector<Engine>{Engine::kGf2, Engine::kEnum, Engine::kZ3}
                                        : std::vector<Engine>{Engine::kGf2, Engine::kZ3, Engine::kEnum};
  auto gate = [&](Engine e) -> std::string {
    if (unresolvable)
      return fmt::format("not run: its witness would be as unresolvable (image sets of more than {} copies)",
                         kMaxMaterializedImages);
    if (e != Engine::kEnum) return {};
    const std::int64_t reps = std::max(a.tile().replica_count(), b.tile().replica_count());
    std::int64_t bytes = 0;
    if (__builtin_mul_overflow(reps, static_cast<std::int64_t>(axes.size() * 64 + 96), &bytes)) bytes = INT64_MAX;
    // Each element's image sets are sorted: about log2(replicas) comparisons per point more.
    const double per_point = kEnumDenseNsPerPoint * (1 + std::log2(static_cast<double>(reps)) / 3);
    return enum_gate(in, static_cast<double>(points) * per_point * 1e-9, bytes, points);
  };
  return dispatch(in, order, engines, attempt, gate);
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
