// tirx_verify/layout/symbolic.hpp — layouts whose extents, strides and offsets depend on
// parameters ranging over an interval ("for every N in [8, 256] step 8").
//
// A symbolic layout keeps the structure of a TileLayout (or ComposeLayout) fixed — the number of
// shard and replica iters, their axes, the offset axes, the swizzle — and lets every integer in
// it be an expression over named parameters:
//
//   text                                     --param          symbolic layout
//   S[(N, 64):(64, 1)]                       N=8..256:8       shard (N:64@m, 64:1@m)
//   S[(N//32, 32):(32@TCol, 1@TLane)]        N=32..4096:32    shard (N//32 : 32@TCol, 32 : 1@TLane)
//   ComposeLayout(3,3,3, S[(R,64):(64,1)])   R=1..1024        swizzle (3,3,3) over shard (R:64, 64:1)
//
// so one Z3 query (prove/symbolic.hpp) can decide a property for every binding at once, where a
// sweep re-parses and re-checks the layout per binding. instantiate(env) gives the concrete
// layout of one binding; it equals parse_layout(text, env) (tested on random layouts).
//
// The symbolic subset of the notation (docs/notation.md "Symbolic parameters"): S[...] and R[...]
// specs with their `+` algebra, v@axis offsets, TileLayout(...), ComposeLayout(M, B, S, tile,
// swizzle_inner=...) with integer swizzle parameters, T./Axis. prefixes, and integer
// arithmetic (+ - * // %) over literals and parameters. Factory calls and method chains
// (tile, canonicalize, ...) change the structure with the parameter values and are not in the
// subset: parse_symbolic_layout throws NotSymbolic for them (the caller sweeps instead).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tirx_verify/layout/layout.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx {

// One parameter and the values it takes: lo, lo+step, ..., up to hi (inclusive).
struct ParamRange {
  std::string name;
  std::int64_t lo = 0;
  std::int64_t hi = 0;
  std::int64_t step = 1;
  // Number of values (>= 1). The last value is lo + (count()-1)*step <= hi.
  std::int64_t count() const;
  std::int64_t last() const;  // the largest value taken
  std::string str() const;    // "N=8..256:8" or "N=128" for a single value
};

// Parses one --param argument: NAME=VALUE or NAME=LO..HI[:STEP], each number an integer
// expression without parameters (parse_int_expr: 4096, 2*64, -8). Throws InputError("cli.usage")
// for a missing '=' or name, a number that does not parse, HI < LO or STEP < 1.
ParamRange parse_param_range(std::string_view arg);

// Thrown when a layout text (or a construct in it) is outside the symbolic subset, or when the
// values it can take are too large for the symbolic encoding. Not an input error: the layout may
// be perfectly fine, it just has to be checked binding by binding.
class NotSymbolic : public std::runtime_error {
 public:
  NotSymbolic(std::string why, std::size_t pos) : std::runtime_error(std::move(why)), pos_(pos) {}
  std::size_t pos() const { return pos_; }  // byte offset in the layout text

 private:
  std::size_t pos_;
};

// An integer expression over parameters (immutable, cheap to copy). Operations on two
// constants fold (with checked int64 arithmetic), so a layout without parameters is all
// constants.
// Deepest operator nesting of a SymExpr. Building a deeper one throws NotSymbolic (the
// layout is then decided by a sweep, or not at all): its passes (eval, bounds, the Z3 terms)
// recurse on the tree, and a long `+ N@laneid + N@laneid ...` chain folds into one sum.
inline constexpr int kMaxSymDepth = 4096;

class SymExpr {
 public:
  enum class Op { kConst, kParam, kAdd, kSub, kMul, kFloorDiv, kFloorMod, kNeg };

  SymExpr(std::int64_t c = 0);  // NOLINT: a constant converts implicitly
  static SymExpr param(std::string name);

  Op op() const;
  bool is_const() const { return op() == Op::kConst; }
  std::int64_t constant() const;         // the value of a kConst
  const std::string& name() const;       // the name of a kParam
  const SymExpr& lhs() const;            // operands of the operators (kNeg: lhs only)
  const SymExpr& rhs() const;

  // Floor division and floor modulo as Python/TVM: // rounds toward minus infinity, % has the
  // sign of the divisor. Folding two constants throws InputError("layout.well-formed") on int64
  // overflow or division by zero.
  friend SymExpr operator+(const SymExpr& a, const SymExpr& b);
  friend SymExpr operator-(const SymExpr& a, const SymExpr& b);
  friend SymExpr operator*(const SymExpr& a, const SymExpr& b);
  friend SymExpr operator-(const SymExpr& a);
  static SymExpr floor_div(const SymExpr& a, const SymExpr& b);
  static SymExpr floor_mod(const SymExpr& a, const SymExpr& b);

  // The value for one binding. Throws InputError("layout.well-formed") for an unbound
  // parameter, division by zero or int64 overflow.
  std::int64_t eval(const Env& env) const;

  // Bounds of the value over every binding of `ranges` (interval arithmetic: sound, possibly
  // loose), in 128-bit integers. Throws NotSymbolic("... may be 0 ...") when a divisor's
  // interval contains 0, and when a bound exceeds 2^100.
  struct Bounds {
    __int128 lo = 0, hi = 0;
  };
  Bounds bounds(const std::vector<ParamRange>& ranges) const;
  // The largest |value| of this expression and of every subexpression over `ranges`.
  unsigned __int128 max_magnitude(const std::vector<ParamRange>& ranges) const;

  // The names of the parameters it uses (sorted, unique).
  std::vector<std::string> params() const;

  // Python-like text: "N // 32", "(N + 1) * 64".
  std::string str() const;

 private:
  struct Node;
  friend struct SymExprBuilder;
  explicit SymExpr(std::shared_ptr<const Node> n) : n_(std::move(n)) {}
  std::shared_ptr<const Node> n_;
};

struct SymIter {
  SymExpr extent;
  SymExpr stride;
  Axis axis{};
};

// A TileLayout (swizzle empty) or ComposeLayout (swizzle set) with symbolic integers.
struct SymLayout {
  std::vector<SymIter> shard;
  std::vector<SymIter> replica;
  std::vector<std::pair<Axis, SymExpr>> offset;  // one entry per axis, in first-use order
  std::optional<SwizzleSpec> swizzle;

  // The concrete layout of one binding, validated. Throws InputError as parse_layout would for
  // that binding (layout.well-formed for an extent < 1 or an overflow, swizzle.legal, ...).
  Layout instantiate(const Env& env) const;

  // The parameters used anywhere (sorted, unique). Empty: the layout is concrete.
  std::vector<std::string> params() const;

  // Builder-form text with the expressions written out: S[(N, 64):(64@m... )] style, for
  // messages ("S[(N, 64):(64, 1)]").
  std::string str() const;
};

// Reads `text` (the notation of notation.hpp) keeping every name in `params` symbolic; names
// bound in `env` are constants. Throws InputError for text that is not a layout at all
// (layout.syntax, unknown axis, ...) and NotSymbolic for a construct outside the symbolic
// subset (a factory call, a method chain, a parameter in a swizzle argument, ...).
SymLayout parse_symbolic_layout(std::string_view text, const std::vector<std::string>& params, const Env& env = {});

// The integer sub-language the same way: "N * 64" -> SymExpr. Same errors.
SymExpr parse_symbolic_int(std::string_view text, const std::vector<std::string>& params, const Env& env = {});

}  // namespace tirx
