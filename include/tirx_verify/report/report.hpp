// tirx_verify/report/report.hpp — turning check results into output for people and for CI.
//
// Text for people (a table per kernel, findings with their witnesses, a summary line) and JSON
// for machines. The JSON shapes are a contract other tools script against:
//   check: {"layout": "...", "resolved": "...", "checks": [{"id", "status", "message",
//           "witness", "engine", "seconds"}]}
//   run:   {"kernels": [{"kernel", "path", "format", "buffers": [{"name", "scope", "shape", "dtype",
//           "layout", "resolved", "checks": [...], "error": {...}?}],
//           "ops": [{"name", "kind", "warps", "origin", "line"}],
//           "findings": [{"check", "status", "severity", "subject_kind", "subject", "related",
//           "message", "witness", "fix", "seconds"}]}], "summary": {...}}
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::report {

nlohmann::json result_json(const prove::CheckResult& r);
nlohmann::json results_json(const std::vector<prove::CheckResult>& rs);
nlohmann::json error_json(const InputError& e);
nlohmann::json finding_json(const kernel::KernelFinding& f);

// One line per check: "  pass  layout.injective   65536 points ... [enum, 0.2 ms]", followed by
// the witness for failures.
std::string render_results_text(const std::vector<prove::CheckResult>& rs);

// Counts over a whole run.
struct Summary {
  int kernels = 0, buffers = 0, ops = 0;
  int verified = 0;    // every check pass or n/a
  int with_findings = 0;
  int undecided = 0;
  int errors = 0;      // layout did not parse or was invalid
  // Kernel checks (kernel_check.hpp): failed findings by severity, undecided ones.
  int kernel_errors = 0, kernel_warnings = 0, kernel_notes = 0, kernel_undecided = 0;
  std::map<std::string, std::map<std::string, int>> by_check;  // id -> status -> count
};
Summary summarize(const std::vector<kernel::KernelReport>& ks);
// Exit code of a run: 0 all verified, 1 a finding, 2 an input error, 3 undecided only.
int exit_code(const Summary& s);

nlohmann::json run_json(const std::vector<kernel::KernelReport>& ks, const Summary& s);
std::string render_run_text(const std::vector<kernel::KernelReport>& ks, const Summary& s, bool verbose);

}  // namespace tirx::report
