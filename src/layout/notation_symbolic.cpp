// notation_symbolic.cpp — syntax tree -> SymLayout (tirx_verify/layout/symbolic.hpp).
//
// The same tree notation_parse.cpp builds, read with parameters kept as SymExpr instead of
// numbers. Only the symbolic subset is understood (S[...]/R[...] specs, their `+` algebra with
// v@axis offsets, TileLayout(...), ComposeLayout(M, B, S, tile, swizzle_inner=...), integer
// arithmetic); the meaning of each construct mirrors notation_eval.cpp, and anything else throws
// NotSymbolic with the byte offset of the construct. Well-formedness that depends on the
// binding (extent >= 1, overflow) is not judged here: SymLayout::instantiate does it per
// binding and prove/symbolic.hpp for all bindings.
#include <fmt/format.h>

#include <algorithm>

#include "layout/notation_internal.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/symbolic.hpp"

namespace tirx {

namespace {

using notation::Node;
using notation::NodeKind;

struct SymSpec {
  bool has_shard = false;
  std::vector<SymIter> shard;
  bool has_replica = false;
  std::vector<SymIter> replica;
  std::vector<std::pair<Axis, SymExpr>> offset;
};

// What an expression of the subset evaluates to.
struct SVal {
  enum class Kind { kInt, kBool, kStr, kAxis, kTuple, kOffset, kSpec, kLayout, kFunc };
  Kind kind = Kind::kInt;
  std::size_t pos = 0;
  SymExpr i;                                    // kInt
  bool b = false;                               // kBool
  std::string s;                                // kStr, kFunc (S, R, TileLayout, ComposeLayout, T, Axis)
  Axis axis{};                                  // kAxis
  std::vector<SVal> items;                      // kTuple
  bool is_list = false;                         // kTuple written with [...]
  std::vector<std::pair<Axis, SymExpr>> offset; // kOffset
  bool single_term = false;                     // kOffset written as one v@axis
  SymSpec spec;                                 // kSpec
  SymLayout layout;                             // kLayout
};

void add_offset(std::vector<std::pair<Axis, SymExpr>>& dst, Axis a, const SymExpr& v) {
  for (auto& [axis, value] : dst)
    if (axis == a) {
      value = value + v;
      return;
    }
  dst.emplace_back(a, v);
}

class SymEvaluator {
 public:
  SymEvaluator(const std::vector<std::string>& params, const Env& env) : params_(params), env_(env) {}

  SVal eval(const Node& n) {
    switch (n.kind) {
      case NodeKind::kInt: return make_int(SymExpr(n.value), n.pos);
      case NodeKind::kString: {
        SVal v;
        v.kind = SVal::Kind::kStr;
        v.s = n.text;
        v.pos = n.pos;
        return v;
      }
      case NodeKind::kName: return name(n.text, n.pos);
      case NodeKind::kTuple:
      case NodeKind::kList: {
        SVal v;
        v.kind = SVal::Kind::kTuple;
        v.is_list = n.kind == NodeKind::kList;
        v.pos = n.pos;
        for (const auto& k : n.kids) v.items.push_back(eval(*k));
        return v;
      }
      case NodeKind::kUnary: {
        const SymExpr x = as_int(eval(*n.kids[0]));
        return make_int(n.text == "-" ? -x : x, n.pos);
      }
      case NodeKind::kBinary: return binary(n);
      case NodeKind::kAttr: return attr(n);
      case NodeKind::kIndex: return index(n);
      case NodeKind::kCall: return call(n);
      default: break;
    }
    unsupported(n.pos, "this construct");
  }

  [[noreturn]] static void unsupported(std::size_t pos, const std::string& what) {
    throw NotSymbolic(fmt::format("{} is outside the symbolic subset of the notation", what), pos);
  }

  static SVal make_int(SymExpr e, std::size_t pos) {
    SVal v;
    v.kind = SVal::Kind::kInt;
    v.i = std::move(e);
    v.pos = pos;
    return v;
  }
  static SymExpr as_int(const SVal& v) {
    if (v.kind != SVal::Kind::kInt) unsupported(v.pos, "a non-integer where an integer is expected");
    return v.i;
  }

 private:
  bool is_param(const std::string& s) const { return std::find(params_.begin(), params_.end(), s) != params_.end(); }

  SVal name(const std::string& text, std::size_t pos) {
    if (auto it = env_.find(text); it != env_.end()) return make_int(SymExpr(it->second), pos);
    if (is_param(text)) return make_int(SymExpr::param(text), pos);
    if (text == "True" || text == "False") {
      SVal v;
      v.kind = SVal::Kind::kBool;
      v.b = text == "True";
      v.pos = pos;
      return v;
    }
    static const std::vector<std::string> kFuncs = {"S", "R", "TileLayout", "ComposeLayout", "T", "Axis"};
    if (std::find(kFuncs.begin(), kFuncs.end(), text) != kFuncs.end()) {
      SVal v;
      v.kind = SVal::Kind::kFunc;
      v.s = text;
      v.pos = pos;
      return v;
    }
    if (auto a = Axis::from_name(text)) {
      SVal v;
      v.kind = SVal::Kind::kAxis;
      v.axis = *a;
      v.pos = pos;
      return v;
    }
    unsupported(pos, fmt::format("'{}'", text));
  }

  static std::string dotted(const Node& n) {
    if (n.kind == NodeKind::kName) return n.text;
    if (n.kind == NodeKind::kAttr) {
      const std::string base = dotted(*n.kids[0]);
      if (!base.empty()) return base + "." + n.text;
    }
    return {};
  }

  SVal attr(const Node& n) {
    const std::string full = dotted(n);
    if (!full.empty()) {
      if (auto it = env_.find(full); it != env_.end()) return make_int(SymExpr(it->second), n.pos);
      if (is_param(full)) return make_int(SymExpr::param(full), n.pos);
    }
    const SVal obj = eval(*n.kids[0]);
    if (obj.kind == SVal::Kind::kFunc && obj.s == "T" &&
        (n.text == "S" || n.text == "R" || n.text == "TileLayout" || n.text == "ComposeLayout")) {
      SVal v = obj;
      v.s = n.text;
      v.pos = n.pos;
      return v;
    }
    if (obj.kind == SVal::Kind::kFunc && obj.s == "Axis")
      if (auto a = Axis::from_name(n.text)) {
        SVal v;
        v.kind = SVal::Kind::kAxis;
        v.axis = *a;
        v.pos = n.pos;
        return v;
      }
    unsupported(n.pos, fmt::format("'.{}'", n.text));
  }

  Axis axis_operand(const Node& n) {
    if (n.kind == NodeKind::kName)
      if (auto a = Axis::from_name(n.text)) return *a;
    const SVal v = eval(n);
    if (v.kind != SVal::Kind::kAxis) unsupported(n.pos, "a right side of '@' that is not an axis");
    return v.axis;
  }

  // A chain of binary operators is a left spine: its leftmost operand first, then the links in
  // a loop (as notation_eval.cpp does).
  SVal binary(const Node& n) {
    std::vector<const Node*> spine;
    const Node* leaf = &n;
    while (leaf->kind == NodeKind::kBinary) {
      spine.push_back(leaf);
      leaf = leaf->kids[0].get();
    }
    SVal acc = eval(*leaf);
    for (auto it = spine.rbegin(); it != spine.rend(); ++it) acc = binary_step(**it, std::move(acc));
    return acc;
  }

  SVal binary_step(const Node& n, SVal lhs) {
    const std::string& op = n.text;
    if (op == "@") {
      const SymExpr v = as_int(lhs);
      SVal r;
      r.kind = SVal::Kind::kOffset;
      r.pos = n.pos;
      r.single_term = true;
      r.offset.emplace_back(axis_operand(*n.kids[1]), v);
      return r;
    }
    SVal rhs = eval(*n.kids[1]);
    if (op == "+") return add(lhs, rhs, n.pos);
    const SymExpr a = as_int(lhs), b = as_int(rhs);
    if (op == "-") return make_int(a - b, n.pos);
    if (op == "*") return make_int(a * b, n.pos);
    if (op == "//") return make_int(SymExpr::floor_div(a, b), n.pos);
    if (op == "%") return make_int(SymExpr::floor_mod(a, b), n.pos);
    unsupported(n.op_pos, fmt::format("'{}'", op));
  }

  static bool offset_like(const SVal& v) { return v.kind == SVal::Kind::kInt || v.kind == SVal::Kind::kOffset; }
  static std::vector<std::pair<Axis, SymExpr>> to_offset(const SVal& v) {
    if (v.kind == SVal::Kind::kOffset) return v.offset;
    return {{Axis(AxisId::m), v.i}};
  }
  static void merge(std::vector<std::pair<Axis, SymExpr>>& dst, const std::vector<std::pair<Axis, SymExpr>>& src) {
    for (const auto& [a, v] : src) add_offset(dst, a, v);
  }

  // The `+` algebra of notation_eval.cpp (spec + spec, spec + offset, offset + offset, int + int).
  SVal add(const SVal& lhs, const SVal& rhs, std::size_t pos) {
    using K = SVal::Kind;
    if (lhs.kind == K::kInt && rhs.kind == K::kInt) return make_int(lhs.i + rhs.i, pos);
    SVal r;
    r.pos = pos;
    if (lhs.kind == K::kSpec && rhs.kind == K::kSpec) {
      // Iters the `+` drops are still validated per binding by the notation: keep them constant.
      auto dropped = [&](bool drop, const std::vector<SymIter>& iters) {
        if (!drop) return;
        for (const SymIter& it : iters)
          if (!it.extent.is_const()) unsupported(pos, "a parameter in the extent of a spec that '+' drops");
      };
      dropped(lhs.spec.has_shard && rhs.spec.has_shard, rhs.spec.shard);
      dropped(lhs.spec.has_replica && rhs.spec.has_replica, lhs.spec.replica);
      r = lhs;
      if (!r.spec.has_shard && rhs.spec.has_shard) {
        r.spec.has_shard = true;
        r.spec.shard = rhs.spec.shard;
      }
      if (rhs.spec.has_replica) {
        r.spec.has_replica = true;
        r.spec.replica = rhs.spec.replica;
      }
      merge(r.spec.offset, rhs.spec.offset);
    } else if (lhs.kind == K::kSpec && offset_like(rhs)) {
      r = lhs;
      merge(r.spec.offset, to_offset(rhs));
    } else if (offset_like(lhs) && rhs.kind == K::kSpec) {
      r = rhs;
      auto off = to_offset(lhs);
      merge(off, rhs.spec.offset);
      r.spec.offset = std::move(off);
    } else if (offset_like(lhs) && offset_like(rhs)) {
      r.kind = K::kOffset;
      r.offset = to_offset(lhs);
      merge(r.offset, to_offset(rhs));
    } else {
      unsupported(pos, "this '+'");
    }
    r.pos = pos;
    return r;
  }

  static std::vector<const SVal*> elements(const SVal& v) {
    std::vector<const SVal*> r;
    if (v.kind == SVal::Kind::kTuple)
      for (const SVal& e : v.items) r.push_back(&e);
    else
      r.push_back(&v);
    return r;
  }

  static std::pair<SymExpr, Axis> stride_entry(const SVal& s) {
    using K = SVal::Kind;
    switch (s.kind) {
      case K::kInt: return {s.i, Axis(AxisId::m)};
      case K::kStr:
        if (auto a = Axis::from_name(s.s)) return {SymExpr(1), *a};
        break;
      case K::kOffset:
        if (s.single_term && s.offset.size() == 1) return {s.offset[0].second, s.offset[0].first};
        break;
      case K::kTuple:
        if (s.items.size() == 2 && !s.is_list) {  // (stride, 'axis'); a list is not a pair
          const SymExpr v = as_int(s.items[0]);
          if (s.items[1].kind == K::kAxis) return {v, s.items[1].axis};
          if (s.items[1].kind == K::kStr)
            if (auto a = Axis::from_name(s.items[1].s)) return {v, *a};
        }
        break;
      default: break;
    }
    unsupported(s.pos, "this stride");
  }

  SVal index(const Node& n) {
    const SVal obj = eval(*n.kids[0]);
    if (obj.kind != SVal::Kind::kFunc || (obj.s != "S" && obj.s != "R")) unsupported(n.pos, "this subscript");
    const Node& key = *n.kids[1];
    SVal ext, st;
    const bool has_strides = key.kind == NodeKind::kSlice;
    ext = eval(has_strides ? *key.kids[0] : key);
    if (has_strides) st = eval(*key.kids[1]);
    const std::vector<const SVal*> e = elements(ext);
    std::vector<SymIter> iters(e.size());
    for (std::size_t k = 0; k < e.size(); ++k) iters[k].extent = as_int(*e[k]);
    // As make_spec: a constant extent < 1, or a constant extent product past int64, is an error
    // when the spec is written, whatever the binding (and even if `+` drops the spec later).
    std::int64_t product = 1;
    for (std::size_t k = 0; k < e.size(); ++k) {
      if (!iters[k].extent.is_const()) continue;
      const std::int64_t x = iters[k].extent.constant();
      if (x < 1)
        throw InputError("layout.well-formed", fmt::format("extent {} is not allowed (extents must be >= 1)", x), {},
                         e[k]->pos);
      if (__builtin_mul_overflow(product, x, &product))
        throw InputError("layout.well-formed", "the extent product overflows int64", {}, e[k]->pos);
    }
    if (!has_strides) {
      SymExpr stride(1);
      for (std::size_t k = e.size(); k-- > 0;) {
        iters[k].stride = stride;
        iters[k].axis = Axis(AxisId::m);
        stride = stride * iters[k].extent;
      }
    } else {
      const std::vector<const SVal*> s = elements(st);
      if (s.size() != e.size()) unsupported(key.pos, "an extent/stride count mismatch");
      for (std::size_t k = 0; k < s.size(); ++k) {
        auto [v, a] = stride_entry(*s[k]);
        iters[k].stride = v;
        iters[k].axis = a;
      }
    }
    SVal r;
    r.kind = SVal::Kind::kSpec;
    r.pos = n.pos;
    if (obj.s == "S") {
      r.spec.has_shard = true;
      r.spec.shard = std::move(iters);
    } else {
      r.spec.has_replica = true;
      r.spec.replica = std::move(iters);
    }
    return r;
  }

  static SymLayout to_layout(const SVal& v) {
    if (v.kind == SVal::Kind::kLayout) return v.layout;
    if (v.kind != SVal::Kind::kSpec) unsupported(v.pos, "a value that is not a layout");
    SymLayout l;
    l.shard = v.spec.shard;
    l.replica = v.spec.replica;
    l.offset = v.spec.offset;
    return l;
  }

  static int swizzle_field(const SVal& v) {
    const SymExpr e = as_int(v);
    if (!e.is_const()) unsupported(v.pos, "a parameter in a swizzle argument");
    if (e.constant() < 0 || e.constant() > 62) unsupported(v.pos, "a swizzle argument out of range");
    return static_cast<int>(e.constant());
  }

  SVal call(const Node& n) {
    const SVal fn = eval(*n.kids[0]);
    if (fn.kind != SVal::Kind::kFunc || (fn.s != "TileLayout" && fn.s != "ComposeLayout"))
      unsupported(n.pos, "this call (factories and methods change the layout's structure with the parameters)");
    std::vector<SVal> pos_args;
    for (std::size_t k = 0; k < n.num_positional; ++k) pos_args.push_back(eval(*n.kids[1 + k]));
    SVal r;
    r.kind = SVal::Kind::kLayout;
    r.pos = n.pos;
    if (fn.s == "TileLayout") {
      if (pos_args.size() != 1 || !n.kw_names.empty()) unsupported(n.pos, "this TileLayout(...) call");
      r.layout = to_layout(pos_args[0]);
      if (r.layout.swizzle) unsupported(n.pos, "TileLayout of a ComposeLayout");
      return r;
    }
    // ComposeLayout(per_element, swizzle_len, atom_len, tile_layout, swizzle_inner=True)
    static const std::vector<std::string> kNames = {"per_element", "swizzle_len", "atom_len", "tile_layout",
                                                    "swizzle_inner"};
    std::vector<const SVal*> slot(kNames.size(), nullptr);
    if (pos_args.size() > kNames.size()) unsupported(n.pos, "this ComposeLayout(...) call");
    for (std::size_t k = 0; k < pos_args.size(); ++k) slot[k] = &pos_args[k];
    std::vector<SVal> kw_vals;
    kw_vals.reserve(n.kw_names.size());
    for (std::size_t k = 0; k < n.kw_names.size(); ++k) {
      kw_vals.push_back(eval(*n.kids[1 + n.num_positional + k]));
      auto it = std::find(kNames.begin(), kNames.end(), n.kw_names[k]);
      if (it == kNames.end() || slot[static_cast<std::size_t>(it - kNames.begin())])
        unsupported(n.pos, "this ComposeLayout(...) call");
    }
    for (std::size_t k = 0; k < n.kw_names.size(); ++k)
      slot[static_cast<std::size_t>(std::find(kNames.begin(), kNames.end(), n.kw_names[k]) - kNames.begin())] =
          &kw_vals[k];
    for (std::size_t k = 0; k < 4; ++k)
      if (!slot[k]) unsupported(n.pos, "this ComposeLayout(...) call");
    SwizzleSpec z;
    z.per_element = swizzle_field(*slot[0]);
    z.swizzle_len = swizzle_field(*slot[1]);
    z.atom_len = swizzle_field(*slot[2]);
    if (slot[4]) {
      if (slot[4]->kind != SVal::Kind::kBool) unsupported(slot[4]->pos, "a non-boolean swizzle_inner");
      z.swizzle_inner = slot[4]->b;
    }
    r.layout = to_layout(*slot[3]);
    if (r.layout.swizzle) unsupported(n.pos, "a ComposeLayout of a ComposeLayout");
    r.layout.swizzle = z;
    return r;
  }

  const std::vector<std::string>& params_;
  const Env& env_;
};

}  // namespace

SymLayout parse_symbolic_layout(std::string_view text, const std::vector<std::string>& params, const Env& env) {
  const auto tree = notation::parse(text);
  SymEvaluator ev(params, env);
  SVal v;
  try {
    v = ev.eval(*tree);
  } catch (const InputError& e) {
    throw e.located(std::string(text), std::nullopt);
  }
  if (v.kind != SVal::Kind::kLayout && v.kind != SVal::Kind::kSpec)
    throw NotSymbolic("the expression is not a layout in the symbolic subset", tree->pos);
  SVal l = v;
  if (l.kind == SVal::Kind::kSpec) {
    SymLayout s;
    s.shard = l.spec.shard;
    s.replica = l.spec.replica;
    s.offset = l.spec.offset;
    return s;
  }
  return l.layout;
}

}  // namespace tirx

namespace tirx {

SymExpr parse_symbolic_int(std::string_view text, const std::vector<std::string>& params, const Env& env) {
  const auto tree = notation::parse(text);
  SymEvaluator ev(params, env);
  return SymEvaluator::as_int(ev.eval(*tree));
}

}  // namespace tirx
