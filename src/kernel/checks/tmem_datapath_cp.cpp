// kernel.tmem-datapath, part (d): a tile-level shared -> TMEM copy (copy / copy_async with
// dispatch tcgen05.cp) whose instruction shape the kernel names (TIRx shape= / multicast=).
//
// tcgen05.cp writes source row r of its shape to the lanes cp_destination_lanes(shape, L0, r)
// (hw/tcgen05_cp.hpp; PTX ISA 9.1 §9.7.16.9.2): one lane, or the multicast's copies spaced
// copy_step lanes apart, all at one column. So the TMEM layout of the copied region must give
// every element exactly those images: as many replicas as the multicast writes, at those lanes,
// in one column. An element with more images than the multicast writes holds stale data in
// the others (the layout promises a copy nobody made); one with fewer, or at other lanes, is
// read elsewhere than it was written. TVM's planner refuses both (copy_async/tcgen05_cp.py,
// _cp_lane_replica_pattern: the region's replica must be the multicast's, its lanes the shape's
// row pattern). L0, the copy's first lane, is the smallest lane of the region's images (source
// row 0 lands there). The column placement and the source side are the planner's (not checked
// here); the element count must be a whole number of the shape's atoms (rows x row bits).
#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "tirx_verify/hw/tcgen05_cp.hpp"
#include "tmem_datapath.hpp"

namespace tirx::kernel::checks {

namespace {

std::string cp_lanes_text(const std::vector<int>& lanes) {
  std::string s;
  for (int l : lanes) s += (s.empty() ? "" : ", ") + std::to_string(l);
  return "{" + s + "}";
}

// Shapes whose multicast writes `copies` lanes per row: the ones a fix can name.
std::string cp_shapes_with_copies(std::size_t copies) {
  std::string s;
  for (hw::CpShape sh : hw::kAllCpShapes)
    if (hw::cp_destination_lanes(sh, 0, 0).size() == copies)
      s += (s.empty() ? "" : ", ") + std::string(hw::to_string(sh));
  return s;
}

}  // namespace

KernelFinding tmem_cp_copy_op(const KernelContext& ctx, ImageCache& cache, std::size_t i, const CopyOp& c) {
  const Region& tr = c.dst;
  std::vector<std::string> related = {c.src.buffer, tr.buffer};
  const hw::CpShape shape = *c.cp_shape;
  const std::string name = fmt::format("tcgen05.cp.{}", hw::to_string(shape));
  try {
    const ResolvedBuffer& t = *ctx.buffer(tr.buffer);
    if (!t.layout)
      throw InputError("kernel.layout", fmt::format("the layout of '{}' did not parse: {}", t.model->name, t.layout_error));
    if (t.elem_bits <= 0 || hw::cp_row_bits(shape) % t.elem_bits != 0)
      throw InputError("kernel.layout", fmt::format("'{}' has {}-bit elements, which do not tile a {}-bit {} row",
                                                    t.model->name, t.elem_bits, hw::cp_row_bits(shape), name));
    const std::int64_t atom = static_cast<std::int64_t>(hw::cp_rows(shape)) * (hw::cp_row_bits(shape) / t.elem_bits);
    const std::int64_t n = tr.size();
    const TmemImageTable& tt = cache.tmem(t);
    if (n * tt.replicas > cache.max_points())
      throw InputError("kernel.limit", fmt::format("{} elements x {} images exceed the limit of {} points", n,
                                                   tt.replicas, cache.max_points()));
    const auto& flat = cache.flats(t, tr);
    std::vector<Problem> problems;
    if (n % atom != 0)
      problems.push_back({Severity::kError,
                          fmt::format("region '{}' has {} elements, not a whole number of {} atoms ({} rows x {} "
                                      "elements of {} bits)",
                                      tr.text, n, name, hw::cp_rows(shape), hw::cp_row_bits(shape) / t.elem_bits,
                                      t.elem_bits),
                          {{"elements", n}, {"atom_elements", atom}},
                          ""});
    std::int64_t lane0 = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t e = 0; e < n; ++e)
      for (const TmemCell& img : tt.of(flat[static_cast<std::size_t>(e)])) lane0 = std::min(lane0, img.lane);
    // The lane pattern of every source row from L0, keyed by the row's first lane.
    std::map<int, std::vector<int>> rows;
    const int geometry_lanes = ctx.target->tmem ? ctx.target->tmem->lanes : 128;
    for (int r = 0; r < hw::cp_rows(shape); ++r) {
      std::vector<int> lanes = hw::cp_destination_lanes(shape, static_cast<int>(lane0), r);
      if (lanes.back() >= geometry_lanes && problems.empty())
        problems.push_back({Severity::kError,
                            fmt::format("{} from lane {} writes source row {} to lanes {}: past TMEM's {} lanes", name,
                                        lane0, r, cp_lanes_text(lanes), geometry_lanes),
                            {{"lane0", lane0}, {"row", r}, {"lanes", lanes}},
                            ""});
      rows.emplace(lanes.front(), std::move(lanes));
    }
    std::int64_t bad = 0;
    std::size_t first_bad = 0;
    for (std::int64_t e = 0; e < n; ++e) {
      const auto imgs = tt.of(flat[static_cast<std::size_t>(e)]);
      std::set<int> lane_set;
      std::set<std::int64_t> cols;
      for (const TmemCell& img : imgs) {
        lane_set.insert(static_cast<int>(img.lane));
        cols.insert(img.col);
      }
      const std::vector<int> have(lane_set.begin(), lane_set.end());
      const auto row = rows.find(have.front());
      const bool ok = row != rows.end() && row->second == have && cols.size() == 1 && imgs.size() == have.size();
      if (ok) continue;
      if (++bad > 1) continue;
      first_bad = problems.size();
      const auto coord = tr.coord(e);
      const std::vector<int> want = row != rows.end() ? row->second : std::vector<int>{};
      const std::vector<int> pattern = hw::cp_destination_lanes(shape, 0, 0);
      const std::string writes = pattern.size() == 1
                                     ? std::string("writes each source row to one lane")
                                     : fmt::format("writes each source row to {} lanes, {} apart", pattern.size(),
                                                   pattern[1] - pattern[0]);
      std::string msg = fmt::format("element {} of '{}' has its TMEM images at lanes {}{}; {} {} (the row landing at "
                                    "lane {} goes to {})",
                                    coord_text(coord), t.model->name, cp_lanes_text(have),
                                    cols.size() == 1 ? "" : fmt::format(" in {} columns", cols.size()), name, writes,
                                    have.front(), want.empty() ? "no lanes: no source row lands there" : cp_lanes_text(want));
      std::string fix;
      if (have.size() != pattern.size()) {
        msg += fmt::format(": the layout has {} image(s) per element, the instruction writes {}", have.size(),
                           pattern.size());
        const std::string alt = cp_shapes_with_copies(have.size());
        if (!alt.empty()) fix = fmt::format("a shape whose multicast writes {} lanes per row: {}", have.size(), alt);
      }
      nlohmann::json w = {{"element", coord}, {"lanes", have}, {"expected_lanes", want}, {"lane0", lane0},
                          {"shape", std::string(hw::to_string(shape))}};
      problems.push_back({Severity::kError, msg, w, fix});
    }
    if (bad > 1) problems[first_bad].message += fmt::format(" (and {} more elements)", bad - 1);
    return problems_finding(ctx, i, std::move(problems),
                            fmt::format("{}: every one of the {} elements of '{}' has its TMEM images at the lanes the "
                                        "instruction writes one source row to (first lane {})",
                                        name, n, tr.text, lane0),
                            related);
  } catch (const InputError& e) {
    return exception_finding(ctx, i, e, related);
  }
}

}  // namespace tirx::kernel::checks
