// prove.injective and prove.bounds — the provers against brute force, witnesses re-checked.
//
// A random layout (thread and memory axes, replicas, offsets, swizzles) in a random storage
// scope is checked by the registered check (whatever engine it picks: the structural
// sufficient condition, interval arithmetic, enumeration) and by brute force over every
// (element, replica) point with the naive reference evaluator. The verdicts must agree, and a
// "fail" witness must be real: its points, evaluated directly, collide (injective) or leave
// the range (bounds).
//
// Storage cells by scope (docs/checks.md): shared -> memory axes; tmem -> TLane, TCol;
// local and unknown -> every axis. Stride-0 shard iters are explicit broadcasts: their digits
// are visited at 0 only (elements that differ only there may share a cell).
// Ranges (sm_100a): laneid < 32, wid_in_wg < 4, tid_in_wg < 128, tx < 1024, TLane < 128,
// TCol < columns x 32 / bits (columns: alloc_cols, else 512), m < alloc_elems when given, else
// in local scope (a register fragment) m < 255 registers x 32 / bits; everything >= 0. A swizzled m must also stay in [0, span(m)) (a whole buffer), or for a view
// with an m offset inside the swizzle periods it touches.
#include <map>

#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::props {

namespace {

const hw::Target& sm100() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

// One generated check input; shown (in counterexamples) as the `tirx-verify check` command.
struct Drawn {
  Layout layout;
  prove::CheckInput in;
  std::string scope_name;
};

std::string check_command(const Drawn& d) {
  std::string r = fmt::format("tirx-verify check {} --scope {}", shell_quote(d.in.text), d.scope_name);
  if (!d.in.dtype.empty()) r += " --dtype " + d.in.dtype;
  if (d.in.alloc_cols) r += fmt::format(" --alloc-cols {}", *d.in.alloc_cols);
  if (d.in.alloc_elems) r += fmt::format(" --alloc-elems {}", *d.in.alloc_elems);
  return r + " --json";
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
    d.layout = d.scope_name == "tmem" ? Layout(*gen_tile_layout(opt)) : *gen_layout(opt);
    d.in.layout = d.layout;
    d.in.text = layout_text(d.layout);
    d.in.scope = prove::parse_scope(d.scope_name);
    d.in.machine = prove::machine_limits(sm100());
    if (bounds) {
      d.in.elem_bits = pick({32, 16});
      d.in.dtype = d.in.elem_bits == 32 ? "float32" : "float16";
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
      if (t.shard[k].stride == 0 && d[k] != 0) broadcast_copy = true;
    if (skip_broadcast && broadcast_copy) continue;
    for (std::int64_t r = 0; r < reps; ++r) f(x, r, ref_image(l, d, ref_replica_digits(t, r)));
  }
}

std::vector<std::int64_t> cell_of(const Point& p, const std::vector<Axis>& axes) {
  std::vector<std::int64_t> c;
  for (Axis a : axes) c.push_back(p[static_cast<std::size_t>(a.index())]);
  return c;
}

// Recovers a witness point {"flat": f, "replica": r}.
Point witness_point(const Layout& l, const nlohmann::json& w) {
  const std::int64_t flat = w.at("flat").get<std::int64_t>(), rep = w.at("replica").get<std::int64_t>();
  return ref_image(l, ref_digits(l.tile(), flat), ref_replica_digits(l.tile(), rep));
}

prove::CheckResult run_check(const char* id, const prove::CheckInput& in, const std::string& repro) {
  try {
    return prove::find_check(id)->run(in);
  } catch (const InputError& e) {
    fail(fmt::format("{} throws on a well-formed layout:\n{}", id, e.render()), repro);
  }
}

}  // namespace

Property prove_injective_property() {
  return {"prove.injective", "layout.injective agrees with brute force; its witnesses are real collisions", 300, [] {
            const Drawn d = *gen_input(false);
            const std::string repro = check_command(d);
            const prove::CheckResult res = run_check("layout.injective", d.in, repro);
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
            RC_TAG(prove::status_name(res.status), res.engine);
            if (res.status == prove::Status::kUndecided) return;  // a limit, not an answer
            const bool says_injective = res.status == prove::Status::kPass;
            if (says_injective == collide)
              fail(fmt::format("layout.injective ({}) says {} for {} in scope {}, brute force {}", res.engine,
                               prove::status_name(res.status), d.in.text, d.scope_name,
                               collide ? "finds a collision: " + example : "finds none"),
                   repro);
            if (!says_injective) {
              const auto& w = res.witness;
              const Point a = witness_point(d.layout, w.at("a")), b = witness_point(d.layout, w.at("b"));
              const bool same_point = w.at("a").at("flat") == w.at("b").at("flat") &&
                                      w.at("a").at("replica") == w.at("b").at("replica");
              if (same_point || cell_of(a, axes) != cell_of(b, axes))
                fail(fmt::format("layout.injective witness {} for {} is not a collision: the points evaluate to {} and {}",
                                 w.dump(), d.in.text, show_point(a), show_point(b)),
                     repro);
            }
          }};
}

Property prove_bounds_property() {
  return {"prove.bounds", "layout.bounds agrees with brute force; its witnesses are really out of range", 300, [] {
            const Drawn d = *gen_input(true);
            const std::string repro = check_command(d);
            const prove::CheckResult res = run_check("layout.bounds", d.in, repro);
            const prove::CheckInput& in = d.in;
            const TileLayout& t = d.layout.tile();
            auto range = [&](Axis a) -> std::pair<std::int64_t, std::optional<std::int64_t>> {
              switch (a.id()) {
                case AxisId::laneid: return {0, sm100().warp_size};
                case AxisId::wid_in_wg: return {0, sm100().warps_per_warpgroup};
                case AxisId::tid_in_wg: return {0, sm100().warpgroup_size()};
                case AxisId::TLane: return {0, sm100().tmem->lanes};
                case AxisId::TCol: {
                  const std::int64_t cols = in.alloc_cols.value_or(sm100().tmem->columns);
                  return {0, cols * (in.elem_bits >= 32 ? 1 : 32 / in.elem_bits)};
                }
                case AxisId::tx: return {0, sm100().max_threads_per_cta};
                case AxisId::m:
                  if (in.alloc_elems) return {0, in.alloc_elems};
                  if (in.scope == prove::Scope::kLocal)  // a register fragment: slots of one thread's registers
                    return {0, sm100().max_registers_per_thread * (in.elem_bits >= 32 ? 1 : 32 / in.elem_bits)};
                  return {0, std::nullopt};
                default: return {0, std::nullopt};
              }
            };
            // Brute force: the unswizzled coordinates of every point on every axis the layout uses.
            const Layout unswizzled(t);
            bool out = false;
            std::string example;
            std::int64_t mlo = INT64_MAX, mhi = INT64_MIN;
            for_each_point(unswizzled, false, [&](std::int64_t x, std::int64_t r, const Point& p) {
              for (const Axis a : t.axes()) {
                const auto [lo, hi] = range(a);
                const std::int64_t v = p[static_cast<std::size_t>(a.index())];
                if (a == Axis(AxisId::m)) {
                  mlo = std::min(mlo, v);
                  mhi = std::max(mhi, v);
                }
                if ((v < lo || (hi && v >= *hi)) && !out) {
                  out = true;
                  example = fmt::format("element {} replica {}: {} = {}", x, r, a.name(), v);
                }
              }
            });
            // The swizzled m must stay inside the buffer footprint (whole buffer) or its periods (a view).
            if (!out && d.layout.swizzle() && t.uses_axis(AxisId::m)) {
              const SwizzleSpec& z = *d.layout.swizzle();
              std::int64_t lo_lim = 0, limit = t.span(AxisId::m);
              if (t.offset.get(AxisId::m) != 0) {
                lo_lim = floor_div(mlo, z.period()) * z.period();
                limit = floor_div(mhi, z.period()) * z.period() + z.period();
              }
              if (in.alloc_elems) limit = std::min(limit, *in.alloc_elems);
              for_each_point(unswizzled, false, [&](std::int64_t x, std::int64_t r, const Point& p) {
                const std::int64_t v = ref_swizzle(z, p[static_cast<std::size_t>(Axis(AxisId::m).index())]);
                if ((v < lo_lim || v >= limit) && !out) {
                  out = true;
                  example = fmt::format("element {} replica {}: swizzled m = {} outside [{}, {})", x, r, v, lo_lim, limit);
                }
              });
            }
            RC_TAG(prove::status_name(res.status), res.engine);
            if (res.status == prove::Status::kUndecided) return;
            const bool says_in = res.status == prove::Status::kPass;
            if (says_in == out)
              fail(fmt::format("layout.bounds ({}) says {} for {} in scope {}, brute force {}", res.engine,
                               prove::status_name(res.status), in.text, d.scope_name,
                               out ? "finds " + example : "finds every point in range"),
                   repro);
            if (!says_in) {
              const auto& w = res.witness;
              const Axis a = *Axis::from_name(w.at("axis").get<std::string>());
              const Point p = witness_point(unswizzled, w.at("element"));
              std::int64_t v = p[static_cast<std::size_t>(a.index())];
              const bool swizzled = w.contains("note");
              if (swizzled) v = ref_swizzle(*d.layout.swizzle(), v);
              const std::int64_t lo = w.at("range")[0].get<std::int64_t>();
              const bool has_hi = !w.at("range")[1].is_null();
              const std::int64_t hi = has_hi ? w.at("range")[1].get<std::int64_t>() : 0;
              if (v != w.at("value").get<std::int64_t>() || !(v < lo || (has_hi && v >= hi)))
                fail(fmt::format("layout.bounds witness {} for {} is not real: the point evaluates to {} = {}", w.dump(),
                                 in.text, a.name(), v),
                     repro);
            }
          }};
}

}  // namespace tirx::props
