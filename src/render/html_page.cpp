#include "tirx_verify/render/html.hpp"

#include <map>
#include <mutex>
#include <sstream>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/buffer_input.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/render/palette.hpp"
#include "tirx_verify/render/svg.hpp"
#include "tirx_verify/render/views.hpp"

namespace tirx::render {

namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:1.5em;color:#111}"
    "table{border-collapse:collapse;margin:0.5em 0}"
    "td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top;font-size:13px}"
    "th{background:#eee}code,pre{font-family:monospace;font-size:12px}"
    "pre{background:#f6f6f6;padding:6px;overflow:auto;max-height:20em}"
    ".finding{border-left:4px solid #999;padding:4px 10px;margin:10px 0}"
    ".error{border-color:#c00018}.warning{border-color:#d08000}.note{border-color:#2060c0}"
    ".known{opacity:0.75}.picture{overflow:auto;max-width:100%}"
    ".pass{color:#176b1b}.fail{color:#c00018}.undecided{color:#a06000}";

pugi::xml_node el(pugi::xml_node parent, const char* name, const std::string& text = {}, const char* cls = nullptr) {
  pugi::xml_node n = parent.append_child(name);
  if (cls) n.append_attribute("class") = cls;
  if (!text.empty()) n.text() = text.c_str();
  return n;
}

void row(pugi::xml_node table, const std::vector<std::string>& cells, const char* tag = "td") {
  pugi::xml_node tr = table.append_child("tr");
  for (const auto& c : cells) el(tr, tag, c);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string shape_of(const std::vector<std::int64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

const hw::Target& target_of(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, hw::Target> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, hw::load_target(name)).first;
  return it->second;
}

// The buffer's check result for `check`, when the item is a buffer's layout check.
const prove::CheckResult* result_of(const kernel::KernelReport& k, const report::Item& it,
                                    const kernel::BufferReport** br) {
  if (it.subject_kind != "buffer") return nullptr;
  for (const auto& b : k.buffers)
    if (b.buffer && b.buffer->name == it.subject)
      for (const auto& r : b.results)
        if (r.id == it.check && r.status == prove::Status::kFail) {
          *br = &b;
          return &r;
        }
  return nullptr;
}

}  // namespace

std::string html_report(const std::vector<kernel::KernelReport>& ks, const std::vector<report::Item>& items,
                        const report::Summary& s, const HtmlOptions& opt) {
  pugi::xml_document doc;
  doc.append_child(pugi::node_doctype).set_value("html");
  pugi::xml_node html = doc.append_child("html");
  html.append_attribute("lang") = "en";
  pugi::xml_node head = html.append_child("head");
  head.append_child("meta").append_attribute("charset") = "utf-8";
  el(head, "title", fmt::format("{} report", report::kToolName));
  el(head, "style", kStyle);
  pugi::xml_node body = html.append_child("body");
  el(body, "h1", fmt::format("{} {} report", report::kToolName, report::kToolVersion));

  // ---- summary ----
  pugi::xml_node sum = el(body, "table");
  sum.append_attribute("id") = "summary";
  row(sum, {"kernels", "buffers", "ops", "buffers verified", "buffers with findings", "undecided", "input errors",
            "exit code"},
      "th");
  row(sum, {std::to_string(s.kernels), std::to_string(s.buffers), std::to_string(s.ops), std::to_string(s.verified),
            std::to_string(s.with_findings), std::to_string(s.undecided), std::to_string(s.errors),
            std::to_string(report::exit_code(s))});
  pugi::xml_node sev = el(body, "table");
  row(sev, {"severity", "new findings", "known (baseline)"}, "th");
  for (const char* name : {"error", "warning", "note"}) {
    auto get = [&](const std::map<std::string, int>& m) {
      const auto i = m.find(name);
      return std::to_string(i == m.end() ? 0 : i->second);
    };
    row(sev, {name, get(s.new_by_severity), get(s.known_by_severity)});
  }
  pugi::xml_node by = el(body, "table");
  row(by, {"check", "pass", "fail", "undecided", "n/a"}, "th");
  for (const auto& [id, m] : s.by_check) {
    auto get = [&](const char* k) {
      const auto i = m.find(k);
      return std::to_string(i == m.end() ? 0 : i->second);
    };
    row(by, {id, get("pass"), get("fail"), get("undecided"), get("n/a")});
  }

  // ---- kernels ----
  pugi::xml_node toc = el(body, "p", "kernels: ");
  for (const auto& k : ks)
    if (k.model) {
      pugi::xml_node a = el(toc, "a", k.model->kernel);
      a.append_attribute("href") = ("#kernel-" + k.model->kernel).c_str();
      toc.append_child(pugi::node_pcdata).set_value(" ");
    }
  std::int64_t pictures = 0;
  for (const auto& k : ks) {
    if (!k.model) continue;
    pugi::xml_node sec = el(body, "section");
    sec.append_attribute("id") = ("kernel-" + k.model->kernel).c_str();
    el(sec, "h2", k.model->kernel);
    el(sec, "p", fmt::format("{} — target {}", k.model->path.string(), k.model->target));
    el(sec, "h3", "Buffers");
    pugi::xml_node bt = el(sec, "table");
    row(bt, {"buffer", "scope", "shape", "dtype", "layout", "verdict"}, "th");
    for (const auto& b : k.buffers) {
      if (!b.buffer) continue;
      int fails = 0, undecided = 0;
      for (const auto& r : b.results) fails += r.status == prove::Status::kFail, undecided += r.status == prove::Status::kUndecided;
      pugi::xml_node tr = bt.append_child("tr");
      el(tr, "td", b.buffer->name);
      el(tr, "td", b.buffer->scope);
      el(tr, "td", b.buffer->shape.empty() ? "-" : shape_of(b.buffer->shape));
      el(tr, "td", b.buffer->dtype.empty() ? "-" : b.buffer->dtype);
      el(el(tr, "td"), "code", b.buffer->layout);
      const std::string verdict = b.error        ? "input error: " + b.error->message()
                                  : fails        ? fmt::format("{} failed check(s)", fails)
                                  : undecided    ? fmt::format("{} undecided", undecided)
                                                 : "pass";
      el(tr, "td", verdict, b.error || fails ? "fail" : undecided ? "undecided" : "pass");
    }
    if (!k.model->ops.empty()) {
      pugi::xml_node det = el(sec, "details");
      el(det, "summary", fmt::format("Ops ({})", k.model->ops.size()));
      pugi::xml_node ot = el(det, "table");
      row(ot, {"op", "kind", "reads", "writes"}, "th");
      for (const auto& op : k.model->ops) row(ot, {op.name, op.kind, join(op.reads), join(op.writes)});
    }
    el(sec, "h3", "Findings");
    int shown = 0;
    for (const auto& it : items) {
      if (it.model != k.model || !(it.failed() || it.status == prove::Status::kUndecided)) continue;
      ++shown;
      const std::string sevname =
          it.input_error ? "error" : it.status == prove::Status::kUndecided ? "note" : std::string(prove::severity_name(it.severity));
      pugi::xml_node f = el(sec, "div");
      f.append_attribute("class") = ("finding " + sevname + (it.known ? " known" : "")).c_str();
      el(f, "h4",
         fmt::format("[{}] {} — {} {}{}{}", it.input_error ? "input error" : std::string(prove::status_name(it.status)) + ", " + sevname,
                     it.check, it.subject_kind, it.subject, it.related.empty() ? "" : " (with " + join(it.related) + ")",
                     it.known ? " — known (baseline)" : ""));
      el(f, "p", it.message);
      if (!it.fix.empty()) el(f, "p", "fix: " + it.fix);
      if (!it.witness.is_null()) {
        pugi::xml_node d = el(f, "details");
        d.append_attribute("open") = "open";
        el(d, "summary", "witness");
        el(d, "pre", it.witness.dump());
      }
      const kernel::BufferReport* br = nullptr;
      const prove::CheckResult* r = result_of(k, it, &br);
      prove::CheckResult kernel_result;  // a kernel check about a buffer: drawn on that buffer
      if (!r && it.subject_kind == "buffer" && it.status == prove::Status::kFail)
        for (const auto& b : k.buffers)
          if (b.buffer && b.buffer->name == it.subject && !b.error) {
            br = &b;
            kernel_result.id = it.check;
            kernel_result.status = it.status;
            kernel_result.message = it.message;
            kernel_result.witness = it.witness;
            r = &kernel_result;
          }
      const bool op_banks = !r && it.check == "smem.bank-conflicts" && it.witness.is_object() &&
                            it.witness.contains("addresses") && it.witness["addresses"].is_array();
      if (!r && !op_banks) {
        el(f, "p", "(findings about an op or the kernel are not drawn yet: the witness above says where)");
        continue;
      }
      if (pictures >= opt.max_pictures) {
        el(f, "p", fmt::format("(picture limit of {} reached)", opt.max_pictures));
        continue;
      }
      try {
        const hw::Target& target = target_of(k.model->target);
        prove::EngineLimits limits;
        limits.budget = opt.budget;
        RenderOptions ro;
        ro.max_rows = ro.max_cols = opt.picture_cells;
        Grid g;
        if (op_banks) {  // an op's worst instruction on the banks (its access width is not in the witness)
          prove::CheckInput in;
          in.target = &target;
          in.machine = prove::machine_limits(target);
          in.limits = limits;
          prove::CheckResult kr;
          kr.id = it.check;
          kr.status = it.status;
          kr.message = it.message;
          kr.witness = it.witness;
          g = build_finding(in, kr, ro);
        } else {
          const prove::CheckInput in = kernel::buffer_check_input(*br->buffer, *k.model, target, limits);
          g = build_finding(in, *r, ro);
        }
        append_svg(el(f, "div", {}, "picture"), g);
        ++pictures;
      } catch (const InputError& e) {
        el(f, "p", fmt::format("(no picture: [{}] {})", e.check_id(), e.message()));
      }
    }
    if (!shown) el(sec, "p", "no findings", "pass");
  }
  std::ostringstream out;
  doc.save(out, "", pugi::format_raw | pugi::format_no_declaration);
  out << "\n";
  return out.str();
}

}  // namespace tirx::render
