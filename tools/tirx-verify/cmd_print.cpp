// tirx-verify print LAYOUT [--style builder|tvm] [--canonical] [--cuda-target] [--json]
// --json: {"layout": LAYOUT as given, "printed": the printed form}.
#include <iostream>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::cli {

namespace {
struct PrintOpts {
  std::string layout;
  std::string style = "builder";
  bool canonical = false;
  bool cuda = false;
  bool json = false;
  std::vector<std::string> params;
  BudgetOpts budget;
};
}  // namespace

void register_print(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<PrintOpts>();
  CLI::App* cmd = app.add_subcommand("print", "Print a layout in builder or TVM notation");
  cmd->add_option("layout", o->layout, "Layout in TIRx notation")->required();
  cmd->add_option("--style", o->style, "builder (S[...] + R[...]) or tvm (T.TileLayout(...))")
      ->check(CLI::IsMember({"builder", "tvm"}));
  cmd->add_flag("--canonical", o->canonical, "Canonicalize first (TVM canonicalize())");
  cmd->add_flag("--cuda-target", o->cuda, "With --canonical: fuse thread axes as under a CUDA target");
  cmd->add_flag("--json", o->json, "JSON output: {\"layout\": ..., \"printed\": ...}");
  add_param_option(cmd, o->params);
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, o->layout, [&] {
      start_budget(o->budget);
      Layout l = parse_layout(o->layout, parse_params(o->params));
      l.validate();
      if (o->canonical) l = canonicalize(l, CanonicalizeOptions{o->cuda});
      const std::string printed = print_layout(l, o->style == "tvm" ? PrintStyle::kTvm : PrintStyle::kBuilder);
      if (o->json)
        std::cout << dump_json({{"layout", o->layout}, {"printed", printed}}) << "\n";
      else
        std::cout << printed << "\n";
      return kVerified;
    });
  });
}

}  // namespace tirx::cli
