// Baselines (baseline.hpp).
#include "tirx_verify/report/baseline.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace tirx::report {

namespace {

using nlohmann::json;

std::string key_of(const json& e) {
  std::string k = e.at("kernel").get<std::string>() + "|" + e.at("subject_kind").get<std::string>() + "|" +
                  e.at("subject").get<std::string>() + "|" + e.at("check").get<std::string>();
  if (e.contains("related"))
    for (const auto& r : e.at("related")) k += "|" + r.get<std::string>();
  return k;
}

const std::set<std::string> kEntryKeys = {"kernel", "subject_kind", "subject", "check",
                                          "related", "severity",     "message", "judgement"};

// True when a is more severe than b (error > warning > note).
bool more_severe(prove::Severity a, prove::Severity b) { return static_cast<int>(a) < static_cast<int>(b); }

[[noreturn]] void bad(const std::string& origin, const std::string& what) {
  throw InputError("baseline.file", fmt::format("{}: {}", origin, what), {}, std::nullopt,
                   "write a baseline with `tirx-verify run ... --write-baseline FILE` (docs/ci.md)");
}

}  // namespace

json baseline_json(const std::vector<Item>& items) {
  std::vector<std::pair<std::string, json>> entries;
  for (const auto& it : items) {
    if (it.input_error || it.status != prove::Status::kFail || !it.model) continue;
    entries.emplace_back(it.key(), json{{"kernel", it.model->kernel},
                                        {"subject_kind", it.subject_kind},
                                        {"subject", it.subject},
                                        {"check", it.check},
                                        {"related", it.related},
                                        {"severity", std::string(prove::severity_name(it.severity))},
                                        {"message", it.message}});
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  entries.erase(std::unique(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
                entries.end());
  json list = json::array();
  for (auto& [k, e] : entries) list.push_back(std::move(e));
  return {{"format", kBaselineFormat}, {"tool", kToolName}, {"findings", list}};
}

Baseline parse_baseline(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    bad(origin, fmt::format("not valid JSON ({})", e.what()));
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != kBaselineFormat || !j.contains("findings") ||
      !j["findings"].is_array())
    bad(origin, fmt::format("$ must be {{\"format\": {}, \"findings\": [...]}}", kBaselineFormat));
  Baseline b;
  for (std::size_t i = 0; i < j["findings"].size(); ++i) {
    const json& e = j["findings"][i];
    for (const char* key : {"kernel", "subject_kind", "subject", "check"})
      if (!e.is_object() || !e.contains(key) || !e[key].is_string())
        bad(origin, fmt::format("$.findings[{}].{} must be a string", i, key));
    if (e.contains("related") &&
        (!e["related"].is_array() || !std::all_of(e["related"].begin(), e["related"].end(),
                                                  [](const json& r) { return r.is_string(); })))
      bad(origin, fmt::format("$.findings[{}].related must be an array of strings", i));
    for (auto it = e.begin(); it != e.end(); ++it)
      if (!kEntryKeys.count(it.key()))
        bad(origin, fmt::format("$.findings[{}] has an unknown key '{}' (known: kernel, subject_kind, subject, check, "
                                "related, severity, message, judgement)",
                                i, it.key()));
    prove::Severity accepted = prove::Severity::kError;  // no severity: any finding
    if (e.contains("severity")) {
      const json& sv = e["severity"];
      if (!sv.is_string() || (sv != "error" && sv != "warning" && sv != "note"))
        bad(origin, fmt::format("$.findings[{}].severity must be \"error\", \"warning\" or \"note\"", i));
      accepted = prove::parse_severity(sv.get<std::string>());
    }
    auto [slot, fresh] = b.keys.emplace(key_of(e), accepted);
    if (!fresh && more_severe(accepted, slot->second)) slot->second = accepted;
  }
  return b;
}

int apply_baseline(const Baseline& b, std::vector<Item>& items) {
  std::set<std::string> matched;
  for (auto& it : items) {
    if (it.input_error || it.status != prove::Status::kFail) continue;
    const std::string k = it.key();
    const auto entry = b.keys.find(k);
    if (entry == b.keys.end()) continue;
    matched.insert(k);  // the entry still describes this subject, even when the finding outgrew it
    if (!more_severe(it.severity, entry->second)) it.known = true;
  }
  return static_cast<int>(b.keys.size() - matched.size());
}

}  // namespace tirx::report
