// tirx-verify run [PATH...] [--format text|json|sarif|junit] [-o FILE] [--fail-on SEV]
//                 [--baseline FILE] [--write-baseline FILE] [--verbose] [--max-points N] [--jobs N]
// The main job: load every kernel model (default: models/kernels/ of the repository), check every
// buffer layout and every op, print a report in the chosen format. docs/ci.md tells how to gate a
// compiler's CI on it.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "parallel.hpp"
#include "tirx_verify/kernel/model_files.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/input_file.hpp"
#include "tirx_verify/layout/utf8.hpp"
#include "tirx_verify/render/html.hpp"
#include "tirx_verify/report/baseline.hpp"
#include "tirx_verify/report/junit.hpp"
#include "tirx_verify/report/report.hpp"
#include "tirx_verify/report/sarif.hpp"

namespace tirx::cli {

namespace {
struct RunOpts {
  std::vector<std::string> paths;
  bool json = false;
  std::string format = "text";
  std::string output;
  std::string fail_on = "error";
  std::string baseline;
  std::string write_baseline;
  std::string html;  // --html FILE: the report as one HTML page (render/html.hpp)
  bool verbose = false;
  std::int64_t max_points = std::int64_t{1} << 28;
  unsigned jobs = default_jobs();
  BudgetOpts budget;
};

// A baseline file: a regular file of at most 16 MiB of UTF-8 (layout/input_file.hpp).
std::string read_text(const std::string& path, const char* what) {
  std::string text = read_input_file(path, "baseline.file", kMaxModelFileBytes, what);
  require_utf8(text, "baseline.file", fmt::format("{} '{}'", what, escape_invalid_utf8(path)));
  return text;
}

void write_text(const std::string& path, const std::string& text) {
  write_output_file(path, text, "cli.usage", "report file");
}

int run_run_checked(const RunOpts& o);

// True when `out` is one of the run's inputs: a model path given, a *.json file below a model
// directory given, or the baseline. Never written over, not even with an error report.
bool names_an_input(const RunOpts& o, const std::string& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path canon = fs::weakly_canonical(out, ec);
  if (ec) return true;  // cannot tell: do not write
  std::vector<std::string> inputs = o.paths;
  if (inputs.empty()) inputs = {"models/kernels", (fs::path(repo_root()) / "models/kernels").string()};
  if (!o.baseline.empty()) inputs.push_back(o.baseline);
  for (const auto& in : inputs) {
    if (fs::equivalent(out, in, ec) && !ec) return true;
    const fs::path dir = fs::weakly_canonical(in, ec);
    if (ec || !fs::is_directory(dir, ec)) continue;
    if (canon.extension() == ".json" && std::mismatch(dir.begin(), dir.end(), canon.begin(), canon.end()).first == dir.end())
      return true;
  }
  return false;
}

// With -o and --format sarif|junit, a run that stops on bad input (a model that does not load,
// a baseline that does not parse) still writes its report file — an error notification / an
// error test case naming the check id — then answers as before (exit 2): a CI step that uploads
// the file finds one.
int run_run(const RunOpts& o) {
  try {
    return run_run_checked(o);
  } catch (const InputError& e) {
    const std::string format = o.json ? std::string("json") : o.format;
    if (!o.output.empty() && (format == "sarif" || format == "junit") && !names_an_input(o, o.output)) {
      const std::string msg = e.message();
      try {
        write_text(o.output, format == "sarif" ? dump_json(report::sarif_error_log(e.check_id(), msg), 2) + "\n"
                                               : report::junit_error_xml(e.check_id(), msg));
      } catch (const InputError&) {
        // the output itself is the problem (e.g. -o names a model file): report the first error only
      }
    }
    throw;
  }
}

int run_run_checked(const RunOpts& o) {
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
  // A report or baseline written over one of the run's own inputs would destroy it.
  auto refuse_overwrite = [&](const std::string& out, const char* option) {
    if (out.empty()) return;
    std::error_code ec;
    auto same = [&](const std::filesystem::path& in) { return std::filesystem::equivalent(out, in, ec) && !ec; };
    for (const auto& f : files)
      if (same(f))
        throw InputError("cli.usage", fmt::format("{} {} is the model file {}: the report would overwrite its input",
                                                  option, out, f.string()));
    if (!o.baseline.empty() && same(o.baseline))
      throw InputError("cli.usage", fmt::format("{} {} is the --baseline file: it would be overwritten while it is "
                                                "read",
                                                option, out));
  };
  refuse_overwrite(o.output, "-o");
  refuse_overwrite(o.write_baseline, "--write-baseline");
  refuse_overwrite(o.html, "--html");
  if (!o.html.empty() && names_an_input(o, o.html))
    throw InputError("cli.usage", fmt::format("--html {} names an input of the run: it would be overwritten", o.html));
  for (const std::string* other : {&o.output, &o.write_baseline}) {
    std::error_code ec;
    if (!o.html.empty() && !other->empty() &&
        (o.html == *other || (std::filesystem::equivalent(o.html, *other, ec) && !ec)))
      throw InputError("cli.usage", fmt::format("--html and another output name the same file {}", o.html));
  }
  if (!o.output.empty() && !o.write_baseline.empty()) {
    std::error_code ec;
    if (o.output == o.write_baseline || (std::filesystem::equivalent(o.output, o.write_baseline, ec) && !ec))
      throw InputError("cli.usage", fmt::format("-o and --write-baseline name the same file {}", o.output));
  }
  // Every model is loaded before any is verified (a bad file is answered before any check runs,
  // the first bad one in path order), then verified; both phases on o.jobs threads.
  std::vector<kernel::KernelModel> models(files.size());
  parallel_for(files.size(), o.jobs, [&](std::size_t i) { models[i] = kernel::load_model(files[i]); });
  kernel::VerifyOptions opt;
  opt.limits.max_enumeration_points = o.max_points;
  opt.limits.budget = command_budget();
  std::vector<kernel::KernelReport> reports(models.size());
  parallel_for(models.size(), o.jobs, [&](std::size_t i) { reports[i] = kernel::verify_kernel(models[i], opt); });
  std::vector<report::Item> items = report::collect_items(reports);
  int unmatched = 0;
  if (baseline) unmatched = report::apply_baseline(*baseline, items);
  report::Summary s = report::summarize(reports, items, ropt);
  s.baseline_unmatched = unmatched;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!o.write_baseline.empty()) write_text(o.write_baseline, dump_json(report::baseline_json(items), 1) + "\n");
  if (!o.html.empty()) {
    render::HtmlOptions hopt;
    hopt.budget = command_budget();
    write_text(o.html, render::html_report(reports, items, s, hopt));
    std::cerr << fmt::format("tirx-verify: wrote the HTML report to {}\n", o.html);
  }
  std::string text;
  if (format == "json")
    text = dump_json(report::run_json(reports, items, s), 2) + "\n";
  else if (format == "sarif")
    text = dump_json(report::sarif_log(items, s, baseline.has_value()), 2) + "\n";
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
  auto o = std::make_shared<RunOpts>();
  CLI::App* cmd = app.add_subcommand("run", "Check every buffer layout and op of kernel model files (default: models/kernels)");
  cmd->add_option("paths", o->paths, "Model files or directories");
  CLI::Option* format =
      cmd->add_option("--format", o->format, "Output format: text (default), json, sarif (SARIF 2.1.0), junit (JUnit XML)")
          ->check(CLI::IsMember({"text", "json", "sarif", "junit"}));
  cmd->add_flag("--json", o->json, "Same as --format json")->excludes(format);  // not a silent winner of the two
  cmd->add_option("-o,--output", o->output, "Write the report to FILE instead of standard output");
  cmd->add_option("--fail-on", o->fail_on, "Lowest severity of a new finding that fails the run (exit 1): error, warning, note")
      ->check(CLI::IsMember({"error", "warning", "note"}));
  cmd->add_option("--baseline", o->baseline, "Baseline file: its findings are reported as known and do not fail the run");
  cmd->add_option("--write-baseline", o->write_baseline, "Write every finding of this run to FILE as a baseline");
  cmd->add_option("--html", o->html,
                  "Also write the report as one self-contained HTML page with a picture of each buffer finding "
                  "(docs/render.md)");
  cmd->add_flag("--verbose,-v", o->verbose, "Show every check and the resolved layout of every buffer");
  cmd->add_option("--max-points", o->max_points, "Enumeration limit (points); past it a check is undecided")
      ->transform(int_range(1));
  cmd->add_option("-j,--jobs", o->jobs,
                  "Threads that load and verify the kernels (default: the machine's hardware threads, at most 16); "
                  "the report is the same for every value")
      ->transform(int_range(1, 256));
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
