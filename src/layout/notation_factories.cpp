// notation_factories.cpp — factory calls and method chains, spelled as TVM spells them.
//
//   tmem_datapath_layout("F", 64, 32, sub_slab=1)
//   tcgen05_atom_layout("16x64b", (64, 32), "float32")
//   wg_local_layout(16), wg_local_layout(8, rows=64)
//   sf_tmem_layout(128, SF_K=16, sf_per_mma=4, sf_reuse=1, pipe_depth=None), sf_smem_layout(...)
//   mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, (128, 64))   (mode may be 0..3)
//   tmem_mma_operand_layout("D", (64, 512), "float32", M=64, cta_group=1, ws=True, group=(2,2,128))
//   default_tmem_layout(128, 512)
//
//   <layout>.tile(outer, outer_shape, inner_shape)   .tile_to(to_shape, current_shape)
//   <layout>.direct_sum(left, left_shape, right_shape)
//   <layout>.unpack(n) .pack(n) .broadcast(n, position=-1, axis="m") .canonicalize() .storage()
//   <layout>.slice(shape, [(begin, end), ...])       .permute_dims(perm)
//
// Argument names, order and defaults follow TVM's Python signatures; the semantics live in
// factories.cpp / ops (this file only converts arguments and forwards).
#include "layout/notation_factories.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::notation {
namespace {

constexpr std::array<std::string_view, 9> kFactories = {
    "tmem_datapath_layout", "tcgen05_atom_layout", "wg_local_layout",     "sf_tmem_layout",
    "sf_smem_layout",       "mma_shared_layout",   "tmem_mma_operand_layout", "default_tmem_layout",
    "_default_tmem_layout"};

constexpr std::array<std::string_view, 10> kMethods = {"tile",        "tile_to", "direct_sum", "unpack", "pack",
                                                       "broadcast",   "canonicalize", "storage", "slice",
                                                       "permute_dims"};

std::string join(std::span<const std::string_view> names) {
  std::string r;
  for (auto n : names) r += (r.empty() ? "" : ", ") + std::string(n);
  return r;
}

int as_small_int(const Ctx& ctx, const Value& v, std::string_view what) {
  const std::int64_t x = ctx.as_int(v, what);
  if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
    ctx.fail("layout.well-formed", v.pos, fmt::format("{} = {} is out of range", what, x));
  return static_cast<int>(x);
}

DType as_dtype(const Ctx& ctx, const Value& v) {
  const std::string name = ctx.as_str(v, "dtype");
  return ctx.at(v.pos, [&] { return DType::parse(name); });
}

SwizzleMode as_swizzle_mode(const Ctx& ctx, const Value& v) {
  if (v.kind == Value::Kind::kInt) {
    if (v.i < 0 || v.i > 3)
      ctx.fail("swizzle.legal", v.pos, fmt::format("swizzle mode {} is not one of 0 (none), 1 (32B), 2 (64B), 3 (128B)", v.i));
    return static_cast<SwizzleMode>(v.i);
  }
  const std::string s = ctx.as_str(v, "swizzle_mode");
  return ctx.at(v.pos, [&] { return parse_swizzle_mode(s); });
}

// A list of (begin, end) pairs.
std::vector<std::pair<std::int64_t, std::int64_t>> as_region(const Ctx& ctx, const Value& v) {
  if (v.kind != Value::Kind::kTuple)
    ctx.fail("layout.well-formed", v.pos, fmt::format("region must be a list of (begin, end) pairs, got {}", kind_name(v)));
  std::vector<std::pair<std::int64_t, std::int64_t>> r;
  for (const Value& e : v.items) {
    if (e.kind != Value::Kind::kTuple || e.items.size() != 2)
      ctx.fail("layout.well-formed", e.pos, "each region entry must be a (begin, end) pair");
    r.emplace_back(ctx.as_int(e.items[0], "a region begin"), ctx.as_int(e.items[1], "a region end"));
  }
  return r;
}

std::optional<std::int64_t> optional_int(const Ctx& ctx, const Args& a, std::size_t i, std::string_view what) {
  if (!a.has(i)) return std::nullopt;
  return ctx.as_int(*a.slots[i], what);
}

}  // namespace

bool is_factory(std::string_view name) {
  return std::find(kFactories.begin(), kFactories.end(), name) != kFactories.end();
}

std::optional<Value> factory_attr(const Ctx& ctx, const Value& obj, std::string_view name, std::size_t pos) {
  using K = Value::Kind;
  if (obj.kind == K::kFunc && obj.layout == nullptr && obj.s == "SwizzleMode") {
    const SwizzleMode m = ctx.at(pos, [&] { return parse_swizzle_mode(name); });
    return Value::make_int(static_cast<std::int64_t>(m), pos);
  }
  if (obj.kind == K::kLayout || obj.kind == K::kSpec || obj.kind == K::kSwizzle) {
    if (std::find(kMethods.begin(), kMethods.end(), name) == kMethods.end()) {
      if (obj.kind == K::kSpec) return std::nullopt;
      ctx.fail("layout.well-formed", pos, fmt::format("layouts have no method '{}'", name),
               "methods: " + join(kMethods));
    }
    auto receiver = std::make_shared<const Layout>(ctx.as_layout(obj, "the receiver"));
    return Value::make_func(std::string(name), pos, std::move(receiver));
  }
  return std::nullopt;
}

Value call_factory(const Ctx& ctx, const Value& fn, std::size_t pos, const std::vector<Value>& positional,
                   const std::vector<std::pair<std::string, Value>>& keywords, const std::vector<std::size_t>& kw_pos) {
  const std::string& f = fn.s;
  auto done = [&](Layout l) { return Value::make_layout(std::move(l), pos); };
  if (f == "tmem_datapath_layout") {
    Args a(ctx, f, pos, positional, keywords, {"datapath", "rows", "cols", "sub_slab"}, 4, kw_pos);
    const std::string dp = ctx.as_str(a.need(0), "datapath");
    const std::int64_t rows = ctx.as_int(a.need(1), "rows"), cols = ctx.as_int(a.need(2), "cols");
    const int sub = a.has(3) ? as_small_int(ctx, *a.slots[3], "sub_slab") : 0;
    return done(ctx.at(pos, [&] { return tmem_datapath_layout(dp, rows, cols, sub); }));
  }
  if (f == "tcgen05_atom_layout") {
    Args a(ctx, f, pos, positional, keywords, {"instr_shape", "tensor_shape", "dtype"}, 3, kw_pos);
    const std::string shape = ctx.as_str(a.need(0), "instr_shape");
    const std::vector<std::int64_t> ts = ctx.as_int_list(a.need(1), "tensor_shape");
    if (ts.size() != 2)
      ctx.fail("layout.well-formed", a.need(1).pos,
               fmt::format("tcgen05_atom_layout tensor_shape must be 2-D (rows, cols), got {} entries", ts.size()));
    const DType dt = as_dtype(ctx, a.need(2));
    return done(ctx.at(pos, [&] { return tcgen05_atom_layout(shape, ts[0], ts[1], dt); }));
  }
  if (f == "wg_local_layout") {
    Args a(ctx, f, pos, positional, keywords, {"cols", "rows"}, 2, kw_pos);
    const std::int64_t cols = ctx.as_int(a.need(0), "cols");
    const std::int64_t rows = a.has(1) ? ctx.as_int(*a.slots[1], "rows") : 128;
    return done(ctx.at(pos, [&] { return wg_local_layout(cols, rows); }));
  }
  if (f == "sf_tmem_layout" || f == "sf_smem_layout") {
    Args a(ctx, f, pos, positional, keywords, {"rows", "SF_K", "sf_per_mma", "sf_reuse", "pipe_depth"}, 5, kw_pos);
    const std::int64_t rows = ctx.as_int(a.need(0), "rows"), sf_k = ctx.as_int(a.need(1), "SF_K");
    const std::int64_t per = ctx.as_int(a.need(2), "sf_per_mma");
    const std::int64_t reuse = a.has(3) ? ctx.as_int(*a.slots[3], "sf_reuse") : 1;
    const std::optional<std::int64_t> pipe = optional_int(ctx, a, 4, "pipe_depth");
    if (f == "sf_tmem_layout") return done(ctx.at(pos, [&] { return sf_tmem_layout(rows, sf_k, per, reuse, pipe); }));
    return done(ctx.at(pos, [&] { return sf_smem_layout(rows, sf_k, per, reuse, pipe); }));
  }
  if (f == "mma_shared_layout") {
    Args a(ctx, f, pos, positional, keywords, {"dtype", "swizzle_mode", "shape"}, 3, kw_pos);
    const DType dt = as_dtype(ctx, a.need(0));
    const SwizzleMode mode = as_swizzle_mode(ctx, a.need(1));
    const std::vector<std::int64_t> shape = ctx.as_int_list(a.need(2), "shape");
    return done(ctx.at(pos, [&] { return mma_shared_layout(dt, mode, shape); }));
  }
  if (f == "tmem_mma_operand_layout") {
    Args a(ctx, f, pos, positional, keywords, {"operand", "shape", "dtype", "M", "cta_group", "ws", "sparse", "group"},
           3, kw_pos);
    const std::string operand = ctx.as_str(a.need(0), "operand");
    const std::vector<std::int64_t> shape = ctx.as_int_list(a.need(1), "shape");
    const DType dt = as_dtype(ctx, a.need(2));
    TmemOperandArgs args;
    if (a.has(3)) args.M = ctx.as_int(*a.slots[3], "M");
    if (a.has(4)) args.cta_group = as_small_int(ctx, *a.slots[4], "cta_group");
    if (a.has(5)) args.ws = ctx.as_bool(*a.slots[5], "ws");
    if (a.has(6)) args.sparse = ctx.as_bool(*a.slots[6], "sparse");
    if (a.has(7)) args.group = ctx.as_int_list(*a.slots[7], "group");
    return done(ctx.at(pos, [&] { return tmem_mma_operand_layout(operand, shape, dt, args); }));
  }
  if (f == "default_tmem_layout" || f == "_default_tmem_layout") {
    Args a(ctx, f, pos, positional, keywords, {"rows", "cols"}, 2, kw_pos);
    const std::int64_t rows = ctx.as_int(a.need(0), "rows"), cols = ctx.as_int(a.need(1), "cols");
    return done(ctx.at(pos, [&] { return default_tmem_layout(rows, cols); }));
  }
  ctx.fail("layout.well-formed", fn.pos, fmt::format("unknown function '{}'", f), "factories: " + join(kFactories));
}

Value call_method(const Ctx& ctx, const Value& fn, std::size_t pos, const std::vector<Value>& positional,
                  const std::vector<std::pair<std::string, Value>>& keywords, const std::vector<std::size_t>& kw_pos) {
  const Layout& self = *fn.layout;
  const std::string& m = fn.s;
  const std::string name = "." + m;
  auto done = [&](Layout l) {
    ctx.at(pos, [&] { l.validate(); });
    return Value::make_layout(std::move(l), pos);
  };
  if (m == "tile") {
    Args a(ctx, name, pos, positional, keywords, {"outer", "outer_shape", "inner_shape"}, 3, kw_pos);
    const TileLayout outer = ctx.as_tile(a.need(0), "the outer layout of tile()");
    const auto os = ctx.as_int_list(a.need(1), "outer_shape"), is = ctx.as_int_list(a.need(2), "inner_shape");
    return done(ctx.at(pos, [&] { return tile(self, outer, os, is); }));
  }
  if (m == "tile_to") {
    Args a(ctx, name, pos, positional, keywords, {"to_shape", "current_shape"}, 2, kw_pos);
    const auto to = ctx.as_int_list(a.need(0), "to_shape"), cur = ctx.as_int_list(a.need(1), "current_shape");
    return done(ctx.at(pos, [&] { return tile_to(self, to, cur); }));
  }
  if (m == "direct_sum") {
    Args a(ctx, name, pos, positional, keywords, {"left", "left_shape", "right_shape"}, 3, kw_pos);
    const TileLayout left = ctx.as_tile(a.need(0), "the left layout of direct_sum()");
    const auto ls = ctx.as_int_list(a.need(1), "left_shape"), rs = ctx.as_int_list(a.need(2), "right_shape");
    return done(ctx.at(pos, [&] { return direct_sum(self, left, ls, rs); }));
  }
  if (m == "unpack" || m == "pack") {
    Args a(ctx, name, pos, positional, keywords, {"num"}, 1, kw_pos);
    const std::int64_t n = ctx.as_int(a.need(0), "num");
    if (n < 1) ctx.fail("layout.well-formed", a.need(0).pos, fmt::format("{}({}) needs a count >= 1", m, n));
    return done(ctx.at(pos, [&] { return m == "unpack" ? unpack(self, n) : pack(self, n); }));
  }
  if (m == "broadcast") {
    Args a(ctx, name, pos, positional, keywords, {"num", "position", "axis"}, 3, kw_pos);
    const std::int64_t n = ctx.as_int(a.need(0), "num");
    if (n < 1) ctx.fail("layout.well-formed", a.need(0).pos, fmt::format("broadcast({}) needs a count >= 1", n));
    const int position = a.has(1) ? as_small_int(ctx, *a.slots[1], "position") : -1;
    const Axis axis = a.has(2) ? ctx.as_axis(*a.slots[2], "axis") : Axis(AxisId::m);
    return done(ctx.at(pos, [&] { return broadcast(self, n, position, axis); }));
  }
  if (m == "canonicalize") {
    Args a(ctx, name, pos, positional, keywords, {}, 0, kw_pos);
    return done(ctx.at(pos, [&] { return canonicalize(self); }));
  }
  if (m == "storage") {
    Args a(ctx, name, pos, positional, keywords, {}, 0, kw_pos);
    return done(ctx.at(pos, [&] { return storage(self); }));
  }
  if (m == "slice") {
    Args a(ctx, name, pos, positional, keywords, {"shape", "region"}, 2, kw_pos);
    const auto shape = ctx.as_int_list(a.need(0), "shape");
    const auto region = as_region(ctx, a.need(1));
    if (shape.size() != region.size())
      ctx.fail("layout.well-formed", a.need(1).pos,
               fmt::format("slice shape has {} dims but the region has {}", shape.size(), region.size()));
    std::optional<Layout> r = ctx.at(pos, [&] { return slice(self, shape, region); });
    if (!r)
      ctx.fail("layout.well-formed", pos, "this slice region cannot be expressed as a layout (TVM returns None)");
    return done(std::move(*r));
  }
  if (m == "permute_dims") {
    Args a(ctx, name, pos, positional, keywords, {"perm"}, 1, kw_pos);
    const auto perm64 = ctx.as_int_list(a.need(0), "perm");
    if (self.is_compose()) ctx.fail("layout.well-formed", pos, "permute_dims() is defined on TileLayouts only");
    std::vector<int> perm;
    for (std::int64_t p : perm64) {
      if (p < 0 || p >= static_cast<std::int64_t>(self.tile().shard.size()))
        ctx.fail("layout.well-formed", a.need(0).pos, fmt::format("permute_dims index {} is out of range", p));
      perm.push_back(static_cast<int>(p));
    }
    return done(ctx.at(pos, [&] { return Layout(permute_dims(self.tile(), perm)); }));
  }
  ctx.fail("layout.well-formed", fn.pos, fmt::format("layouts have no method '{}'", m));
}

}  // namespace tirx::notation
