// tirx_verify/report/junit.hpp — a run as JUnit XML, for test dashboards (Jenkins, GitLab, ctest
// consumers).
//
//   <testsuites name="tirx-verify" tests="..." failures="..." errors="..." skipped="..." time="...">
//     <testsuite name="KERNEL" tests=... failures=... errors=... skipped=... time=...>
//       <testcase classname="KERNEL.buffer.NAME" name="layout.injective" time="...">
//         <failure type="layout.injective" message="...">witness and fix</failure>
//       </testcase>
// One testcase per (kernel, buffer or op or kernel, check): pass = empty testcase; fail =
// <failure> (severity error, or the severities --fail-on makes fatal; lighter ones are passes
// with the finding in <system-out>); an input error = <error>; n/a, undecided and known
// (baseline) findings = <skipped> with the reason. Written with pugixml (escaping included).
#pragma once

#include <string>
#include <vector>

#include "tirx_verify/report/report.hpp"

namespace tirx::report {

std::string junit_xml(const std::vector<Item>& items, const Summary& s);
// The report of a run that stopped before any check ran: one suite "tirx-verify" with one test
// case "input" in error (type = the check id, message = the error), so CI still finds a file.
std::string junit_error_xml(const std::string& check_id, const std::string& message);

}  // namespace tirx::report
