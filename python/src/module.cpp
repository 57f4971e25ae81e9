// tirx_verify._core: the C++ library as a Python extension module. The Python package
// (python/tirx_verify) is the public surface; this module is its implementation.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "cli_budget.hpp"
#include "runtime.hpp"
#include "tirx_verify/layout/error.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "tirx-verify's C++ library (use the tirx_verify package, not this module)";
  tirx::py_bind::note_main_thread();
  // A command run in-process must not lower the interpreter's RLIMIT_DATA (cli_budget.hpp).
  tirx::cli::set_memory_backstop_enabled(false);
  m.def("_register_errors", &tirx::py_bind::register_error_types, py::arg("input_error"), py::arg("undecided"));
  tirx::py_bind::bind_layout(m);
  tirx::py_bind::bind_check(m);
  m.attr("__version__") = TIRX_VERIFY_VERSION;
}
