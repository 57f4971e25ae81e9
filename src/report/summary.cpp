// Counting a run and its exit code (report.hpp).
#include "tirx_verify/report/report.hpp"

namespace tirx::report {

namespace {

bool at_or_above(prove::Severity s, prove::Severity threshold) {
  return static_cast<int>(s) <= static_cast<int>(threshold);  // error < warning < note
}

}  // namespace

Summary summarize(const std::vector<kernel::KernelReport>& ks, const std::vector<Item>& items, const RunOptions& opt) {
  Summary s;
  s.fail_on = opt.fail_on;
  for (const auto& k : ks) {
    ++s.kernels;
    s.ops += static_cast<int>(k.model->ops.size());
    for (const auto& b : k.buffers) {
      ++s.buffers;
      if (b.error) {
        ++s.errors;
        continue;
      }
      bool fail = false, undecided = false;
      for (const auto& r : b.results) {
        fail |= r.status == prove::Status::kFail;
        undecided |= r.status == prove::Status::kUndecided;
      }
      if (fail)
        ++s.with_findings;
      else if (undecided)
        ++s.undecided;
      else
        ++s.verified;
    }
  }
  for (const auto& it : items) {
    ++s.by_check[it.check][it.input_error ? std::string("error") : std::string(prove::status_name(it.status))];
    if (it.known) ++s.known;
    if (it.input_error) continue;
    if (it.status == prove::Status::kFail)
      ++(it.known ? s.known_by_severity : s.new_by_severity)[std::string(prove::severity_name(it.severity))];
    if (it.status == prove::Status::kUndecided && !it.known) ++s.new_undecided;
  }
  return s;
}

int exit_code(const Summary& s) {
  if (s.errors) return 2;
  for (const auto& [sev, n] : s.new_by_severity)
    if (n > 0 && at_or_above(prove::parse_severity(sev), s.fail_on)) return 1;
  if (s.new_undecided) return 3;
  return 0;
}

}  // namespace tirx::report
