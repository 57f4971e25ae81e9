// The Z3 encoding of layouts and the solver session (z3_encode.hpp, z3_engine.hpp).
#include "z3_encode.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/prove/z3_engine.hpp"

namespace tirx::prove {

namespace z3enc {

namespace {

unsigned bit_length(unsigned __int128 v) {
  unsigned n = 0;
  while (v) {
    ++n;
    v >>= 1;
  }
  return n;
}

// Bits of a variable for digits 0..extent-1.
unsigned digit_bits(std::int64_t extent) {
  return std::max(1u, bit_length(static_cast<unsigned __int128>(extent - 1)));
}

}  // namespace

std::vector<z3::expr> Encoding::point_vars() const {
  std::vector<z3::expr> out;
  for (const auto& c : shard)
    if (c) out.push_back(*c);
  for (const auto& r : replica) out.push_back(r);
  return out;
}

z3::expr Encoding::value_or_zero(const Arith& ar, Axis a) const {
  return value[a.index()] ? *value[a.index()] : ar.num(0);
}

Arith arith_for(z3::context& ctx, std::initializer_list<const Layout*> layouts, std::int64_t extra) {
  bool swizzled = false;
  unsigned w = 8;
  for (const Layout* l : layouts) {
    if (const SwizzleSpec* z = l->swizzle(); z && z->swizzle_len > 0) swizzled = true;
    w = std::max(w, z3engine::term_width(*l, extra));
  }
  return Arith{&ctx, !swizzled, w};
}

Encoding encode(const Arith& ar, const Layout& l, const std::string& prefix, const EncodeOptions& opt) {
  z3::context& ctx = *ar.ctx;
  const unsigned width = ar.width;
  const TileLayout& t = l.tile();
  Encoding e;
  auto digit = [&](const Iter& it, const std::string& name) {
    if (ar.ints) {
      z3::expr v = ctx.int_const(name.c_str());
      e.bounds.push_back(v >= 0);
      e.bounds.push_back(v <= ctx.int_val(static_cast<std::int64_t>(it.extent - 1)));
      return v;
    }
    const unsigned bits = digit_bits(it.extent);
    z3::expr v = ctx.bv_const(name.c_str(), bits);
    // The width alone bounds the digit only when extent = 2^bits (not for extent 1: one bit).
    if ((std::uint64_t{1} << bits) != static_cast<std::uint64_t>(it.extent))
      e.bounds.push_back(z3::ule(v, ctx.bv_val(static_cast<std::uint64_t>(it.extent - 1), bits)));
    return v;
  };
  auto widen = [&](const z3::expr& v) {
    if (ar.ints || v.get_sort().bv_size() == width) return v;
    return z3::zext(v, width - v.get_sort().bv_size());
  };
  auto add_term = [&](Axis a, const z3::expr& term) {
    auto& slot = e.tile[a.index()];
    slot = slot ? *slot + term : term;
  };
  for (std::size_t k = 0; k < t.shard.size(); ++k) {
    const Iter& it = t.shard[k];
    if (it.extent == 1 || (opt.exclude_declared_broadcast && it.is_declared_broadcast())) {
      e.shard.emplace_back(std::nullopt);
      if (!e.tile[it.axis.index()]) e.tile[it.axis.index()] = ar.num(0);
      continue;
    }
    z3::expr c = digit(it, fmt::format("{}c{}", prefix, k));
    e.shard.emplace_back(c);
    add_term(it.axis, widen(c) * ar.num(it.stride));
  }
  for (std::size_t k = 0; k < t.replica.size(); ++k) {
    const Iter& it = t.replica[k];
    z3::expr r = digit(it, fmt::format("{}r{}", prefix, k));
    e.replica.push_back(r);
    add_term(it.axis, widen(r) * ar.num(it.stride));
  }
  for (const auto& o : t.offset.entries()) add_term(o.axis, ar.num(o.value));
  e.value = e.tile;
  if (const SwizzleSpec* z = l.swizzle(); z && z->swizzle_len > 0 && e.tile[Axis(AxisId::m).index()]) {
    if (ar.ints) throw std::logic_error("z3 encode: a swizzled layout needs bit-vectors");
    const z3::expr m = *e.tile[Axis(AxisId::m).index()];
    const std::uint64_t field = ((std::uint64_t{1} << z->swizzle_len) - 1) << z->per_element;
    const z3::expr S = ctx.bv_val(z->atom_len, width), F = ctx.bv_val(field, width);
    e.value[Axis(AxisId::m).index()] = z->swizzle_inner ? (m ^ (z3::lshr(m, S) & F)) : (m ^ z3::shl(m & F, S));
  }
  // Flat index: sum of digit * (product of the extents inside it).
  z3::expr flat = ar.num(0);
  std::int64_t weight = 1;
  bool all = true;
  for (std::size_t k = t.shard.size(); k-- > 0;) {
    if (e.shard[k]) flat = flat + widen(*e.shard[k]) * ar.num(weight);
    else if (t.shard[k].extent != 1) all = false;
    weight = checked_mul(weight, t.shard[k].extent, "size");
  }
  if (all) e.flat = flat;
  return e;
}

std::int64_t numeral(const z3::expr& v) {
  return v.is_bv() ? static_cast<std::int64_t>(v.get_numeral_uint64()) : v.get_numeral_int64();
}

Element element_from_model(const z3::model& m, const TileLayout& l, const Encoding& e) {
  Element el;
  el.digits.assign(l.shard.size(), 0);
  el.replica.assign(l.replica.size(), 0);
  for (std::size_t k = 0; k < e.shard.size(); ++k)
    if (e.shard[k]) el.digits[k] = numeral(m.eval(*e.shard[k], true));
  for (std::size_t k = 0; k < e.replica.size(); ++k) el.replica[k] = numeral(m.eval(e.replica[k], true));
  return el;
}

// Below this ceiling, probe whether a context can be created at all before z3++ tries.
constexpr std::int64_t kProbeBelowMb = 64;

namespace {
thread_local std::unique_ptr<z3::context> t_context;
thread_local std::int64_t t_context_mb = -1;
}  // namespace

void Session::drop_cached_context() {
  t_context.reset();
  t_context_mb = -1;
}

Session::Session(const EngineLimits& limits) : limits_(limits) {
  // Z3's heap is not charged piece by piece: its ceiling is the smaller of --z3-memory-mb and
  // the command's memory limit.
  if (limits_.budget && limits_.budget->memory_limit_bytes() != INT64_MAX)
    limits_.z3_memory_mb = std::max<std::int64_t>(
        1, std::min(limits_.z3_memory_mb, limits_.budget->memory_limit_bytes() >> 20));
  // Process-wide in Z3: read when a context is created, enforced on every allocation.
  z3::set_param("memory_max_size", static_cast<int>(std::clamp<std::int64_t>(limits_.z3_memory_mb, 1, 1 << 30)));
  if (!t_context || t_context_mb != limits_.z3_memory_mb) {
    drop_cached_context();
    if (limits_.z3_memory_mb < kProbeBelowMb) {
      Z3_config cfg = Z3_mk_config();
      Z3_context probe = Z3_mk_context_rc(cfg);
      Z3_del_config(cfg);
      if (!probe) throw z3::exception("out of memory: a Z3 context does not fit under the memory ceiling");
      Z3_del_context(probe);
    }
    t_context = std::make_unique<z3::context>();
    t_context_mb = limits_.z3_memory_mb;
  }
  ctx_ = t_context.get();
}

z3::solver Arith::solver() const {
  z3::context& c = *ctx;
  const z3::tactic pre = z3::tactic(c, "simplify") & z3::tactic(c, "solve-eqs");
  return ints ? (pre & z3::tactic(c, "smt")).mk_solver()
              : (pre & z3::tactic(c, "bit-blast") & z3::tactic(c, "sat")).mk_solver();
}

bool Session::out_of_time() const { return clock_.seconds() * 1e3 >= static_cast<double>(limits_.z3_timeout_ms); }

z3::check_result Session::check(z3::solver& s, double share) {
  // The query gets the smaller of what is left of --z3-timeout-ms and of the command's time
  // limit; when the command's limit is the one that ends it, that is a BudgetExceeded.
  const double own_left = static_cast<double>(limits_.z3_timeout_ms) - clock_.seconds() * 1e3;
  const double budget_left = limits_.budget ? limits_.budget->seconds_left() * 1e3 : 1e300;
  const bool budget_binds = budget_left < own_left;
  auto budget_spent = [&] {
    return BudgetExceeded(BudgetKind::kTime, limits_.budget->time_text(),
                          fmt::format("z3, after {:.2f} s of queries", clock_.seconds()));
  };
  const double left = std::min(own_left, budget_left) * std::clamp(share, 0.0, 1.0);
  if (left < 1) {
    if (budget_binds) throw budget_spent();
    why_ = fmt::format("z3 timeout: z3_timeout_ms={} spent", limits_.z3_timeout_ms);
    return z3::unknown;
  }
  z3::params p(*ctx_);
  p.set("timeout", static_cast<unsigned>(std::min(left, 4.0e9)));
  // Z3 would install its own SIGINT handler for the query (and swallow Ctrl-C); interruption goes
  // through the budget instead (Budget::interrupt -> the InterruptHook below).
  p.set("ctrl_c", false);
  s.set(p);
  z3::check_result r;
  {
    z3::context* ctx = ctx_;  // Budget::interrupt() (Ctrl-C in the Python module) cancels the query
    const InterruptHook hook(limits_.budget, [ctx] { ctx->interrupt(); });
    r = s.check();
  }
  if (limits_.budget && limits_.budget->interrupted()) throw budget_spent();
  if (r == z3::unknown) {
    const std::string reason = s.reason_unknown();
    if (reason.find("memory") != std::string::npos) {
      why_ = fmt::format("z3 memory limit: z3_memory_mb={} reached", limits_.z3_memory_mb);
      drop_cached_context();
    }
    else if (budget_binds && (limits_.budget->seconds_left() < 0.05 || reason.find("timeout") != std::string::npos ||
                              reason.find("canceled") != std::string::npos))
      throw budget_spent();
    else if (out_of_time() || reason.find("timeout") != std::string::npos || reason.find("canceled") != std::string::npos)
      why_ = fmt::format("z3 timeout: z3_timeout_ms={} spent", limits_.z3_timeout_ms);
    else
      why_ = "z3 returned unknown: " + reason;
  }
  return r;
}

std::string describe_z3_failure(const std::string& what, const EngineLimits& limits) {
  if (what.find("memory") != std::string::npos)
    return fmt::format("z3 memory limit: z3_memory_mb={} reached ({})", limits.z3_memory_mb, what);
  return "z3 error: " + what;
}

}  // namespace z3enc

namespace z3engine {

unsigned term_width(const Layout& l, std::int64_t extra) {
  const TileLayout& t = l.tile();
  std::array<unsigned __int128, kNumAxes> mag{};
  auto absv = [](std::int64_t v) { return v < 0 ? static_cast<unsigned __int128>(-static_cast<__int128>(v)) : static_cast<unsigned __int128>(v); };
  for (const auto* list : {&t.shard, &t.replica})
    for (const Iter& it : *list) mag[it.axis.index()] += absv(it.stride) * static_cast<unsigned __int128>(it.extent - 1);
  for (const auto& o : t.offset.entries()) mag[o.axis.index()] += absv(o.value);
  unsigned __int128 big = absv(extra);
  for (auto m : mag) big = std::max(big, m);
  big = std::max<unsigned __int128>(big, static_cast<unsigned __int128>(t.size()));
  unsigned w = z3enc::bit_length(big) + 2;
  if (const SwizzleSpec* z = l.swizzle()) w = std::max<unsigned>(w, static_cast<unsigned>(z->per_element + z->swizzle_len + z->atom_len + 2));
  return std::max(w, 8u);
}

}  // namespace z3engine

}  // namespace tirx::prove
