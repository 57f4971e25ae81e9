// tirx-verify apply LAYOUT [COORD...] [--shape D0,D1,...] [--all-replicas] [--json]
//
// The three apply() forms of TVM: one COORD and no --shape = flat logical index; several
// COORDs and no --shape = per-shard-iter coordinates; --shape = logical coordinates.
// With no COORD every element is listed. --all-replicas adds every physical copy
// (D(x) + O + r for each replica combination r), which TVM's apply() never reports.
#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "commands.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::cli {

namespace {

struct Opts {
  std::string layout;
  std::vector<std::string> coords;
  std::string shape;
  bool all_replicas = false;
  bool json = false;
  std::vector<std::string> params;
};

nlohmann::json coord_json(const Coord& c) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& info : axis_registry())
    if (c.has(info.id)) j[std::string(info.name)] = c.get(info.id);
  return j;
}

// Most replica copies --all-replicas lists for one element (a layout may have billions).
constexpr std::int64_t kMaxListedReplicas = std::int64_t{1} << 16;

// Pre-swizzle tile coordinate + each replica offset, then the swizzle (if any) on m. With
// all=false only the first image (replica digits 0, what apply() reports).
std::vector<Coord> images_of(const Layout& l, const Coord& tile_coord, bool all) {
  const TileLayout& t = l.tile();
  if (all && t.replica_count() > kMaxListedReplicas)
    throw InputError("cli.usage", fmt::format("--all-replicas: the layout has {} replica copies per element; at most "
                                              "{} can be listed",
                                              t.replica_count(), kMaxListedReplicas));
  std::vector<Coord> out;
  std::vector<std::int64_t> r(t.replica.size(), 0);
  while (true) {
    Coord c = tile_coord;
    for (std::size_t k = 0; k < t.replica.size(); ++k) c.add(t.replica[k].axis, checked_mul(r[k], t.replica[k].stride));
    if (const SwizzleSpec* z = l.swizzle(); z && c.has(AxisId::m)) c.set(AxisId::m, z->apply(c.get(AxisId::m)));
    out.push_back(c);
    if (!all) return out;
    std::size_t k = t.replica.size();
    bool done = true;
    while (k > 0) {
      --k;
      if (++r[k] < t.replica[k].extent) {
        done = false;
        break;
      }
      r[k] = 0;
    }
    if (done) return out;
  }
}

int run_apply(const Opts& o) {
  const Layout l = parse_layout(o.layout, parse_params(o.params));
  l.validate();
  std::optional<std::vector<std::int64_t>> shape;
  if (!o.shape.empty()) shape = parse_int_list(o.shape, "--shape");
  std::vector<std::int64_t> coord;
  for (const auto& c : o.coords) {
    auto v = parse_int_list(c, "COORD");
    coord.insert(coord.end(), v.begin(), v.end());
  }
  auto tile_apply = [&](const std::vector<std::int64_t>& x) -> Coord {
    const TileLayout& t = l.tile();
    if (shape) return t.apply(x, *shape);
    if (x.size() == 1) return t.apply(x[0]);
    return t.apply_iters(x);
  };
  auto one = [&](const std::vector<std::int64_t>& x, nlohmann::json& j, std::string& text) {
    const auto imgs = images_of(l, tile_apply(x), o.all_replicas);
    j["coord"] = coord_json(imgs[0]);
    text = imgs[0].to_string();
    if (o.all_replicas) {
      j["replicas"] = nlohmann::json::array();
      for (const auto& c : imgs) j["replicas"].push_back(coord_json(c));
      if (imgs.size() > 1) {
        text += "  replicas:";
        for (std::size_t i = 1; i < imgs.size(); ++i) text += " " + imgs[i].to_string();
      }
    }
  };
  if (!coord.empty()) {
    if (shape && coord.size() != shape->size())
      throw InputError("cli.usage", fmt::format("{} coordinates for --shape of rank {}", coord.size(), shape->size()));
    nlohmann::json j;
    std::string text;
    one(coord, j, text);
    if (o.json)
      std::cout << dump_json(j) << "\n";
    else
      std::cout << text << "\n";
    return kVerified;
  }
  // Every element, in flat order.
  const std::int64_t n = l.size();
  if (n > (std::int64_t{1} << 22))
    throw InputError("cli.usage", fmt::format("layout has {} elements; give a COORD to apply to one", n));
  if (o.all_replicas && n * std::min(l.tile().replica_count(), kMaxListedReplicas + 1) > (std::int64_t{1} << 22))
    throw InputError("cli.usage", fmt::format("layout has {} elements x {} replica copies; give a COORD to list the "
                                              "copies of one",
                                              n, l.tile().replica_count()));
  // Written element by element: the JSON of 4 M elements held as one document took 4.3 GB.
  if (o.json) std::cout << "{\"elements\":[";
  for (std::int64_t f = 0; f < n; ++f) {
    const auto logical = prove::logical_coord(f, shape);
    nlohmann::json j;
    std::string text;
    one(shape ? logical : std::vector<std::int64_t>{f}, j, text);
    if (o.json) {
      j["logical"] = logical;
      std::cout << (f ? "," : "") << dump_json(j);
    } else {
      std::cout << dump_json(nlohmann::json(logical)) << " -> " << text << "\n";
    }
  }
  if (o.json) std::cout << "]}\n";
  return kVerified;
}

}  // namespace

void register_apply(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand("apply", "Map logical coordinates through a layout (TVM apply(), plus replicas)");
  cmd->add_option("layout", o->layout, "Layout in TIRx notation")->required();
  cmd->add_option("coord", o->coords,
                  "Coordinates: one flat index, or per-shard-iter coordinates, or logical coordinates with --shape");
  cmd->add_option("--shape", o->shape, "Logical shape D0,D1,... (coordinates are then logical)");
  cmd->add_flag("--all-replicas", o->all_replicas, "Also list every replica copy");
  cmd->add_flag("--json", o->json, "JSON output: {\"coord\": {...}, \"replicas\": [...]}");
  add_param_option(cmd, o->params);
  cmd->callback([o, &exit_code] { exit_code = guarded(o->json, o->layout, [&] { return run_apply(*o); }); });
}

}  // namespace tirx::cli
