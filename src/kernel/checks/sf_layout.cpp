// kernel.sf-layout: the scale factors a block-scaled MMA reads are where the SF buffers' layouts
// put them, and the tcgen05.cp that fills an SF buffer puts them there (docs/checks.md).
//
//   op                              checked
//   tcgen05.mma (mxf8f6f4, mxf4,    scale_vec vs the kind, K and the SF dtype
//   mxf4nvf4)                       (hw::validate_block_scaling, PTX ISA 9.1 §9.7.16.10.7.1);
//                                   the SF regions' extents (MN rows, scale factors per MMA);
//                                   every (MN index x, scale index s): each cell
//                                   hw::scale_factor_cells gives (SF data path 4x1 / 2x2 from
//                                   M and cta_group, all replicas) holds that scale factor
//                                   under the SF buffer's layout
//   gemm_async with sfa / sfb       the same through TVM's plan (kind and scale_vec from the
//                                   dtypes, SF address and SF_ID per K step from the SF layout)
//   tcgen05.cp into an SF buffer    every element of the shared region: the source byte the
//                                   copy reads through its descriptor (hw::SmemDescriptor), the
//                                   destination cells (hw::cp_destination_lanes), which must be
//                                   every TMEM image of the element
//
// SF_ID (the byte of the cell an MMA's scale factors start at) is the op's sfa_id / sfb_id (the
// instruction descriptor's fields; 0 when not given); a gemm_async's is TVM's: the TCol of the
// K step's first scale factor mod 4 when several K steps share a cell, else 0.
#include <fmt/format.h>

#include <unordered_map>

#include "tirx_verify/hw/smem_descriptor.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tcgen05_cp.hpp"
#include "tirx_verify/kernel/lower_tcgen05.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tmem_problems.hpp"

namespace tirx::kernel::checks {

namespace {

constexpr std::int64_t kMaxSfPoints = std::int64_t{1} << 22;
constexpr int kByteBits = 8;

bool has_image(std::span<const TmemCell> imgs, const TmemCell& c) {
  return std::find(imgs.begin(), imgs.end(), c) != imgs.end();
}

nlohmann::json cells_json(const std::vector<TmemCell>& cells) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& c : cells) j.push_back({{"lane", c.lane}, {"col", c.col}, {"byte", c.bit / kByteBits}});
  return j;
}

std::string lanes_of(const std::vector<TmemCell>& cells) {
  std::string s = "[";
  for (std::size_t i = 0; i < cells.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", cells[i].lane);
  return s + "]";
}

std::vector<int> legal_sf_ids(hw::ScaleVec v) {
  switch (v) {
    case hw::ScaleVec::k1X: return {0, 1, 2, 3};
    case hw::ScaleVec::k2X: return {0, 2};
    case hw::ScaleVec::k4X: return {0};
  }
  return {0};
}

// One MMA's reads of one SF operand: region rows [row0, row0 + mn) and scale columns
// [col0, col0 + scales) at SF address `addr` with SF_ID `sf_id`.
struct SfRead {
  std::int64_t row0 = 0, col0 = 0;
  hw::TmemAddress addr;
  int sf_id = 0;
};

struct SfOperand {
  const char* name;       // "SFA" / "SFB"
  Region region;
  hw::SfDatapath dp;
  int mn = 0;             // MN extent one MMA reads (mn_total of scale_factor_cells)
  std::int64_t cols = 1;  // the region's scale-factor columns (1 for a 1-D region)
  std::vector<SfRead> reads;
};

// Checks every scale factor of every read; appends the first mismatch as a problem.
void sf_problems(const KernelContext& ctx, ImageCache& cache, const SfOperand& op, hw::ScaleVec vec,
                 const std::string& instr, std::vector<Problem>& out) {
  const ResolvedBuffer& b = *ctx.buffer(op.region.buffer);
  const TmemImageTable& tt = cache.tmem(b);
  const std::vector<std::int64_t>& flats = cache.flats(b, op.region);
  const int scales = hw::scale_vec_scales(vec);
  std::int64_t bad = 0, total = 0;
  struct First {
    std::int64_t idx;
    int x, s;
    std::size_t read;
    std::vector<TmemCell> want, have;
  };
  std::optional<First> first;
  const std::int64_t rows = static_cast<std::int64_t>(flats.size()) / op.cols;
  for (const SfRead& rd : op.reads)
    if (rd.row0 + op.mn > rows || rd.col0 + scales > op.cols) {
      out.push_back({Severity::kError,
                     fmt::format("{} reads {} scale factors of rows {}..{} from column {} of '{}', past its {} x {} "
                                 "region",
                                 instr, op.name, rd.row0, rd.row0 + op.mn - 1, rd.col0, op.region.text, rows, op.cols),
                     {{"operand", op.name}, {"rows", {rd.row0, rd.row0 + op.mn - 1}}, {"col0", rd.col0},
                      {"region", {rows, op.cols}}},
                     ""});
      return;
    }
  for (std::size_t r = 0; r < op.reads.size(); ++r) {
    const SfRead& rd = op.reads[r];
    for (int x = 0; x < op.mn; ++x)
      for (int s = 0; s < scales; ++s) {
        ++total;
        const std::int64_t idx = (rd.row0 + x) * op.cols + rd.col0 + s;
        const auto imgs = tt.of(flats[static_cast<std::size_t>(idx)]);
        std::vector<TmemCell> want;
        for (const hw::SfCell& c : hw::scale_factor_cells(*ctx.target, op.dp, vec, x, s, rd.sf_id, op.mn, rd.addr))
          want.push_back({c.lane, c.col, c.byte * kByteBits});
        bool ok = true;
        for (const auto& c : want) ok = ok && has_image(imgs, c);
        if (ok) continue;
        ++bad;
        if (!first) first = First{idx, x, s, r, want, std::vector<TmemCell>(imgs.begin(), imgs.end())};
      }
  }
  if (!first) return;
  const SfRead& rd = op.reads[first->read];
  const auto coord = op.region.coord(first->idx);
  // Classify: the right (column, byte) at some of the lanes only = missing replication.
  std::size_t same_place = 0;
  for (const auto& w : first->want)
    for (const auto& h : first->have)
      if (h.col == w.col && h.bit == w.bit && h.lane == w.lane) ++same_place;
  const TmemCell& w0 = first->want.front();
  const TmemCell& h0 = first->have.empty() ? w0 : first->have.front();
  std::string msg, fix;
  nlohmann::json wit = {{"operand", op.name},
                        {"element", coord},
                        {"scale", {{"mn", first->x}, {"s", first->s}, {"sf_id", rd.sf_id}}},
                        {"instruction", cells_json(first->want)},
                        {"layout", cells_json(first->have)},
                        {"sf_address", {{"lane", rd.addr.lane()}, {"col", rd.addr.col()}}},
                        {"disagreeing", bad}};
  if (same_place > 0) {
    wit["kind"] = "missing replication";
    msg = fmt::format("{} scale factor {} of '{}' (MN {}, scale {}): {} reads it from lanes {} column {} byte {}, the "
                      "layout of '{}' holds it only at lanes {} ({} of {} scale factors disagree)",
                      op.name, coord_text(coord), op.region.buffer, first->x, first->s, instr, lanes_of(first->want),
                      w0.col, w0.bit / kByteBits, op.region.buffer, lanes_of(first->have), bad, total);
    fix = "replicate the scale factors to every 32-lane sub-partition the MMA reads (R[4:32@TLane], as sf_tmem_layout "
          "builds them; PTX ISA 9.1 §9.7.16.10.7)";
  } else {
    wit["kind"] = "placement";
    msg = fmt::format("{} scale factor {} of '{}' (MN {}, scale {}): {} reads it at lane {} column {} byte {} (SF "
                      "address column {}, SF_ID {}), the layout of '{}' puts it at lane {} column {} byte {} ({} of {} "
                      "scale factors disagree)",
                      op.name, coord_text(coord), op.region.buffer, first->x, first->s, instr, w0.lane, w0.col,
                      w0.bit / kByteBits, rd.addr.col(), rd.sf_id, op.region.buffer, h0.lane, h0.col,
                      h0.bit / kByteBits, bad, total);
    // A column shift and / or another SF_ID of every read that makes all agree.
    const std::int64_t dc = h0.col - w0.col;
    const int db = (h0.bit - w0.bit) / kByteBits;
    if ((dc != 0 || db != 0) && h0.lane == w0.lane) {
      SfOperand moved = op;
      bool legal = true;
      for (auto& m : moved.reads) {
        m.addr = hw::TmemAddress::make(m.addr.lane(), static_cast<std::uint32_t>(m.addr.col() + dc));
        m.sf_id += db;
        const auto ids = legal_sf_ids(vec);
        legal = legal && std::find(ids.begin(), ids.end(), m.sf_id) != ids.end();
      }
      std::vector<Problem> again;
      try {
        if (legal) sf_problems(ctx, cache, moved, vec, instr, again);
        if (legal && again.empty()) {
          const SfRead& mr = moved.reads[first->read];
          if (dc != 0 && db != 0)
            fix = fmt::format("use {} address column {} and SF_ID {}", op.name, mr.addr.col(), mr.sf_id);
          else if (dc != 0)
            fix = fmt::format("use {} address column {} (the column the layout gives the first scale factor)", op.name,
                              mr.addr.col());
          else
            fix = fmt::format("use SF_ID {} ({} of the instruction descriptor)", mr.sf_id,
                              op.name[2] == 'A' ? "sfa_id" : "sfb_id");
        }
      } catch (const InputError&) {
      }
    }
  }
  out.push_back({Severity::kError, msg, wit, fix});
}

// The shape problems of one SF region; false when the elements cannot be checked.
bool sf_region_shape(const SfOperand& op, std::int64_t want_rows, std::int64_t want_cols, const std::string& instr,
                     hw::ScaleVec vec, std::vector<Problem>& out) {
  const auto kept = op.region.kept_shape();
  const std::int64_t rows = kept.empty() ? 1 : kept[0];
  const std::int64_t cols = kept.size() >= 2 ? kept[1] : 1;
  if (kept.size() > 2) {
    out.push_back({Severity::kError,
                   fmt::format("{} region '{}' keeps {} dimensions; an SF region is (MN) or (MN, scale factors)",
                               op.name, op.region.text, kept.size()),
                   {{"operand", op.name}, {"region", kept}}, ""});
    return false;
  }
  if (rows != want_rows) {
    out.push_back({Severity::kError,
                   fmt::format("{} region '{}' has {} rows; {} reads the scale factors of {} {}", op.name,
                               op.region.text, rows, instr, want_rows, op.name[2] == 'A' ? "rows of A (per CTA)"
                                                                                          : "columns of B"),
                   {{"operand", op.name}, {"rows", rows}, {"mn", want_rows}},
                   fmt::format("name {} rows in the {} region", want_rows, op.name)});
    return false;
  }
  if (cols != want_cols) {
    out.push_back({Severity::kError,
                   fmt::format("{} region '{}' holds {} scale factors per row; {} with scale_vec::{} reads {} (sf_per_mma "
                               "mismatch)",
                               op.name, op.region.text, cols, instr, hw::to_string(vec), want_cols),
                   {{"operand", op.name}, {"region_scales", cols}, {"scales", want_cols}, {"kind", "sf_per_mma"}},
                   fmt::format("an MMA with scale_vec::{} reads {} scale factors per row: lay the SF buffer out with "
                               "sf_per_mma={} and name {} of them",
                               hw::to_string(vec), want_cols, want_cols, want_cols)});
    return false;
  }
  return true;
}

std::string sf_dtype_of(const KernelContext& ctx, const std::optional<Region>& r) {
  if (!r) return {};
  const ResolvedBuffer* b = ctx.buffer(r->buffer);
  return b ? b->model->dtype : std::string();
}

KernelFinding mma_sf(const KernelContext& ctx, ImageCache& cache, std::size_t i, const MmaOp& m) {
  const Op& op = ctx.op(i);
  std::vector<std::string> related;
  if (m.sfa_region) related.push_back(m.sfa_region->buffer);
  if (m.sfb_region) related.push_back(m.sfb_region->buffer);
  try {
    std::vector<Problem> problems;
    const hw::ScaleVec vec = hw::parse_scale_vec(m.scale_vec);
    const std::string sfa_dt = sf_dtype_of(ctx, m.sfa_region), sfb_dt = sf_dtype_of(ctx, m.sfb_region);
    const std::string instr = fmt::format("tcgen05.mma.cta_group::{}.kind::{}.block_scale.scale_vec::{} M={} N={}",
                                          op.cta_group, m.mma_kind, m.scale_vec, m.m, m.n);
    try {
      hw::validate_block_scaling(m.mma_kind, vec, static_cast<int>(m.k), sfa_dt);
      if (sfb_dt != sfa_dt) hw::validate_block_scaling(m.mma_kind, vec, static_cast<int>(m.k), sfb_dt);
    } catch (const InputError& e) {
      std::string fix;
      try {
        const hw::ScaleVec want = tcgen05_scale_vec(m.mma_kind, sfa_dt);
        if (want != vec) fix = fmt::format("use scale_vec::{}", hw::to_string(want));
      } catch (const InputError&) {
      }
      problems.push_back({Severity::kError, fmt::format("{}: {}", instr, e.message()),
                          {{"kind", "scale_vec"}, {"mma_kind", m.mma_kind}, {"scale_vec", m.scale_vec}, {"k", m.k},
                           {"sfa_dtype", sfa_dt}, {"sfb_dtype", sfb_dt}},
                          fix});
    }
    std::vector<std::string> notes;
    for (int which = 0; which < 2; ++which) {
      const bool for_b = which == 1;
      const auto& region = for_b ? m.sfb_region : m.sfa_region;
      const auto& addr = for_b ? m.sfb : m.sfa;
      const char* name = for_b ? "SFB" : "SFA";
      if (!region || !addr) {
        notes.push_back(fmt::format("{} not checked (no {} region)", name, for_b ? "sfb_region" : "sfa_region"));
        continue;
      }
      SfOperand so{name, *region, hw::SfDatapath::k4x1, 0, 1, {}};
      try {
        so.dp = hw::sf_datapath(static_cast<int>(m.m), op.cta_group, for_b);
      } catch (const InputError& e) {
        if (e.check_id() == "tmem.datapath") {
          notes.push_back(fmt::format("{} not checked: {}", name, e.message()));
          continue;
        }
        problems.push_back({Severity::kError, fmt::format("{}: {}", instr, e.message()), {{"operand", name}}, ""});
        continue;
      }
      so.mn = static_cast<int>(for_b ? m.n : m.m / op.cta_group);
      const int scales = hw::scale_vec_scales(vec);
      if (!sf_region_shape(so, so.mn, scales, instr, vec, problems)) continue;
      const auto kept = region->kept_shape();
      so.cols = kept.size() >= 2 ? kept[1] : 1;
      const TmemRef a = tmem_address(ctx, *addr);
      SfRead rd{0, 0, hw::TmemAddress::make(static_cast<std::uint32_t>(a.lane), static_cast<std::uint32_t>(a.col)),
                for_b ? m.sfb_id : m.sfa_id};
      so.reads.push_back(rd);
      try {
        sf_problems(ctx, cache, so, vec, instr, problems);
      } catch (const InputError& e) {
        problems.push_back({Severity::kError, fmt::format("{} {}: [{}] {}", instr, name, e.check_id(), e.message()),
                            {{"operand", name}, {"error", e.check_id()}}, ""});
      }
    }
    std::string pass = fmt::format("{}: every scale factor the MMA reads is where the SF layouts put it", instr);
    for (const auto& n : notes) pass += "; " + n;
    return problems_finding(ctx, i, std::move(problems), pass, related);
  } catch (const InputError& e) {
    return exception_finding(ctx, i, e, related);
  }
}

KernelFinding gemm_sf(const KernelContext& ctx, ImageCache& cache, std::size_t i, const GemmAsyncOp& g) {
  const Op& op = ctx.op(i);
  std::vector<std::string> related = {g.sfa->buffer, g.sfb->buffer};
  try {
    const GemmAsyncPlan p = lower_gemm_async(ctx, cache, op, g);
    std::vector<Problem> problems;
    const std::string sfa_dt = sf_dtype_of(ctx, g.sfa), sfb_dt = sf_dtype_of(ctx, g.sfb);
    const hw::ScaleVec vec = tcgen05_scale_vec(p.kind, sfa_dt);
    const std::string instr = fmt::format("tcgen05.mma.cta_group::{}.kind::{}.block_scale.scale_vec::{} M={} N={}",
                                          p.cta_group, p.kind, hw::to_string(vec), p.m_desc, p.n_mma);
    if (!g.scale_vec.empty() && hw::parse_scale_vec(g.scale_vec) != vec)
      problems.push_back({Severity::kError,
                          fmt::format("the op says scale_vec::{}, TVM's dispatcher emits scale_vec::{} for kind::{} with "
                                      "{} scale factors",
                                      g.scale_vec, hw::to_string(vec), p.kind, sfa_dt),
                          {{"kind", "scale_vec"}, {"scale_vec", g.scale_vec}, {"emitted", hw::to_string(vec)}},
                          fmt::format("use scale_vec::{}", hw::to_string(vec))});
    try {
      hw::validate_block_scaling(p.kind, vec, p.mma_k, sfb_dt);
    } catch (const InputError& e) {
      problems.push_back({Severity::kError, fmt::format("{}: {}", instr, e.message()), {{"kind", "scale_vec"}}, ""});
    }
    const int scales = hw::scale_vec_scales(vec);
    const std::int64_t k_iters = p.k / p.mma_k;
    for (int which = 0; which < 2; ++which) {
      const bool for_b = which == 1;
      const Region& region = for_b ? *g.sfb : *g.sfa;
      SfOperand so{for_b ? "SFB" : "SFA", region, hw::SfDatapath::k4x1, for_b ? p.n_mma : p.m_mma, 1, {}};
      try {
        so.dp = hw::sf_datapath(p.m_desc, p.cta_group, for_b);
      } catch (const InputError& e) {
        if (e.check_id() != "tmem.datapath") throw;
        continue;
      }
      const auto kept = region.kept_shape();
      const std::int64_t rows = kept.empty() ? 1 : kept[0];
      so.cols = kept.size() >= 2 ? kept[1] : 1;
      const std::int64_t want_rows = for_b ? p.n : p.m;
      if (for_b ? rows < want_rows : rows != want_rows) {
        problems.push_back({Severity::kError,
                            fmt::format("{} region '{}' has {} rows; the gemm needs {} {}", so.name, region.text, rows,
                                        for_b ? "at least" : "", want_rows),
                            {{"operand", so.name}, {"rows", rows}}, ""});
        continue;
      }
      const std::int64_t per_ki = so.cols / k_iters;
      if (so.cols % k_iters != 0 || (so.cols != scales && so.cols != scales * k_iters && so.cols != scales * k_iters * 4)) {
        problems.push_back({Severity::kError,
                            fmt::format("{} region '{}' holds {} scale factors per row; with {} K steps of scale_vec::{} "
                                        "TVM accepts {}, {} or {} (sf_per_mma mismatch)",
                                        so.name, region.text, so.cols, k_iters, hw::to_string(vec), scales,
                                        scales * k_iters, scales * k_iters * 4),
                            {{"operand", so.name}, {"region_scales", so.cols}, {"kind", "sf_per_mma"}}, ""});
        continue;
      }
      const ResolvedBuffer& b = *ctx.buffer(region.buffer);
      const TmemImageTable& tt = cache.tmem(b);
      const auto& flats = cache.flats(b, region);
      const bool needs_sf_id = scales < 4 && per_ki > 0;
      for (const MmaTile& t : p.tiles) {
        if (for_b ? t.mi != 0 : t.ni != 0) continue;
        const std::int64_t row0 = for_b ? static_cast<std::int64_t>(t.ni) * p.n_mma / p.cta_group
                                        : static_cast<std::int64_t>(t.mi) * p.m_mma;
        const std::int64_t col0 = t.ki * per_ki;
        const TmemCell c = tt.of(flats[static_cast<std::size_t>(row0 * so.cols + col0)]).front();
        so.reads.push_back({row0, col0, hw::TmemAddress::make(static_cast<std::uint32_t>(c.lane),
                                                              static_cast<std::uint32_t>(c.col)),
                            needs_sf_id ? c.bit / kByteBits : 0});
      }
      sf_problems(ctx, cache, so, vec, instr, problems);
    }
    for (auto& pr : problems) {
      if (!pr.witness.is_object()) pr.witness = nlohmann::json::object();
      pr.witness["plan"] = p.path;
    }
    return problems_finding(ctx, i, std::move(problems),
                            fmt::format("derived plan {} ({}): every scale factor read is where the SF layouts put it",
                                        p.path, hw::to_string(vec)),
                            related);
  } catch (const InputError& e) {
    return exception_finding(ctx, i, e, related);
  }
}

// The storage roots of every buffer some block-scaled op reads scale factors from.
std::vector<bool> sf_roots(const KernelContext& ctx) {
  std::vector<bool> roots(ctx.buffers.size(), false);
  auto mark = [&](const std::optional<Region>& r) {
    if (!r) return;
    if (const ResolvedBuffer* b = ctx.buffer(r->buffer)) roots[b->root] = true;
  };
  for (const Op& op : ctx.model->ops) {
    if (const auto* m = std::get_if<MmaOp>(&op.data)) {
      mark(m->sfa_region);
      mark(m->sfb_region);
    }
    if (const auto* g = std::get_if<GemmAsyncOp>(&op.data)) {
      mark(g->sfa);
      mark(g->sfb);
    }
  }
  return roots;
}

KernelFinding cp_sf(const KernelContext& ctx, ImageCache& cache, std::size_t i, const CpOp& cp) {
  std::vector<std::string> related = {cp.smem.buffer, cp.tmem.buffer};
  try {
    const ResolvedBuffer& s = *ctx.buffer(cp.smem.buffer);
    const ResolvedBuffer& t = *ctx.buffer(cp.tmem.buffer);
    if (!s.layout || !t.layout)
      throw InputError("kernel.layout", fmt::format("'{}' or '{}' has no usable layout", s.model->name, t.model->name));
    if (s.elem_bits % kByteBits != 0 || t.elem_bits != s.elem_bits) {
      KernelFinding f = op_finding(ctx, i, prove::Status::kNotApplicable,
                                   fmt::format("elements of {} / {} bits: the byte-wise copy check needs equal whole-byte "
                                               "elements",
                                               s.elem_bits, t.elem_bits));
      f.related = related;
      return f;
    }
    const std::string name = fmt::format("tcgen05.cp.cta_group::{}.{}", ctx.op(i).cta_group, hw::to_string(cp.shape));
    if (cp.src_desc.mn_major) {
      KernelFinding f = op_finding(ctx, i, prove::Status::kUndecided,
                                   fmt::format("{} with an MN-major source descriptor is not modelled (hw/tcgen05_cp.hpp)",
                                               name));
      f.related = related;
      return f;
    }
    hw::SmemDescriptor desc;
    desc.start_address = static_cast<std::uint32_t>(smem_address(ctx, cp.src_desc.start));
    desc.lbo = static_cast<std::uint32_t>(cp.src_desc.lbo_bytes);
    desc.sbo = static_cast<std::uint32_t>(cp.src_desc.sbo_bytes);
    desc.base_offset = cp.src_desc.base_offset;
    desc.swizzle = cp.src_desc.swizzle;
    desc.encode();  // throws smem.descriptor for fields the descriptor cannot hold
    const TmemRef ta = tmem_address(ctx, cp.taddr);
    // Source byte -> (row, byte in row), from the descriptor.
    const int rows = hw::cp_rows(cp.shape), row_bytes = hw::cp_row_bits(cp.shape) / kByteBits;
    std::unordered_map<std::int64_t, std::pair<int, int>> src;
    for (int r = 0; r < rows; ++r)
      for (int b = 0; b < row_bytes; ++b)
        src.emplace(static_cast<std::int64_t>(hw::cp_source_byte(desc, r, b)), std::make_pair(r, b));
    const hw::TmemAddress dst0 =
        hw::TmemAddress::make(static_cast<std::uint32_t>(ta.lane), static_cast<std::uint32_t>(ta.col));
    const TmemImageTable& tt = cache.tmem(t);
    const auto& tflat = cache.flats(t, cp.tmem);
    const std::int64_t n = static_cast<std::int64_t>(tflat.size());
    if (n != cp.smem.size())
      throw InputError("model.schema", fmt::format("tcgen05.cp regions '{}' ({}) and '{}' ({}) differ in size",
                                                   cp.smem.text, cp.smem.size(), cp.tmem.text, n));
    const int ebytes = s.elem_bits / kByteBits;
    std::vector<Problem> problems;
    std::int64_t bad = 0;
    for (std::int64_t e = 0; e < n; ++e) {
      const auto scoord = cp.smem.coord(e);
      const std::int64_t byte0 = smem_byte_images(s, scoord).front();
      const auto imgs = tt.of(tflat[static_cast<std::size_t>(e)]);
      for (int j = 0; j < ebytes; ++j) {
        const auto it = src.find(byte0 + j);
        std::vector<TmemCell> dst;
        if (it != src.end())
          for (const hw::CpCell& c : hw::cp_destination_cells(cp.shape, dst0, it->second.first, it->second.second))
            dst.push_back({c.lane, c.col, c.byte * kByteBits});
        bool ok = it != src.end();
        for (const TmemCell& img : imgs) {
          const TmemCell want{img.lane, img.col, img.bit + j * kByteBits};
          ok = ok && std::find(dst.begin(), dst.end(), want) != dst.end();
        }
        if (ok) continue;
        ++bad;
        if (!problems.empty()) break;
        const auto tcoord = cp.tmem.coord(e);
        std::vector<TmemCell> have(imgs.begin(), imgs.end());
        std::string msg, fix;
        nlohmann::json w = {{"element", {{"smem", scoord}, {"tmem", tcoord}}}, {"smem_byte", byte0 + j},
                            {"layout", cells_json(have)}, {"taddr", {{"lane", ta.lane}, {"col", ta.col}}}};
        if (it == src.end()) {
          msg = fmt::format("element {} of '{}' (shared byte {}) is not among the bytes {} reads through its descriptor "
                            "(start {}, SBO {}, LBO {})",
                            coord_text(scoord), s.model->name, byte0 + j, name, desc.start_address, desc.sbo, desc.lbo);
          w["cp"] = nullptr;
        } else {
          w["source"] = {{"row", it->second.first}, {"byte", it->second.second}};
          w["cp"] = cells_json(dst);
          msg = fmt::format("element {} of '{}' (shared byte {}, copy row {} byte {}) is written by {} to lanes {} "
                            "column {} byte {}; the layout of '{}' puts element {} at lanes {} column {} byte {}",
                            coord_text(scoord), s.model->name, byte0 + j, it->second.first, it->second.second, name,
                            lanes_of(dst), dst.front().col, dst.front().bit / kByteBits, t.model->name,
                            coord_text(tcoord), lanes_of(have), have.empty() ? 0 : have.front().col,
                            have.empty() ? 0 : have.front().bit / kByteBits);
          if (have.size() > dst.size())
            fix = "use tcgen05.cp.32x128b.warpx4 (it copies each row to all four sub-partitions the layout replicates "
                  "to)";
          else if (!have.empty() && have.front().col != dst.front().col)
            fix = fmt::format("use taddr column {}", ta.col + have.front().col - dst.front().col);
        }
        problems.push_back({Severity::kError, msg, w, fix});
      }
    }
    if (!problems.empty() && bad > 1) problems.front().message += " (and more elements disagree)";
    return problems_finding(ctx, i, std::move(problems),
                            fmt::format("{}: all {} elements of '{}' land where the layout of '{}' puts them", name, n,
                                        cp.smem.text, cp.tmem.text),
                            related);
  } catch (const InputError& e) {
    return exception_finding(ctx, i, e, related);
  }
}

}  // namespace

std::vector<KernelFinding> sf_layout(const KernelContext& ctx) {
  std::vector<KernelFinding> out;
  ImageCache cache(ctx, kMaxSfPoints);
  const std::vector<bool> roots = sf_roots(ctx);
  for (std::size_t i = 0; i < ctx.model->ops.size(); ++i) {
    const Op& op = ctx.op(i);
    const auto* m = std::get_if<MmaOp>(&op.data);
    const auto* g = std::get_if<GemmAsyncOp>(&op.data);
    const auto* cp = std::get_if<CpOp>(&op.data);
    if (m && !hw::is_block_scaled_kind(m->mma_kind)) m = nullptr;
    if (g && !g->sfa) g = nullptr;
    if (cp) {
      const ResolvedBuffer* t = ctx.buffer(cp->tmem.buffer);
      if (!t || !roots[t->root]) cp = nullptr;
    }
    if (!m && !g && !cp) continue;
    if (!ctx.target->tmem) {
      out.push_back(op_finding(ctx, i, prove::Status::kNotApplicable,
                               fmt::format("target {} has no tensor memory", ctx.target->name)));
      continue;
    }
    if (m) out.push_back(mma_sf(ctx, cache, i, *m));
    if (g) out.push_back(gemm_sf(ctx, cache, i, *g));
    if (cp) out.push_back(cp_sf(ctx, cache, i, *cp));
  }
  return out;
}

}  // namespace tirx::kernel::checks
