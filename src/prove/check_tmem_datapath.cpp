// tmem.datapath — the tcgen05.ld/st instructions that move a register fragment to or from a
// TMEM buffer put every element where both layouts say it is.
//
// 1. Classify the TMEM layout (its TCol offset is the window's first column) against the data
//    paths the copy dispatcher knows: Layout D (128 rows), Layout F sub_slab 0 or 1 and Layout B
//    (64 rows) — PTX ISA 9.1 §9.7.16.10.5 "Data Path Layout Organization"; tirx semantics (h).
// 2. Match the fragment (--access) against tcgen05_atom_layout for .16x64b/.16x128b/.16x256b and
//    .32x32b (PTX ISA 9.1 §9.7.16.2.3 "Data Movement Shape"), which gives the shape and .num.
// 3. Plan the issues per warp (hw::tcgen05_ldst_plan: the row immediate 0/16 comes from the
//    data path and sub_slab) — or use the row immediate the compiler emitted (--row-imm) — and
//    execute them in the simulator.
// 4. Compare element by element: the (lane, column, half) the TMEM layout gives must be the cell
//    the instruction moves for the (thread, register, half) the fragment gives.
// Witness: the first element whose two answers differ, with both cells and the instruction.
#include <fmt/format.h>

#include <map>

#include "checks_internal.hpp"
#include "fragment.hpp"
#include "tirx_verify/hw/tcgen05_dispatch.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::prove {

namespace {

struct Classified {
  hw::Datapath dp = hw::Datapath::D;
  int sub_slab = 0;
  std::string name;
};

std::optional<Classified> classify(const TileLayout& stripped, std::int64_t rows, std::int64_t cols) {
  const TileLayout c = canonicalize(stripped);
  auto same = [&](const TileLayout& f) { return canonicalize(f) == c; };
  if (rows == 128 && same(tmem_datapath_layout("D", 128, cols))) return Classified{hw::Datapath::D, 0, "Layout D"};
  if (rows == 64) {
    if (cols % 2 == 0 && same(tmem_datapath_layout("B", 64, cols))) return Classified{hw::Datapath::B, 0, "Layout B"};
    for (int s : {0, 1})
      if (same(tmem_datapath_layout("F", 64, cols, s)))
        return Classified{hw::Datapath::F, s, fmt::format("Layout F sub_slab {}", s)};
  }
  return std::nullopt;
}

struct Matched {
  std::string shape;
  hw::LdStInstr instr;
};

std::optional<Matched> match_fragment(const Layout& frag, std::int64_t rows, std::int64_t cols, const DType& dt) {
  if (frag.is_compose()) return std::nullopt;
  const TileLayout c = canonicalize(frag.tile());
  const int epb = 32 / dt.bits;
  for (const char* shape : {"16x64b", "16x128b", "16x256b", "32x32b"}) {
    TileLayout atom;
    try {
      atom = tcgen05_atom_layout(shape, rows, cols, dt);
    } catch (const InputError&) {
      continue;
    }
    if (canonicalize(atom) != c) continue;
    Matched m;
    m.shape = shape;
    m.instr.shape = hw::parse_ldst_shape(shape);
    if (m.shape == "32x32b")
      m.instr.num = static_cast<int>(rows == 64 ? cols / 2 : cols / epb);
    else
      m.instr.num = static_cast<int>(cols / (std::int64_t{m.shape == "16x64b" ? 2 : m.shape == "16x128b" ? 4 : 8} * epb));
    return m;
  }
  return std::nullopt;
}

}  // namespace

CheckResult check_tmem_datapath(const CheckInput& in) {
  CheckResult res;
  res.id = "tmem.datapath";
  res.engine = "sim";
  auto na = [&](std::string why) {
    res.status = Status::kNotApplicable;
    res.message = std::move(why);
    return res;
  };
  if (in.scope != Scope::kTmem || !in.access) return na(in.scope != Scope::kTmem ? "not a tmem buffer" : "no --access fragment given");
  if (!in.target) return na("no target description");
  if (!in.shape || in.shape->size() != 2) return na("needs the 2-D buffer shape (rows, cols)");
  if (in.elem_bits != 16 && in.elem_bits != 32) return na("tcgen05.ld/st fragments exist for 16- and 32-bit dtypes");
  auto fail = [&](std::string msg, nlohmann::json w) {
    res.status = Status::kFail;
    res.message = std::move(msg);
    res.witness = std::move(w);
    return res;
  };
  const std::int64_t rows = (*in.shape)[0], cols = (*in.shape)[1];
  const int epb = 32 / in.elem_bits;
  TileLayout stripped = in.layout.tile();
  const std::int64_t col_base = stripped.offset.get(AxisId::TCol);
  stripped.offset.erase(AxisId::TCol);
  if (col_base % epb != 0)
    return fail(fmt::format("TCol offset {} is not a whole 32-bit column for {}-bit elements", col_base, in.elem_bits),
                {{"tcol_offset", col_base}});
  const auto cls = classify(stripped, rows, cols);
  if (!cls)
    return fail(fmt::format("({}, {}) TMEM layout is not a data path tcgen05.ld/st can move (Layout D for 128 rows; "
                            "Layout F sub_slab 0/1 or B for 64 rows)",
                            rows, cols),
                {{"layout", print_layout(canonicalize(Layout(stripped)))}});
  const DType dt = DType::parse(in.dtype.empty() ? (in.elem_bits == 16 ? "float16" : "float32") : in.dtype);
  const auto m = match_fragment(*in.access, rows, cols, dt);
  if (!m)
    return fail("the access layout is not a tcgen05_atom_layout fragment (16x64b, 16x128b, 16x256b or 32x32b) of this "
                "shape and dtype",
                {{"access", in.access_text}});
  const hw::Target& target = *in.target;
  const int warps = target.warps_per_warpgroup;
  const int part = target.tmem ? target.tmem->lanes / warps : 0;
  // (thread, register) -> (lane, col) of every issue of every warp.
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<int, int>> moved;
  MemoryCharge moved_bytes = charge(in.limits.budget, 0, "the simulated tcgen05 cells");  // ~64 B per node
  Pacer issue_pace(in.limits.budget, "tcgen05.ld/st simulation", 0, "issues");
  std::vector<std::string> issues_text;
  for (int w = 0; w < warps; ++w) {
    std::vector<hw::LdStIssue> plan;
    try {
      plan = hw::tcgen05_ldst_plan(target, cls->dp, cls->sub_slab, m->instr, static_cast<int>(rows),
                                   hw::TmemAddress::make(0, static_cast<std::uint32_t>(col_base / epb)), w);
    } catch (const InputError& e) {
      return fail(fmt::format("{} with a {}-row .{} fragment: {}", cls->name, rows, m->shape, e.message()),
                  {{"datapath", cls->name}, {"atom", m->shape}});
    }
    for (std::size_t i = 0; i < plan.size(); ++i) {
      issue_pace.step();
      hw::LdStIssue issue = plan[i];
      if (in.row_imm)
        issue.address = hw::TmemAddress::make(static_cast<std::uint32_t>(part * w + *in.row_imm + 16 * static_cast<int>(i)),
                                              static_cast<std::uint32_t>(issue.address.col()));
      const int row = issue.address.lane() - part * w;
      if (w == 0) issues_text.push_back(fmt::format("{} at row {}", hw::spelling(m->instr, false), row));
      const int regs = hw::regs_per_thread(m->instr);
      moved_bytes.grow(std::int64_t{64} * target.warp_size * regs, "the simulated tcgen05 cells");
      for (int t = 0; t < target.warp_size; ++t)
        for (int r = 0; r < regs; ++r) {
          const hw::LdStCell cell = hw::ldst_cell(m->instr, issue.address, t, r);
          moved[{std::int64_t{w} * target.warp_size + t, issue.first_reg + r}] = {cell.lane, cell.col};
        }
    }
  }
  std::string plan_text;
  for (std::size_t i = 0; i < issues_text.size(); ++i) plan_text += (i ? ", " : "") + issues_text[i];
  const MachineLimits& ml = in.machine;
  const std::int64_t n = in.layout.size();
  Pacer pace(in.limits.budget, "tmem.datapath comparison", static_cast<double>(n), "elements");
  for (std::int64_t e = 0; e < n; ++e) {
    pace.step();
    const FragmentSlot f = fragment_slot(in.access->apply(e), ml);
    const Coord c = in.layout.apply(e);
    const std::int64_t lane = c.get(AxisId::TLane), col = c.get(AxisId::TCol);
    auto it = moved.find({f.thread, f.slot / epb});
    const bool ok = it != moved.end() && it->second.first == lane && it->second.second == col / epb &&
                    f.slot % epb == col % epb;
    if (!ok) {
      nlohmann::json instr = {{"plan", plan_text}, {"thread", f.thread}, {"register", f.slot / epb}};
      if (it != moved.end()) {
        instr["lane"] = it->second.first;
        instr["col"] = it->second.second;
      }
      return fail(
          fmt::format("element {}: the layout puts it at TMEM lane {} column {}, but the instructions ({}) move "
                      "thread {} register {} {}",
                      nlohmann::json(logical_coord(e, in.shape)).dump(), lane, col / epb, plan_text, f.thread,
                      f.slot / epb,
                      it == moved.end() ? std::string("nowhere")
                                        : fmt::format("from/to lane {} column {}", it->second.first, it->second.second)),
          {{"element", point_json(in, e, 0)},
           {"layout", {{"lane", lane}, {"col", col / epb}, {"half", col % epb}}},
           {"instruction", instr},
           {"datapath", cls->name}});
    }
  }
  res.status = Status::kPass;
  res.message = fmt::format("{} + .{} fragment: {} per warp; all {} elements agree", cls->name, m->shape, plan_text, n);
  res.witness = {{"datapath", cls->name}, {"plan", plan_text}};
  return res;
}

}  // namespace tirx::prove
