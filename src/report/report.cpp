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
  }
  return s;
}

int exit_code(const Summary& s) {
  if (s.errors) return 2;
  if (s.with_findings) return 1;
  if (s.undecided) return 3;
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
    kernels.push_back({{"kernel", k.model->kernel}, {"path", k.model->path.string()}, {"buffers", bufs}});
  }
  json by_check = json::object();
  for (const auto& [id, m] : s.by_check) by_check[id] = m;
  return {{"kernels", kernels},
          {"summary",
           {{"kernels", s.kernels},
            {"buffers", s.buffers},
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
  return out;
}

}  // namespace tirx::report
