// tirx-verify apply LAYOUT [COORD...] [--shape D0,D1,...] [--all-replicas] [--extrapolate] [--json]
//
// The three apply() forms of TVM: one COORD and no --shape = flat logical index; several
// COORDs and no --shape = per-shard-iter coordinates; --shape = logical coordinates.
// With no COORD every element is listed. --all-replicas adds every physical copy
// (D(x) + O + r for each replica combination r), which TVM's apply() never reports.
//
// The coordinates must name an element of the layout's domain (else exit 2, cli.usage, with the
// valid range): a flat index in [0, size); per-iter coordinates in [0, extent) of their iter;
// logical coordinates in [0, shape[d]) whose row-major flat index is in [0, size) (a --shape
// whose product differs from the size is legal, as in TVM: only the flattened index has to be
// an element). --extrapolate drops these checks and computes what TVM's unchecked arithmetic
// gives (the outermost digit takes the undivided remainder: S[(8,8):(10,1)] at 70 -> m 86).
//
// The result has exactly TVM's keys: the axes of the shard iters the form uses plus the offset
// axes (a size-1 --shape dimension keeps the unit iter TVM's group gives it); replica-only axes
// appear in the "replicas" list only.
#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::cli {

namespace {

struct ApplyOpts {
  std::string layout;
  std::vector<std::string> coords;
  std::string shape;
  bool all_replicas = false;
  bool extrapolate = false;
  bool json = false;
  std::vector<std::string> params;
  BudgetOpts budget;
};

nlohmann::json coord_json(const Coord& c) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& info : axis_registry())
    if (c.has(info.id)) j[std::string(info.name)] = c.get(info.id);
  return j;
}

// Most replica copies --all-replicas lists for one element (a layout may have billions).
constexpr std::int64_t kMaxListedReplicas = std::int64_t{1} << 16;
// Most elements listed without a COORD.
constexpr std::int64_t kMaxListedElements = std::int64_t{1} << 22;
// Memory one listed image is charged while the listing is built (a JSON object while it is made,
// then about 40 bytes of text; generous).
constexpr std::int64_t kBytesPerListedImage = 256;

// The physical copies of the element with pre-swizzle tile coordinate `tile_coord`: the tile
// coordinate plus each replica displacement (replica axes become present), swizzled.
std::vector<Coord> replica_images(const Layout& l, const Coord& tile_coord) {
  const TileLayout& t = l.tile();
  if (t.replica_count() > kMaxListedReplicas)
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
    std::size_t k = t.replica.size();
    while (k > 0 && ++r[k - 1] == t.replica[k - 1].extent) r[--k] = 0;
    if (k == 0) return out;
  }
}

// The COORD arguments as one text ("1 3") and the byte offset of each value in it, for carets.
struct CoordText {
  std::string text;
  std::vector<std::size_t> pos;
};

// Bad input unless `x` names an element of the domain of the form in use.
void check_domain(const Layout& l, const std::vector<std::int64_t>& x,
                  const std::optional<std::vector<std::int64_t>>& shape, const CoordText& ct) {
  const TileLayout& t = l.tile();
  const std::int64_t size = t.size();
  auto bad = [&](std::size_t i, std::string msg) {
    throw InputError("cli.usage", std::move(msg), ct.text, i < ct.pos.size() ? std::optional(ct.pos[i]) : std::nullopt,
                     "--extrapolate computes TVM's unchecked arithmetic instead");
  };
  if (shape) {
    std::int64_t flat = 0;
    bool overflow = false;
    for (std::size_t d = 0; d < x.size(); ++d) {
      if (x[d] < 0 || x[d] >= (*shape)[d])
        bad(d, fmt::format("logical coordinate {} of dimension {} is outside [0, {}) (--shape {})", x[d], d,
                           (*shape)[d], nlohmann::json(*shape).dump()));
      overflow = overflow || __builtin_mul_overflow(flat, (*shape)[d], &flat) || __builtin_add_overflow(flat, x[d], &flat);
    }
    if (overflow || flat >= size)
      bad(0, fmt::format("logical coordinate {} flattens (row-major over --shape {}) to element {}, outside [0, {}): "
                         "the layout has {} elements",
                         nlohmann::json(x).dump(), nlohmann::json(*shape).dump(),
                         overflow ? std::string("past 2^63") : std::to_string(flat), size, size));
    return;
  }
  if (x.size() == 1) {
    if (x[0] < 0 || x[0] >= size)
      bad(0, fmt::format("flat index {} is outside [0, {}): the layout has {} elements", x[0], size, size));
    return;
  }
  if (x.size() != t.shard.size()) return;  // apply_iters reports the count (layout.well-formed)
  for (std::size_t k = 0; k < x.size(); ++k)
    if (x[k] < 0 || x[k] >= t.shard[k].extent)
      bad(k, fmt::format("coordinate {} of shard iter {} is outside [0, {}) (its extent)", x[k], k, t.shard[k].extent));
}

int run_apply(const ApplyOpts& o) {
  Budget* budget = command_budget();
  const Layout l = parse_layout(o.layout, parse_params(o.params));
  l.validate();
  std::optional<std::vector<std::int64_t>> shape;
  if (!o.shape.empty()) {
    shape = parse_int_list(o.shape, "--shape");
    for (std::int64_t d : *shape)
      if (d < 1) throw InputError("cli.usage", fmt::format("--shape: extent {} must be >= 1", d), o.shape, 0);
  }
  std::vector<std::int64_t> coord;
  CoordText ct;
  for (const auto& c : o.coords) {
    auto v = parse_int_list(c, "COORD");
    if (!ct.text.empty()) ct.text += ' ';
    const std::size_t at = ct.text.size();
    ct.text += c;
    for (std::size_t i = 0; i < v.size(); ++i) ct.pos.push_back(at);
    coord.insert(coord.end(), v.begin(), v.end());
  }
  // The pre-swizzle tile coordinate: TVM's keys (the shard iters of the form used, the offsets).
  auto tile_apply = [&](const std::vector<std::int64_t>& x) -> Coord {
    const TileLayout& t = l.tile();
    if (shape) return t.apply(x, *shape);
    if (x.size() == 1) return t.apply(x[0]);
    return t.apply_iters(x);
  };
  auto swizzled = [&](Coord c) {
    if (const SwizzleSpec* z = l.swizzle(); z && c.has(AxisId::m)) c.set(AxisId::m, z->apply(c.get(AxisId::m)));
    return c;
  };
  auto one = [&](const std::vector<std::int64_t>& x, nlohmann::json& j, std::string& text) {
    const Coord tc = tile_apply(x);
    const Coord image = swizzled(tc);
    j["coord"] = coord_json(image);
    text = image.to_string();
    if (o.all_replicas) {
      const auto imgs = replica_images(l, tc);
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
      throw InputError("cli.usage", fmt::format("{} coordinates for --shape of rank {}", coord.size(), shape->size()),
                       ct.text, 0);
    if (!o.extrapolate) check_domain(l, coord, shape, ct);
    nlohmann::json j;
    std::string text;
    one(coord, j, text);
    if (o.json)
      std::cout << dump_json(j, 2) << "\n";
    else
      std::cout << text << "\n";
    return kVerified;
  }
  // Every element, in flat order.
  const std::int64_t n = l.size();
  if (n > kMaxListedElements)
    throw InputError("cli.usage", fmt::format("layout has {} elements; give a COORD to apply to one", n));
  const std::int64_t per = o.all_replicas ? std::min(l.tile().replica_count(), kMaxListedReplicas + 1) : 1;
  if (o.all_replicas && n * per > kMaxListedElements)
    throw InputError("cli.usage", fmt::format("layout has {} elements x {} replica copies; give a COORD to list the "
                                              "copies of one",
                                              n, l.tile().replica_count()));
  // The listing is kept as text (about 40 bytes an element), not as one JSON document (4 M
  // elements took 4.3 GB that way), and printed once at the end, so that a budget running out
  // part way leaves no half-written document on stdout.
  MemoryCharge held = charge(budget, n * per * kBytesPerListedImage, "the apply listing");
  Pacer pace(budget, "apply listing", static_cast<double>(n), "elements");
  std::string listing = o.json ? "{\"elements\":[" : "";
  for (std::int64_t f = 0; f < n; ++f) {
    pace.step(per);
    const auto logical = prove::logical_coord(f, shape);
    nlohmann::json j;
    std::string text;
    one(shape ? logical : std::vector<std::int64_t>{f}, j, text);
    if (o.json) {
      j["logical"] = logical;
      listing += (f ? "," : "") + dump_json(j);
    } else {
      listing += dump_json(nlohmann::json(logical)) + " -> " + text + "\n";
    }
  }
  if (o.json) listing += "]}\n";
  std::cout << listing;
  return kVerified;
}

}  // namespace

void register_apply(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ApplyOpts>();
  CLI::App* cmd = app.add_subcommand("apply", "Map logical coordinates through a layout (TVM apply(), plus replicas)");
  cmd->add_option("layout", o->layout, "Layout in TIRx notation")->required();
  cmd->add_option("coord", o->coords,
                  "Coordinates: one flat index, or per-shard-iter coordinates, or logical coordinates with --shape");
  cmd->add_option("--shape", o->shape, "Logical shape D0,D1,... (coordinates are then logical)");
  cmd->add_flag("--all-replicas", o->all_replicas, "Also list every replica copy");
  cmd->add_flag("--extrapolate", o->extrapolate,
                "Accept coordinates outside the domain and compute TVM's unchecked arithmetic (no range checks)");
  cmd->add_flag("--json", o->json, "JSON output: {\"coord\": {...}, \"replicas\": [...]}");
  add_param_option(cmd, o->params);
  add_budget_options(cmd, o->budget);
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, o->layout, [&] {
      start_budget(o->budget);
      return run_apply(*o);
    });
  });
}

}  // namespace tirx::cli
