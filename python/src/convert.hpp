// Conversions between the library's values and Python objects (the _core module).
#pragma once

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

#include "tirx_verify/layout/coord.hpp"

namespace tirx::py_bind {

namespace py = pybind11;

// JSON -> plain Python data (dict, list, str, int, float, bool, None).
py::object to_python(const nlohmann::json& j);
// Plain Python data -> JSON; raises TypeError for anything else (bytes, sets, objects).
nlohmann::json to_json(const py::handle& o);
// {"laneid": 5, "m": 1}: the present axes of a coordinate, registry order (TVM's apply() dict).
py::dict coord_dict(const Coord& c);

}  // namespace tirx::py_bind
