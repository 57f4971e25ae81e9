#include "tirx_verify/report/report.hpp"

#include <fmt/format.h>

namespace tirx::report {

using nlohmann::json;

json result_json(const prove::CheckResult& r) {
  json j = {{"id", r.id},
            {"status", std::string(prove::status_name(r.status))},
            {"message", r.message},
            {"engine", r.engine},
            {"seconds", r.seconds}};
  j["witness"] = r.witness;
  return j;
}

json results_json(const std::vector<prove::CheckResult>& rs) {
  json a = json::array();
  for (const auto& r : rs) a.push_back(result_json(r));
  return a;
}

json error_json(const InputError& e) {
  json j = {{"id", e.check_id()}, {"message", e.message()}};
  if (e.pos()) j["pos"] = *e.pos();
  if (!e.note().empty()) j["note"] = e.note();
  return j;
}

json finding_json(const kernel::KernelFinding& f) {
  json j = {{"check", f.check},
            {"status", std::string(prove::status_name(f.status))},
            {"subject_kind", f.subject_kind},
            {"subject", f.subject},
            {"message", f.message},
            {"seconds", f.seconds}};
  if (f.status == prove::Status::kFail) j["severity"] = std::string(kernel::severity_name(f.severity));
  if (!f.related.empty()) j["related"] = f.related;
  j["witness"] = f.witness;
  if (!f.fix.empty()) j["fix"] = f.fix;
  return j;
}

std::string render_results_text(const std::vector<prove::CheckResult>& rs) {
  std::string out;
  for (const auto& r : rs) {
    out += fmt::format("  {:<9} {:<20} {}  [{}, {:.3g} ms]\n", prove::status_name(r.status), r.id, r.message, r.engine,
                       r.seconds * 1e3);
    if (r.status == prove::Status::kFail && !r.witness.is_null()) out += fmt::format("            witness: {}\n", r.witness.dump());
  }
  return out;
}

std::string Item::key() const {
  std::string k = (model ? model->kernel : std::string()) + "|" + subject_kind + "|" + subject + "|" + check;
  for (const auto& r : related) k += "|" + r;
  return k;
}

}  // namespace tirx::report
