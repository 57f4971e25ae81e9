// tirx-verify/report/baseline.hpp — the findings a project has accepted, so CI gates on new ones.
//
//   tirx-verify run models/kernels --write-baseline tirx-baseline.json    accept today's findings
//   tirx-verify run models/kernels --baseline tirx-baseline.json          report them as known;
//                                                                          fail only on new ones
//
// A baseline file (format 1):
//   {"format": 1, "tool": "tirx-verify",
//    "findings": [{"kernel": "nvfp4_gemm", "subject_kind": "buffer", "subject": "reg_all/ldst_frag",
//                  "check": "layout.bounds", "related": [], "severity": "warning",
//                  "message": "m = 255 for element [24,249] is outside [0, 255) ..."}]}
// Entries match items by kernel, subject kind and name, check id and related subjects — never by
// the message or the numbers in it, which may move when a layout changes slightly (the message is
// kept for the reader) — and only up to the entry's severity: a finding more severe than the one
// accepted (a warning accepted, an error found) is new. An entry without "severity" accepts any.
// Keys allowed in an entry: kernel, subject_kind, subject, check, related, severity, message,
// judgement (the triage note a human wrote). Input errors are never baselined: a model that does
// not load is fixed, not accepted.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tirx_verify/report/report.hpp"

namespace tirx::report {

inline constexpr int kBaselineFormat = 1;

struct Baseline {
  // Item::key() of every entry -> the most severe finding it accepts.
  std::map<std::string, prove::Severity> keys;
};

// The baseline of every failed item (input errors excepted), sorted by key.
nlohmann::json baseline_json(const std::vector<Item>& items);
// Reads a baseline file's text. Throws InputError("baseline.file") naming the JSON path for a file
// that is not a format-1 baseline (an unknown key or severity included).
Baseline parse_baseline(const std::string& text, const std::string& origin);
// Marks the items the baseline lists, at or below the listed severity, as known; returns how
// many entries matched no item.
int apply_baseline(const Baseline& b, std::vector<Item>& items);

}  // namespace tirx::report
