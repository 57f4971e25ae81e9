// tirx-verify render LAYOUT [--shape D0,D1,...] [--dtype T] [--scope S] [--view auto|logical|tmem|smem|threads]
//                    [--color-by ...] [--mark COORD]... [--alloc-cols N] [--alloc-elems N] [--target T]
//                    [-o FILE.svg] [--format svg|text] [--max-cells N] [--max-points N] [--json]
// Draws a layout (docs/render.md): the logical tile with each element's physical image, the TMEM
// grid, the shared-memory banks, or a register fragment's threads x registers. Without -o the
// picture is a terminal table (--format text, the default then) or SVG on stdout
// (--format svg). --json: one JSON document describing what was drawn (and the text table or
// the SVG when it goes to stdout). Exit 0, or 2 for bad input (a view the layout cannot be drawn
// in, a layout too large for a picture or for the terminal: render.size).
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/input_file.hpp"
#include "tirx_verify/render/svg.hpp"
#include "tirx_verify/render/text.hpp"
#include "tirx_verify/render/views.hpp"

namespace tirx::cli {

namespace {
struct RenderOpts {
  std::string layout, shape, dtype, scope = "unknown", target = "sm_100a", view = "auto", color_by = "auto";
  std::vector<std::string> marks;
  std::optional<std::int64_t> alloc_cols;
  std::optional<std::int64_t> alloc_elems;
  std::string output, format;
  std::int64_t max_cells = 128;
  std::int64_t max_points = render::RenderOptions{}.max_points;
  bool json = false;
  std::vector<std::string> params;
  BudgetOpts budget;
};

int run_render(const RenderOpts& o) {
  const hw::Target target = hw::load_target(o.target);
  prove::CheckInput in;
  in.text = o.layout;
  in.layout = parse_layout(o.layout, parse_params(o.params));
  in.layout.validate();
  if (!o.shape.empty()) in.shape = parse_int_list(o.shape, "--shape");
  in.dtype = o.dtype;
  in.elem_bits = kernel::dtype_bits(o.dtype);
  if (!o.dtype.empty() && in.elem_bits == 0) throw InputError("cli.usage", "unknown --dtype '" + o.dtype + "'", o.dtype, 0);
  in.scope = prove::parse_scope(o.scope);
  if (o.alloc_cols) {
    try {
      kernel::check_alloc_cols(target, *o.alloc_cols);
    } catch (const InputError& e) {
      const std::string option = fmt::format("--alloc-cols {}", *o.alloc_cols);
      throw InputError(e.check_id(), e.message(), option, std::string_view("--alloc-cols ").size(), e.note());
    }
  }
  in.alloc_cols = o.alloc_cols;
  in.alloc_elems = o.alloc_elems;
  in.machine = prove::machine_limits(target);
  in.target = &target;
  in.limits.budget = command_budget();
  const std::string format = o.format.empty() ? (o.output.empty() ? "text" : "svg") : o.format;
  render::RenderOptions ro;
  ro.view = render::parse_view(o.view);
  ro.color_by = render::parse_color_by(o.color_by);
  for (const auto& m : o.marks) ro.marks.push_back(render::parse_mark(m, "--mark"));
  ro.max_points = o.max_points;
  if (format == "text") {
    ro.max_rows = render::kMaxTextRows;
    ro.max_cols = render::kMaxTextWidth;
  } else {
    ro.max_rows = ro.max_cols = o.max_cells;
  }
  const render::Grid g = render::build_view(in, ro);
  const std::string out = format == "text" ? render::render_text(g) : render::svg_document(g);
  if (!o.output.empty()) write_output_file(o.output, out, "cli.usage", "picture");
  const std::string view = std::string(render::view_name(ro.view == render::View::kAuto ? render::default_view(in) : ro.view));
  if (o.json) {
    nlohmann::json j = {{"layout", o.layout}, {"view", view}, {"format", format},
                        {"rows", g.rows()},   {"cols", g.cols()}, {"block", {g.block_rows(), g.block_cols()}},
                        {"drawn", {g.drawn_rows(), g.drawn_cols()}}, {"bytes", out.size()}};
    if (!o.output.empty())
      j["output"] = o.output;
    else
      j[format == "text" ? "text" : "svg"] = out;
    std::cout << dump_json(j, 2) << "\n";
  } else if (o.output.empty()) {
    std::cout << out;
  } else {
    std::cerr << fmt::format("tirx-verify: wrote the {} view ({} x {} cells{}) to {}\n", view, g.rows(), g.cols(),
                             g.aggregated() ? fmt::format(", blocks of {} x {}", g.block_rows(), g.block_cols()) : "",
                             o.output);
  }
  return kVerified;
}
}  // namespace

void register_render(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RenderOpts>();
  CLI::App* cmd = app.add_subcommand("render", "Draw a layout: logical tile, TMEM grid, shared-memory banks or threads (SVG or text)");
  cmd->add_option("layout", o->layout, "Layout in TIRx notation")->required();
  cmd->add_option("--shape", o->shape, "Logical shape D0,D1,... (default: the shard extents as rows x last)");
  cmd->add_option("--dtype", o->dtype, "Element type (float16, float32, uint8, ...): bytes for the smem view, TMEM packing");
  cmd->add_option("--scope", o->scope, "Storage scope: shared, shared.dyn, global, tmem, local (picks the default view)");
  cmd->add_option("--view", o->view, "auto (by scope), logical, tmem, smem or threads")
      ->check(CLI::IsMember({"auto", "logical", "tmem", "smem", "threads"}));
  cmd->add_option("--color-by", o->color_by, "auto, thread, warp, lane-block, chunk, row, outer, vector or none")
      ->check(CLI::IsMember({"auto", "thread", "warp", "lane-block", "chunk", "row", "outer", "vector", "none"}));
  cmd->add_option("--mark", o->marks, "Mark logical elements: a coordinate per dimension, * for any (\"*,0\"); repeatable");
  cmd->add_option("--alloc-cols", o->alloc_cols, "TMEM allocation in 32-bit columns (columns past it are hatched)")
      ->transform(int_range(std::numeric_limits<std::int64_t>::min()));  // check_alloc_cols judges it
  cmd->add_option("--alloc-elems", o->alloc_elems, "Memory allocation on m, in elements (addresses past it are hatched)")
      ->transform(int_range(1));
  cmd->add_option("--target", o->target, "Target name (models/targets/NAME.json)");
  cmd->add_option("-o,--output", o->output, "Write the picture to FILE (SVG unless --format text)");
  cmd->add_option("--format", o->format, "svg or text (default: svg with -o, else text)")
      ->check(CLI::IsMember({"svg", "text"}));
  cmd->add_option("--max-cells", o->max_cells, "SVG: most cells drawn per side; a larger grid is drawn as blocks")
      ->transform(int_range(1, 512));
  cmd->add_option("--max-points", o->max_points, "Most (element, replica) points a picture enumerates")
      ->transform(int_range(1, render::kMaxRenderPoints));
  cmd->add_flag("--json", o->json, "JSON output: what was drawn (and the picture when it goes to stdout)");
  add_param_option(cmd, o->params);
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, o->layout, [&] {
      start_budget(o->budget);
      return run_render(*o);
    });
  });
}

}  // namespace tirx::cli
