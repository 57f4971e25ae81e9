// tirx-verify run [PATH...] [--json] [--verbose]
// The main job: load every kernel model (default: models/kernels/ of the repository), check
// every buffer layout, print a table per kernel and a summary line.
#include <filesystem>
#include <iostream>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "option_checks.hpp"
#include "commands.hpp"
#include "tirx_verify/kernel/model_files.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::cli {

namespace {
struct Opts {
  std::vector<std::string> paths;
  bool json = false;
  bool verbose = false;
  std::int64_t max_points = std::int64_t{1} << 28;
  BudgetOpts budget;
};

int run_run(const Opts& o) {
  std::vector<std::filesystem::path> roots;
  for (const auto& p : o.paths) roots.emplace_back(p);
  if (roots.empty()) {
    std::filesystem::path local = "models/kernels";
    roots.push_back(std::filesystem::is_directory(local) ? local
                                                         : std::filesystem::path(repo_root()) / "models/kernels");
  }
  const auto files = kernel::collect_model_files(roots);
  std::vector<kernel::KernelModel> models;
  models.reserve(files.size());
  for (const auto& f : files) models.push_back(kernel::load_model(f));
  kernel::VerifyOptions opt;
  opt.limits.max_enumeration_points = o.max_points;
  opt.limits.budget = command_budget();
  std::vector<kernel::KernelReport> reports;
  for (const auto& m : models) reports.push_back(kernel::verify_kernel(m, opt));
  const report::Summary s = report::summarize(reports);
  if (o.json)
    std::cout << dump_json(report::run_json(reports, s), 2) << "\n";
  else
    std::cout << report::render_run_text(reports, s, o.verbose);
  return report::exit_code(s);
}
}  // namespace

void register_run(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand("run", "Check every buffer layout of kernel model files (default: models/kernels)");
  cmd->add_option("paths", o->paths, "Model files or directories");
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->add_flag("--verbose,-v", o->verbose, "Show every check and the resolved layout of every buffer");
  cmd->add_option("--max-points", o->max_points, "Enumeration limit (points); past it a check is undecided")
      ->transform(int_range(1));
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, "", [&] {
      start_budget(o->budget);
      return run_run(*o);
    });
  });
}

}  // namespace tirx::cli
