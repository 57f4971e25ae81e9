// The JSON run report, format kReportFormat (docs/report-format.md).
#include <set>

#include "tirx_verify/report/report.hpp"

namespace tirx::report {

using nlohmann::json;

json run_json(const std::vector<kernel::KernelReport>& ks, const std::vector<Item>& items, const Summary& s) {
  std::set<std::string> known;
  for (const auto& it : items)
    if (it.known) known.insert(it.key());
  auto buffer_key = [](const kernel::KernelModel& m, const std::string& buffer, const std::string& check) {
    return m.kernel + "|buffer|" + buffer + "|" + check;
  };
  json kernels = json::array();
  for (const auto& k : ks) {
    json bufs = json::array();
    for (const auto& b : k.buffers) {
      json checks = results_json(b.results);
      for (auto& c : checks)
        if (known.count(buffer_key(*k.model, b.buffer->name, c["id"]))) c["known"] = true;
      for (std::size_t i = 0; i < b.results.size(); ++i)
        if (b.results[i].status == prove::Status::kFail)
          checks[i]["severity"] = std::string(prove::severity_name(b.results[i].severity));
      json jb = {{"name", b.buffer->name},
                 {"scope", b.buffer->scope},
                 {"shape", b.buffer->shape},
                 {"dtype", b.buffer->dtype},
                 {"layout", b.buffer->layout},
                 {"resolved", b.resolved},
                 {"line", b.buffer->position.line},
                 {"checks", checks}};
      if (b.error) jb["error"] = error_json(*b.error);
      bufs.push_back(std::move(jb));
    }
    json ops = json::array();
    for (const auto& op : k.model->ops)
      ops.push_back({{"name", op.name}, {"kind", op.kind}, {"warps", op.warps}, {"origin", op.origin},
                     {"line", op.position.line}});
    json findings = json::array();
    for (const auto& f : k.findings) {
      json jf = finding_json(f);
      Item probe;
      probe.model = k.model;
      probe.subject_kind = f.subject_kind;
      probe.subject = f.subject;
      probe.check = f.check;
      probe.related = f.related;
      if (known.count(probe.key())) jf["known"] = true;
      findings.push_back(std::move(jf));
    }
    kernels.push_back({{"kernel", k.model->kernel},
                       {"path", k.model->path.string()},
                       {"format", k.model->format},
                       {"buffers", bufs},
                       {"ops", ops},
                       {"findings", findings}});
  }
  json by_check = json::object();
  for (const auto& [id, m] : s.by_check) by_check[id] = m;
  auto sev = [](const std::map<std::string, int>& m) {
    return json{{"error", m.count("error") ? m.at("error") : 0},
                {"warning", m.count("warning") ? m.at("warning") : 0},
                {"note", m.count("note") ? m.at("note") : 0}};
  };
  return {{"format", kReportFormat},
          {"tool", {{"name", kToolName}, {"version", kToolVersion}}},
          {"kernels", kernels},
          {"summary",
           {{"kernels", s.kernels},
            {"buffers", s.buffers},
            {"ops", s.ops},
            {"verified", s.verified},
            {"with_findings", s.with_findings},
            {"undecided", s.undecided},
            {"errors", s.errors},
            {"findings", {{"new", sev(s.new_by_severity)}, {"known", sev(s.known_by_severity)}}},
            {"new_undecided", s.new_undecided},
            {"known", s.known},
            {"baseline_unmatched", s.baseline_unmatched},
            {"fail_on", std::string(prove::severity_name(s.fail_on))},
            {"exit_code", exit_code(s)},
            {"by_check", by_check}}},
          {"timings", {{"seconds", s.seconds}}}};
}

}  // namespace tirx::report
