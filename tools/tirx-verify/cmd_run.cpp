// tirx-verify run [PATH...] [--format text|json|sarif|junit] [-o FILE] [--fail-on SEV]
//                 [--baseline FILE] [--write-baseline FILE] [--verbose] [--max-points N]
// The main job: load every kernel model (default: models/kernels/ of the repository), check every
// buffer layout and every op, print a report in the chosen format. docs/ci.md tells how to gate a
// compiler's CI on it.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/report/baseline.hpp"
#include "tirx_verify/report/junit.hpp"
#include "tirx_verify/report/report.hpp"
#include "tirx_verify/report/sarif.hpp"

namespace tirx::cli {

namespace {
struct Opts {
  std::vector<std::string> paths;
  bool json = false;
  std::string format = "text";
  std::string output;
  std::string fail_on = "error";
  std::string baseline;
  std::string write_baseline;
  bool verbose = false;
  std::int64_t max_points = std::int64_t{1} << 28;
  BudgetOpts budget;
};

std::string read_text(const std::string& path, const char* what) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError("baseline.file", fmt::format("cannot read {} {}", what, path));
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw InputError("cli.usage", fmt::format("cannot write {}", path));
  f << text;
  if (!f) throw InputError("cli.usage", fmt::format("cannot write {}", path));
}

int run_run(const Opts& o) {
  const auto t0 = std::chrono::steady_clock::now();
  report::RunOptions ropt;
  ropt.fail_on = prove::parse_severity(o.fail_on);
  ropt.verbose = o.verbose;
  const std::string format = o.json ? std::string("json") : o.format;
  std::vector<std::filesystem::path> roots;
  for (const auto& p : o.paths) roots.emplace_back(p);
  if (roots.empty()) {
    std::filesystem::path local = "models/kernels";
    roots.push_back(std::filesystem::is_directory(local) ? local
                                                         : std::filesystem::path(repo_root()) / "models/kernels");
  }
  std::optional<report::Baseline> baseline;
  if (!o.baseline.empty()) baseline = report::parse_baseline(read_text(o.baseline, "baseline"), o.baseline);
  const auto files = kernel::collect_model_files(roots);
  std::vector<kernel::KernelModel> models;
  models.reserve(files.size());
  for (const auto& f : files) models.push_back(kernel::load_model(f));
  kernel::VerifyOptions opt;
  opt.limits.max_enumeration_points = o.max_points;
  opt.limits.budget = command_budget();
  std::vector<kernel::KernelReport> reports;
  for (const auto& m : models) reports.push_back(kernel::verify_kernel(m, opt));
  std::vector<report::Item> items = report::collect_items(reports);
  int unmatched = 0;
  if (baseline) unmatched = report::apply_baseline(*baseline, items);
  report::Summary s = report::summarize(reports, items, ropt);
  s.baseline_unmatched = unmatched;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!o.write_baseline.empty()) write_text(o.write_baseline, report::baseline_json(items).dump(1) + "\n");
  std::string text;
  if (format == "json")
    text = report::run_json(reports, items, s).dump(2) + "\n";
  else if (format == "sarif")
    text = report::sarif_log(items, s, baseline.has_value()).dump(2) + "\n";
  else if (format == "junit")
    text = report::junit_xml(items, s);
  else
    text = report::render_run_text(reports, items, s, o.verbose);
  if (o.output.empty()) {
    std::cout << text;
  } else {
    write_text(o.output, text);
    std::cerr << fmt::format("tirx-verify: wrote the {} report to {} ({} kernels, {} buffers, {} ops; exit {})\n",
                             format, o.output, s.kernels, s.buffers, s.ops, report::exit_code(s));
  }
  return report::exit_code(s);
}
}  // namespace

void register_run(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand("run", "Check every buffer layout and op of kernel model files (default: models/kernels)");
  cmd->add_option("paths", o->paths, "Model files or directories");
  cmd->add_option("--format", o->format, "Output format: text (default), json, sarif (SARIF 2.1.0), junit (JUnit XML)")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit"}));
  cmd->add_flag("--json", o->json, "Same as --format json");
  cmd->add_option("-o,--output", o->output, "Write the report to FILE instead of standard output");
  cmd->add_option("--fail-on", o->fail_on, "Lowest severity of a new finding that fails the run (exit 1): error, warning, note")
      ->check(CLI::IsMember({"error", "warning", "note"}));
  cmd->add_option("--baseline", o->baseline, "Baseline file: its findings are reported as known and do not fail the run");
  cmd->add_option("--write-baseline", o->write_baseline, "Write every finding of this run to FILE as a baseline");
  cmd->add_flag("--verbose,-v", o->verbose, "Show every check and the resolved layout of every buffer");
  cmd->add_option("--max-points", o->max_points, "Enumeration limit (points); past it a check is undecided");
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    const bool json = o->json || o->format == "json";
    exit_code = guarded(json, "", [&] {
      start_budget(o->budget);
      return run_run(*o);
    });
  });
}

}  // namespace tirx::cli
