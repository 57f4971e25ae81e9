// tirx_verify/report/report.hpp — turning check results into output for people and for CI.
//
// A run's results are flattened into Items — one per (kernel, subject, check): a buffer's
// layout check, a kernel check about an op, a buffer or the kernel, or a buffer whose layout
// did not parse (an input error). Every output format and the baseline work on Items:
//
//   kernel          subject_kind  subject        check               status  severity  known
//   nvfp4_gemm      buffer        reg_all/...    layout.bounds       fail    warning   yes
//   fp16_bf16_gemm  op            tma_a_s0       kernel.tma-layout   pass
//
// Formats: text (people), JSON (format number kReportFormat, docs/report-format.md and
// docs/report-format.schema.json), SARIF 2.1.0 (sarif.hpp), JUnit XML (junit.hpp).
// Exit code of a run (exit_code): 2 when a model or layout is bad input; else 1 when a
// failed item that the baseline does not know has a severity at or above --fail-on; else 3
// when an item the baseline does not know is undecided; else 0.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::report {

// The `format` number of the JSON run report; bumped only on an incompatible change.
inline constexpr int kReportFormat = 1;
// The tool name and version every report names.
inline constexpr const char* kToolName = "tirx-verify";
inline constexpr const char* kToolVersion = "0.2.0";

nlohmann::json result_json(const prove::CheckResult& r);
nlohmann::json results_json(const std::vector<prove::CheckResult>& rs);
nlohmann::json error_json(const InputError& e);
nlohmann::json finding_json(const kernel::KernelFinding& f);

// One line per check: "  pass  layout.injective   65536 points ... [enum, 0.2 ms]", followed by
// the witness for failures.
std::string render_results_text(const std::vector<prove::CheckResult>& rs);

// One result of a run.
struct Item {
  const kernel::KernelModel* model = nullptr;
  std::string subject_kind;  // "buffer", "op" or "kernel"
  std::string subject;       // buffer or op name (the kernel name for "kernel")
  std::string check;         // check id; for an input error its id ("layout.syntax", ...)
  prove::Status status = prove::Status::kPass;
  prove::Severity severity = prove::Severity::kError;  // of a fail
  bool input_error = false;  // the subject's layout is bad input (exit code 2)
  std::string message, fix, engine;
  nlohmann::json witness;
  std::vector<std::string> related;
  kernel::JsonPosition position;  // the subject's object in the model file (line 1 for the kernel)
  double seconds = 0;
  bool known = false;        // the baseline lists it

  bool failed() const { return status == prove::Status::kFail || input_error; }
  // The baseline key: kernel, subject kind and name, check, related subjects — never message
  // text or numbers that may move.
  std::string key() const;
};

// Every item of a run, kernels in order, then buffers, ops, kernel-level findings.
std::vector<Item> collect_items(const std::vector<kernel::KernelReport>& ks);

struct RunOptions {
  prove::Severity fail_on = prove::Severity::kError;  // the lowest severity that fails the run
  bool verbose = false;
};

// Counts over a whole run.
struct Summary {
  int kernels = 0, buffers = 0, ops = 0;
  int verified = 0;    // buffers: every layout check pass or n/a
  int with_findings = 0;
  int undecided = 0;
  int errors = 0;      // layout did not parse or was invalid
  // Failed items by severity: new (not in the baseline) and known (in it).
  std::map<std::string, int> new_by_severity, known_by_severity;
  int new_undecided = 0;
  int known = 0;            // items the baseline matched
  int baseline_unmatched = 0;  // baseline entries no item matched (fixed, or renamed)
  prove::Severity fail_on = prove::Severity::kError;
  double seconds = 0;       // wall time of loading and checking (set by the caller)
  std::map<std::string, std::map<std::string, int>> by_check;  // id -> status -> count
};
Summary summarize(const std::vector<kernel::KernelReport>& ks, const std::vector<Item>& items,
                  const RunOptions& opt = {});
int exit_code(const Summary& s);

nlohmann::json run_json(const std::vector<kernel::KernelReport>& ks, const std::vector<Item>& items,
                        const Summary& s);
std::string render_run_text(const std::vector<kernel::KernelReport>& ks, const std::vector<Item>& items,
                            const Summary& s, bool verbose);

}  // namespace tirx::report
