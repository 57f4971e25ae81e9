// Internal: the Z3 encoding of a layout (see z3_engine.hpp for the scheme) and a session that
// owns a context, the time budget and the translation of Z3's "unknown" into a named limit.
// The only header besides the z3_*.cpp files that includes z3++.h; never include it from
// a public header.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "checks_internal.hpp"
#include "tirx_verify/prove/engine.hpp"

namespace tirx::prove::z3enc {

struct EncodeOptions {
  bool exclude_declared_broadcast = false;  // fix declared broadcast shard digits at 0 (injectivity)
};

// The arithmetic the terms live in. Affine layouts (no active swizzle) use linear integer
// arithmetic (QF_LIA: exact, no width to choose, and 10-100x faster than bit-blasting on the
// non-power-of-two proofs measured in bench_prove); a swizzle needs the bits of m, so any layout
// with one is encoded in W-bit vectors (QF_BV) with signed comparisons.
struct Arith {
  z3::context* ctx;
  bool ints;       // true: Int terms; false: bit-vectors of `width`
  unsigned width;  // bit-vector width W (unused for ints)
  z3::expr num(std::int64_t v) const { return ints ? ctx->int_val(v) : ctx->bv_val(v, width); }
  z3::expr lt(const z3::expr& a, const z3::expr& b) const { return ints ? a < b : z3::slt(a, b); }
  z3::expr le(const z3::expr& a, const z3::expr& b) const { return ints ? a <= b : z3::sle(a, b); }
  z3::expr ge(const z3::expr& a, const z3::expr& b) const { return ints ? a >= b : z3::sge(a, b); }
  // A solver for quantifier-free queries: a light tactic pipeline (simplify, solve-eqs, then
  // smt for integers / bit-blast + sat for bit-vectors); the logic-level QF_LIA/QF_BV solvers
  // spend 2-5 ms on setup alone, more than most of these queries take.
  z3::solver solver() const;
};
// Ints unless one of the layouts has a swizzle that changes addresses (swizzle_len > 0).
Arith arith_for(z3::context& ctx, std::initializer_list<const Layout*> layouts, std::int64_t extra = 0);

// One copy of a layout's domain as Z3 terms.
struct Encoding {
  std::vector<std::optional<z3::expr>> shard;    // narrow digit variable per shard iter (nullopt: fixed 0)
  std::vector<z3::expr> replica;                 // narrow digit variable per replica iter
  std::vector<z3::expr> bounds;                  // c_k <= extent_k - 1 where the width does not imply it
  std::array<std::optional<z3::expr>, kNumAxes> tile;   // W-bit affine value per used axis
  std::array<std::optional<z3::expr>, kNumAxes> value;  // same, m swizzled for a ComposeLayout
  std::optional<z3::expr> flat;                  // flat index (every shard digit is a variable)

  // The variables that name a point (shard digits that vary, then replica digits).
  std::vector<z3::expr> point_vars() const;
  // value on `a`, or 0 when the layout does not use it.
  z3::expr value_or_zero(const Arith& ar, Axis a) const;
};

// Encodes `l` with variables named "<prefix>c<k>" / "<prefix>r<k>" (bit-vector digits are just
// wide enough for their extent and zero-extended to W).
Encoding encode(const Arith& ar, const Layout& l, const std::string& prefix, const EncodeOptions& opt = {});

// A non-negative numeral of a model (a digit or a flat index) as int64.
std::int64_t numeral(const z3::expr& v);

// The element a model assigns to an encoding (digits without a variable are 0).
Element element_from_model(const z3::model& m, const TileLayout& l, const Encoding& e);

// A Z3 context under the engine limits. check() gives each query the remaining budget.
class Session {
 public:
  // Throws z3::exception("... memory ...") when Z3 cannot even create a context under the
  // memory ceiling (a context needs ~17 MB; z3++ would crash on the null context).
  explicit Session(const EngineLimits& limits);
  // One context per thread and memory ceiling, reused across sessions (creating one costs ~1-3 ms);
  // dropped after a memory failure.
  z3::context& ctx() { return *ctx_; }
  static void drop_cached_context();
  // sat / unsat, or unknown with `why()` naming the limit (or Z3's reason).
  // `share` (0 < share <= 1): the query may spend at most that fraction of the time left.
  z3::check_result check(z3::solver& s, double share = 1.0);
  const std::string& why() const { return why_; }
  bool out_of_time() const;

 private:
  EngineLimits limits_;
  Stopwatch clock_;
  z3::context* ctx_ = nullptr;
  std::string why_;
};

// The message of an undecided answer for a z3::exception: "z3 memory limit: ..." when Z3 ran
// out of memory, else "z3 error: ...".
std::string describe_z3_failure(const std::string& what, const EngineLimits& limits);

// Runs `body` (returning an answer with `status` and `message`); a z3::exception becomes an
// undecided answer naming the limit or Z3's error, and the cached context is dropped.
template <class Answer, class F>
Answer guarded(const EngineLimits& limits, F&& body) {
  try {
    return body();
  } catch (const z3::exception& e) {
    Session::drop_cached_context();
    Answer a;
    a.status = Status::kUndecided;
    a.message = describe_z3_failure(e.msg(), limits);
    return a;
  }
}

}  // namespace tirx::prove::z3enc
