// SymExpr and ParamRange (tirx_verify/layout/symbolic.hpp): construction with constant folding,
// evaluation for one binding, interval bounds over all bindings, printing.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/symbolic.hpp"

namespace tirx {

// ---------------------------------------------------------------- ParamRange

std::int64_t ParamRange::count() const {
  // (hi - lo) may exceed int64 for extreme ranges; compute in 128 bits.
  const __int128 n = (static_cast<__int128>(hi) - lo) / step + 1;
  return n > INT64_MAX ? INT64_MAX : static_cast<std::int64_t>(n);
}

std::int64_t ParamRange::last() const {
  return static_cast<std::int64_t>(static_cast<__int128>(lo) + static_cast<__int128>(count() - 1) * step);
}

std::string ParamRange::str() const {
  if (lo == hi) return fmt::format("{}={}", name, lo);
  return step == 1 ? fmt::format("{}={}..{}", name, lo, hi) : fmt::format("{}={}..{}:{}", name, lo, hi, step);
}

ParamRange parse_param_range(std::string_view arg) {
  const std::string a(arg);
  const auto eq = a.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("cli.usage", fmt::format("--param expects NAME=VALUE or NAME=LO..HI[:STEP], got '{}'", a), a);
  ParamRange r;
  r.name = a.substr(0, eq);
  // A Python identifier (dotted names such as self.BLK_M are allowed), none of whose parts the
  // notation reserves: `--param laneid=4` would turn 4@laneid into 4@4.
  std::size_t part = 0;
  for (std::size_t i = 0; i <= r.name.size(); ++i) {
    if (i < r.name.size() && r.name[i] != '.') {
      const char c = r.name[i];
      const bool ok = c == '_' || std::isalpha(static_cast<unsigned char>(c)) ||
                      (i > part && std::isdigit(static_cast<unsigned char>(c)));
      if (!ok || static_cast<unsigned char>(c) >= 0x80)
        throw InputError("cli.usage", fmt::format("--param: '{}' is not a parameter name", r.name), a, i,
                         "a name is letters, digits and '_', not starting with a digit (dotted names allowed)");
      continue;
    }
    const std::string piece = r.name.substr(part, i - part);
    if (piece.empty())
      throw InputError("cli.usage", fmt::format("--param: '{}' is not a parameter name", r.name), a, i);
    if (part == 0 && is_reserved_name(piece))
      throw InputError("cli.usage",
                       fmt::format("--param {}: '{}' is {} of the notation; a parameter may not shadow it", r.name,
                                   piece, Axis::from_name(piece) ? "an axis name" : "a built-in name"),
                       a, 0, "rename the parameter, e.g. --param " + piece + "_=...");
    part = i + 1;
  }
  const std::string value = a.substr(eq + 1);
  auto number = [&](const std::string& text, std::size_t at) {
    try {
      return parse_int_expr(text);
    } catch (const InputError& e) {
      throw InputError("cli.usage", fmt::format("--param {}: '{}' is not an integer ({})", r.name, text, e.message()),
                       a, eq + 1 + at);
    }
  };
  const auto dots = value.find("..");
  if (dots == std::string::npos) {
    r.lo = r.hi = number(value, 0);
    return r;
  }
  const auto colon = value.find(':', dots);
  r.lo = number(value.substr(0, dots), 0);
  r.hi = number(value.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2), dots + 2);
  r.step = colon == std::string::npos ? 1 : number(value.substr(colon + 1), colon + 1);
  if (r.step < 1 || r.hi < r.lo)
    throw InputError("cli.usage", fmt::format("--param {}: empty range {} (need LO <= HI and STEP >= 1)", r.name, value),
                     a, eq + 1);
  return r;
}

// ---------------------------------------------------------------- SymExpr nodes

struct SymExpr::Node {
  Op op = Op::kConst;
  std::int64_t value = 0;
  std::string name;
  std::optional<SymExpr> a, b;
  int depth = 1;  // operator nesting (the passes over the tree recurse on it)
};

SymExpr::SymExpr(std::int64_t c) {
  auto n = std::make_shared<Node>();
  n->op = Op::kConst;
  n->value = c;
  n_ = std::move(n);
}

SymExpr SymExpr::param(std::string name) {
  auto n = std::make_shared<Node>();
  n->op = Op::kParam;
  n->name = std::move(name);
  return SymExpr(std::shared_ptr<const Node>(std::move(n)));
}

SymExpr::Op SymExpr::op() const { return n_->op; }
std::int64_t SymExpr::constant() const { return n_->value; }
const std::string& SymExpr::name() const { return n_->name; }
const SymExpr& SymExpr::lhs() const { return *n_->a; }
const SymExpr& SymExpr::rhs() const { return *n_->b; }

namespace {

std::int64_t apply_op(SymExpr::Op op, std::int64_t x, std::int64_t y) {
  using Op = SymExpr::Op;
  switch (op) {
    case Op::kAdd: return checked_add(x, y, "a symbolic expression");
    case Op::kSub: return checked_sub(x, y, "a symbolic expression");
    case Op::kMul: return checked_mul(x, y, "a symbolic expression");
    case Op::kNeg: return checked_sub(0, x, "negation");
    case Op::kFloorDiv:
    case Op::kFloorMod:
      if (y == 0) throw InputError("layout.well-formed", "division by zero");
      if (x == INT64_MIN && y == -1) throw_overflow("floor division");
      return op == Op::kFloorDiv ? tirx::floor_div(x, y) : tirx::floor_mod(x, y);
    default: break;
  }
  return 0;
}

}  // namespace

// Every operator node is built here, so constant folding and the identities stay in one place.
struct SymExprBuilder {
  static SymExpr build(SymExpr::Op op, const SymExpr& a, const SymExpr* b) {
    if (a.is_const() && (!b || b->is_const())) return SymExpr(apply_op(op, a.constant(), b ? b->constant() : 0));
    // Identities that keep printed expressions readable (x*1, x+0, x//1).
    using Op = SymExpr::Op;
    if (b && b->is_const()) {
      const std::int64_t c = b->constant();
      if ((op == Op::kAdd || op == Op::kSub) && c == 0) return a;
      if ((op == Op::kMul || op == Op::kFloorDiv) && c == 1) return a;
    }
    if (b && a.is_const()) {
      const std::int64_t c = a.constant();
      if (op == Op::kAdd && c == 0) return *b;
      if (op == Op::kMul && c == 1) return *b;
    }
    const int depth = 1 + std::max(a.n_->depth, b ? b->n_->depth : 0);
    if (depth > kMaxSymDepth)
      throw NotSymbolic(fmt::format("an expression nested more than {} operations deep (the symbolic engine's limit)",
                                    kMaxSymDepth),
                        0);
    auto n = std::make_shared<SymExpr::Node>();
    n->op = op;
    n->a = a;
    if (b) n->b = *b;
    n->depth = depth;
    return SymExpr(std::shared_ptr<const SymExpr::Node>(std::move(n)));
  }
};

SymExpr operator+(const SymExpr& a, const SymExpr& b) { return SymExprBuilder::build(SymExpr::Op::kAdd, a, &b); }
SymExpr operator-(const SymExpr& a, const SymExpr& b) { return SymExprBuilder::build(SymExpr::Op::kSub, a, &b); }
SymExpr operator*(const SymExpr& a, const SymExpr& b) { return SymExprBuilder::build(SymExpr::Op::kMul, a, &b); }
SymExpr operator-(const SymExpr& a) { return SymExprBuilder::build(SymExpr::Op::kNeg, a, nullptr); }
SymExpr SymExpr::floor_div(const SymExpr& a, const SymExpr& b) { return SymExprBuilder::build(Op::kFloorDiv, a, &b); }
SymExpr SymExpr::floor_mod(const SymExpr& a, const SymExpr& b) { return SymExprBuilder::build(Op::kFloorMod, a, &b); }

std::int64_t SymExpr::eval(const Env& env) const {
  switch (op()) {
    case Op::kConst: return constant();
    case Op::kParam: {
      auto it = env.find(name());
      if (it == env.end()) throw InputError("layout.well-formed", fmt::format("unbound parameter '{}'", name()));
      return it->second;
    }
    case Op::kNeg: return apply_op(op(), lhs().eval(env), 0);
    default: return apply_op(op(), lhs().eval(env), rhs().eval(env));
  }
}

// ---------------------------------------------------------------- interval bounds

namespace {

constexpr __int128 kMaxBound = static_cast<__int128>(1) << 100;

__int128 floor_div128(__int128 a, __int128 b) {
  __int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

void check_size(const SymExpr::Bounds& b, const SymExpr& e) {
  if (b.lo < -kMaxBound || b.hi > kMaxBound)
    throw NotSymbolic(fmt::format("'{}' can exceed 2^100 over the parameter ranges", e.str()), 0);
}

}  // namespace

SymExpr::Bounds SymExpr::bounds(const std::vector<ParamRange>& ranges) const {
  Bounds r;
  switch (op()) {
    case Op::kConst: r = {constant(), constant()}; break;
    case Op::kParam: {
      auto it = std::find_if(ranges.begin(), ranges.end(), [&](const ParamRange& p) { return p.name == name(); });
      if (it == ranges.end()) throw NotSymbolic(fmt::format("parameter '{}' has no range", name()), 0);
      r = {it->lo, it->last()};
      break;
    }
    case Op::kNeg: {
      const Bounds x = lhs().bounds(ranges);
      r = {-x.hi, -x.lo};
      break;
    }
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kFloorDiv:
    case Op::kFloorMod: {
      const Bounds x = lhs().bounds(ranges), y = rhs().bounds(ranges);
      if (op() == Op::kAdd) r = {x.lo + y.lo, x.hi + y.hi};
      else if (op() == Op::kSub) r = {x.lo - y.hi, x.hi - y.lo};
      else if (op() == Op::kMul) {
        const __int128 c[] = {x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi};
        r = {*std::min_element(std::begin(c), std::end(c)), *std::max_element(std::begin(c), std::end(c))};
      } else {
        if (y.lo <= 0 && y.hi >= 0)
          throw NotSymbolic(fmt::format("the divisor '{}' may be 0 over the parameter ranges", rhs().str()), 0);
        if (op() == Op::kFloorDiv) {
          // floor(a/b) is monotone in a and, for b of one sign, in b: the extremes are at corners.
          const __int128 c[] = {floor_div128(x.lo, y.lo), floor_div128(x.lo, y.hi), floor_div128(x.hi, y.lo),
                                floor_div128(x.hi, y.hi)};
          r = {*std::min_element(std::begin(c), std::end(c)), *std::max_element(std::begin(c), std::end(c))};
        } else if (y.lo > 0) {
          r = {0, y.hi - 1};
          if (x.lo >= 0 && x.hi < y.lo) r = x;  // already reduced
        } else {
          r = {y.lo + 1, 0};
        }
      }
      break;
    }
  }
  check_size(r, *this);
  return r;
}

unsigned __int128 SymExpr::max_magnitude(const std::vector<ParamRange>& ranges) const {
  const Bounds b = bounds(ranges);
  auto absv = [](__int128 v) { return static_cast<unsigned __int128>(v < 0 ? -v : v); };
  unsigned __int128 m = std::max(absv(b.lo), absv(b.hi));
  if (op() != Op::kConst && op() != Op::kParam) {
    m = std::max(m, lhs().max_magnitude(ranges));
    if (op() != Op::kNeg) m = std::max(m, rhs().max_magnitude(ranges));
  }
  return m;
}

std::vector<std::string> SymExpr::params() const {
  std::set<std::string> out;
  std::vector<const SymExpr*> stack{this};
  while (!stack.empty()) {
    const SymExpr* e = stack.back();
    stack.pop_back();
    if (e->op() == Op::kParam) out.insert(e->name());
    else if (e->op() != Op::kConst) {
      stack.push_back(&e->lhs());
      if (e->op() != Op::kNeg) stack.push_back(&e->rhs());
    }
  }
  return {out.begin(), out.end()};
}

// ---------------------------------------------------------------- printing

namespace {

int precedence(SymExpr::Op op) {
  using Op = SymExpr::Op;
  switch (op) {
    case Op::kAdd:
    case Op::kSub: return 1;
    case Op::kMul:
    case Op::kFloorDiv:
    case Op::kFloorMod: return 2;
    case Op::kNeg: return 3;
    default: return 4;
  }
}

std::string print(const SymExpr& e) {
  using Op = SymExpr::Op;
  if (e.op() == Op::kConst) return std::to_string(e.constant());
  if (e.op() == Op::kParam) return e.name();
  auto operand = [&](const SymExpr& x, bool right) {
    const bool paren = precedence(x.op()) < precedence(e.op()) ||
                       (right && precedence(x.op()) == precedence(e.op()) && e.op() != Op::kAdd && e.op() != Op::kMul) ||
                       (x.op() == Op::kConst && x.constant() < 0);
    const std::string s = print(x);
    return paren ? "(" + s + ")" : s;
  };
  if (e.op() == Op::kNeg) return "-" + operand(e.lhs(), false);
  const char* sym = e.op() == Op::kAdd ? " + " : e.op() == Op::kSub ? " - " : e.op() == Op::kMul ? " * "
                    : e.op() == Op::kFloorDiv ? " // " : " % ";
  return operand(e.lhs(), false) + sym + operand(e.rhs(), true);
}

}  // namespace

std::string SymExpr::str() const { return print(*this); }

}  // namespace tirx
