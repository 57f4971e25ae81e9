// prove.injective, prove.bounds, prove.equivalent — every proof engine against brute force.
//
// A random layout (thread and memory axes, non-power-of-two extents, zero and negative strides,
// replicas, offsets, swizzles; half of the cases power-of-two only, so that GF(2) decides a good
// share) in a random storage scope is decided
//   * by each engine on its own: enumeration, GF(2) (may answer n/a outside its fragment), Z3
//     (may answer undecided at its time limit), and for bounds the interval engine;
//   * by the registered check (auto engine choice, the structural sufficient condition first),
//     and again with --cross-check (every applicable engine, disagreement is a failure);
// and by brute force over every (element, replica) point with the naive reference evaluator.
// Every decisive verdict must equal brute force, and every "no" witness must be real: its
// points, evaluated directly, collide (injective), leave the range (bounds), or have different
// image sets (equivalent; and when the engine claims the *first* differing element, every
// earlier element agrees).
//
// Storage cells by scope (docs/checks.md): shared -> memory axes; tmem -> TLane, TCol;
// local and unknown -> every axis. A stride-0 shard iter is a collision unless it is a declared
// broadcast (a third of the injectivity cases declare every one: --allow-broadcast); declared
// broadcast digits are visited at 0 only (elements that differ only there may share a cell).
// Ranges (sm_100a): laneid < 32, wid_in_wg < 4, tid_in_wg < 128, tx < 1024, TLane < 128,
// TCol < columns x 32 / bits (columns: alloc_cols, else 512), m < alloc_elems when given, else
// in local scope (a register fragment) m < 255 registers x 32 / bits; everything >= 0. A
// swizzled m must also stay in [0, span(m)) (a whole buffer), or for a view with an m offset
// inside the swizzle periods it touches.
#include <map>
#include <set>

#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/prove/engine.hpp"
#include "tirx_verify/prove/enum_engine.hpp"
#include "tirx_verify/prove/equivalent.hpp"
#include "tirx_verify/prove/gf2.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace tirx::props {

namespace {

const hw::Target& sm100() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

prove::EngineLimits limits() {
  prove::EngineLimits l;
  l.z3_timeout_ms = 5000;  // a slow Z3 query answers undecided, which is allowed
  return l;
}

// One generated check input; shown (in counterexamples) as the `tirx-verify check` command.
struct Drawn {
  Layout layout;
  prove::CheckInput in;
  std::string scope_name;
};

std::string check_command(const Drawn& d, const char* extra = "") {
  std::string r = fmt::format("tirx-verify check {} --scope {}", shell_quote(d.in.text), d.scope_name);
  if (!d.in.dtype.empty()) r += " --dtype " + d.in.dtype;
  if (d.in.alloc_cols) r += fmt::format(" --alloc-cols {}", *d.in.alloc_cols);
  if (d.in.alloc_elems) r += fmt::format(" --alloc-elems {}", *d.in.alloc_elems);
  if (d.in.allow_broadcast) r += " --allow-broadcast";
  return r + extra + " --json";
}

void showValue(const Drawn& d, std::ostream& os) { os << check_command(d); }

rc::Gen<Drawn> gen_input(bool bounds) {
  return rc::gen::exec([bounds] {
    Drawn d;
    d.scope_name = pick<std::string>({"shared", "tmem", "local", "unknown"});
    LayoutGenOptions opt;
    opt.axes = d.scope_name == "tmem"     ? AxisPool::kTmem
               : d.scope_name == "shared" ? AxisPool::kMemory
                                          : AxisPool::kMixed;
    opt.pow2 = *rc::gen::arbitrary<bool>();
    d.layout = d.scope_name == "tmem" ? Layout(*gen_tile_layout(opt)) : *gen_layout(opt);
    d.in.layout = d.layout;
    d.in.text = layout_text(d.layout);
    d.in.scope = prove::parse_scope(d.scope_name);
    d.in.machine = prove::machine_limits(sm100());
    d.in.limits = limits();
    // A third of the injectivity cases declare the buffer a broadcast view (every stride-0 shard
    // iter a declared broadcast); the rest are strict.
    if (!bounds) d.in.allow_broadcast = *rc::gen::inRange(0, 3) == 0;
    if (bounds) {
      d.in.elem_bits = pick({32, 16});
      d.in.dtype = d.in.elem_bits == 32 ? "float32" : "float16";
      // (alloc_cols values are legal tcgen05.alloc counts: an illegal one is bad input, not a finding)
      if (*rc::gen::arbitrary<bool>()) d.in.alloc_cols = pick<std::int64_t>({32, 64, 128, 256, 512});
      if (*rc::gen::arbitrary<bool>()) d.in.alloc_elems = pick<std::int64_t>({64, 512, 4096, 100});
    }
    return d;
  });
}

std::vector<Axis> cell_axes(const Layout& l, prove::Scope scope) {
  std::vector<Axis> out;
  for (const auto& info : axis_registry()) {
    const Axis a(info.id);
    if (!l.tile().uses_axis(a)) continue;
    bool keep = true;
    if (scope == prove::Scope::kShared || scope == prove::Scope::kGlobal) keep = a.is_memory();
    if (scope == prove::Scope::kTmem) keep = a == Axis(AxisId::TLane) || a == Axis(AxisId::TCol);
    if (keep) out.push_back(a);
  }
  return out;
}

// Calls f(flat, replica, point) for every point; stride-0 shard digits fixed at 0 if asked.
template <class F>
void for_each_point(const Layout& l, bool skip_broadcast, F f) {
  const TileLayout& t = l.tile();
  const std::int64_t n = t.size(), reps = t.replica_count();
  for (std::int64_t x = 0; x < n; ++x) {
    const auto d = ref_digits(t, x);
    bool broadcast_copy = false;
    for (std::size_t k = 0; k < d.size(); ++k)
      if (t.shard[k].is_declared_broadcast() && d[k] != 0) broadcast_copy = true;
    if (skip_broadcast && broadcast_copy) continue;
    for (std::int64_t r = 0; r < reps; ++r) f(x, r, ref_image(l, d, ref_replica_digits(t, r)));
  }
}

std::vector<std::int64_t> cell_of(const Point& p, const std::vector<Axis>& axes) {
  std::vector<std::int64_t> c;
  for (Axis a : axes) c.push_back(p[static_cast<std::size_t>(a.index())]);
  return c;
}

// Recovers a check witness point {"flat": f, "replica": r}.
Point witness_point(const Layout& l, const nlohmann::json& w) {
  const std::int64_t flat = w.at("flat").get<std::int64_t>(), rep = w.at("replica").get<std::int64_t>();
  return ref_image(l, ref_digits(l.tile(), flat), ref_replica_digits(l.tile(), rep));
}

Point element_point(const Layout& l, const prove::Element& e) { return ref_image(l, e.digits, e.replica); }

prove::CheckResult run_check(const char* id, const prove::CheckInput& in, const std::string& repro) {
  try {
    return prove::find_check(id)->run(in);
  } catch (const InputError& e) {
    fail(fmt::format("{} throws on a well-formed layout:\n{}", id, e.render()), repro);
  }
}

// A decisive engine verdict must equal brute force; n/a and undecided are allowed.
void expect_verdict(const char* what, const char* engine, prove::Status got, bool truth, const std::string& detail,
                    const std::string& repro) {
  if (got != prove::Status::kPass && got != prove::Status::kFail) return;
  if ((got == prove::Status::kPass) != truth)
    fail(fmt::format("{}: engine {} says {}, brute force {}", what, engine, prove::status_name(got), detail), repro);
}

}  // namespace

Property prove_injective_property() {
  return {"prove.injective", "every injectivity engine agrees with brute force; its witnesses are real collisions", 300, [] {
            const Drawn drawn = *gen_input(false);
            const std::string repro = check_command(drawn);
            // The layout the engines see: strict, or with every stride-0 shard iter declared.
            Drawn d = drawn;
            if (d.in.allow_broadcast) d.layout = declare_broadcasts(d.layout);
            const std::vector<Axis> axes = cell_axes(d.layout, d.in.scope);
            std::map<std::vector<std::int64_t>, std::pair<std::int64_t, std::int64_t>> owner;
            bool collide = false;
            std::string example;
            for_each_point(d.layout, true, [&](std::int64_t x, std::int64_t r, const Point& p) {
              auto [it, fresh] = owner.emplace(cell_of(p, axes), std::make_pair(x, r));
              if (!fresh && !collide) {
                collide = true;
                example = fmt::format("element {} replica {} and element {} replica {} share {}", it->second.first,
                                      it->second.second, x, r, show_point(p));
              }
            });
            const std::string truth = collide ? "finds a collision: " + example : "finds none";
            const std::string what = fmt::format("layout.injective of {} in scope {}", d.in.text, d.scope_name);
            // Each engine alone.
            const prove::InjectivityAnswer answers[] = {prove::enumerate::injective(d.layout, d.in.scope, d.in.limits),
                                                        prove::gf2::injective(d.layout, d.in.scope),
                                                        prove::z3engine::injective(d.layout, d.in.scope, d.in.limits)};
            const char* names[] = {"enum", "gf2", "z3"};
            for (int k = 0; k < 3; ++k) {
              const prove::InjectivityAnswer& a = answers[k];
              RC_TAG(fmt::format("{} {}", names[k], prove::status_name(a.status)));
              expect_verdict(what.c_str(), names[k], a.status, !collide, truth,
                             check_command(d, fmt::format(" --engine {}", names[k]).c_str()));
              if (a.status == prove::Status::kFail) {
                if (!a.a || !a.b || *a.a == *a.b)
                  fail(fmt::format("{}: engine {} fails without two distinct witness points", what, names[k]), repro);
                const Point pa = element_point(d.layout, *a.a), pb = element_point(d.layout, *a.b);
                if (cell_of(pa, axes) != cell_of(pb, axes))
                  fail(fmt::format("{}: engine {} witness points evaluate to {} and {}: not one cell", what, names[k],
                                   show_point(pa), show_point(pb)),
                       repro);
              }
            }
            // The registered check, auto and cross-checked.
            for (const bool cross : {false, true}) {
              prove::CheckInput in = d.in;
              in.cross_check = cross;
              const std::string r = cross ? check_command(d, " --cross-check") : repro;
              const prove::CheckResult res = run_check("layout.injective", in, r);
              if (!cross) RC_TAG("check " + std::string(prove::status_name(res.status)) + " by " + res.engine);
              expect_verdict(what.c_str(), cross ? "cross-check" : res.engine.c_str(), res.status, !collide, truth, r);
              if (res.status == prove::Status::kFail) {
                const auto& w = res.witness;
                if (!w.contains("a") || !w.contains("b"))
                  fail(fmt::format("{}: the check fails ({}) without a point pair: {}", what, res.message, w.dump()), r);
                const Point a = witness_point(d.layout, w.at("a")), b = witness_point(d.layout, w.at("b"));
                const bool same_point = w.at("a").at("flat") == w.at("b").at("flat") &&
                                        w.at("a").at("replica") == w.at("b").at("replica");
                if (same_point || cell_of(a, axes) != cell_of(b, axes))
                  fail(fmt::format("{}: witness {} is not a collision: the points evaluate to {} and {}", what, w.dump(),
                                   show_point(a), show_point(b)),
                       r);
              }
            }
          }};
}

Property prove_bounds_property() {
  return {"prove.bounds", "every bounds engine agrees with brute force; its witnesses are really out of range", 300, [] {
            const Drawn d = *gen_input(true);
            const std::string repro = check_command(d);
            const prove::CheckInput& in = d.in;
            const TileLayout& t = d.layout.tile();
            auto range = [&](Axis a) -> std::pair<std::int64_t, std::optional<std::int64_t>> {
              switch (a.id()) {
                case AxisId::laneid: return {0, sm100().warp_size};
                case AxisId::wid_in_wg: return {0, sm100().warps_per_warpgroup};
                case AxisId::tid_in_wg: return {0, sm100().warpgroup_size()};
                case AxisId::tx: return {0, sm100().max_threads_per_cta};
                case AxisId::TLane: return {0, sm100().tmem->lanes};
                case AxisId::TCol: {
                  const std::int64_t cols = in.alloc_cols.value_or(sm100().tmem->columns);
                  return {0, cols * (in.elem_bits >= 32 ? 1 : 32 / in.elem_bits)};
                }
                case AxisId::m:
                  if (in.alloc_elems) return {0, in.alloc_elems};
                  if (in.scope == prove::Scope::kLocal)  // a register fragment: slots of one thread's registers
                    return {0, sm100().max_registers_per_thread * (in.elem_bits >= 32 ? 1 : 32 / in.elem_bits)};
                  return {0, std::nullopt};
                default: return {0, std::nullopt};
              }
            };
            // The targets, as documented: every axis the layout uses, and the swizzled m.
            std::vector<prove::BoundTarget> targets;
            for (const Axis a : t.axes()) {
              const auto [lo, hi] = range(a);
              targets.push_back({a, false, lo, hi, "range"});
            }
            const Layout unswizzled(t);
            std::int64_t mlo = INT64_MAX, mhi = INT64_MIN;
            for_each_point(unswizzled, false, [&](std::int64_t, std::int64_t, const Point& p) {
              const std::int64_t v = p[static_cast<std::size_t>(Axis(AxisId::m).index())];
              mlo = std::min(mlo, v);
              mhi = std::max(mhi, v);
            });
            if (d.layout.swizzle() && t.uses_axis(AxisId::m)) {
              const SwizzleSpec& z = *d.layout.swizzle();
              std::int64_t lo_lim = 0, limit = t.span(AxisId::m);
              if (t.offset.get(AxisId::m) != 0) {
                lo_lim = floor_div(mlo, z.period()) * z.period();
                limit = floor_div(mhi, z.period()) * z.period() + z.period();
              }
              // The footprint, cut to m's own range (the allocation, or a register fragment's
              // register budget): a swizzled register index past the budget is out of bounds too.
              if (const auto hi = range(Axis(AxisId::m)).second) limit = std::min(limit, *hi);
              targets.push_back({AxisId::m, true, lo_lim, limit, "swizzle footprint"});
            }
            // Brute force: the first violated target in order, as the engines report it.
            auto value_on = [&](const prove::BoundTarget& bt, const Point& unswz) {
              std::int64_t v = unswz[static_cast<std::size_t>(bt.axis.index())];
              return bt.swizzled ? ref_swizzle(*d.layout.swizzle(), v) : v;
            };
            auto outside = [](const prove::BoundTarget& bt, std::int64_t v) { return v < bt.lo || (bt.hi && v >= *bt.hi); };
            bool out = false;
            std::string example;
            for (const auto& bt : targets) {
              for_each_point(unswizzled, false, [&](std::int64_t x, std::int64_t r, const Point& p) {
                const std::int64_t v = value_on(bt, p);
                if (!out && outside(bt, v)) {
                  out = true;
                  example = fmt::format("element {} replica {}: {}{} = {} outside [{}, {})", x, r,
                                        bt.swizzled ? "swizzled " : "", bt.axis.name(), v, bt.lo,
                                        bt.hi ? std::to_string(*bt.hi) : "inf");
                }
              });
            }
            const std::string truth = out ? "finds " + example : "finds every point in range";
            const std::string what = fmt::format("layout.bounds of {} in scope {}", in.text, d.scope_name);
            // Each engine alone on the same targets.
            const prove::BoundsAnswer answers[] = {prove::enumerate::bounds(d.layout, targets, in.limits),
                                                   prove::enumerate::interval_bounds(d.layout, targets),
                                                   prove::gf2::bounds(d.layout, targets),
                                                   prove::z3engine::bounds(d.layout, targets, in.limits)};
            const char* names[] = {"enum", "interval", "gf2", "z3"};
            for (int k = 0; k < 4; ++k) {
              const prove::BoundsAnswer& a = answers[k];
              RC_TAG(fmt::format("{} {}", names[k], prove::status_name(a.status)));
              expect_verdict(what.c_str(), names[k], a.status, !out, truth, repro);
              if (a.status == prove::Status::kFail) {
                if (!a.element || a.target >= targets.size())
                  fail(fmt::format("{}: engine {} fails without a witness element", what, names[k]), repro);
                const prove::BoundTarget& bt = targets[a.target];
                const std::int64_t v = value_on(bt, element_point(unswizzled, *a.element));
                if (v != a.value || !outside(bt, v))
                  fail(fmt::format("{}: engine {} witness on target {} ({}{}) evaluates to {} (engine: {}), which is {}",
                                   what, names[k], a.target, bt.swizzled ? "swizzled " : "", bt.axis.name(), v, a.value,
                                   outside(bt, v) ? "outside" : "inside the range"),
                       repro);
              }
            }
            // The registered check (auto and cross-checked): verdict and witness.
            for (const bool cross : {false, true}) {
              prove::CheckInput cin = in;
              cin.cross_check = cross;
              const std::string r = cross ? check_command(d, " --cross-check") : repro;
              const prove::CheckResult res = run_check("layout.bounds", cin, r);
              if (!cross) RC_TAG("check " + std::string(prove::status_name(res.status)) + " by " + res.engine);
              expect_verdict(what.c_str(), cross ? "cross-check" : res.engine.c_str(), res.status, !out, truth, r);
              if (res.status == prove::Status::kFail && res.witness.contains("element")) {
                const auto& w = res.witness;
                const Axis a = *Axis::from_name(w.at("axis").get<std::string>());
                const Point p = witness_point(unswizzled, w.at("element"));
                std::int64_t v = p[static_cast<std::size_t>(a.index())];
                const bool swizzled = w.contains("note") || w.value("swizzled", false);
                if (swizzled) v = ref_swizzle(*d.layout.swizzle(), v);
                const std::int64_t lo = w.at("range")[0].get<std::int64_t>();
                const bool has_hi = !w.at("range")[1].is_null();
                const std::int64_t hi = has_hi ? w.at("range")[1].get<std::int64_t>() : 0;
                if (v != w.at("value").get<std::int64_t>() || !(v < lo || (has_hi && v >= hi)))
                  fail(fmt::format("{}: witness {} is not real: the point evaluates to {} = {}", what, w.dump(), a.name(), v),
                       r);
              }
            }
          }};
}

namespace {

// Two layouts of one size: b is canonicalize(a), or a with one thing changed.
struct EquivCase {
  Layout a, b;
  std::string change;
};

void showValue(const EquivCase& c, std::ostream& os) {
  os << "tirx-verify equiv " << shell_quote(layout_text(c.a)) << " " << shell_quote(layout_text(c.b)) << " (" << c.change
     << ")";
}

rc::Gen<EquivCase> gen_equiv_case() {
  return rc::gen::exec([] {
    EquivCase c;
    LayoutGenOptions opt;
    opt.pow2 = *rc::gen::arbitrary<bool>();
    opt.max_points = 1024;
    c.a = *gen_layout(opt);
    c.b = c.a;
    TileLayout& t = c.b.tile();
    switch (*rc::gen::inRange(0, 7)) {
      case 0: c.change = "canonicalize"; c.b = canonicalize(c.a); break;
      case 1: {  // one stride changed
        const std::size_t k = static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(t.shard.size())));
        t.shard[k].stride += pick<std::int64_t>({1, -1, 2, 64});
        c.change = fmt::format("stride of iter {} changed", k);
        break;
      }
      case 2:  // an offset changed
        t.offset.add(AxisId::m, pick<std::int64_t>({1, 8, -1, 64}));
        c.change = "m offset changed";
        break;
      case 3:  // replicas dropped or added
        if (!t.replica.empty()) {
          t.replica.pop_back();
          c.change = "last replica iter dropped";
        } else {
          t.replica.push_back(Iter{2, pick<std::int64_t>({0, 1, 64}), Axis(t.axes().front())});
          c.change = "a replica iter added";
        }
        break;
      case 4: {  // two shard iters swapped (same size, usually another map)
        if (t.shard.size() >= 2) std::swap(t.shard.front(), t.shard.back());
        c.change = "first and last shard iters swapped";
        break;
      }
      case 5:  // the swizzle direction flipped, or a swizzle of B = 1 added around the tile
        if (c.b.is_compose()) {
          SwizzleSpec s = *c.b.swizzle();
          s.swizzle_inner = !s.swizzle_inner;
          c.b = Layout(ComposeLayout(s, c.b.tile()));
          c.change = "swizzle direction flipped";
        } else if (!t.uses_axis(AxisId::TLane) && t.axes().size() == 1 && t.uses_axis(AxisId::m)) {
          c.b = Layout(ComposeLayout(SwizzleSpec{0, 1, 1, true}, t));
          c.change = "wrapped in ComposeLayout(0, 1, 1)";
        } else {
          c.change = "unchanged";
        }
        break;
      default: c.change = "unchanged"; break;
    }
    return c;
  });
}

// Image set of element x (every replica copy), sorted and de-duplicated.
std::vector<Point> image_set(const Layout& l, std::int64_t x) {
  std::vector<Point> v = ref_images(l, x);
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

Property prove_equivalent_property() {
  return {"prove.equivalent", "every equivalence engine agrees with brute force; its first differing element is real", 200, [] {
            const EquivCase c = *gen_equiv_case();
            const std::string repro = fmt::format("tirx-verify equiv {} {} --json", shell_quote(layout_text(c.a)),
                                                  shell_quote(layout_text(c.b)));
            const std::int64_t n = c.a.size();
            if (c.b.size() != n) fail("generator: sizes differ", repro);
            std::optional<std::int64_t> first;
            for (std::int64_t x = 0; x < n && !first; ++x)
              if (image_set(c.a, x) != image_set(c.b, x)) first = x;
            const bool same = !first;
            const std::string truth = same ? "finds every element equal" : fmt::format("finds element {} differs", *first);
            const std::string what = fmt::format("{} vs {} ({})", layout_text(c.a), layout_text(c.b), c.change);
            auto check_witness = [&](const char* engine, std::int64_t flat, bool claims_first) {
              if (flat < 0 || flat >= n || image_set(c.a, flat) == image_set(c.b, flat))
                fail(fmt::format("{}: engine {} names element {}, whose image sets are equal", what, engine, flat), repro);
              if (claims_first && flat != *first)
                fail(fmt::format("{}: engine {} names element {} as the first difference, brute force {}", what, engine,
                                 flat, *first),
                     repro);
            };
            const prove::EngineLimits lim = limits();
            const prove::EquivalenceAnswer answers[] = {prove::enumerate::equivalent(c.a, c.b, lim),
                                                        prove::gf2::equivalent(c.a, c.b),
                                                        prove::z3engine::equivalent(c.a, c.b, lim)};
            const char* names[] = {"enum", "gf2", "z3"};
            for (int k = 0; k < 3; ++k) {
              const prove::EquivalenceAnswer& a = answers[k];
              RC_TAG(fmt::format("{} {}", names[k], prove::status_name(a.status)));
              expect_verdict(what.c_str(), names[k], a.status, same, truth, repro);
              if (a.status == prove::Status::kFail) {
                if (!a.flat) fail(fmt::format("{}: engine {} fails without an element", what, names[k]), repro);
                check_witness(names[k], *a.flat, a.first);
              }
            }
            // The library entry point (what `tirx-verify equiv` runs), auto and cross-checked.
            for (const bool cross : {false, true}) {
              prove::EquivalenceOptions opt;
              opt.cross_check = cross;
              opt.limits = lim;
              prove::CheckResult res;
              try {
                res = prove::equivalent(c.a, c.b, std::nullopt, opt);
              } catch (const InputError& e) {
                fail(fmt::format("{}: equivalent() throws:\n{}", what, e.render()), repro);
              }
              if (!cross) RC_TAG("check " + std::string(prove::status_name(res.status)) + " by " + res.engine);
              expect_verdict(what.c_str(), cross ? "cross-check" : res.engine.c_str(), res.status, same, truth, repro);
              if (res.status == prove::Status::kFail && res.witness.contains("element"))
                check_witness(cross ? "cross-check" : "auto", res.witness.at("element").at("flat").get<std::int64_t>(),
                              res.witness.value("first", true));
            }
          }};
}

}  // namespace tirx::props
