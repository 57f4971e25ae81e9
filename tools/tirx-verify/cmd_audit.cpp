// tirx-verify audit [--factory NAME]... [--target sm_100a] [--json] [--time-limit S] [--memory-limit MB]
// Sweeps TVM's layout factories over their legal argument spaces and runs every check on each
// result with the buffer the factory implies (prove/audit.hpp). Prints, per factory, how many
// argument sets were checked and the failing ones grouped by cause, each group with the
// smallest arguments that show it, its witness and the `tirx-verify check` command that
// reproduces it.
// Exit: 0 every argument set passes, 1 a group fails, 2 bad input, 3 undecided (a check was
// undecided, or the budget ran out before the sweep ended; the message names it).
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/audit.hpp"

namespace tirx::cli {

namespace {
struct AuditOpts {
  std::vector<std::string> factories;
  std::string target = "sm_100a";
  bool json = false;
  BudgetOpts budget;
};

nlohmann::json group_json(const prove::AuditGroup& g) {
  return {{"check", g.check},
          {"status", prove::status_name(g.status)},
          {"severity", prove::severity_name(g.severity)},
          {"cause", g.cause},
          {"argument_sets", g.count},
          {"smallest", g.smallest},
          {"arguments", g.smallest_size},
          {"subject", g.role},
          {"command", g.command},
          {"message", g.result.message},
          {"engine", g.result.engine},
          {"witness", g.result.witness},
          {"examples", g.examples}};
}

std::string text_of(const std::vector<prove::AuditFactoryReport>& reps) {
  std::string out;
  for (const prove::AuditFactoryReport& r : reps) {
    out += fmt::format("{}: {} argument sets checked ({} layouts): {} fail, {} undecided{}\n", r.name,
                       r.argument_sets, r.subjects, r.failing_sets, r.undecided_sets,
                       r.stopped.empty() ? "" : fmt::format(" — STOPPED: {}", r.stopped));
    out += fmt::format("  space: {}\n", r.space);
    for (const prove::AuditGroup& g : r.groups) {
      out += fmt::format("  {:<9} {} ({}) in {} argument sets; smallest: {}{}\n", prove::status_name(g.status), g.check,
                         prove::severity_name(g.severity), g.count, g.smallest,
                         g.role == "buffer" ? "" : fmt::format(" [{}]", g.role));
      out += fmt::format("            {}\n", g.result.message);
      if (!g.result.witness.is_null()) out += fmt::format("            witness: {}\n", dump_json(g.result.witness));
      out += fmt::format("            reproduce: {}\n", g.command);
      if (g.count > 1) {
        out += "            also:";
        for (const std::string& e : g.examples)
          if (e != g.smallest) out += " " + e;
        out += g.count > static_cast<std::int64_t>(g.examples.size()) ? " ...\n" : "\n";
      }
    }
  }
  return out;
}

int run_audit(const AuditOpts& o) {
  const hw::Target target = hw::load_target(o.target);
  if (!target.tmem)
    throw InputError("cli.usage",
                     fmt::format("target {} has no tensor memory: the TMEM factories cannot be audited on it", o.target),
                     o.target, 0);
  prove::AuditContext ctx;
  ctx.target = &target;
  ctx.limits.budget = command_budget();
  const auto reps = prove::run_audit(ctx, o.factories);
  int code = kVerified;
  bool open = false;
  for (const auto& r : reps) {
    if (!r.stopped.empty() || r.undecided_sets > 0) open = true;
    if (r.failing_sets > 0) code = kViolation;
  }
  if (code == kVerified && open) code = kUndecided;
  if (o.json) {
    nlohmann::json fs = nlohmann::json::array();
    std::int64_t sets = 0, failing = 0;
    for (const auto& r : reps) {
      nlohmann::json groups = nlohmann::json::array();
      for (const auto& g : r.groups) groups.push_back(group_json(g));
      fs.push_back({{"factory", r.name},
                    {"space", r.space},
                    {"argument_sets", r.argument_sets},
                    {"layouts", r.subjects},
                    {"failing_sets", r.failing_sets},
                    {"undecided_sets", r.undecided_sets},
                    {"stopped", r.stopped.empty() ? nlohmann::json() : nlohmann::json(r.stopped)},
                    {"groups", groups}});
      sets += r.argument_sets;
      failing += r.failing_sets;
    }
    std::cout << dump_json({{"target", o.target},
                            {"factories", fs},
                            {"summary", {{"argument_sets", sets}, {"failing_sets", failing}, {"exit_code", code}}}},
                           2)
              << "\n";
  } else {
    std::cout << text_of(reps);
  }
  return code;
}
}  // namespace

void register_audit(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<AuditOpts>();
  CLI::App* cmd = app.add_subcommand(
      "audit", "Sweep TVM's layout factories over their legal arguments and run every check on each result");
  cmd->add_option("--factory", o->factories,
                  "Audit only this factory (repeatable): sf_tmem_layout, sf_smem_layout, tmem_datapath_layout, "
                  "tmem_mma_operand_layout, tcgen05_atom_layout, wg_local_layout, mma_shared_layout");
  cmd->add_option("--target", o->target, "Target name (models/targets/NAME.json); needs tensor memory");
  cmd->add_flag("--json", o->json, "JSON output");
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, "", [&] {
      start_budget(o->budget);
      return run_audit(*o);
    });
  });
}

}  // namespace tirx::cli
