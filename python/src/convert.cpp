// Conversions between the library's values and Python objects (convert.hpp).
#include "convert.hpp"

#include <string>

#include "tirx_verify/layout/axis.hpp"

namespace tirx::py_bind {

py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list l(j.size());
      std::size_t i = 0;
      for (const auto& e : j) l[i++] = to_python(e);
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = to_python(v);
      return d;
    }
    default: return py::none();  // binary / discarded: never produced by the library
  }
}

nlohmann::json to_json(const py::handle& o) {
  if (o.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(o)) return o.cast<bool>();
  if (py::isinstance<py::int_>(o)) return o.cast<std::int64_t>();  // OverflowError past int64
  if (py::isinstance<py::float_>(o)) return o.cast<double>();
  if (py::isinstance<py::str>(o)) return o.cast<std::string>();
  if (py::isinstance<py::dict>(o)) {
    nlohmann::json j = nlohmann::json::object();
    for (auto item : o.cast<py::dict>()) {
      if (!py::isinstance<py::str>(item.first)) throw py::type_error("model keys must be str");
      j[item.first.cast<std::string>()] = to_json(item.second);
    }
    return j;
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    nlohmann::json j = nlohmann::json::array();
    for (auto e : o) j.push_back(to_json(e));
    return j;
  }
  throw py::type_error("expected JSON-like data (dict, list, tuple, str, int, float, bool, None), got " +
                       std::string(py::str(o.get_type().attr("__name__"))));
}

py::dict coord_dict(const Coord& c) {
  py::dict d;
  for (const AxisInfo& a : axis_registry())
    if (c.has(a.id)) d[py::str(a.name.data(), a.name.size())] = c.get(a.id);
  return d;
}

}  // namespace tirx::py_bind
