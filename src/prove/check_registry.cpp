// The one list of checks. Add a check here and nowhere else; never rename an id.
#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/prove/run_check.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::prove {

std::string_view status_name(Status s) {
  switch (s) {
    case Status::kPass: return "pass";
    case Status::kFail: return "fail";
    case Status::kUndecided: return "undecided";
    case Status::kNotApplicable: return "n/a";
  }
  return "?";
}

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "?";
}

Severity parse_severity(std::string_view s) {
  if (s == "error") return Severity::kError;
  if (s == "warning") return Severity::kWarning;
  if (s == "note") return Severity::kNote;
  throw InputError("cli.usage", fmt::format("unknown severity '{}'", s), {}, std::nullopt,
                   "use one of error, warning, note");
}

Scope parse_scope(std::string_view s) {
  if (s == "shared" || s == "shared.dyn") return Scope::kShared;
  if (s == "global") return Scope::kGlobal;
  if (s == "tmem") return Scope::kTmem;
  if (s == "local") return Scope::kLocal;
  if (s == "unknown" || s.empty()) return Scope::kUnknown;
  throw InputError("layout.well-formed", fmt::format("unknown storage scope '{}'", s), {}, std::nullopt,
                   "use one of shared, shared.dyn, global, tmem, local");
}

std::string_view scope_name(Scope s) {
  switch (s) {
    case Scope::kShared: return "shared";
    case Scope::kGlobal: return "global";
    case Scope::kTmem: return "tmem";
    case Scope::kLocal: return "local";
    default: return "unknown";
  }
}

const std::vector<CheckInfo>& checks() {
  static const std::vector<CheckInfo> kChecks = {
      {"layout.syntax", "the layout text parses", "byte offset of the offending token", Severity::kError, nullptr},
      {"layout.well-formed",
       "extents >= 1, known axes, stride list matches extents, no overflow, shape product = layout size, "
       "axes fit the storage scope",
       "the offending iter or the two sizes", Severity::kError, check_well_formed},
      {"layout.injective",
       "no two logical elements (replica copies included) share a storage cell",
       "both logical coordinates with replica indices, and the shared cell", Severity::kError, check_injective},
      {"layout.bounds",
       "every coordinate is inside its axis range (TLane, TCol, laneid, wid_in_wg, tid_in_wg, m, ...)",
       "the element, its coordinate and the allowed range", Severity::kError, check_bounds},
      {"layout.equivalent",
       "two layouts are the same map on a shape: every element has the same set of images (replicas as sets)",
       "the first differing element and its image sets under both layouts", Severity::kError, check_equivalent},
      {"swizzle.legal",
       "S >= B; per_element is one 16-byte vector of the dtype; swizzle direction exists in hardware",
       "the parameters and the expected per_element", Severity::kError, check_swizzle_legal},
      {"tmem.alloc",
       "TMEM allocation is a power of two in [32, 512] columns and holds the layout's column span",
       "allocated and needed 32-bit columns", Severity::kError, check_tmem_alloc},
      {"tmem.partition",
       "each element a warp holds (--access fragment) lies in that warp's 32-lane TMEM sub-partition",
       "the element, its thread and warp, its lanes and the lanes the warp may access", Severity::kError,
       check_tmem_partition},
      {"tmem.datapath",
       "the tcgen05.ld/st issues for (data path, fragment) - row immediate included - move every element to the "
       "register the fragment names",
       "the element, the layout's cell and the instruction's cell", Severity::kError, check_tmem_datapath},
      {"smem.bank-conflicts",
       "every warp-wide shared-memory access of the --access fragment takes the ideal number of wavefronts",
       "the warp, instruction, wavefronts vs ideal, and the phase, bank and threads that collide",
       Severity::kWarning, check_bank_conflicts},
  };
  return kChecks;
}

const CheckInfo* find_check(std::string_view id) {
  for (const auto& c : checks())
    if (c.id == id) return &c;
  return nullptr;
}

namespace {

CheckResult run_guarded(const CheckInfo& c, const CheckInput& in) {
  Stopwatch sw;
  CheckResult r;
  try {
    try {
      r = c.run(in);
    } catch (const std::bad_alloc&) {
      throw out_of_memory(in.limits.budget, "checking");
    } catch (const std::length_error&) {  // a std::vector larger than max_size()
      const char* what = "checking (a structure too large to allocate)";
      throw out_of_memory(in.limits.budget, what);
    }
    if (r.status == Status::kFail && r.severity == Severity::kError) r.severity = c.severity;
  } catch (const InputError& e) {
    r.id = std::string(c.id);
    r.status = Status::kFail;
    r.message = fmt::format("[{}] {}", e.check_id(), e.message());
    r.engine = "error";
  } catch (const BudgetExceeded& e) {
    r = budget_result(c.id, e);
  }
  r.seconds = sw.seconds();
  return r;
}

}  // namespace

std::vector<CheckResult> run_all(const CheckInput& in) {
  std::vector<CheckResult> out;
  for (const auto& c : checks()) {
    if (!c.run) continue;
    out.push_back(run_guarded(c, in));
    // Nothing else is meaningful on a layout that is not well-formed.
    if (c.id == "layout.well-formed" && out.back().status == Status::kFail) break;
  }
  return out;
}

CheckResult run_check(std::string_view id, const CheckInput& in) {
  const CheckInfo* c = find_check(id);
  if (!c || !c->run) throw InputError("cli.usage", fmt::format("'{}' is not a check that runs on a layout", id));
  return run_guarded(*c, in);
}

CheckResult budget_result(std::string_view id, const BudgetExceeded& e) {
  CheckResult r;
  r.id = std::string(id);
  r.status = Status::kUndecided;
  r.engine = "budget";
  r.message = e.describe(id);
  r.witness = {{"budget", e.kind() == BudgetKind::kTime ? "time" : "memory"}, {"limit", e.limit()}, {"where", e.where()}};
  return r;
}

std::vector<std::int64_t> logical_coord(std::int64_t flat, const std::optional<std::vector<std::int64_t>>& shape) {
  if (!shape || shape->empty()) return {flat};
  std::vector<std::int64_t> c(shape->size());
  for (std::size_t d = shape->size(); d-- > 1;) {
    c[d] = flat % (*shape)[d];
    flat /= (*shape)[d];
  }
  c[0] = flat;
  return c;
}

nlohmann::json point_json(const CheckInput& in, std::int64_t flat, std::int64_t replica) {
  nlohmann::json j;
  j["logical"] = logical_coord(flat, in.shape);
  j["flat"] = flat;
  j["replica"] = replica;
  return j;
}

nlohmann::json coord_json(const Coord& c) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& info : axis_registry())
    if (c.has(info.id)) j[std::string(info.name)] = c.get(info.id);
  return j;
}

std::vector<Axis> storage_axes(const TileLayout& l, Scope scope) {
  std::vector<Axis> out;
  for (const Axis a : l.axes()) {
    bool keep = true;
    switch (scope) {
      case Scope::kShared:
      case Scope::kGlobal: keep = a.is_memory(); break;
      case Scope::kTmem: keep = a == Axis(AxisId::TLane) || a == Axis(AxisId::TCol); break;
      case Scope::kLocal:
      case Scope::kUnknown: keep = true; break;
    }
    if (keep) out.push_back(a);
  }
  return out;
}

}  // namespace tirx::prove
