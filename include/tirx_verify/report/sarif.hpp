// tirx_verify/report/sarif.hpp — a run as a SARIF 2.1.0 log, for code-scanning dashboards.
//
// One run; the tool's driver names tirx-verify with its version and lists one rule per check id
// (layout and kernel checks, and the input-error ids a result uses) with its one-line
// description and default level. One result per failed or undecided item:
//   ruleId / ruleIndex   the check id and its index in the rules
//   level                error | warning | note (the finding's severity; undecided: note)
//   kind                 fail (a finding), open (undecided)
//   message.text         the finding's message, then the witness (JSON) and the fix
//   locations            physicalLocation: the kernel source line when the buffer's or op's
//                        `origin` starts with "FILE.py:LINE" (source_location.hpp: the file as
//                        a path of the kernel repository; with a uriBaseId KERNEL_SOURCE_n that
//                        run.originalUriBaseIds maps to https://github.com/OWNER/NAME/blob/COMMIT/
//                        when the model's source names its repository and commit), else the
//                        model file, line/column of the buffer's or op's JSON object;
//                        logicalLocations: kernel/subject (kind "member", the kernel as parent)
//   relatedLocations     with a source-line location: id 1, the model file position
//   partialFingerprints  {"tirxVerifyKey/v1": the baseline key}: stable across runs
//   baselineState        "unchanged" for a finding the baseline knows, else "new" (only with
//                        --baseline); known findings also carry an external suppression
//   properties           kernel, subject_kind, subject, witness, fix, related
// (SARIF 2.1.0, OASIS Standard, sections 3.13 sarifLog, 3.14 run, 3.18 tool, 3.19 toolComponent,
// 3.49 reportingDescriptor, 3.27 result, 3.28 location, 3.29 physicalLocation, 3.30 region,
// 3.14.14 originalUriBaseIds, 3.27.22 relatedLocations.)
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "tirx_verify/report/report.hpp"

namespace tirx::report {

// with_baseline: the run used a baseline (results get baselineState).
nlohmann::json sarif_log(const std::vector<Item>& items, const Summary& s, bool with_baseline);

// The log of a run that stopped before any check ran (a model file that does not load, a bad
// option): one run with no results, its invocation marked unsuccessful and one error
// notification carrying the check id (descriptor.id) and the message (SARIF 2.1.0 §3.20
// invocation, §3.58 notification), so a dashboard that expects the file still gets one.
nlohmann::json sarif_error_log(const std::string& check_id, const std::string& message);

}  // namespace tirx::report
