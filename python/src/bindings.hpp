// The parts of the _core extension module, one per file.
#pragma once

#include <pybind11/pybind11.h>

namespace tirx::py_bind {

namespace py = pybind11;

void bind_layout(py::module_& m);  // bind_layout.cpp: _core.Layout
void bind_check(py::module_& m);   // bind_check.cpp: check, check_kernel, validate_model, run_cli

}  // namespace tirx::py_bind
