// The text run report for people (report.hpp): a table of buffers and one of ops per kernel,
// each column a check that applies to something in that kernel, then the findings with their
// witnesses and fixes, then totals.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "tirx_verify/report/report.hpp"

namespace tirx::report {

namespace {

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

// A column header: the check id without the "layout." prefix every layout check shares.
std::string header(std::string_view id) {
  if (id.rfind("layout.", 0) == 0) id.remove_prefix(7);
  if (id.rfind("kernel.", 0) == 0) id.remove_prefix(7);
  return std::string(id);
}

// Names longer than `width` keep their start and end: "sparse_prefill_..._phase1".
std::string fit(const std::string& s, std::size_t width) {
  if (s.size() <= width) return s;
  const std::size_t keep = width - 2;
  return s.substr(0, keep - keep / 3) + ".." + s.substr(s.size() - keep / 3);
}

std::string plural(int n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

std::string severity_tag(const Item& it) {
  if (it.input_error) return "input error";
  if (it.status == prove::Status::kFail) return std::string(prove::severity_name(it.severity));
  return std::string(prove::status_name(it.status));
}

std::string item_line(const Item& it) {
  std::string out = fmt::format("  {}[{}] {} {}: {}: {}\n", it.known ? "(known) " : "", severity_tag(it),
                                it.subject_kind, it.subject, it.check, it.message);
  if (it.status == prove::Status::kFail && !it.witness.is_null())
    out += fmt::format("      witness: {}\n", it.witness.dump());
  if (it.failed() && !it.fix.empty()) out += fmt::format("      fix: {}\n", it.fix);
  return out;
}

}  // namespace

std::string render_run_text(const std::vector<kernel::KernelReport>& ks, const std::vector<Item>& items,
                            const Summary& s, bool verbose) {
  std::string out;
  for (const auto& k : ks) {
    std::vector<const Item*> mine;
    for (const auto& it : items)
      if (it.model == k.model) mine.push_back(&it);
    out += fmt::format("== {} ({}, {}, {})\n", k.model->kernel, plural(static_cast<int>(k.buffers.size()), "buffer", "buffers"),
                       plural(static_cast<int>(k.model->ops.size()), "op", "ops"), k.model->path.string());
    // Columns: checks that apply (are not n/a) to some subject of this kind in this kernel.
    auto columns = [&](const std::string& kind) {
      std::vector<std::string> ids;
      std::set<std::string> seen;
      for (const Item* it : mine)
        if (it->subject_kind == kind && !it->input_error && it->status != prove::Status::kNotApplicable &&
            seen.insert(it->check).second)
          ids.push_back(it->check);
      return ids;
    };
    // The mark of every (kind, check, subject) cell, in one pass over the kernel's items: the
    // first item sets it, a failed one overrides it; a failed finding about a pair
    // (kernel.overlap) marks its related subjects too.
    std::map<std::tuple<std::string, std::string, std::string>, std::string> marks;
    for (const Item* it : mine) {
      auto put = [&](const std::string& subject) {
        std::string& m = marks[{it->subject_kind, it->check, subject}];
        if (m.empty() || it->failed()) m = std::string(mark(it->status)) + (it->known && it->failed() ? "*" : "");
      };
      put(it->subject);
      if (it->failed())
        for (const auto& r : it->related)
          if (r != it->subject) put(r);
    }
    auto row_marks = [&](const std::string& kind, const std::string& subject, const std::vector<std::string>& ids) {
      std::string row;
      for (const auto& id : ids) {
        const auto m = marks.find({kind, id, subject});
        row += fmt::format(" {:>{}}", m == marks.end() ? std::string() : m->second, header(id).size());
      }
      return row;
    };
    {
      std::size_t nw = 6, sw = 5, dw = 5;
      for (const auto& b : k.buffers) {
        nw = std::max(nw, std::min<std::size_t>(b.buffer->name.size(), 40));
        sw = std::max(sw, shape_str(b.buffer->shape).size());
        dw = std::max(dw, b.buffer->dtype.size());
      }
      const auto ids = columns("buffer");
      out += fmt::format("  {:<{}} {:<10} {:<{}} {:<{}}", "buffer", nw, "scope", "shape", sw, "dtype", dw);
      for (const auto& id : ids) out += " " + header(id);
      out += "\n";
      for (const auto& b : k.buffers) {
        out += fmt::format("  {:<{}} {:<10} {:<{}} {:<{}}", fit(b.buffer->name, nw), nw, b.buffer->scope,
                           shape_str(b.buffer->shape), sw, b.buffer->dtype, dw);
        out += b.error ? fmt::format(" error[{}]", b.error->check_id()) : row_marks("buffer", b.buffer->name, ids);
        out += "\n";
        if (verbose && !b.error) out += fmt::format("      layout: {}\n", b.resolved);
      }
    }
    if (!k.model->ops.empty()) {
      std::size_t nw = 2, kw = 4;
      for (const auto& op : k.model->ops) {
        nw = std::max(nw, std::min<std::size_t>(op.name.size(), 40));
        kw = std::max(kw, op.kind.size());
      }
      const auto ids = columns("op");
      out += fmt::format("  {:<{}} {:<{}} {:<12}", "op", nw, "kind", kw, "warps");
      for (const auto& id : ids) out += " " + header(id);
      out += "\n";
      for (const auto& op : k.model->ops) {
        std::string warps;
        for (int w : op.warps) warps += fmt::format("{}{}", warps.empty() ? "" : ",", w);
        out += fmt::format("  {:<{}} {:<{}} {:<12}", fit(op.name, nw), nw, op.kind, kw,
                           warps.empty() ? "-" : fit(warps, 12));
        out += row_marks("op", op.name, ids) + "\n";
      }
    }
    for (const Item* it : mine)
      if (it->failed() || it->status == prove::Status::kUndecided || verbose) out += item_line(*it);
    out += "\n";
  }
  out += "== checks\n";
  std::size_t w = 0;
  for (const auto& [id, m] : s.by_check) w = std::max(w, id.size());
  for (const auto& [id, m] : s.by_check) {
    out += fmt::format("  {:<{}}", id, w);
    for (const auto& [st, n] : m) out += fmt::format(" {}={}", st, n);
    out += "\n";
  }
  auto count = [](const std::map<std::string, int>& m, const char* sev) { return m.count(sev) ? m.at(sev) : 0; };
  out += fmt::format("\nSUMMARY: {}, {}, {}: buffer layouts {} verified, {} with findings, {} undecided, {} input errors\n",
                     plural(s.kernels, "kernel", "kernels"), plural(s.buffers, "buffer", "buffers"),
                     plural(s.ops, "op", "ops"), s.verified, s.with_findings, s.undecided, s.errors);
  out += fmt::format("         findings: {} errors, {} warnings, {} notes", count(s.new_by_severity, "error"),
                     count(s.new_by_severity, "warning"), count(s.new_by_severity, "note"));
  if (s.known)
    out += fmt::format(" new; {} known from the baseline ({} errors, {} warnings, {} notes; marked (known) and * above)",
                       s.known, count(s.known_by_severity, "error"), count(s.known_by_severity, "warning"),
                       count(s.known_by_severity, "note"));
  if (s.baseline_unmatched) out += fmt::format("; {} baseline entries no longer found", s.baseline_unmatched);
  out += fmt::format("; fail on {} and above", prove::severity_name(s.fail_on));
  if (s.seconds > 0) out += fmt::format("; checked in {:.3f} s", s.seconds);
  out += "\n";
  return out;
}

}  // namespace tirx::report
