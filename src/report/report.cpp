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

namespace {

enum class Verdict { kVerified, kFinding, kUndecided, kError };

Verdict verdict(const kernel::BufferReport& b) {
  if (b.error) return Verdict::kError;
  bool undecided = false;
  for (const auto& r : b.results) {
    if (r.status == prove::Status::kFail) return Verdict::kFinding;
    if (r.status == prove::Status::kUndecided) undecided = true;
  }
  return undecided ? Verdict::kUndecided : Verdict::kVerified;
}

const char* mark(prove::Status s) {
  switch (s) {
    case prove::Status::kPass: return "ok";
    case prove::Status::kFail: return "FAIL";
    case prove::Status::kUndecided: return "?";
    case prove::Status::kNotApplicable: return "-";
  }
  return "";
}

std::string shape_str(const std::vector<std::int64_t>& s) {
  if (s.empty()) return "?";
  std::string o = "(";
  for (std::size_t i = 0; i < s.size(); ++i) o += fmt::format("{}{}", i ? "," : "", s[i]);
  return o + ")";
}

// The ops of a format-2 kernel: one row per op with a mark per kernel check, then the
// findings (failed, undecided; everything with verbose) with witness and fix.
std::string render_ops_text(const kernel::KernelReport& k, bool verbose) {
  if (k.model->format < 2) return {};
  std::string out;
  std::vector<std::string_view> ids;
  for (const auto& c : kernel::kernel_checks()) ids.push_back(c.id);
  out += fmt::format("  {:<28} {:<16} {:<14}", "op", "kind", "warps");
  for (auto id : ids) out += fmt::format(" {:>14}", id.substr(id.find('.') + 1));
  out += "\n";
  for (const auto& op : k.model->ops) {
    std::string warps;
    for (int w : op.warps) warps += fmt::format("{}{}", warps.empty() ? "" : ",", w);
    out += fmt::format("  {:<28} {:<16} {:<14}", op.name, op.kind, warps.empty() ? "-" : warps);
    for (auto id : ids) {
      const char* m = "";
      for (const auto& f : k.findings)
        if (f.check == id && f.subject_kind == "op" && f.subject == op.name &&
            (*m == 0 || f.status == prove::Status::kFail))
          m = mark(f.status);
      out += fmt::format(" {:>14}", m);
    }
    out += "\n";
  }
  for (const auto& f : k.findings) {
    const bool show = f.status == prove::Status::kFail || f.status == prove::Status::kUndecided || verbose;
    if (!show) continue;
    const std::string sev =
        f.status == prove::Status::kFail ? std::string(kernel::severity_name(f.severity)) : std::string(prove::status_name(f.status));
    out += fmt::format("  {} {} [{}] {}: {}\n", f.subject_kind, f.subject, sev, f.check, f.message);
    if (f.status == prove::Status::kFail && !f.witness.is_null()) out += fmt::format("      witness: {}\n", f.witness.dump());
    if (f.status == prove::Status::kFail && !f.fix.empty()) out += fmt::format("      fix: {}\n", f.fix);
  }
  return out;
}

}  // namespace

Summary summarize(const std::vector<kernel::KernelReport>& ks) {
  Summary s;
  for (const auto& k : ks) {
    ++s.kernels;
    for (const auto& b : k.buffers) {
      ++s.buffers;
      switch (verdict(b)) {
        case Verdict::kVerified: ++s.verified; break;
        case Verdict::kFinding: ++s.with_findings; break;
        case Verdict::kUndecided: ++s.undecided; break;
        case Verdict::kError: ++s.errors; break;
      }
      if (b.error)
        ++s.by_check[b.error->check_id()]["error"];
      for (const auto& r : b.results) ++s.by_check[r.id][std::string(prove::status_name(r.status))];
    }
    s.ops += static_cast<int>(k.model->ops.size());
    for (const auto& f : k.findings) {
      ++s.by_check[f.check][std::string(prove::status_name(f.status))];
      if (f.status == prove::Status::kUndecided) ++s.kernel_undecided;
      if (f.status != prove::Status::kFail) continue;
      switch (f.severity) {
        case kernel::Severity::kError: ++s.kernel_errors; break;
        case kernel::Severity::kWarning: ++s.kernel_warnings; break;
        case kernel::Severity::kNote: ++s.kernel_notes; break;
      }
    }
  }
  return s;
}

int exit_code(const Summary& s) {
  if (s.errors) return 2;
  if (s.with_findings || s.kernel_errors || s.kernel_warnings) return 1;
  if (s.undecided || s.kernel_undecided) return 3;
  return 0;
}

json run_json(const std::vector<kernel::KernelReport>& ks, const Summary& s) {
  json kernels = json::array();
  for (const auto& k : ks) {
    json bufs = json::array();
    for (const auto& b : k.buffers) {
      json jb = {{"name", b.buffer->name},
                 {"scope", b.buffer->scope},
                 {"shape", b.buffer->shape},
                 {"dtype", b.buffer->dtype},
                 {"layout", b.buffer->layout},
                 {"resolved", b.resolved},
                 {"checks", results_json(b.results)}};
      if (b.error) jb["error"] = error_json(*b.error);
      bufs.push_back(std::move(jb));
    }
    json ops = json::array();
    for (const auto& op : k.model->ops)
      ops.push_back({{"name", op.name}, {"kind", op.kind}, {"warps", op.warps}, {"origin", op.origin},
                     {"line", op.position.line}});
    json findings = json::array();
    for (const auto& f : k.findings) findings.push_back(finding_json(f));
    kernels.push_back({{"kernel", k.model->kernel},
                       {"path", k.model->path.string()},
                       {"format", k.model->format},
                       {"buffers", bufs},
                       {"ops", ops},
                       {"findings", findings}});
  }
  json by_check = json::object();
  for (const auto& [id, m] : s.by_check) by_check[id] = m;
  return {{"kernels", kernels},
          {"summary",
           {{"kernels", s.kernels},
            {"buffers", s.buffers},
            {"ops", s.ops},
            {"kernel_findings",
             {{"error", s.kernel_errors}, {"warning", s.kernel_warnings}, {"note", s.kernel_notes},
              {"undecided", s.kernel_undecided}}},
            {"verified", s.verified},
            {"with_findings", s.with_findings},
            {"undecided", s.undecided},
            {"errors", s.errors},
            {"by_check", by_check}}}};
}

std::string render_run_text(const std::vector<kernel::KernelReport>& ks, const Summary& s, bool verbose) {
  std::string out;
  std::vector<std::string_view> ids;
  for (const auto& c : prove::checks())
    if (c.run) ids.push_back(c.id);
  for (const auto& k : ks) {
    out += fmt::format("== {} ({} buffers, {})\n", k.model->kernel, k.buffers.size(), k.model->path.string());
    out += fmt::format("  {:<28} {:<10} {:<16} {:<14}", "buffer", "scope", "shape", "dtype");
    for (auto id : ids) out += fmt::format(" {:>9}", id.substr(id.find('.') + 1, 9));
    out += "\n";
    std::string findings;
    for (const auto& b : k.buffers) {
      out += fmt::format("  {:<28} {:<10} {:<16} {:<14}", b.buffer->name, b.buffer->scope, shape_str(b.buffer->shape),
                         b.buffer->dtype);
      if (b.error) {
        out += fmt::format(" error[{}]\n", b.error->check_id());
        findings += fmt::format("  {}: {}", b.buffer->name, b.error->render());
        continue;
      }
      for (auto id : ids) {
        const char* m = "";
        for (const auto& r : b.results)
          if (r.id == id) m = mark(r.status);
        out += fmt::format(" {:>9}", m);
      }
      out += "\n";
      for (const auto& r : b.results)
        if (r.status == prove::Status::kFail || r.status == prove::Status::kUndecided || verbose)
          findings += fmt::format("  {} [{}] {}: {}\n{}", b.buffer->name, prove::status_name(r.status), r.id,
                                  r.message,
                                  r.witness.is_null() || r.status != prove::Status::kFail
                                      ? std::string()
                                      : fmt::format("      witness: {}\n", r.witness.dump()));
      if (verbose) findings += fmt::format("      layout: {}\n", b.resolved);
    }
    if (!findings.empty()) out += findings;
    out += render_ops_text(k, verbose);
    out += "\n";
  }
  out += "== checks\n";
  for (const auto& [id, m] : s.by_check) {
    out += fmt::format("  {:<20}", id);
    for (const auto& [st, n] : m) out += fmt::format(" {}={}", st, n);
    out += "\n";
  }
  out += fmt::format("\nSUMMARY: {} kernels, {} buffers: {} verified, {} with findings, {} undecided, {} input errors\n",
                     s.kernels, s.buffers, s.verified, s.with_findings, s.undecided, s.errors);
  if (s.ops)
    out += fmt::format("         {} ops: kernel checks found {} errors, {} warnings, {} notes; {} undecided\n", s.ops,
                       s.kernel_errors, s.kernel_warnings, s.kernel_notes, s.kernel_undecided);
  return out;
}

}  // namespace tirx::report
