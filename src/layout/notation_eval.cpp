// notation_eval.cpp — syntax tree -> Layout: names, integer arithmetic, S[...]/R[...] specs,
// offsets and their `+` algebra (TVM's _LayoutSpec / _OnAxis / _OffsetExpr semantics).
//
// Semantics of `+` (spec section (c)), left to right as Python evaluates it:
//   int + int                 -> int
//   spec + spec               -> shard = the first one present, replica = the right-hand one if
//                                it has one else the left-hand one, offsets added axis by axis
//   spec + offset, offset + spec -> the spec with the offset merged in (`64 + S[...]` works)
//   offset + offset           -> offset sum ({laneid: 1} + 64 -> {laneid: 1, m: 64})
// where an "offset" is an int (axis m) or `v@axis` terms. Zero offsets are kept.
//
// Deliberately stricter than TVM: stride and extent lists of different lengths, extents < 1,
// unknown axes, int64 overflow and unbound parameters are errors with a caret.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "layout/notation_value.hpp"
#include "tirx_verify/layout/checked.hpp"

namespace tirx::notation {

// ---------------------------------------------------------------- small helpers

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
  return r;
}

// The registered axis closest to `name`: a case-insensitive match, or one within an edit
// distance of a third of the name's length (so 'lanid' -> laneid, but 'N' suggests nothing).
std::optional<std::string_view> closest_axis(std::string_view name) {
  std::optional<std::string_view> best;
  std::size_t best_d = name.size() / 3 + 1;
  for (const AxisInfo& info : axis_registry()) {
    const std::size_t d = lower(info.name) == lower(name) ? 0 : edit_distance(name, info.name);
    if (d < best_d) {
      best_d = d;
      best = info.name;
    }
  }
  return best;
}

std::string known_axes_list() {
  std::string r;
  for (const AxisInfo& info : axis_registry()) {
    if (!r.empty()) r += ", ";
    r += info.name;
  }
  return r;
}

}  // namespace

std::string kind_name(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::kInt: return "an integer";
    case K::kBool: return "a boolean";
    case K::kNone: return "None";
    case K::kStr: return fmt::format("the string '{}'", v.s);
    case K::kTuple: return v.is_list ? "a list" : "a tuple";
    case K::kDict: return "a dict";
    case K::kAxis: return fmt::format("the axis {}", v.axis.name());
    case K::kOffset: return v.single_term ? "an axis-bound value (v@axis)" : "an offset sum";
    case K::kSpec: return "a layout spec (S[...]/R[...])";
    case K::kIter: return "an Iter";
    case K::kLayout: return v.layout->is_compose() ? "a ComposeLayout" : "a TileLayout";
    case K::kSwizzle: return "a SwizzleLayout";
    case K::kFunc: return fmt::format("the function {}", v.s);
  }
  return "?";
}

// ---------------------------------------------------------------- conversions

std::int64_t Ctx::as_int(const Value& v, std::string_view what) const {
  if (v.kind == Value::Kind::kInt) return v.i;
  fail("layout.well-formed", v.pos, fmt::format("{} must be an integer, got {}", what, kind_name(v)));
}

bool Ctx::as_bool(const Value& v, std::string_view what) const {
  if (v.kind == Value::Kind::kBool) return v.b;
  if (v.kind == Value::Kind::kInt && (v.i == 0 || v.i == 1)) return v.i == 1;
  fail("layout.well-formed", v.pos, fmt::format("{} must be True or False, got {}", what, kind_name(v)));
}

std::string Ctx::as_str(const Value& v, std::string_view what) const {
  if (v.kind == Value::Kind::kStr) return v.s;
  fail("layout.well-formed", v.pos, fmt::format("{} must be a string, got {}", what, kind_name(v)));
}

Axis Ctx::axis_by_name(std::string_view name, std::size_t pos) const {
  if (auto a = Axis::from_name(name)) return *a;
  std::string note;
  if (auto c = closest_axis(name)) note = fmt::format("did you mean '{}'? ", *c);
  note += "known axes: " + known_axes_list();
  fail("layout.well-formed", pos, fmt::format("unknown axis '{}'", name), note);
}

Axis Ctx::as_axis(const Value& v, std::string_view what) const {
  if (v.kind == Value::Kind::kAxis) return v.axis;
  if (v.kind == Value::Kind::kStr) return axis_by_name(v.s, v.pos);
  fail("layout.well-formed", v.pos, fmt::format("{} must be an axis (a name such as 'laneid'), got {}", what, kind_name(v)));
}

std::vector<std::int64_t> Ctx::as_int_list(const Value& v, std::string_view what) const {
  if (v.kind != Value::Kind::kTuple)
    fail("layout.well-formed", v.pos, fmt::format("{} must be a tuple of integers, got {}", what, kind_name(v)));
  std::vector<std::int64_t> r;
  r.reserve(v.items.size());
  for (const Value& e : v.items) r.push_back(as_int(e, fmt::format("each entry of {}", what)));
  return r;
}

Layout Ctx::spec_to_layout(const Spec& s, std::size_t pos) const {
  TileLayout t(s.shard, s.replica, s.offset);
  at(pos, [&] { t.validate(); });
  return t;
}

Layout Ctx::as_layout(const Value& v, std::string_view what) const {
  switch (v.kind) {
    case Value::Kind::kLayout: return *v.layout;
    case Value::Kind::kSpec: return spec_to_layout(v.spec, v.pos);
    case Value::Kind::kSwizzle: {
      // A bare swizzle: the identity tile over one swizzle period.
      ComposeLayout c(v.swizzle, TileLayout({Iter{v.swizzle.period(), 1, Axis(AxisId::m)}}));
      at(v.pos, [&] { c.validate(); });
      return c;
    }
    default: break;
  }
  fail("layout.well-formed", v.pos, fmt::format("{} must be a layout, got {}", what, kind_name(v)),
       v.kind == Value::Kind::kOffset || v.kind == Value::Kind::kInt
           ? "an offset alone is not a layout; add a shard S[...] or use TileLayout.from_iters(offset={...})"
           : "");
}

TileLayout Ctx::as_tile(const Value& v, std::string_view what) const {
  Layout l = as_layout(v, what);
  if (l.is_compose())
    fail("layout.well-formed", v.pos, fmt::format("{} must be a TileLayout, got a ComposeLayout", what));
  return l.tile();
}

// ---------------------------------------------------------------- specs and iters

namespace {

// Elements of S[...]'s extents or strides part: a tuple/list gives its elements, anything else
// is one element (TVM's _to_tuple).
std::vector<const Value*> elements(const Value& v) {
  std::vector<const Value*> r;
  if (v.kind == Value::Kind::kTuple) {
    for (const Value& e : v.items) r.push_back(&e);
  } else {
    r.push_back(&v);
  }
  return r;
}

// One stride entry -> (stride, axis). Accepts 4, 4@laneid, 'laneid', (4, 'laneid'), (4, Axis.laneid).
std::pair<std::int64_t, Axis> stride_entry(const Ctx& ctx, const Value& s) {
  using K = Value::Kind;
  switch (s.kind) {
    case K::kInt: return {s.i, Axis(AxisId::m)};
    case K::kStr: return {1, ctx.axis_by_name(s.s, s.pos)};
    case K::kOffset:
      if (s.single_term && s.offset.entries().size() == 1)
        return {s.offset.entries()[0].value, s.offset.entries()[0].axis};
      ctx.fail("layout.well-formed", s.pos, "a stride must be one value on one axis, not a sum",
               "write e.g. 4@laneid");
    case K::kTuple:
      if (s.items.size() == 2 && !s.is_list) {
        const std::int64_t v = ctx.as_int(s.items[0], "the stride in a (stride, axis) pair");
        return {v, ctx.as_axis(s.items[1], "the axis in a (stride, axis) pair")};
      }
      ctx.fail("layout.well-formed", s.pos, "a stride tuple must be a (stride, 'axis') pair",
               "a nested stride list is written ((4,'laneid'), 1) or (4@laneid, 1)");
    case K::kAxis:
      ctx.fail("layout.well-formed", s.pos, fmt::format("a bare axis is not a stride; write 1@{}", s.axis.name()));
    default: break;
  }
  ctx.fail("layout.well-formed", s.pos, fmt::format("a stride must be an integer or v@axis, got {}", kind_name(s)));
}

}  // namespace

Value make_spec(const Ctx& ctx, bool shard, const Value& key, const Value* strides, std::size_t pos) {
  const char* which = shard ? "S" : "R";
  const std::vector<const Value*> ext = elements(key);
  std::vector<Iter> iters(ext.size());
  std::int64_t product = 1;
  for (std::size_t k = 0; k < ext.size(); ++k) {
    const std::int64_t e = ctx.as_int(*ext[k], "an extent");
    if (e < 1)
      ctx.fail("layout.well-formed", ext[k]->pos, fmt::format("extent {} is not allowed (extents must be >= 1)", e),
               e == 0 ? "an extent of 0 would make an empty layout" : "");
    iters[k].extent = e;
    ctx.at(ext[k]->pos, [&] { product = checked_mul(product, e, fmt::format("the {}[...] extent product", which)); });
  }
  if (strides == nullptr) {
    // Extents only: row-major strides on m.
    std::int64_t st = 1;
    for (std::size_t k = ext.size(); k-- > 0;) {
      iters[k].stride = st;
      iters[k].axis = Axis(AxisId::m);
      if (k > 0) ctx.at(key.pos, [&] { st = checked_mul(st, iters[k].extent, "the row-major strides"); });
    }
  } else {
    const std::vector<const Value*> st = elements(*strides);
    if (st.size() != ext.size())
      ctx.fail("layout.well-formed", strides->pos,
               fmt::format("{}[...] has {} extent{} but {} stride{}", which, ext.size(), ext.size() == 1 ? "" : "s",
                           st.size(), st.size() == 1 ? "" : "s"),
               "extents and strides pair up one to one (TVM silently drops the unpaired ones); a stride "
               "bound to an axis is written 4@laneid or (4, 'laneid') inside the stride tuple");
    for (std::size_t k = 0; k < st.size(); ++k) {
      auto [v, a] = stride_entry(ctx, *st[k]);
      iters[k].stride = v;
      iters[k].axis = a;
    }
  }
  Value r;
  r.kind = Value::Kind::kSpec;
  r.pos = pos;
  if (shard) {
    r.spec.has_shard = true;
    r.spec.shard = std::move(iters);
  } else {
    r.spec.has_replica = true;
    r.spec.replica = std::move(iters);
  }
  return r;
}

Iter make_iter(const Ctx& ctx, const Value& extent, const Value& stride, const Value& axis, std::size_t) {
  Iter it;
  it.extent = ctx.as_int(extent, "Iter extent");
  if (it.extent < 1)
    ctx.fail("layout.well-formed", extent.pos, fmt::format("extent {} is not allowed (extents must be >= 1)", it.extent));
  it.stride = ctx.as_int(stride, "Iter stride");
  it.axis = ctx.as_axis(axis, "Iter axis");
  return it;
}

// ---------------------------------------------------------------- the evaluator

namespace {

bool offset_like(const Value& v) { return v.kind == Value::Kind::kInt || v.kind == Value::Kind::kOffset; }

OffsetMap to_offset(const Ctx& ctx, const Value& v) {
  if (v.kind == Value::Kind::kOffset) return v.offset;
  OffsetMap m;
  m.add(AxisId::m, ctx.as_int(v, "an offset"));
  return m;
}

void merge_into(const Ctx& ctx, OffsetMap& dst, const OffsetMap& src, std::size_t pos) {
  for (const auto& e : src.entries()) ctx.at(pos, [&] { dst.add(e.axis, e.value); });
}

class Evaluator {
 public:
  Evaluator(const Ctx& ctx, const Node& root) : ctx_(ctx), root_(root) {}

  Value eval(const Node& n) {
    switch (n.kind) {
      case NodeKind::kInt: return Value::make_int(n.value, n.pos);
      case NodeKind::kString: {
        Value v;
        v.kind = Value::Kind::kStr;
        v.s = n.text;
        v.pos = n.pos;
        return v;
      }
      case NodeKind::kName: return lookup(n.text, n.pos);
      case NodeKind::kTuple:
      case NodeKind::kList: {
        Value v;
        v.kind = Value::Kind::kTuple;
        v.is_list = n.kind == NodeKind::kList;
        v.pos = n.pos;
        for (const auto& k : n.kids) v.items.push_back(eval(*k));
        return v;
      }
      case NodeKind::kDict: {
        Value v;
        v.kind = Value::Kind::kDict;
        v.pos = n.pos;
        for (const auto& k : n.kids) v.items.push_back(eval(*k));
        return v;
      }
      case NodeKind::kSlice:
        ctx_.fail("layout.syntax", n.op_pos, "':' is only allowed inside S[...] or R[...]");
      case NodeKind::kUnary: return unary(n);
      case NodeKind::kBinary: return binary(n);
      case NodeKind::kCall: return call(n);
      case NodeKind::kAttr: return attr(n);
      case NodeKind::kIndex: return index(n);
    }
    ctx_.fail("layout.syntax", n.pos, "unsupported expression");
  }

 private:
  Value lookup(const std::string& name, std::size_t pos) {
    if (auto it = ctx_.env.find(name); it != ctx_.env.end()) return Value::make_int(it->second, pos);
    if (name == "True" || name == "False") {
      Value v;
      v.kind = Value::Kind::kBool;
      v.b = name == "True";
      v.pos = pos;
      return v;
    }
    if (name == "None") {
      Value v;
      v.pos = pos;
      return v;
    }
    if (is_builtin(name)) return Value::make_func(name, pos);
    if (auto a = Axis::from_name(name)) {
      Value v;
      v.kind = Value::Kind::kAxis;
      v.axis = *a;
      v.pos = pos;
      return v;
    }
    unbound(name, pos);
  }

  [[noreturn]] void unbound(const std::string& name, std::size_t pos) {
    // Name every unbound parameter of the whole expression at once, so one run tells the
    // user all the --param bindings it needs.
    std::vector<std::string> all;
    collect_unbound(root_, all);
    if (std::find(all.begin(), all.end(), name) == all.end()) all.insert(all.begin(), name);
    std::string note = "bind it with";
    if (all.size() > 1) note = fmt::format("{} unbound parameters; bind them with", all.size());
    for (const std::string& p : all) note += fmt::format(" --param {}=<value>", p);
    if (auto c = closest_axis(name); c && name.find('.') == std::string::npos)
      note += fmt::format("; if an axis was meant: did you mean '{}'?", *c);
    ctx_.fail("layout.well-formed", pos, fmt::format("unbound parameter '{}'", name), note);
  }

  bool known_name(const std::string& name) const {
    return ctx_.env.count(name) || is_builtin(name) || Axis::from_name(name) || name == "True" || name == "False" ||
           name == "None";
  }

  // Names (and dotted names) in integer positions that nothing binds, in text order. A
  // pre-order walk with an explicit stack (the tree may hold a long operator chain).
  void collect_unbound(const Node& root, std::vector<std::string>& out) const {
    auto add = [&out](const std::string& s) {
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    };
    std::vector<const Node*> todo{&root};
    auto push_kids = [&](const Node& n, std::size_t from, std::size_t to) {  // visited in order
      for (std::size_t k = to; k-- > from;) todo.push_back(n.kids[k].get());
    };
    while (!todo.empty()) {
      const Node& n = *todo.back();
      todo.pop_back();
      switch (n.kind) {
        case NodeKind::kName:
          if (!known_name(n.text)) add(n.text);
          continue;
        case NodeKind::kAttr: {
          const std::string full = dotted(n);
          if (!full.empty() && !known_name(root_of(n).text)) {
            if (!ctx_.env.count(full)) add(full);
            continue;
          }
          break;
        }
        case NodeKind::kBinary:
          if (n.text == "@") {  // the right side is an axis, not a parameter
            push_kids(n, 0, n.kids[1]->kind == NodeKind::kName ? 1 : 2);
            continue;
          }
          break;
        case NodeKind::kCall: {  // an unknown callee is an unknown function, not a parameter
          const Node& callee = *n.kids[0];
          const bool unknown_fn = (callee.kind == NodeKind::kName || !dotted(callee).empty()) &&
                                  !known_name(root_of(callee).text);
          push_kids(n, unknown_fn ? 1 : 0, n.kids.size());
          continue;
        }
        default: break;
      }
      push_kids(n, 0, n.kids.size());
    }
  }

  // "a.b.c" when the node is a chain of plain names, else empty.
  static std::string dotted(const Node& n) {
    if (n.kind == NodeKind::kName) return n.text;
    if (n.kind == NodeKind::kAttr) {
      std::string base = dotted(*n.kids[0]);
      if (!base.empty()) return base + "." + n.text;
    }
    return {};
  }
  static const Node& root_of(const Node& n) { return n.kind == NodeKind::kAttr ? root_of(*n.kids[0]) : n; }

  Value unary(const Node& n) {
    Value v = eval(*n.kids[0]);
    const std::int64_t x = ctx_.as_int(v, fmt::format("the operand of unary '{}'", n.text));
    if (n.text == "+") return Value::make_int(x, n.pos);
    std::int64_t r = 0;
    ctx_.at(n.op_pos, [&] { r = checked_sub(0, x, "negation"); });
    return Value::make_int(r, n.pos);
  }

  // Right operand of '@': an axis. A plain name is looked up as an axis first.
  Axis axis_operand(const Node& n) {
    if (n.kind == NodeKind::kName) return ctx_.axis_by_name(n.text, n.pos);
    if (n.kind == NodeKind::kString)
      ctx_.fail("layout.well-formed", n.pos, "the right side of '@' is an axis, not a string",
                fmt::format("write 4@{} (or the pair (4, '{}') as a stride)", n.text, n.text));
    Value v = eval(n);
    if (v.kind != Value::Kind::kAxis)
      ctx_.fail("layout.well-formed", n.pos, fmt::format("the right side of '@' must be an axis, got {}", kind_name(v)));
    return v.axis;
  }

  // A chain of binary operators is a left spine ((((x op1 a) op2 b) op3 c) ...): evaluate its
  // leftmost operand, then apply the operators bottom-up in a loop (no recursion per link).
  Value binary(const Node& n) {
    std::vector<const Node*> spine;
    const Node* leaf = &n;
    while (leaf->kind == NodeKind::kBinary) {
      spine.push_back(leaf);
      leaf = leaf->kids[0].get();
    }
    Value acc = eval(*leaf);
    for (auto it = spine.rbegin(); it != spine.rend(); ++it) acc = binary_step(**it, std::move(acc));
    return acc;
  }

  // One link of the chain: `lhs op rhs` with the left operand already evaluated.
  Value binary_step(const Node& n, Value lhs) {
    const std::string& op = n.text;
    if (op == "@") {
      const std::int64_t v = ctx_.as_int(lhs, "the value bound with '@'");
      const Axis a = axis_operand(*n.kids[1]);
      Value r;
      r.kind = Value::Kind::kOffset;
      r.pos = n.pos;
      r.single_term = true;
      r.offset.add(a, v);
      return r;
    }
    Value rhs = eval(*n.kids[1]);
    if (op == "+") return add(lhs, rhs, n);
    if (lhs.kind != Value::Kind::kInt || rhs.kind != Value::Kind::kInt) {
      std::string note;
      if (op == "-" && (lhs.kind == Value::Kind::kSpec || offset_like(lhs)))
        note = "layout terms are only added; write '+ -5@laneid' for a negative offset";
      const Value& bad = lhs.kind != Value::Kind::kInt ? lhs : rhs;
      ctx_.fail("layout.well-formed", n.op_pos,
                fmt::format("'{}' needs two integers, but one operand is {}", op, kind_name(bad)), note);
    }
    const std::int64_t a = lhs.i, b = rhs.i;
    std::int64_t r = 0;
    if (op == "/")
      ctx_.fail("layout.well-formed", n.op_pos, "'/' is true division and gives a non-integer",
                "use '//' for integer (floor) division");
    if ((op == "//" || op == "%") && b == 0) ctx_.fail("layout.well-formed", n.op_pos, "division by zero");
    ctx_.at(n.op_pos, [&] {
      if (op == "-") r = checked_sub(a, b);
      else if (op == "*") r = checked_mul(a, b);
      else if (op == "//" || op == "%") {
        if (a == std::numeric_limits<std::int64_t>::min() && b == -1) throw_overflow("floor division");
        r = op == "//" ? floor_div(a, b) : floor_mod(a, b);
      }
    });
    return Value::make_int(r, n.pos);
  }

  Value add(Value& lhs, Value& rhs, const Node& n) {
    using K = Value::Kind;
    if (lhs.kind == K::kInt && rhs.kind == K::kInt) {
      std::int64_t r = 0;
      ctx_.at(n.op_pos, [&] { r = checked_add(lhs.i, rhs.i); });
      return Value::make_int(r, n.pos);
    }
    if (lhs.kind == K::kSpec && rhs.kind == K::kSpec) {
      Value r = lhs;
      r.pos = n.pos;
      if (!r.spec.has_shard && rhs.spec.has_shard) {
        r.spec.has_shard = true;
        r.spec.shard = rhs.spec.shard;
      }
      if (rhs.spec.has_replica) {
        r.spec.has_replica = true;
        r.spec.replica = rhs.spec.replica;
      }
      merge_into(ctx_, r.spec.offset, rhs.spec.offset, n.op_pos);
      return r;
    }
    if (lhs.kind == K::kSpec && offset_like(rhs)) {
      Value r = lhs;
      r.pos = n.pos;
      merge_into(ctx_, r.spec.offset, to_offset(ctx_, rhs), n.op_pos);
      return r;
    }
    if (offset_like(lhs) && rhs.kind == K::kSpec) {
      Value r = rhs;
      r.pos = n.pos;
      OffsetMap off = to_offset(ctx_, lhs);
      merge_into(ctx_, off, rhs.spec.offset, n.op_pos);
      r.spec.offset = off;
      return r;
    }
    if (offset_like(lhs) && offset_like(rhs)) {
      Value r;
      r.kind = K::kOffset;
      r.pos = n.pos;
      r.offset = to_offset(ctx_, lhs);
      merge_into(ctx_, r.offset, to_offset(ctx_, rhs), n.op_pos);
      return r;
    }
    const Value& bad = (lhs.kind == K::kSpec || offset_like(lhs)) ? rhs : lhs;
    std::string note;
    if (bad.kind == K::kLayout)
      note = "a built layout cannot be added to; add the terms inside TileLayout(...) instead";
    ctx_.fail("layout.well-formed", n.op_pos,
              fmt::format("cannot add {} and {}", kind_name(lhs), kind_name(rhs)), note);
  }

  Value call(const Node& n) {
    const Node& callee = *n.kids[0];
    const std::string callee_name = dotted(callee);
    if (!callee_name.empty() && !known_name(root_of(callee).text))
      ctx_.fail("layout.well-formed", callee.pos, fmt::format("unknown function '{}'", callee_name),
                "known: TileLayout, TileLayout.from_iters, ComposeLayout, SwizzleLayout, Iter, "
                "tmem_datapath_layout, tcgen05_atom_layout, wg_local_layout, sf_tmem_layout, sf_smem_layout, "
                "mma_shared_layout, tmem_mma_operand_layout, default_tmem_layout");
    Value fn = eval(callee);
    if (fn.kind != Value::Kind::kFunc)
      ctx_.fail("layout.well-formed", n.op_pos, fmt::format("{} cannot be called", kind_name(fn)));
    std::vector<Value> positional;
    for (std::size_t k = 0; k < n.num_positional; ++k) positional.push_back(eval(*n.kids[1 + k]));
    std::vector<std::pair<std::string, Value>> keywords;
    for (std::size_t k = 0; k < n.kw_names.size(); ++k)
      keywords.emplace_back(n.kw_names[k], eval(*n.kids[1 + n.num_positional + k]));
    Value r = call_builtin(ctx_, fn, n.pos, positional, keywords, n.kw_pos);
    r.pos = n.pos;
    return r;
  }

  Value attr(const Node& n) {
    // Dotted parameter names (self.BLK_K, GemmTile.EPI_TILE) come straight from the Env.
    const std::string full = dotted(n);
    if (!full.empty()) {
      if (auto it = ctx_.env.find(full); it != ctx_.env.end()) return Value::make_int(it->second, n.pos);
      const Node& root = root_of(n);
      if (!known_name(root.text)) unbound(full, n.pos);
    }
    Value obj = eval(*n.kids[0]);
    if (auto v = builtin_attr(ctx_, obj, n.text, n.op_pos)) {
      v->pos = n.pos;
      return *v;
    }
    ctx_.fail("layout.well-formed", n.op_pos, fmt::format("{} has no attribute '{}'", kind_name(obj), n.text));
  }

  Value index(const Node& n) {
    Value obj = eval(*n.kids[0]);
    const bool is_spec_builder = obj.kind == Value::Kind::kFunc && (obj.s == "S" || obj.s == "R");
    if (!is_spec_builder)
      ctx_.fail("layout.well-formed", n.op_pos, fmt::format("{} cannot be indexed with [...]", kind_name(obj)),
                "only S[...] and R[...] take a subscript");
    const Node& key = *n.kids[1];
    if (key.kind == NodeKind::kSlice) {
      Value ext = eval(*key.kids[0]);
      Value st = eval(*key.kids[1]);
      return make_spec(ctx_, obj.s == "S", ext, &st, n.pos);
    }
    Value ext = eval(key);
    return make_spec(ctx_, obj.s == "S", ext, nullptr, n.pos);
  }

  const Ctx& ctx_;
  const Node& root_;
};

}  // namespace

Layout evaluate_layout(const Node& root, std::string_view text, const Env& env) {
  Ctx ctx{text, env};
  Evaluator ev(ctx, root);
  Value v = ev.eval(root);
  if (v.kind == Value::Kind::kNone)
    ctx.fail("layout.well-formed", v.pos, "the expression gives None, not a layout",
             "slice() returns None when the region cannot be expressed as a layout");
  Layout l = ctx.as_layout(v, "the expression");
  ctx.at(root.pos, [&] { l.validate(); });
  return l;
}

std::int64_t evaluate_int(const Node& root, std::string_view text, const Env& env) {
  Ctx ctx{text, env};
  Evaluator ev(ctx, root);
  return ctx.as_int(ev.eval(root), "the expression");
}

std::vector<std::int64_t> evaluate_int_list(const Node& root, std::string_view text, const Env& env) {
  Ctx ctx{text, env};
  Evaluator ev(ctx, root);
  Value v = ev.eval(root);
  if (v.kind == Value::Kind::kInt) return {v.i};
  return ctx.as_int_list(v, "the expression");
}

}  // namespace tirx::notation

// ---------------------------------------------------------------- public entry points

namespace tirx {
namespace {

template <class F>
auto guarded(std::string_view text, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    // Anything else is a bug below the notation; report it as bad input instead of crashing.
    throw InputError("layout.well-formed", fmt::format("internal error while reading the layout: {}", e.what()),
                     std::string(text), 0);
  }
}

}  // namespace

Layout parse_layout(std::string_view text, const Env& env) {
  return guarded(text, [&] {
    auto tree = notation::parse(text);
    return notation::evaluate_layout(*tree, text, env);
  });
}

std::int64_t parse_int_expr(std::string_view text, const Env& env) {
  return guarded(text, [&] {
    auto tree = notation::parse(text);
    return notation::evaluate_int(*tree, text, env);
  });
}

std::vector<std::int64_t> parse_shape(std::string_view text, const Env& env) {
  return guarded(text, [&] {
    auto tree = notation::parse(text);
    return notation::evaluate_int_list(*tree, text, env);
  });
}

}  // namespace tirx
