// _core.Layout: the library's Layout value with TVM's query and algebra surface
// (layout/layout.hpp, ops.hpp, info.hpp, trainium.hpp, apply_to_shape.hpp). The Python classes
// TileLayout / ComposeLayout (tirx_verify/layout.py) wrap it; argument names follow TVM.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "tirx_verify/layout/apply_to_shape.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/info.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "tirx_verify/layout/symbolic.hpp"
#include "tirx_verify/layout/trainium.hpp"

namespace tirx::py_bind {

namespace {

using Shape = std::vector<std::int64_t>;
using IterTuple = std::tuple<std::int64_t, std::int64_t, std::string>;

Axis axis_named(const std::string& name) {
  if (auto a = Axis::from_name(name)) return *a;
  throw InputError("layout.well-formed", "unknown axis '" + name + "'", name, 0,
                   "axes: bx by bz cbx cby cbz tx warpid laneid wgid tid_in_wg wid_in_wg m P F Bank TCol TLane");
}

std::vector<Iter> iters_of(const std::vector<IterTuple>& ts) {
  std::vector<Iter> out;
  out.reserve(ts.size());
  for (const auto& [e, s, a] : ts) out.push_back(Iter{e, s, axis_named(a)});
  return out;
}

py::list iter_list(const std::vector<Iter>& its) {
  py::list l;
  for (const Iter& it : its) l.append(py::make_tuple(it.extent, it.stride, std::string(it.axis.name())));
  return l;
}

py::object opt_layout(std::optional<Layout> l) {
  if (!l) return py::none();
  return py::cast(std::move(*l));
}

const TileLayout& tile_only(const Layout& l, const char* op) {
  if (l.is_compose())
    throw InputError("layout.well-formed", std::string(op) + " takes a TileLayout, not a ComposeLayout");
  return l.tile();
}

CanonicalizeOptions opts(bool cuda) { return CanonicalizeOptions{cuda}; }

// As `apply --all-replicas` (cmd_apply.cpp): at most this many copies of one element are listed.
constexpr std::int64_t kMaxListedReplicas = 1 << 16;

void check_replica_count(const Layout& l) {
  if (l.tile().replica_count() > kMaxListedReplicas)
    throw InputError("cli.usage", fmt::format("replicas: the layout has {} replica copies per element; at most {} can "
                                              "be listed", l.tile().replica_count(), kMaxListedReplicas));
}

// The work of a layout call runs without the GIL (other Python threads go on); calls are short.
template <class F>
auto nogil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

}  // namespace

void bind_layout(py::module_& m) {
  m.def("axes", [] {
    py::list out;
    for (const AxisInfo& a : axis_registry()) {
      auto scope = [&](ScopeKind k) -> py::object {
        if (!a.thread) return py::none();
        return py::str(std::string(scope_name(k)));
      };
      out.append(py::make_tuple(std::string(a.name), a.thread, scope(a.scope), scope(a.subscope)));
    }
    return out;
  }, "The axis registry: (name, is_thread, scope, subscope) per axis, registry order");
  py::class_<Layout>(m, "Layout", "A TIRx layout (TileLayout or ComposeLayout), the library value")
      .def_static(
          "parse",
          [](const std::string& text, const std::map<std::string, std::int64_t>& params) {
            Env env;
            for (const auto& [name, value] : params)  // the CLI's --param name rules (no axis, no builtin)
              env[parse_param_range(name + "=" + std::to_string(value)).name] = value;
            return nogil([&] {
              Layout l = parse_layout(text, env);
              l.validate();
              return l;
            });
          },
          py::arg("text"), py::arg("params") = std::map<std::string, std::int64_t>{})
      .def_static(
          "from_iters",
          [](const std::vector<IterTuple>& shard, const std::vector<IterTuple>& replica,
             const std::map<std::string, std::int64_t>& offset) {
            TileLayout t(iters_of(shard), iters_of(replica));
            for (const auto& [a, v] : offset) t.offset.add(axis_named(a), v);
            t.validate();
            return Layout(std::move(t));
          },
          py::arg("shard"), py::arg("replica"), py::arg("offset"))
      .def_static(
          "compose",
          [](int per_element, int swizzle_len, int atom_len, const Layout& tile, bool swizzle_inner) {
            ComposeLayout c(SwizzleSpec{per_element, swizzle_len, atom_len, swizzle_inner},
                            tile_only(tile, "ComposeLayout"));
            c.validate();
            return Layout(std::move(c));
          },
          py::arg("per_element"), py::arg("swizzle_len"), py::arg("atom_len"), py::arg("tile_layout"),
          py::arg("swizzle_inner") = true)
      .def_static(
          "trainium",
          [](const std::string& annotation, const Shape& shape, bool is_psum) {
            return Layout(trainium(annotation, shape, is_psum));
          },
          py::arg("annotation"), py::arg("shape"), py::arg("is_psum") = false)
      .def_property_readonly("is_compose", &Layout::is_compose)
      .def_property_readonly("swizzle",
                             [](const Layout& l) -> py::object {
                               const SwizzleSpec* s = l.swizzle();
                               if (!s) return py::none();
                               return py::make_tuple(s->per_element, s->swizzle_len, s->atom_len, s->swizzle_inner);
                             })
      .def_property_readonly("shard", [](const Layout& l) { return iter_list(l.tile().shard); })
      .def_property_readonly("replica", [](const Layout& l) { return iter_list(l.tile().replica); })
      .def_property_readonly("offset",
                             [](const Layout& l) {
                               py::dict d;
                               for (const auto& e : l.tile().offset.entries()) d[py::str(std::string(e.axis.name()))] = e.value;
                               return d;
                             })
      .def_property_readonly("tile_layout", [](const Layout& l) { return Layout(l.tile()); })
      .def("to_str", [](const Layout& l, const std::string& style) {
             return print_layout(l, style == "tvm" ? PrintStyle::kTvm : PrintStyle::kBuilder);
           }, py::arg("style") = "builder")
      .def("apply_flat", [](const Layout& l, std::int64_t x) { return coord_dict(l.apply(x)); })
      .def("apply_iters", [](const Layout& l, const Shape& d) { return coord_dict(l.apply_iters(d)); })
      .def("apply_shape", [](const Layout& l, const Shape& c, const Shape& s) { return coord_dict(l.apply(c, s)); })
      .def("split", [](const Layout& l, std::int64_t x) { return l.tile().split(x); })
      .def("images",
           [](const Layout& l, const Shape& digits) {
             check_replica_count(l);
             py::list out;
             for (const Coord& c : l.images(digits)) out.append(coord_dict(c));
             return out;
           })
      .def("images_shape",
           [](const Layout& l, const Shape& coord, const Shape& shape) {
             // The digits of the grouped layout (apply_to_shape.hpp) index that layout's own iters;
             // grouping splits iters without changing the map, so its images are this layout's.
             check_replica_count(l);
             ShardDigits d = shard_digits(l.tile(), coord, shape);
             Layout grouped = l.is_compose() ? Layout(ComposeLayout(*l.swizzle(), std::move(d.layout)))
                                             : Layout(std::move(d.layout));
             py::list out;
             for (const Coord& c : grouped.images(d.digits)) out.append(coord_dict(c));
             return out;
           })
      .def("size", [](const Layout& l, std::optional<std::string> axis) {
             return axis ? l.tile().size(axis_named(*axis)) : l.size();
           }, py::arg("axis") = py::none())
      .def("span", [](const Layout& l, std::optional<std::string> axis) {
             return axis ? l.tile().span(axis_named(*axis)) : l.span();
           }, py::arg("axis") = py::none())
      .def_property_readonly("replica_count", [](const Layout& l) { return l.tile().replica_count(); })
      .def("canonicalize", [](const Layout& l, bool cuda) { return nogil([&] { return canonicalize(l, opts(cuda)); }); },
           py::arg("cuda_target") = false)
      .def("get_scope",
           [](const Layout& l) -> py::object {
             auto s = get_scope(l.tile());
             if (!s) return py::none();
             return py::make_tuple(std::string(scope_name(s->inner)), std::string(scope_name(s->outer)));
           })
      .def("verify_well_formed", [](const Layout& l) { return verify_well_formed(l); })
      .def("tile",
           [](const Layout& l, const Layout& outer, const Shape& os, const Shape& is, bool cuda) {
             return nogil([&] { return tile(l, tile_only(outer, "tile's outer"), os, is, opts(cuda)); });
           }, py::arg("outer"), py::arg("outer_shape"), py::arg("inner_shape"), py::arg("cuda_target") = false)
      .def("tile_to",
           [](const Layout& l, const Shape& to, const Shape& cur, bool cuda) { return tile_to(l, to, cur, opts(cuda)); },
           py::arg("to_shape"), py::arg("current_shape"), py::arg("cuda_target") = false)
      .def("slice",
           [](const Layout& l, const Shape& shape, const std::vector<std::pair<std::int64_t, std::int64_t>>& region,
              bool cuda) { return opt_layout(slice(l, shape, region, opts(cuda))); },
           py::arg("shape"), py::arg("region"), py::arg("cuda_target") = false)
      .def("direct_sum",
           [](const Layout& r, const Layout& left, const Shape& ls, const Shape& rs, bool cuda) {
             return direct_sum(r, tile_only(left, "direct_sum's left"), ls, rs, opts(cuda));
           }, py::arg("left"), py::arg("left_shape"), py::arg("right_shape"), py::arg("cuda_target") = false)
      .def("is_direct_sum_right",
           [](const Layout& r, const Layout& sum, const Shape& inter, const Shape& rs) {
             auto t = is_direct_sum_right(r, sum, inter, rs);
             return t ? py::cast(Layout(*t)) : py::object(py::none());
           }, py::arg("sum_layout"), py::arg("interleaved_shape"), py::arg("right_shape"))
      .def("is_direct_sum_left",
           [](const Layout& l, const Layout& sum, const Shape& inter, const Shape& ls) {
             auto t = is_direct_sum_left(l, sum, inter, ls);
             return t ? py::cast(Layout(*t)) : py::object(py::none());
           }, py::arg("sum_layout"), py::arg("interleaved_shape"), py::arg("left_shape"))
      .def("is_tile_inner",
           [](const Layout& inner, const Layout& tiled, const Shape& ts, const Shape& is, bool cuda) {
             auto t = nogil([&] { return is_tile_inner(inner, tiled, ts, is, opts(cuda)); });
             return t ? py::cast(Layout(*t)) : py::object(py::none());
           }, py::arg("tile_layout"), py::arg("tiled_shape"), py::arg("inner_shape"), py::arg("cuda_target") = false)
      .def("is_tile_outer",
           [](const Layout& outer, const Layout& tiled, const Shape& ts, const Shape& os, bool cuda) {
             return opt_layout(nogil([&] { return is_tile_outer(outer, tiled, ts, os, opts(cuda)); }));
           }, py::arg("tile_layout"), py::arg("tiled_shape"), py::arg("outer_shape"), py::arg("cuda_target") = false)
      .def("group",
           [](const Layout& l, const Shape& shape) {
             Grouped g = group(tile_only(l, "group"), shape);
             return py::make_tuple(Layout(std::move(g.layout)), g.seps);
           }, py::arg("shape"))
      .def("group_many",
           [](const Layout& l, const std::vector<Shape>& shapes) {
             GroupedMany g = group_many(tile_only(l, "group_many"), shapes);
             return py::make_tuple(Layout(std::move(g.layout)), g.seps);
           }, py::arg("shapes"))
      .def("permute_dims", [](const Layout& l, const std::vector<int>& p) { return Layout(permute_dims(tile_only(l, "permute_dims"), p)); },
           py::arg("perm"))
      .def("permute_by_groups",
           [](const Layout& l, const std::vector<std::size_t>& seps, const std::vector<int>& p) {
             return Layout(permute_by_groups(tile_only(l, "permute_by_groups"), seps, p));
           }, py::arg("seps"), py::arg("perm"))
      .def("storage", [](const Layout& l) { return storage(l); })
      .def("pack", [](const Layout& l, std::int64_t n) { return pack(l, n); }, py::arg("num"))
      .def("unpack", [](const Layout& l, std::int64_t n) { return unpack(l, n); }, py::arg("num"))
      .def("broadcast",
           [](const Layout& l, std::int64_t n, int position, const std::string& axis) {
             return broadcast(l, n, position, axis_named(axis));
           }, py::arg("num"), py::arg("position") = -1, py::arg("axis") = "m")
      .def("apply_to_shape",
           [](const Layout& l, const Shape& coord, const Shape& shape) {
             return apply_to_shape(tile_only(l, "apply_to_shape"), coord, shape);
           }, py::arg("coord"), py::arg("input_shape"))
      .def("to_psum", [](const Layout& l) { return Layout(to_psum(tile_only(l, "to_psum"))); })
      .def("info",
           [](const Layout& l, bool cuda) {
             const LayoutInfo info = layout_info(l, opts(cuda));
             py::dict d;
             d["size"] = info.size;
             d["span"] = info.span;
             d["replicas"] = info.replicas;
             py::list axes;
             for (const AxisInfoOf& a : info.axes) {
               py::dict ad;
               ad["axis"] = std::string(a.axis.name());
               ad["kind"] = a.axis.is_thread() ? "thread" : "memory";
               ad["size"] = a.size;
               ad["span"] = a.span;
               axes.append(ad);
             }
             d["axes"] = axes;
             d["scope"] = info.scope ? py::object(py::make_tuple(std::string(scope_name(info.scope->inner)),
                                                                 std::string(scope_name(info.scope->outer))))
                                     : py::object(py::none());
             d["canonical"] = info.canonical ? py::object(py::cast(*info.canonical)) : py::object(py::none());
             d["well_formed"] = info.well_formed;
             d["error"] = info.well_formed ? py::object(py::none())
                                           : py::object(py::make_tuple(info.error_id, info.error));
             return d;
           }, py::arg("cuda_target") = false)
      .def("__eq__", [](const Layout& a, const Layout& b) { return a == b; })
      .def("__hash__", [](const Layout& l) { return py::hash(py::str(print_layout(l))); });
}

}  // namespace tirx::py_bind
