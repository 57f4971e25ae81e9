// tirx-verify audit's sweep (prove/audit.hpp): every argument set of a factory, every check,
// failures grouped by cause with the smallest argument set of each group.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/audit.hpp"

namespace tirx::prove {

namespace {

// Smaller = simpler: the smaller sum of the numeric arguments, then lexicographic.
bool smaller(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  const std::int64_t sa = std::accumulate(a.begin(), a.end(), std::int64_t{0});
  const std::int64_t sb = std::accumulate(b.begin(), b.end(), std::int64_t{0});
  if (sa != sb) return sa < sb;
  return a < b;
}

// Digits runs -> '#', and a JSON object in the message (a cell such as {"TCol":0,"TLane":4})
// -> "{...}": which axes a cell names follows from the arguments (a layout without TCol
// iters has no TCol in its cell), not from the cause.
std::string digits_to_hash(std::string_view s) {
  std::string out;
  bool in_number = false;
  int depth = 0;
  for (char c : s) {
    if (c == '{' && depth++ == 0) out += "{...}";
    if (depth > 0) {
      if (c == '}') --depth;
      in_number = false;
      continue;
    }
    const bool digit = c >= '0' && c <= '9';
    if (digit && !in_number) out += '#';
    else if (!digit) out += c;
    in_number = digit;
  }
  return out;
}

constexpr std::size_t kExamples = 8;

struct Grouper {
  std::vector<AuditGroup> groups;

  void add(const AuditCase& c, const AuditSubject& s, const CheckResult& r) {
    const std::string cause = audit_cause(r);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const AuditGroup& g) {
      return g.check == r.id && g.status == r.status && g.cause == cause;
    });
    if (it == groups.end()) {
      AuditGroup g;
      g.check = r.id;
      g.status = r.status;
      g.severity = r.severity;
      g.cause = cause;
      groups.push_back(std::move(g));
      it = groups.end() - 1;
    }
    ++it->count;
    if (it->examples.size() < kExamples && (it->examples.empty() || it->examples.back() != c.call))
      it->examples.push_back(c.call);
    if (it->smallest.empty() || smaller(c.size, it->smallest_size)) {
      it->smallest = c.call;
      it->smallest_size = c.size;
      it->role = s.role;
      it->command = s.command;
      it->result = r;
    }
  }
};

}  // namespace

std::string audit_cause(const CheckResult& r) {
  std::string cause = digits_to_hash(r.message);
  if (r.id == "layout.injective" && r.witness.is_object() && r.witness.contains("a") && r.witness.contains("b")) {
    const auto& a = r.witness["a"];
    const auto& b = r.witness["b"];
    if (a.contains("logical") && b.contains("logical") && a["logical"].is_array() && b["logical"].is_array() &&
        a["logical"].size() == b["logical"].size()) {
      std::string dims;
      for (std::size_t i = 0; i < a["logical"].size(); ++i)
        if (a["logical"][i] != b["logical"][i]) dims += (dims.empty() ? "" : ",") + std::to_string(i);
      cause += "; differing dims " + (dims.empty() ? std::string("none") : dims);
    }
  }
  return cause;
}

std::vector<AuditFactoryReport> run_audit(const AuditContext& ctx, const std::vector<std::string>& names) {
  std::vector<const AuditFactory*> todo;
  if (names.empty()) {
    for (const AuditFactory& f : audit_factories()) todo.push_back(&f);
  } else {
    for (const std::string& n : names) {
      const AuditFactory* f = find_audit_factory(n);
      if (!f) {
        std::string known;
        for (const AuditFactory& g : audit_factories()) known += (known.empty() ? "" : ", ") + std::string(g.name);
        throw InputError("cli.usage", fmt::format("unknown factory '{}' (audited: {})", n, known), n, 0);
      }
      if (std::find(todo.begin(), todo.end(), f) == todo.end()) todo.push_back(f);
    }
  }
  std::vector<AuditFactoryReport> out;
  std::string stopped;  // once the budget has run out, every later factory says so
  for (const AuditFactory* f : todo) {
    AuditFactoryReport rep;
    rep.name = std::string(f->name);
    rep.space = std::string(f->space);
    if (!stopped.empty()) {
      rep.stopped = stopped;
      out.push_back(std::move(rep));
      continue;
    }
    Grouper fails, undecided;
    const Budget* budget = ctx.limits.budget;
    try {
      f->cases(ctx, [&](AuditCase c) {
        check_time(budget, [&] { return fmt::format("audit of {}, {} argument sets", f->name, rep.argument_sets); });
        bool failed = false, open = false;
        for (const AuditSubject& s : c.subjects) {
          ++rep.subjects;
          if (!s.input) {
            CheckResult r;
            r.id = "layout.well-formed";
            r.status = Status::kFail;
            r.engine = "factory";
            r.message = "the factory rejects the arguments: " + s.rejected;
            fails.add(c, s, r);
            failed = true;
            continue;
          }
          for (const CheckResult& r : run_all(*s.input)) {
            if (r.status == Status::kFail) {
              fails.add(c, s, r);
              failed = true;
            } else if (r.status == Status::kUndecided) {
              // A budget that ran out inside a check ends the sweep here: the rest would be too.
              if (budget && budget->expired())
                throw BudgetExceeded(BudgetKind::kTime, budget->time_text(),
                                     fmt::format("audit of {}, {} argument sets", f->name, rep.argument_sets));
              undecided.add(c, s, r);
              open = true;
            }
          }
        }
        ++rep.argument_sets;
        if (failed) ++rep.failing_sets;
        else if (open) ++rep.undecided_sets;
      });
    } catch (const BudgetExceeded& e) {
      stopped = e.describe("audit");
      rep.stopped = stopped;
    }
    rep.groups = std::move(fails.groups);
    for (AuditGroup& g : undecided.groups) rep.groups.push_back(std::move(g));
    out.push_back(std::move(rep));
  }
  return out;
}

}  // namespace tirx::prove
