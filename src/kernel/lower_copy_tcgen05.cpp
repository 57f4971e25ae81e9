// The tcgen05.ld/st plan of a tile-level TMEM <-> register copy, as TVM's dispatcher derives it
// (lower_tcgen05.hpp; TVM copy_async/tcgen05_ldst.py: _classify_tmem_datapath,
// _match_tcgen05_atom_layout, _tmem_window, _emit_32x32b_path, _emit_16xnb_path,
// _emit_datapath_b_path).
#include <fmt/format.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tcgen05_dispatch.hpp"
#include "tirx_verify/kernel/lower_tcgen05.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "tirx_verify/prove/tmem_datapath.hpp"

namespace tirx::kernel {

namespace {

[[noreturn]] void reject(const std::string& why) {
  throw InputError("kernel.lowering", "TVM's tcgen05 copy dispatcher has no plan: " + why);
}

const ResolvedBuffer& buffer_of(const KernelContext& ctx, const Region& r) {
  const ResolvedBuffer* b = ctx.buffer(r.buffer);
  if (!b) throw InputError("model.schema", fmt::format("no buffer '{}'", r.buffer));
  if (!b->layout)
    throw InputError("kernel.layout", fmt::format("buffer '{}' has no usable layout ({})", r.buffer, b->layout_error));
  return *b;
}

struct Window {
  std::int64_t width = 0;    // elements
  std::int64_t col_off = 0;  // TCol offset of the window, elements
  int sub_slab = 0;
};

// _tmem_window: the region's column window of the TMEM buffer, checked against Layout D or F.
Window tmem_window(const ResolvedBuffer& t, const Region& r, bool atom_32x32b, std::int64_t frag_rows) {
  const auto& shape = t.model->shape;
  if (shape.size() < 2) reject(fmt::format("the TMEM buffer '{}' has rank {}, it needs (rows, cols)", t.model->name,
                                           shape.size()));
  const std::size_t nd = r.dims.size();
  for (std::size_t d = 0; d + 2 < nd; ++d)
    if (r.dims[d].hi - r.dims[d].lo != 1)
      reject(fmt::format("leading TMEM region dimensions must be points; '{}' has extent {} in dimension {}", r.text,
                         r.dims[d].hi - r.dims[d].lo, d));
  const std::int64_t rows = r.dims[nd - 2].hi - r.dims[nd - 2].lo;
  if (rows != frag_rows)
    reject(fmt::format("the TMEM row extent of '{}' must be the fragment's {} rows, got {}", r.text, frag_rows, rows));
  Window w;
  w.width = r.dims[nd - 1].hi - r.dims[nd - 1].lo;
  const bool full = shape[nd - 2] == 128;  // TVM: datapath D iff the buffer has 128 rows, else F
  const char dp = full ? 'D' : 'F';
  // _TMEM_ATOM_COMPAT: D with .32x32b (128 rows) or .16x*b (64 or 128 rows); F with .16x*b (64).
  const bool compat = full ? (atom_32x32b ? frag_rows == 128 : true) : (!atom_32x32b && frag_rows == 64);
  if (!compat)
    reject(fmt::format("a TMEM buffer with datapath {} (buffer rows {}) is incompatible with the {} atom and a "
                       "{}-row fragment (PTX ISA 9.1 §9.7.16.10.5)",
                       dp, shape[nd - 2], atom_32x32b ? ".32x32b" : ".16x*b", frag_rows));
  std::vector<std::pair<std::int64_t, std::int64_t>> reg;
  for (const auto& d : r.dims) reg.emplace_back(d.lo, d.hi);
  const auto sl = slice(*t.layout, shape, reg);
  if (!sl || sl->is_compose())
    reject(fmt::format("the TMEM layout of '{}' sliced to '{}' is not a TileLayout", t.model->name, r.text));
  const TileLayout window = canonicalize(sl->tile());
  const TileLayout base = full ? TileLayout({Iter{frag_rows, 1, AxisId::TLane}, Iter{w.width, 1, AxisId::TCol}})
                               : tmem_datapath_layout("F", 64, w.width);
  const TileLayout expected = canonicalize(TileLayout(base.shard, base.replica, window.offset));
  if (!(window == expected))
    reject(fmt::format("the TMEM window '{}' is {}, not Layout {} of its extent ({})", r.text,
                       print_layout(Layout(window)), dp, print_layout(Layout(expected))));
  const std::int64_t lane_off = window.offset.get(AxisId::TLane);
  if (lane_off != 0 && lane_off != 16)
    reject(fmt::format("the TMEM window '{}' has TLane offset {}; only 0 or 16 (the Layout F sub-slab) fit the row "
                       "immediate",
                       r.text, lane_off));
  if (lane_off && full)
    reject(fmt::format("datapath D spans both sub-slabs and cannot carry a TLane offset (window '{}' has {})", r.text,
                       lane_off));
  w.col_off = window.offset.get(AxisId::TCol);
  w.sub_slab = static_cast<int>(lane_off / 16);
  return w;
}

bool pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

Tcgen05CopyPlan lower_tcgen05_copy(const KernelContext& ctx, const Op& op, const CopyOp& c) {
  const ResolvedBuffer& dst = buffer_of(ctx, c.dst);
  const ResolvedBuffer& src = buffer_of(ctx, c.src);
  Tcgen05CopyPlan p;
  if (src.scope == prove::Scope::kTmem && dst.scope == prove::Scope::kLocal) {
    p.tmem = c.src;
    p.regs = c.dst;
  } else if (src.scope == prove::Scope::kLocal && dst.scope == prove::Scope::kTmem) {
    p.store = true;
    p.tmem = c.dst;
    p.regs = c.src;
  } else {
    reject(fmt::format("it moves {} -> {}; tcgen05 copies move tmem <-> local", src.model->scope, dst.model->scope));
  }
  const ResolvedBuffer& t = *ctx.buffer(p.tmem.buffer);
  const ResolvedBuffer& r = *ctx.buffer(p.regs.buffer);
  if (t.model->dtype != r.model->dtype)
    reject(fmt::format("it asserts equal dtypes; TMEM '{}' is {}, registers '{}' {}", t.model->name, t.model->dtype,
                       r.model->name, r.model->dtype));
  const int bits = r.elem_bits;
  if (bits <= 0 || bits > 32 || 32 % bits != 0) reject(fmt::format("{}-bit elements do not pack into 32-bit cells", bits));
  const std::int64_t epb = 32 / bits;
  const auto& rshape = r.model->shape;
  if (rshape.size() != 2) reject(fmt::format("the local buffer '{}' must be 2-D, it has rank {}", r.model->name, rshape.size()));
  if (p.regs.dims.size() != 2) reject("the register region must be 2-D");
  const std::int64_t local_lo1 = p.regs.dims[1].lo, local_ext1 = p.regs.dims[1].hi - p.regs.dims[1].lo;
  // A warpgroup copy executed by some of its warps only (under a warp-divergent branch) is the
  // copy of all the fragment's rows; the op's regions name the rows those warps move. The plan
  // is derived from the full rows and checked on the op's regions.
  Region tmem_full = p.tmem, regs_full = p.regs;
  auto full_rows = [&](std::int64_t frag_rows) {
    const std::size_t nd = tmem_full.dims.size();
    if (static_cast<int>(op.warps.size()) >= ctx.target->warps_per_warpgroup || nd < 2) return;
    if (tmem_full.dims[nd - 2].hi - tmem_full.dims[nd - 2].lo == frag_rows) return;
    if (t.model->shape[nd - 2] < frag_rows || r.model->shape[0] < frag_rows) return;
    tmem_full.dims[nd - 2] = {0, frag_rows, false};
    regs_full.dims[0] = {0, frag_rows, false};
    p.partial_warpgroup = true;
  };
  const DType dt = DType::parse(r.model->dtype);
  const std::int64_t base_lane = t.tmem_lane;
  // Each warp's issues from the dispatcher's pairing table (hw::tcgen05_ldst_plan, shared with the
  // layout check tmem.datapath): absolute lanes 32 (w % 4) + 16 (sub_slab + slab) there, the
  // warp-relative row TVM emits here; `full` is the whole atom's instruction (its register step
  // between slabs), `in` the one issued (a column slice may need a smaller .num).
  auto plan_issues = [&](hw::Datapath dp, int sub_slab, const hw::LdStInstr& full, const hw::LdStInstr& in,
                         std::int64_t frag_rows, std::int64_t col, std::int64_t reg_base,
                         std::optional<std::int64_t> row_override) {
    const int wpw = ctx.target->warps_per_warpgroup, sub = ctx.target->tmem_subpartition_lanes();
    for (int w : op.warps) {
      std::vector<hw::LdStIssue> plan;
      try {
        plan = hw::tcgen05_ldst_plan(*ctx.target, dp, sub_slab, full, static_cast<int>(frag_rows),
                                     hw::TmemAddress::make(0, static_cast<std::uint32_t>(col)), w % wpw);
      } catch (const InputError& e) {
        reject(e.message());
      }
      for (std::size_t k = 0; k < plan.size(); ++k) {
        const std::int64_t row = row_override ? *row_override + 16 * static_cast<std::int64_t>(k)
                                              : plan[k].address.lane() - sub * (w % wpw);
        p.issues.push_back({w, in, {base_lane + row, t.tmem_col + plan[k].address.col()}, reg_base + plan[k].first_reg});
      }
    }
  };

  // Layout B: identified from the TMEM side first (_emit_datapath_b_path).
  const auto& tshape = t.model->shape;
  if (tshape.size() == 2 && tshape[0] == 64 && !t.layout->is_compose()) {
    const auto cls = prove::classify_tmem_datapath(t.layout->tile(), tshape[0], tshape[1]);
    if (cls && cls->dp == hw::Datapath::B) {
      if (epb != 1) reject("datapath B readback expects a 32-bit fragment");
      if (rshape[0] != 64) reject(fmt::format("a datapath B fragment must be (64, N), '{}' has {} rows", r.model->name, rshape[0]));
      const std::int64_t n = rshape[1];
      if (!(canonicalize(r.layout->tile()) == canonicalize(tcgen05_atom_layout("32x32b", 64, n, dt))) ||
          r.layout->is_compose())
        reject(fmt::format("datapath B needs the fragment tcgen05_atom_layout(\"32x32b\", (64, {}), ...); '{}' is "
                           "another layout",
                           n, r.model->name));
      if (p.tmem.size() != t.layout->size() || p.regs.size() != r.layout->size())
        reject("a datapath B copy must cover the whole (64, N) TMEM buffer and register fragment");
      hw::LdStInstr in;
      in.shape = hw::LdStShape::k32x32b;
      in.num = static_cast<int>(n / 2);
      if (!pow2(in.num) || in.num > hw::max_num(in.shape)) reject(fmt::format(".32x32b.x{} is not a legal .num", in.num));
      p.datapath = "B";
      plan_issues(hw::Datapath::B, 0, in, in, 64, 0, 0, std::nullopt);
      p.path = fmt::format("Layout B image, {} at row 0", hw::spelling(in, p.store));
      return p;
    }
  }

  // .16x*b path: the register buffer is a tcgen05_atom_layout of one of the .16x*b shapes.
  std::optional<prove::Tcgen05Fragment> atom;
  if (rshape[0] == 64 || rshape[0] == 128) {
    atom = prove::match_tcgen05_fragment(*r.layout, rshape[0], rshape[1], dt);
    if (atom && atom->shape == "32x32b") atom.reset();  // TVM probes the three .16x*b shapes only
  }
  if (atom) {
    const std::int64_t frag_rows = rshape[0];
    const int num = atom->instr.num;
    const std::int64_t col_factor = atom->shape == "16x64b" ? 2 : atom->shape == "16x128b" ? 4 : 8;  // 32-bit cols/rep
    const std::int64_t regs_per_slab = hw::regs_per_thread(atom->instr);
    const std::int64_t n_slabs = frag_rows / 64;
    const std::int64_t width_elems = col_factor * num * epb;
    full_rows(frag_rows);
    const std::int64_t local_lo0 = regs_full.dims[0].lo, local_ext0 = regs_full.dims[0].hi - regs_full.dims[0].lo;
    const Window w = tmem_window(t, tmem_full, false, frag_rows);
    if (w.sub_slab + n_slabs > 2)
      reject(fmt::format("sub_slab {} with a {}-row fragment exceeds the 2 half-slabs of a warp's sub-partition",
                         w.sub_slab, frag_rows));
    if (local_lo0 != 0 || local_ext0 != frag_rows)
      reject(fmt::format("the register region '{}' must span all {} fragment rows", p.regs.text, frag_rows));
    if (local_ext1 != w.width)
      reject(fmt::format("the register region '{}' has {} columns, the TMEM window {}", p.regs.text, local_ext1, w.width));
    if (width_elems % local_ext1 != 0)
      reject(fmt::format("the column slice width {} must divide the atom width {}", local_ext1, width_elems));
    if (w.col_off % epb != 0 || local_lo1 % epb != 0)
      reject("the TMEM and register column offsets must be whole 32-bit columns");
    hw::LdStInstr in = atom->instr;
    in.num = static_cast<int>(num * local_ext1 / width_elems);
    if (!pow2(in.num)) reject(fmt::format(".{}.x{} is not a legal .num", atom->shape, in.num));
    const std::int64_t local_reg_base = local_lo1 * regs_per_slab / width_elems;
    p.datapath = t.model->shape[t.model->shape.size() - 2] == 128 ? "D" : "F";
    p.sub_slab = w.sub_slab;
    p.derived_row = 16 * w.sub_slab;
    p.row_imm = c.row_imm;
    const std::int64_t row0 = c.row_imm ? *c.row_imm : p.derived_row;
    plan_issues(p.datapath == "D" ? hw::Datapath::D : hw::Datapath::F, w.sub_slab, atom->instr, in, frag_rows,
                w.col_off / epb, local_reg_base, c.row_imm);
    p.path = fmt::format("Layout {}{}, {} {} at row {}{}", p.datapath,
                         p.datapath == "F" ? fmt::format(" sub_slab {}", p.sub_slab) : "", n_slabs,
                         hw::spelling(in, p.store), row0, n_slabs == 2 ? fmt::format(" and {}", row0 + 16) : "");
    if (c.row_imm) p.path += fmt::format(" (emitted row immediate {}; the dispatcher derives {})", *c.row_imm, p.derived_row);
    if (p.partial_warpgroup) p.path += fmt::format(" (the {}-row warpgroup copy, executed by warps {} only)", frag_rows,
                                                   nlohmann::json(op.warps).dump());
    return p;
  }

  // .32x32b path (_emit_32x32b_path): 128-row fragment, one issue per warp at row 0.
  if (rshape[0] != 128)
    reject(fmt::format("the register fragment '{}' ({} x {}) is no .16x*b atom, and the .32x32b path needs 128 rows",
                       r.model->name, rshape[0], rshape[1]));
  if (local_ext1 % epb != 0) reject(fmt::format("width {} is not valid for .32x32b ({} elements per register)", local_ext1, epb));
  hw::LdStInstr in;
  in.shape = hw::LdStShape::k32x32b;
  in.num = static_cast<int>(local_ext1 / epb);
  if (!pow2(in.num) || in.num > hw::max_num(in.shape))
    reject(fmt::format("width {} gives .32x32b.x{}, not a legal .num", local_ext1, in.num));
  full_rows(128);
  const std::int64_t local_lo0 = regs_full.dims[0].lo, local_ext0 = regs_full.dims[0].hi - regs_full.dims[0].lo;
  const Window w = tmem_window(t, tmem_full, true, 128);
  if (local_lo0 != 0 || local_ext0 != 128)
    reject(fmt::format("the register region '{}' must span all 128 fragment rows", p.regs.text));
  if (w.col_off % epb != 0) reject("the TMEM column offset must be a whole 32-bit column");
  if (w.width != local_ext1)
    reject(fmt::format("the TMEM window has {} columns, the register region {}", w.width, local_ext1));
  p.datapath = "D";
  p.derived_row = 0;
  p.row_imm = c.row_imm;
  const std::int64_t row0 = c.row_imm ? *c.row_imm : 0;
  plan_issues(hw::Datapath::D, 0, in, in, 128, w.col_off / epb, local_lo1 / epb, c.row_imm);
  p.path = fmt::format("Layout D, {} at row {}", hw::spelling(in, p.store), row0);
  if (p.partial_warpgroup) p.path += fmt::format(" (the 128-row warpgroup copy, executed by warps {} only)",
                                                 nlohmann::json(op.warps).dump());
  if (c.row_imm) p.path += fmt::format(" (emitted row immediate {}; the dispatcher derives 0)", *c.row_imm);
  return p;
}

}  // namespace tirx::kernel
