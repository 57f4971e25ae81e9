// The Python module's runtime: exception types, and running library work with the GIL released
// and Ctrl-C turned into Budget::interrupt().
//
// Ctrl-C: Python's own SIGINT handler only sets a flag the interpreter reads between bytecodes,
// which never happens while C++ code runs. While an InterruptScope is alive on the main thread,
// a SIGINT handler of ours is installed in front of Python's: it chains to Python's handler (so
// KeyboardInterrupt is raised once the call returns) and writes one byte to a pipe; a watcher
// thread (started once) reads it and interrupts every budget in flight (Budget::interrupt: the
// loops stop at their next Pacer poll, a Z3 query is cancelled through its InterruptHook) and the
// in-process CLI command, if one runs. Off the main thread nothing is installed (Python delivers
// signals to the main thread only); such a call still ends at its own time limit. Nor when SIGINT
// is ignored (SIG_IGN) or has its default action (SIG_DFL): that choice of the program stands.
#pragma once

#include <pybind11/pybind11.h>

#include "tirx_verify/layout/budget.hpp"

namespace tirx::py_bind {

namespace py = pybind11;

// Stores the Python exception classes (tirx_verify.errors) the C++ exceptions become:
//   InputError        -> input_error(message) with .check_id, .position, .text, .note, .rendering
//   BudgetExceeded    -> undecided(message) with .limit, .where
// Called once from tirx_verify/__init__.py; also registers the translator.
void register_error_types(py::object input_error, py::object undecided);
// Raises the Python InputError for these fields (for errors found on the Python side of _core).
[[noreturn]] void raise_input_error(const std::string& check_id, const std::string& message);

// While alive: `budget` is interrupted on Ctrl-C (see above). Construct with the GIL held,
// before releasing it; after destroying it (GIL held again) call finish(), which raises
// KeyboardInterrupt if Ctrl-C arrived.
class InterruptScope {
 public:
  explicit InterruptScope(Budget* budget, bool cli = false);
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  ~InterruptScope();

 private:
  Budget* budget_;
  bool cli_;
  bool installed_ = false;
};

// Runs Python's pending signal handlers (GIL held); throws py::error_already_set when one raised.
void check_signals();

// Records the thread that imported the module as Python's main thread.
void note_main_thread();

}  // namespace tirx::py_bind
