// The Python module's runtime (runtime.hpp).
#include "runtime.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "cli_budget.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::py_bind {

namespace {

// Leaked on purpose: exception classes must outlive every call, including at interpreter exit.
PyObject* g_input_error = nullptr;
PyObject* g_undecided = nullptr;

std::thread::id g_main_thread;

// ---- Ctrl-C plumbing ----
int g_pipe[2] = {-1, -1};
struct sigaction g_python_action {};  // Python's handler, restored when the scope ends
std::mutex g_inflight_mu;
std::set<Budget*> g_inflight;
int g_cli_inflight = 0;
std::once_flag g_watcher_once;

void on_sigint(int sig, siginfo_t* info, void* ctx) {
  const int saved = errno;
  if (g_pipe[1] >= 0) {
    const char b = 1;
    [[maybe_unused]] const ssize_t n = write(g_pipe[1], &b, 1);  // async-signal-safe
  }
  if (g_python_action.sa_flags & SA_SIGINFO) {
    if (g_python_action.sa_sigaction) g_python_action.sa_sigaction(sig, info, ctx);
  } else if (g_python_action.sa_handler != SIG_IGN && g_python_action.sa_handler != SIG_DFL) {
    g_python_action.sa_handler(sig);
  }
  errno = saved;
}

void watcher() {
  for (;;) {
    char b;
    const ssize_t n = read(g_pipe[0], &b, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    const std::lock_guard<std::mutex> lock(g_inflight_mu);
    for (Budget* bud : g_inflight) bud->interrupt();
    if (g_cli_inflight > 0) cli::interrupt_command();
  }
}

void start_watcher() {
  std::call_once(g_watcher_once, [] {
    if (pipe(g_pipe) != 0) return;
    fcntl(g_pipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(g_pipe[1], F_SETFD, FD_CLOEXEC);
    fcntl(g_pipe[1], F_SETFL, O_NONBLOCK);
    std::thread(watcher).detach();
  });
}

}  // namespace

void note_main_thread() { g_main_thread = std::this_thread::get_id(); }

void register_error_types(py::object input_error, py::object undecided) {
  g_input_error = input_error.release().ptr();
  g_undecided = undecided.release().ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      py::object exc = py::reinterpret_borrow<py::object>(g_input_error)(py::str(e.render()));
      exc.attr("check_id") = e.check_id();
      exc.attr("message") = e.message();
      exc.attr("text") = e.text();
      exc.attr("position") = e.pos() ? py::object(py::int_(*e.pos())) : py::object(py::none());
      exc.attr("note") = e.note();
      exc.attr("rendering") = e.render();
      PyErr_SetObject(g_input_error, exc.ptr());
    } catch (const BudgetExceeded& e) {
      py::object exc = py::reinterpret_borrow<py::object>(g_undecided)(py::str(e.describe("")));
      exc.attr("limit") = e.limit();
      exc.attr("where") = e.where();
      PyErr_SetObject(g_undecided, exc.ptr());
    }
  });
}

void raise_input_error(const std::string& check_id, const std::string& message) {
  throw InputError(check_id, message);
}

InterruptScope::InterruptScope(Budget* budget, bool cli) : budget_(budget), cli_(cli) {
  struct sigaction current {};
  // Only in front of a real handler (Python's): SIGINT ignored (SIG_IGN) or left to kill the
  // process (SIG_DFL) is the program's choice, and stays so.
  const bool python_handles = sigaction(SIGINT, nullptr, &current) == 0 &&
                              ((current.sa_flags & SA_SIGINFO) ? current.sa_sigaction != nullptr
                                                               : current.sa_handler != SIG_IGN && current.sa_handler != SIG_DFL);
  if (std::this_thread::get_id() == g_main_thread && python_handles) {
    start_watcher();
    struct sigaction ours {};
    ours.sa_sigaction = on_sigint;
    ours.sa_flags = SA_SIGINFO;
    sigemptyset(&ours.sa_mask);
    installed_ = sigaction(SIGINT, &ours, &g_python_action) == 0;
  }
  const std::lock_guard<std::mutex> lock(g_inflight_mu);
  if (budget_) g_inflight.insert(budget_);
  if (cli_) ++g_cli_inflight;
}

InterruptScope::~InterruptScope() {
  {
    const std::lock_guard<std::mutex> lock(g_inflight_mu);
    if (budget_) g_inflight.erase(budget_);
    if (cli_) --g_cli_inflight;
  }
  if (installed_) sigaction(SIGINT, &g_python_action, nullptr);
}

void check_signals() {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

}  // namespace tirx::py_bind
