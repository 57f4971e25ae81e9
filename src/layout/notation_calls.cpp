// notation_calls.cpp — the constructors a layout is written with, and attribute access:
//
//   TileLayout(<spec>)                         T.TileLayout(T.S[...] + ...)
//   TileLayout.from_iters(shard=[Iter(8, 4, "laneid")], replica=[], offset={"m": 5})
//   ComposeLayout(per_element, swizzle_len, atom_len, tile_layout, swizzle_inner=True)
//       tile_layout may be a TileLayout or a bare spec: ComposeLayout(3, 3, 3, S[512:1])
//   ComposeLayout(SwizzleLayout(3, 3, 3, swizzle_inner=True), TileLayout(...))  (older TVM form)
//   SwizzleLayout(per_element, swizzle_len, atom_len, swizzle_inner=True)
//       alone = a bare swizzle: ComposeLayout over S[2^(M+B+S):1]
//   Iter(extent, stride, axis), T.int64(8), T.int32(8), Axis.get("laneid")
//
// Name spaces: `T.`, `Tx.`, `tirx.` and `tma_utils.` prefix any builtin; `Axis.<name>` is an axis. Factory
// calls and layout methods are dispatched by notation_factories.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

#include "layout/notation_factories.hpp"
#include "layout/notation_value.hpp"
#include "tirx_verify/layout/checked.hpp"

namespace tirx::notation {

namespace {

constexpr std::array<std::string_view, 6> kNamespaces = {"T", "Tx", "tirx", "tma_utils", "Axis", "SwizzleMode"};
constexpr std::array<std::string_view, 8> kConstructors = {"S",    "R",       "TileLayout", "ComposeLayout",
                                                           "SwizzleLayout", "Iter", "int64", "int32"};

bool is_namespace(std::string_view n) { return std::find(kNamespaces.begin(), kNamespaces.end(), n) != kNamespaces.end(); }
bool is_prefix_namespace(std::string_view n) { return n == "T" || n == "Tx" || n == "tirx" || n == "tma_utils"; }

}  // namespace

bool is_builtin(std::string_view name) {
  return is_namespace(name) || std::find(kConstructors.begin(), kConstructors.end(), name) != kConstructors.end() ||
         is_factory(name);
}

}  // namespace tirx::notation

namespace tirx {

bool is_reserved_name(std::string_view name) {
  return notation::is_builtin(name) || Axis::from_name(name).has_value() || name == "True" || name == "False" ||
         name == "None";
}

}  // namespace tirx

namespace tirx::notation {

// ---------------------------------------------------------------- argument binding

Args::Args(const Ctx& c, std::string_view f, std::size_t pos, const std::vector<Value>& positional,
           const std::vector<std::pair<std::string, Value>>& keywords, const std::vector<std::string>& params,
           std::size_t max_positional, const std::vector<std::size_t>& kw_pos)
    : ctx(c), func(f), call_pos(pos), slots(params.size(), nullptr), names(params) {
  if (positional.size() > max_positional) {
    const Value& extra = positional[max_positional];
    ctx.fail("layout.well-formed", extra.pos,
             fmt::format("{}() takes at most {} positional argument{} but {} were given", func, max_positional,
                         max_positional == 1 ? "" : "s", positional.size()),
             max_positional < params.size()
                 ? fmt::format("pass '{}' as a keyword argument", params[max_positional])
                 : "");
  }
  for (std::size_t k = 0; k < positional.size(); ++k) slots[k] = &positional[k];
  for (std::size_t k = 0; k < keywords.size(); ++k) {
    const auto& [name, value] = keywords[k];
    const std::size_t at = k < kw_pos.size() ? kw_pos[k] : value.pos;
    auto it = std::find(params.begin(), params.end(), name);
    if (it == params.end()) {
      std::string note = "accepted: ";
      for (std::size_t j = 0; j < params.size(); ++j) note += (j ? ", " : "") + params[j];
      ctx.fail("layout.well-formed", at, fmt::format("{}() got an unexpected keyword argument '{}'", func, name), note);
    }
    const std::size_t idx = static_cast<std::size_t>(it - params.begin());
    if (slots[idx] != nullptr)
      ctx.fail("layout.well-formed", at, fmt::format("{}() got multiple values for argument '{}'", func, name));
    slots[idx] = &value;
  }
}

const Value& Args::need(std::size_t i) const {
  if (slots[i] == nullptr)
    ctx.fail("layout.well-formed", call_pos, fmt::format("{}() is missing the argument '{}'", func, names[i]));
  return *slots[i];
}

// ---------------------------------------------------------------- attributes

std::optional<Value> builtin_attr(const Ctx& ctx, const Value& obj, std::string_view name, std::size_t pos) {
  using K = Value::Kind;
  if (obj.kind == K::kFunc && obj.layout == nullptr) {
    if (is_prefix_namespace(obj.s)) {
      if (is_builtin(name) && !is_prefix_namespace(name)) return Value::make_func(std::string(name), pos);
      return std::nullopt;
    }
    if (obj.s == "Axis") {
      if (name == "get") return Value::make_func("Axis.get", pos);
      Value v;
      v.kind = K::kAxis;
      v.axis = ctx.axis_by_name(name, pos);
      v.pos = pos;
      return v;
    }
    if (obj.s == "TileLayout" && name == "from_iters") return Value::make_func("TileLayout.from_iters", pos);
  }
  if (obj.kind == K::kLayout && obj.layout->is_compose()) {
    const SwizzleSpec& s = *obj.layout->swizzle();
    if (name == "tile_layout") return Value::make_layout(obj.layout->tile(), pos);
    if (name == "per_element") return Value::make_int(s.per_element, pos);
    if (name == "swizzle_len") return Value::make_int(s.swizzle_len, pos);
    if (name == "atom_len") return Value::make_int(s.atom_len, pos);
  }
  return factory_attr(ctx, obj, name, pos);
}

// ---------------------------------------------------------------- constructors

namespace {

Value construct_tile_layout(const Args& a) {
  const Value& spec = a.need(0);
  if (spec.kind == Value::Kind::kSpec) return Value::make_layout(a.ctx.spec_to_layout(spec.spec, spec.pos), a.call_pos);
  if (spec.kind == Value::Kind::kLayout && !spec.layout->is_compose()) return spec;
  a.ctx.fail("layout.well-formed", spec.pos,
             fmt::format("TileLayout() takes a spec built from S[...], R[...] and offsets, got {}", kind_name(spec)),
             "e.g. TileLayout(S[(8,4):(4@laneid,1)] + 2@warpid)");
}

std::vector<Iter> iter_list(const Ctx& ctx, const Value& v, std::string_view what) {
  if (v.kind != Value::Kind::kTuple)
    ctx.fail("layout.well-formed", v.pos, fmt::format("{} must be a list of Iter(...), got {}", what, kind_name(v)));
  std::vector<Iter> r;
  for (const Value& e : v.items) {
    if (e.kind != Value::Kind::kIter)
      ctx.fail("layout.well-formed", e.pos, fmt::format("each entry of {} must be an Iter(...), got {}", what, kind_name(e)));
    r.push_back(e.iter);
  }
  return r;
}

Value construct_from_iters(const Args& a) {
  const Ctx& ctx = a.ctx;
  std::vector<Iter> shard, replica;
  OffsetMap offset;
  if (a.has(0)) shard = iter_list(ctx, *a.slots[0], "shard");
  if (a.has(1)) replica = iter_list(ctx, *a.slots[1], "replica");
  if (a.has(2)) {
    const Value& d = *a.slots[2];
    if (d.kind != Value::Kind::kDict)
      ctx.fail("layout.well-formed", d.pos, fmt::format("offset must be a dict {{\"axis\": value}}, got {}", kind_name(d)));
    std::vector<std::pair<Axis, std::size_t>> seen;  // key axis, byte offset
    for (std::size_t k = 0; k + 1 < d.items.size(); k += 2) {
      const Axis ax = ctx.as_axis(d.items[k], "an offset key");
      // Python would keep the last value silently; two offsets for one axis are a typo.
      for (const auto& [prev, at] : seen)
        if (prev == ax)
          ctx.fail("layout.syntax", d.items[k].pos,
                   fmt::format("duplicate key '{}' in the offset dict (first given at byte {})", ax.name(), at),
                   "give each axis once; add the values yourself if both were meant");
      seen.emplace_back(ax, d.items[k].pos);
      const std::int64_t v = ctx.as_int(d.items[k + 1], "an offset value");
      ctx.at(d.items[k + 1].pos, [&] { offset.add(ax, v); });
    }
  }
  Spec s;
  s.shard = std::move(shard);
  s.replica = std::move(replica);
  s.offset = std::move(offset);
  return Value::make_layout(ctx.spec_to_layout(s, a.call_pos), a.call_pos);
}

int swizzle_field(const Ctx& ctx, const Value& v, std::string_view what) {
  const std::int64_t x = ctx.as_int(v, what);
  if (x < 0 || x > 62)
    ctx.fail("swizzle.legal", v.pos, fmt::format("{} = {} is out of range (0..62 bits)", what, x));
  return static_cast<int>(x);
}

SwizzleSpec swizzle_from(const Args& a, std::size_t first) {
  SwizzleSpec s;
  s.per_element = swizzle_field(a.ctx, a.need(first), "per_element");
  s.swizzle_len = swizzle_field(a.ctx, a.need(first + 1), "swizzle_len");
  s.atom_len = swizzle_field(a.ctx, a.need(first + 2), "atom_len");
  return s;
}

Value construct_compose(const Ctx& ctx, std::size_t pos, const std::vector<Value>& positional,
                        const std::vector<std::pair<std::string, Value>>& keywords,
                        const std::vector<std::size_t>& kw_pos) {
  // Older TVM form: ComposeLayout(SwizzleLayout(...), TileLayout(...)).
  if (!positional.empty() && positional[0].kind == Value::Kind::kSwizzle) {
    Args a(ctx, "ComposeLayout", pos, positional, keywords, {"layout_A", "layout_B"}, 2, kw_pos);
    const SwizzleSpec s = a.need(0).swizzle;
    const TileLayout tile = ctx.as_tile(a.need(1), "the tile layout of a ComposeLayout");
    ComposeLayout c(s, tile);
    ctx.at(pos, [&] { c.validate(); });
    return Value::make_layout(c, pos);
  }
  Args a(ctx, "ComposeLayout", pos, positional, keywords,
         {"per_element", "swizzle_len", "atom_len", "tile_layout", "swizzle_inner"}, 5, kw_pos);
  SwizzleSpec s = swizzle_from(a, 0);
  if (a.has(4)) s.swizzle_inner = ctx.as_bool(*a.slots[4], "swizzle_inner");
  const TileLayout tile = ctx.as_tile(a.need(3), "tile_layout");
  ComposeLayout c(s, tile);
  ctx.at(pos, [&] { c.validate(); });
  return Value::make_layout(c, pos);
}

Value construct_swizzle(const Args& a) {
  SwizzleSpec s = swizzle_from(a, 0);
  if (a.has(3)) s.swizzle_inner = a.ctx.as_bool(*a.slots[3], "swizzle_inner");
  a.ctx.at(a.call_pos, [&] { s.validate(); });
  Value v;
  v.kind = Value::Kind::kSwizzle;
  v.swizzle = s;
  v.pos = a.call_pos;
  return v;
}

}  // namespace

Value call_builtin(const Ctx& ctx, const Value& fn, std::size_t pos, const std::vector<Value>& positional,
                   const std::vector<std::pair<std::string, Value>>& keywords, const std::vector<std::size_t>& kw_pos) {
  const std::string& f = fn.s;
  if (fn.layout != nullptr) return call_method(ctx, fn, pos, positional, keywords, kw_pos);
  if (f == "TileLayout") return construct_tile_layout(Args(ctx, f, pos, positional, keywords, {"spec"}, 1, kw_pos));
  if (f == "TileLayout.from_iters")
    return construct_from_iters(Args(ctx, f, pos, positional, keywords, {"shard", "replica", "offset"}, 3, kw_pos));
  if (f == "ComposeLayout") return construct_compose(ctx, pos, positional, keywords, kw_pos);
  if (f == "SwizzleLayout")
    return construct_swizzle(Args(ctx, f, pos, positional, keywords,
                                  {"per_element", "swizzle_len", "atom_len", "swizzle_inner"}, 4, kw_pos));
  if (f == "Iter") {
    Args a(ctx, f, pos, positional, keywords, {"extent", "stride", "axis"}, 3, kw_pos);
    Value v;
    v.kind = Value::Kind::kIter;
    v.iter = make_iter(ctx, a.need(0), a.need(1), a.need(2), pos);
    v.pos = pos;
    return v;
  }
  if (f == "int64" || f == "int32") {
    Args a(ctx, f, pos, positional, keywords, {"value"}, 1, kw_pos);
    const std::int64_t v = ctx.as_int(a.need(0), fmt::format("the argument of {}()", f));
    if (f == "int32" && (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max()))
      ctx.fail("layout.well-formed", a.need(0).pos, fmt::format("{} does not fit in int32", v));
    return Value::make_int(v, pos);
  }
  if (f == "Axis.get") {
    Args a(ctx, f, pos, positional, keywords, {"name"}, 1, kw_pos);
    Value v;
    v.kind = Value::Kind::kAxis;
    v.axis = ctx.axis_by_name(ctx.as_str(a.need(0), "the axis name"), a.need(0).pos);
    v.pos = pos;
    return v;
  }
  if (f == "S" || f == "R")
    ctx.fail("layout.syntax", fn.pos, fmt::format("{} is indexed, not called", f),
             fmt::format("write {}[extents:strides], e.g. {}[(8,4):(4@laneid,1)]", f, f));
  if (is_namespace(f)) ctx.fail("layout.well-formed", fn.pos, fmt::format("{} is a namespace, not a function", f));
  return call_factory(ctx, fn, pos, positional, keywords, kw_pos);
}

}  // namespace tirx::notation
