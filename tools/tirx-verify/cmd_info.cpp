// tirx-verify info LAYOUT [--axis A] [--cuda-target] [--json]
// The facts TVM's layout queries answer (layout/info.hpp): size, span per axis, replica count,
// scope pair, canonical form and well-formedness. --axis A restricts the per-axis lines to one
// axis (an axis the layout does not use has size 1 and span 1, as TVM answers).
// Exit: 0 well-formed, 2 bad input or not well-formed (the report is still printed with the
// error's check id), as `check` treats layout.well-formed.
// --json: {"layout", "resolved", "size", "span", "replicas", "axes": [{"axis","kind","size","span"}],
//          "scope": {"inner","outer"} | null, "canonical", "well_formed", "error": {"id","message"}?}
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/info.hpp"

namespace tirx::cli {

namespace {
struct InfoOpts {
  std::string layout;
  std::string axis;
  bool cuda = false;
  bool json = false;
  std::vector<std::string> params;
  BudgetOpts budget;
};

nlohmann::json info_json(const InfoOpts& o, const Layout& l, const LayoutInfo& info, const std::vector<AxisInfoOf>& axes) {
  nlohmann::json ax = nlohmann::json::array();
  for (const AxisInfoOf& a : axes)
    ax.push_back({{"axis", std::string(a.axis.name())}, {"kind", a.axis.is_thread() ? "thread" : "memory"},
                  {"size", a.size}, {"span", a.span}});
  nlohmann::json j = {{"layout", o.layout},     {"resolved", print_layout(l)}, {"size", info.size},
                      {"span", info.span},      {"replicas", info.replicas},   {"axes", ax},
                      {"well_formed", info.well_formed}};
  j["scope"] = info.scope ? nlohmann::json{{"inner", std::string(scope_name(info.scope->inner))},
                                           {"outer", std::string(scope_name(info.scope->outer))}}
                          : nlohmann::json(nullptr);
  j["canonical"] = info.canonical ? nlohmann::json(print_layout(*info.canonical)) : nlohmann::json(nullptr);
  if (!info.well_formed) j["error"] = {{"id", info.error_id}, {"message", info.error}};
  return j;
}

void print_text(const Layout& l, const LayoutInfo& info, const std::vector<AxisInfoOf>& axes) {
  std::cout << print_layout(l) << "\n";
  std::cout << fmt::format("  size      {}{}\n", info.size,
                           info.replicas > 1 ? fmt::format(" (x{} replicas)", info.replicas) : "");
  std::cout << fmt::format("  span      {} (memory axes)\n", info.span);
  for (const AxisInfoOf& a : axes)
    std::cout << fmt::format("  {:<9} {} axis, size {}, span {}\n", a.axis.name(), a.axis.is_thread() ? "thread" : "memory",
                             a.size, a.span);
  std::cout << "  scope     "
            << (info.scope ? fmt::format("({}, {})", scope_name(info.scope->inner), scope_name(info.scope->outer))
                           : std::string("none (no thread axis in the shard)"))
            << "\n";
  if (info.canonical) std::cout << "  canonical " << print_layout(*info.canonical) << "\n";
  if (info.well_formed)
    std::cout << "  well-formed\n";
  else
    std::cout << fmt::format("  not well-formed: error[{}]: {}\n", info.error_id, info.error);
}
}  // namespace

void register_info(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<InfoOpts>();
  CLI::App* cmd = app.add_subcommand("info", "Size, span per axis, scope, canonical form and well-formedness of a layout");
  cmd->add_option("layout", o->layout, "Layout in TIRx notation")->required();
  cmd->add_option("--axis", o->axis, "Report this axis only (laneid, TCol, m, ...)");
  cmd->add_flag("--cuda-target", o->cuda, "Canonicalize as under a CUDA target (fuse thread axes)");
  cmd->add_flag("--json", o->json, "JSON output");
  add_param_option(cmd, o->params);
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, o->layout, [&] {
      start_budget(o->budget);
      std::optional<Axis> only;
      if (!o->axis.empty()) {
        only = Axis::from_name(o->axis);
        if (!only)
          throw InputError("cli.usage", fmt::format("--axis '{}' is not a registered axis", o->axis), o->axis, 0,
                           "axes: bx by bz cbx cby cbz tx warpid laneid wgid tid_in_wg wid_in_wg m P F Bank TCol TLane");
      }
      Layout l = parse_layout(o->layout, parse_params(o->params));
      l.validate();
      const LayoutInfo info = layout_info(l, CanonicalizeOptions{o->cuda});
      std::vector<AxisInfoOf> axes = info.axes;
      if (only) axes = {AxisInfoOf{*only, l.tile().size(*only), l.tile().span(*only)}};
      if (o->json)
        std::cout << dump_json(info_json(*o, l, info, axes), 2) << "\n";
      else
        print_text(l, info, axes);
      return info.well_formed ? kVerified : kBadInput;
    });
  });
}

}  // namespace tirx::cli
