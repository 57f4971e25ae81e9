// JUnit XML output (junit.hpp).
#include "tirx_verify/report/junit.hpp"

#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <pugixml.hpp>

namespace tirx::report {

namespace {

bool fatal(const Item& it, prove::Severity fail_on) {
  return static_cast<int>(it.severity) <= static_cast<int>(fail_on);
}

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double time = 0;
};

void set_counts(pugi::xml_node n, const Counts& c) {
  n.append_attribute("tests") = c.tests;
  n.append_attribute("failures") = c.failures;
  n.append_attribute("errors") = c.errors;
  n.append_attribute("skipped") = c.skipped;
  n.append_attribute("time") = fmt::format("{:.6f}", c.time).c_str();
}

// XML 1.0 carries no control character but tab, newline and carriage return, not even as a
// character reference: each other one (from a model's layout text, say) becomes U+FFFD.
std::string xml_safe(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (const char ch : in) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
      out += "\xEF\xBF\xBD";
    else
      out += ch;
  }
  return out;
}

// The XML declaration and the <testsuites name="tirx-verify"> root of a report.
pugi::xml_node start_document(pugi::xml_document& doc) {
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  pugi::xml_node root = doc.append_child("testsuites");
  root.append_attribute("name") = kToolName;
  return root;
}

std::string text_of(const pugi::xml_document& doc) {
  std::ostringstream os;
  doc.save(os, "  ", pugi::format_default, pugi::encoding_utf8);
  return os.str();
}

}  // namespace

std::string junit_xml(const std::vector<Item>& items, const Summary& s) {
  pugi::xml_document doc;
  pugi::xml_node root = start_document(doc);
  // Suites in kernel order of first appearance.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Item*>> by_kernel;
  for (const auto& it : items) {
    const std::string k = it.model ? it.model->kernel : std::string("(no kernel)");
    if (!by_kernel.count(k)) order.push_back(k);
    by_kernel[k].push_back(&it);
  }
  Counts total;
  std::vector<std::pair<pugi::xml_node, Counts>> suites;
  for (const auto& k : order) {
    pugi::xml_node suite = root.append_child("testsuite");
    suite.append_attribute("name") = xml_safe(k).c_str();
    Counts c;
    for (const Item* it : by_kernel[k]) {
      ++c.tests;
      c.time += it->seconds;
      pugi::xml_node tc = suite.append_child("testcase");
      tc.append_attribute("classname") = xml_safe(fmt::format("{}.{}.{}", k, it->subject_kind, it->subject)).c_str();
      tc.append_attribute("name") = xml_safe(it->check).c_str();
      tc.append_attribute("time") = fmt::format("{:.6f}", it->seconds).c_str();
      std::string detail = it->message;
      if (!it->witness.is_null()) detail += "\nwitness: " + it->witness.dump();
      if (!it->fix.empty()) detail += "\nfix: " + it->fix;
      if (it->input_error) {
        ++c.errors;
        pugi::xml_node e = tc.append_child("error");
        e.append_attribute("type") = it->check.c_str();
        e.append_attribute("message") = xml_safe(it->message).c_str();
        e.text() = xml_safe(detail).c_str();
      } else if (it->status == prove::Status::kFail && it->known) {
        ++c.skipped;
        tc.append_child("skipped").append_attribute("message") =
            xml_safe(fmt::format("known finding (baseline), {}: {}", prove::severity_name(it->severity), it->message))
                .c_str();
      } else if (it->status == prove::Status::kFail && fatal(*it, s.fail_on)) {
        ++c.failures;
        pugi::xml_node f = tc.append_child("failure");
        f.append_attribute("type") = it->check.c_str();
        f.append_attribute("message") =
            xml_safe(fmt::format("{}: {}", prove::severity_name(it->severity), it->message)).c_str();
        f.text() = xml_safe(detail).c_str();
      } else if (it->status == prove::Status::kFail) {
        tc.append_child("system-out").text() =
            xml_safe(fmt::format("{} (below --fail-on {}): {}", prove::severity_name(it->severity),
                                 prove::severity_name(s.fail_on), detail))
                .c_str();
      } else if (it->status == prove::Status::kUndecided || it->status == prove::Status::kNotApplicable) {
        ++c.skipped;
        tc.append_child("skipped").append_attribute("message") =
            xml_safe(fmt::format("{}: {}", prove::status_name(it->status), it->message)).c_str();
      }
    }
    set_counts(suite, c);
    total.tests += c.tests;
    total.failures += c.failures;
    total.errors += c.errors;
    total.skipped += c.skipped;
    total.time += c.time;
  }
  set_counts(root, total);
  return text_of(doc);
}

std::string junit_error_xml(const std::string& check_id, const std::string& message) {
  pugi::xml_document doc;
  pugi::xml_node root = start_document(doc);
  pugi::xml_node suite = root.append_child("testsuite");
  suite.append_attribute("name") = kToolName;
  pugi::xml_node tc = suite.append_child("testcase");
  tc.append_attribute("classname") = kToolName;
  tc.append_attribute("name") = "input";
  tc.append_attribute("time") = "0";
  pugi::xml_node e = tc.append_child("error");
  e.append_attribute("type") = xml_safe(check_id).c_str();
  e.append_attribute("message") = xml_safe(message).c_str();
  e.text() = xml_safe(message).c_str();
  Counts c;
  c.tests = 1;
  c.errors = 1;
  set_counts(suite, c);
  set_counts(root, c);
  return text_of(doc);
}

}  // namespace tirx::report
