// _core.check / check_kernel / run_cli: the provers, the kernel checks and the command line,
// in-process. Every call runs under its own Budget (time_limit seconds, memory_limit_mb) with the
// GIL released and Ctrl-C wired to Budget::interrupt (runtime.hpp).
#include <pybind11/stl.h>

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bindings.hpp"
#include "cli_budget.hpp"
#include "convert.hpp"
#include "run_cli.hpp"
#include "runtime.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/prove/run_check.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::py_bind {

namespace {

// Targets by name, loaded once per process (models/targets/<name>.json).
const hw::Target& target_named(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<hw::Target>> cache;
  const std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[name];
  if (!slot) slot = std::make_unique<hw::Target>(hw::load_target(name));
  return *slot;
}

// The CLI's ranges for --time-limit and --memory-limit (cli_budget.hpp).
Budget make_budget(double time_limit, std::int64_t memory_limit_mb) {
  if (!std::isfinite(time_limit) || time_limit <= 0 || time_limit > cli::kMaxTimeLimit)
    throw InputError("cli.usage", fmt::format("time_limit {} is outside (0, {:.0f}] seconds (30 days)", time_limit,
                                              cli::kMaxTimeLimit));
  if (memory_limit_mb < cli::kMinMemoryMb || memory_limit_mb > cli::kMaxMemoryMb)
    throw InputError("cli.usage", fmt::format("memory_limit_mb {} is outside [{}, {}] MB", memory_limit_mb,
                                              cli::kMinMemoryMb, cli::kMaxMemoryMb));
  return Budget(time_limit, memory_limit_mb << 20);
}

struct CheckArgs {
  std::optional<std::vector<std::int64_t>> shape;
  std::string dtype, scope, engine, target;
  std::optional<std::int64_t> alloc_cols, alloc_elems;
  std::optional<Layout> access, other;
  std::string text, access_text, other_text;
  int access_bytes = 0;
  std::optional<int> row_imm;
  bool cross_check = false, allow_broadcast = false;
  std::int64_t z3_timeout_ms = prove::EngineLimits{}.z3_timeout_ms;
};

prove::CheckInput make_input(const Layout& l, const CheckArgs& a, const hw::Target& target, Budget* budget) {
  prove::CheckInput in;
  in.layout = l;
  in.text = a.text;
  in.shape = a.shape;
  in.dtype = a.dtype;
  in.elem_bits = kernel::dtype_bits(a.dtype);
  if (!a.dtype.empty() && in.elem_bits == 0) throw InputError("cli.usage", "unknown dtype '" + a.dtype + "'", a.dtype, 0);
  in.scope = prove::parse_scope(a.scope);
  if (a.alloc_cols) kernel::check_alloc_cols(target, *a.alloc_cols);
  in.alloc_cols = a.alloc_cols;
  in.alloc_elems = a.alloc_elems;
  in.machine = prove::machine_limits(target);
  in.target = &target;
  in.access = a.access;
  in.access_text = a.access_text;
  in.access_bytes = a.access_bytes;
  in.row_imm = a.row_imm;
  in.other = a.other;
  in.other_text = a.other_text;
  in.engine = prove::parse_engine(a.engine);
  in.cross_check = a.cross_check;
  in.allow_broadcast = a.allow_broadcast;
  in.limits.z3_timeout_ms = a.z3_timeout_ms;
  in.limits.budget = budget;
  return in;
}

// The in-process command line is not reentrant (run_cli.hpp): one call at a time.
std::mutex g_cli_mu;

}  // namespace

void bind_check(py::module_& m) {
  m.def("default_memory_mb", &Budget::default_memory_mb, "min(4096, half of physical memory) MB, the CLI's default");
  m.def(
      "check",
      [](const Layout& layout, const std::string& text, std::optional<std::vector<std::int64_t>> shape,
         const std::string& dtype, const std::string& scope, std::optional<std::int64_t> alloc_cols,
         std::optional<std::int64_t> alloc_elems, std::optional<Layout> access, const std::string& access_text,
         int access_bytes, std::optional<int> row_imm, std::optional<Layout> other, const std::string& other_text,
         const std::string& engine, bool cross_check, bool allow_broadcast, const std::string& target,
         double time_limit, std::int64_t memory_limit_mb, std::int64_t z3_timeout_ms, const std::string& only) {
        CheckArgs a{std::move(shape), dtype, scope, engine, target, alloc_cols, alloc_elems, std::move(access),
                    std::move(other), text, access_text, other_text, access_bytes, row_imm, cross_check,
                    allow_broadcast, z3_timeout_ms};
        const hw::Target& t = target_named(a.target);
        Budget budget = make_budget(time_limit, memory_limit_mb);
        const prove::CheckInput in = make_input(layout, a, t, &budget);
        std::vector<prove::CheckResult> results;
        {
          InterruptScope scope_guard(&budget);
          py::gil_scoped_release release;
          if (only.empty())
            results = prove::run_all(in);
          else
            results.push_back(prove::run_check(only, in));
        }
        check_signals();  // KeyboardInterrupt if Ctrl-C stopped the proof
        py::list out;
        for (const auto& r : results) {
          py::dict d;
          d["id"] = r.id;
          d["status"] = std::string(prove::status_name(r.status));
          d["severity"] = std::string(prove::severity_name(r.severity));
          d["message"] = r.message;
          d["engine"] = r.engine;
          d["seconds"] = r.seconds;
          d["witness"] = to_python(r.witness);
          out.append(std::move(d));
        }
        return out;
      },
      py::arg("layout"), py::arg("text"), py::arg("shape"), py::arg("dtype"), py::arg("scope"),
      py::arg("alloc_cols"), py::arg("alloc_elems"), py::arg("access"), py::arg("access_text"),
      py::arg("access_bytes"), py::arg("row_imm"), py::arg("other"), py::arg("other_text"), py::arg("engine"),
      py::arg("cross_check"), py::arg("allow_broadcast"), py::arg("target"), py::arg("time_limit"),
      py::arg("memory_limit_mb"), py::arg("z3_timeout_ms"), py::arg("only") = "",
      "Every registered check on one layout (prove::run_all), or the one named by `only` "
      "(prove::run_check); a list of result dicts");

  m.def(
      "check_kernel",
      [](const std::string& model_text, const std::string& origin, double time_limit, std::int64_t memory_limit_mb) {
        Budget budget = make_budget(time_limit, memory_limit_mb);
        nlohmann::json doc;
        {
          InterruptScope scope_guard(&budget);
          py::gil_scoped_release release;
          const kernel::KernelModel model = kernel::parse_model(model_text, origin);
          kernel::VerifyOptions opt;
          opt.limits.budget = &budget;
          std::vector<kernel::KernelReport> reports{kernel::verify_kernel(model, opt)};
          const auto items = report::collect_items(reports);
          const auto summary = report::summarize(reports, items);
          doc = report::run_json(reports, items, summary);
        }
        check_signals();
        return to_python(doc);
      },
      py::arg("model_text"), py::arg("origin"), py::arg("time_limit"), py::arg("memory_limit_mb"),
      "Loads a kernel model (JSON text) and runs every buffer and kernel check; the run report as a dict");

  m.def(
      "validate_model",
      [](const std::string& model_text, const std::string& origin) {
        const kernel::KernelModel model = kernel::parse_model(model_text, origin);
        py::dict d;
        d["kernel"] = model.kernel;
        d["buffers"] = model.buffers.size();
        d["ops"] = model.ops.size();
        return d;
      },
      py::arg("model_text"), py::arg("origin"), "Parses a kernel model; a summary, or InputError");

  m.def(
      "run_cli",
      [](const std::vector<std::string>& args) {
        std::ostringstream out, err;
        int code;
        {
          InterruptScope scope_guard(nullptr, /*cli=*/true);
          py::gil_scoped_release release;                    // before the lock: a waiter must not hold the GIL
          const std::lock_guard<std::mutex> lock(g_cli_mu);
          code = cli::run_cli(args, out, err);
        }
        check_signals();
        return py::make_tuple(code, out.str(), err.str());
      },
      py::arg("args"), "The tirx-verify command line in-process: (exit code, stdout, stderr)");
}

}  // namespace tirx::py_bind
