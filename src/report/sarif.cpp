// SARIF 2.1.0 output (sarif.hpp).
#include "tirx_verify/report/sarif.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/report/source_location.hpp"

namespace tirx::report {

namespace {

using nlohmann::json;

std::string level_of(prove::Severity s) { return std::string(prove::severity_name(s)); }

// Forward slashes, no leading "./": SARIF artifact locations are URI references.
std::string uri_of(const std::string& path) {
  std::string u = path;
  for (char& c : u)
    if (c == '\\') c = '/';
  if (u.rfind("./", 0) == 0) u = u.substr(2);
  const bool absolute = !u.empty() && u.front() == '/';
  std::string out;
  for (char c : u) {
    // ':' too in a relative reference, whose first segment would otherwise read as a scheme
    // ("k.py:99 x.py" -> "k.py%3A99%20x.py", RFC 3986 section 4.2)
    if (c == ' ' || c == '%' || c == '#' || c == '?' || (c == ':' && !absolute)) {
      out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return absolute ? "file://" + out : out;  // an absolute path is a file URI; a relative one a URI reference
}

// The origin of the item's buffer or op (empty for kernel-level items).
std::string origin_of(const Item& it) {
  if (!it.model) return {};
  if (it.subject_kind == "buffer")
    if (const auto* b = it.model->find_buffer(it.subject)) return b->origin;
  if (it.subject_kind == "op")
    if (const auto* o = it.model->find_op(it.subject)) return o->origin;
  return {};
}

// "OWNER/NAME@COMMIT" of a model whose source names one repository and a commit, else "".
std::string repo_at_commit(const kernel::KernelModel& m) {
  const auto& s = m.source;
  if (!s.is_object() || !s.contains("commit") || !s["commit"].is_string() || !s.contains("repos") ||
      !s["repos"].is_array() || s["repos"].empty() || !s["repos"][0].is_string())
    return {};
  return s["repos"][0].get<std::string>() + "@" + s["commit"].get<std::string>();
}

}  // namespace

json sarif_log(const std::vector<Item>& items, const Summary& s, bool with_baseline) {
  json rules = json::array();
  std::map<std::string, std::size_t> rule_index;
  auto add_rule = [&](std::string_view id, std::string_view description, prove::Severity sev) {
    if (rule_index.count(std::string(id))) return;
    rule_index[std::string(id)] = rules.size();
    rules.push_back({{"id", std::string(id)},
                     {"name", std::string(id)},
                     {"shortDescription", {{"text", std::string(description)}}},
                     {"defaultConfiguration", {{"level", level_of(sev)}}},
                     {"help", {{"text", "docs/checks.md describes this check, its witness and its fix messages"}}}});
  };
  for (const auto& c : prove::checks()) add_rule(c.id, c.description, c.severity);
  for (const auto& c : kernel::kernel_checks()) add_rule(c.id, c.description, c.severity);
  for (const auto& it : items)
    if (it.input_error) add_rule(it.check, "the model or layout is bad input (see the message)", prove::Severity::kError);

  json results = json::array();
  std::map<std::string, std::string> base_ids;  // "OWNER/NAME@COMMIT" -> uriBaseId
  for (const auto& it : items) {
    const bool undecided = it.status == prove::Status::kUndecided;
    if (!it.failed() && !undecided) continue;
    std::string text = it.message;
    if (!it.witness.is_null() && it.status == prove::Status::kFail) text += " Witness: " + it.witness.dump() + ".";
    if (!it.fix.empty()) text += " Fix: " + it.fix + ".";
    const std::string kernel = it.model ? it.model->kernel : std::string();
    const json model_phys = {
        {"artifactLocation", {{"uri", uri_of(it.model ? it.model->path.string() : std::string())}}},
        {"region", {{"startLine", std::max(1, it.position.line)}, {"startColumn", std::max(1, it.position.column)}}}};
    const json logical = json::array({{{"name", it.subject},
                                       {"fullyQualifiedName", kernel + "/" + it.subject},
                                       {"kind", it.subject_kind == "kernel" ? "module" : "member"}}});
    json loc = {{"physicalLocation", model_phys}, {"logicalLocations", logical}};
    json related = json::array();
    // An item whose buffer or op records its kernel source line (origin "FILE.py:LINE ...")
    // points at that line; the model entry becomes a related location.
    if (const auto src = source_line_of(origin_of(it), it.model ? it.model->source : json())) {
      json artifact = {{"uri", uri_of(src->file)}};
      if (const std::string rc = repo_at_commit(*it.model); !rc.empty()) {
        auto [pos, added] = base_ids.try_emplace(rc, fmt::format("KERNEL_SOURCE_{}", base_ids.size()));
        (void)added;
        artifact["uriBaseId"] = pos->second;
      }
      json region = {{"startLine", src->line}};
      if (src->end_line > src->line) region["endLine"] = src->end_line;
      loc = {{"physicalLocation", {{"artifactLocation", artifact}, {"region", region}}},
             {"logicalLocations", logical}};
      related.push_back({{"id", 1}, {"physicalLocation", model_phys},
                         {"message", {{"text", "the " + it.subject_kind + "'s entry in the model file"}}}});
    }
    json r = {{"ruleId", it.check},
              {"ruleIndex", rule_index.at(it.check)},
              {"level", undecided ? std::string("note") : level_of(it.severity)},
              {"kind", undecided ? "open" : "fail"},
              {"message", {{"text", text}}},
              {"locations", json::array({loc})},
              {"partialFingerprints", {{"tirxVerifyKey/v1", it.key()}}},
              {"properties",
               {{"kernel", kernel}, {"subject_kind", it.subject_kind}, {"subject", it.subject}, {"witness", it.witness},
                {"fix", it.fix}, {"related", it.related}}}};
    if (!related.empty()) r["relatedLocations"] = related;
    if (with_baseline) r["baselineState"] = it.known ? "unchanged" : "new";
    if (it.known)
      r["suppressions"] = json::array({{{"kind", "external"}, {"justification", "listed in the tirx-verify baseline"}}});
    results.push_back(std::move(r));
  }
  json bases = json::object();
  for (const auto& [rc, id] : base_ids) {
    const auto at = rc.find('@');
    bases[id] = {{"uri", fmt::format("https://github.com/{}/blob/{}/", rc.substr(0, at), rc.substr(at + 1))},
                 {"description", {{"text", "the kernel repository " + rc.substr(0, at) + " at commit " +
                                               rc.substr(at + 1)}}}};
  }
  json run = {{"tool",
               {{"driver",
                 {{"name", kToolName}, {"version", kToolVersion}, {"semanticVersion", kToolVersion}, {"rules", rules}}}}},
              {"results", results},
              {"columnKind", "unicodeCodePoints"},
              {"properties",
               {{"kernels", s.kernels}, {"buffers", s.buffers}, {"ops", s.ops}, {"exit_code", exit_code(s)}}}};
  if (!bases.empty()) run["originalUriBaseIds"] = bases;
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", json::array({run})}};
}

json sarif_error_log(const std::string& check_id, const std::string& message) {
  const json notification = {{"level", "error"},
                             {"message", {{"text", message}}},
                             {"descriptor", {{"id", check_id}}}};
  const json run = {
      {"tool",
       {{"driver", {{"name", kToolName}, {"version", kToolVersion}, {"semanticVersion", kToolVersion}, {"rules", json::array()}}}}},
      {"invocations", json::array({{{"executionSuccessful", false},
                                    {"exitCode", 2},
                                    {"toolExecutionNotifications", json::array({notification})}}})},
      {"results", json::array()}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", json::array({run})}};
}

}  // namespace tirx::report
