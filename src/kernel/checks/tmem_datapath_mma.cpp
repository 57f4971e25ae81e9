// kernel.tmem-datapath, parts (b) and (c): tcgen05.mma's accumulator (d_region) and A-in-TMEM
// operand against their buffers' layouts, and gemm_async's D and TMEM A through the plan TVM's
// dispatcher derives (kernel/lower_tcgen05.hpp).
//
// The hardware side comes from hw/tcgen05_mma.hpp: the data path from (M, cta_group, .ws)
// (hw::mma_datapath, PTX ISA 9.1 §9.7.16.10.5), the cell of accumulator element (m, n)
// (hw::accumulator_cell; per CTA under cta_group 2, so the d region holds M / 2 rows), the cells
// of A element (m, k) (hw::a_operand_cells). Every element's hardware cell must be one of its
// layout images (the buffer's layout, images.hpp). On a mismatch the fix is searched: which
// other data path the layout follows, or which D / A address makes every element agree.
#include <fmt/format.h>

#include <unordered_set>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/lower_tcgen05.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tmem_datapath.hpp"

namespace tirx::kernel::checks {

namespace {

using hw::Datapath;

// The instruction that writes data path d, for messages and fixes.
std::string datapath_instr(Datapath d) {
  switch (d) {
    case Datapath::A: return "M=256 cta_group::2";
    case Datapath::B: return "M=128 cta_group::2";
    case Datapath::C: return "M=128 cta_group::2 sparse";
    case Datapath::D: return "M=128 cta_group::1";
    case Datapath::E: return "M=64 .ws";
    case Datapath::F: return "M=64 cta_group::1";
    case Datapath::G: return "M=32 .ws";
  }
  return "?";
}

// The factory call that builds data path d's per-CTA accumulator layout.
std::string datapath_factory(Datapath d, std::int64_t n, int base_lane) {
  const int rows = d == Datapath::A ? 128 : hw::datapath_rows_per_cta(d);
  const char letter = d == Datapath::A ? 'D' : hw::to_char(d);
  return fmt::format("tmem_datapath_layout(\"{}\", {}, {}{})", letter, rows, n,
                     d == Datapath::F && base_lane == 16 ? ", sub_slab=1" : "");
}

bool has_mma_image(std::span<const TmemCell> imgs, const TmemCell& c) {
  return std::find(imgs.begin(), imgs.end(), c) != imgs.end();
}

// One instruction tile of an accumulator region: region rows [row0, row0 + rows) and columns
// [col0, col0 + n) are the tile's (m, n), written at `base`.
struct DTile {
  std::int64_t row0 = 0, col0 = 0;
  hw::TmemAddress base;
};

struct DMismatch {
  std::int64_t index = 0;
  std::int64_t m = 0, n = 0;        // within the tile
  hw::AccumulatorCell want;
  TmemCell have;
  std::size_t tile = 0;
};

// Elements of `region` (kept (rows, cols)) whose accumulator cell under data path d differs
// from their layout images. accumulator_cell's errors propagate.
std::int64_t d_mismatches(const KernelContext& ctx, const TmemImageTable& tt, const std::vector<std::int64_t>& flats,
                          std::int64_t cols, Datapath d, int n_mma, int m_mma, const std::vector<DTile>& tiles,
                          std::optional<DMismatch>* first) {
  std::int64_t bad = 0;
  for (std::size_t t = 0; t < tiles.size(); ++t) {
    const std::vector<hw::AccumulatorCell> cells = hw::accumulator_tile(*ctx.target, d, n_mma, m_mma, tiles[t].base);
    for (int m = 0; m < m_mma; ++m)
      for (int n = 0; n < n_mma; ++n) {
        const std::int64_t idx = (tiles[t].row0 + m) * cols + tiles[t].col0 + n;
        const hw::AccumulatorCell& c = cells[static_cast<std::size_t>(m) * n_mma + n];
        const auto imgs = tt.of(flats[static_cast<std::size_t>(idx)]);
        if (has_mma_image(imgs, TmemCell{c.lane, c.col, 0})) continue;
        if (!first) return 1;  // caller only asks whether all agree
        ++bad;
        if (!*first) *first = DMismatch{idx, m, n, c, imgs.empty() ? TmemCell{} : imgs.front(), t};
      }
  }
  return bad;
}

// The accumulator problems of one op: the region's shape, then every element of every tile.
void accumulator_problems(const KernelContext& ctx, ImageCache& cache, const Region& region, Datapath d, int m_mma,
                          int n_mma, const std::vector<DTile>& tiles, const std::string& instr,
                          std::vector<Problem>& out) {
  const ResolvedBuffer& b = *ctx.buffer(region.buffer);
  const auto kept = region.kept_shape();
  const TmemImageTable& tt = cache.tmem(b);
  const std::vector<std::int64_t>& flats = cache.flats(b, region);
  std::optional<DMismatch> first;
  std::int64_t bad = 0;
  try {
    bad = d_mismatches(ctx, tt, flats, kept[1], d, n_mma, m_mma, tiles, &first);
  } catch (const InputError& e) {
    out.push_back({Severity::kError, fmt::format("{} writing '{}': [{}] {}", instr, region.text, e.check_id(), e.message()),
                   {{"error", e.check_id()}, {"datapath", std::string(1, hw::to_char(d))}}, ""});
    return;
  }
  if (!first) return;
  const DMismatch& mm = *first;
  const auto coord = region.coord(mm.index);
  std::string msg = fmt::format(
      "accumulator element {} of '{}' (tile row {}, column {}): {} (Layout {}) writes it to lane {} column {}, the "
      "layout of '{}' puts it at lane {} column {}{} ({} of {} elements disagree)",
      coord_text(coord), region.buffer, mm.m, mm.n, instr, hw::to_char(d), mm.want.lane, mm.want.col, region.buffer,
      mm.have.lane, mm.have.col, mm.have.bit ? fmt::format(" bit {}", mm.have.bit) : "", bad,
      static_cast<std::int64_t>(tiles.size()) * m_mma * n_mma);
  nlohmann::json w = {{"element", coord},
                      {"accumulator", {{"m", mm.m}, {"n", mm.n}, {"lane", mm.want.lane}, {"col", mm.want.col},
                                       {"cta", mm.want.cta}}},
                      {"layout", {{"lane", mm.have.lane}, {"col", mm.have.col}, {"bit", mm.have.bit}}},
                      {"datapath", std::string(1, hw::to_char(d))},
                      {"instruction", instr},
                      {"d", {{"lane", tiles[mm.tile].base.lane()}, {"col", tiles[mm.tile].base.col()}}},
                      {"disagreeing_elements", bad}};
  // Fix 1: another data path with the same rows per CTA that the layout follows.
  std::string fix;
  const int rows = hw::datapath_rows_per_cta(d);
  for (Datapath alt : {Datapath::D, Datapath::F, Datapath::B, Datapath::E, Datapath::G, Datapath::A}) {
    if (alt == d || hw::datapath_rows_per_cta(alt) != rows) continue;
    for (int lane : {0, 16}) {
      if (lane && alt != Datapath::F) continue;
      std::vector<DTile> alt_tiles = tiles;
      for (auto& t : alt_tiles) t.base = hw::TmemAddress::make(static_cast<std::uint32_t>(lane), t.base.col());
      bool all = false;
      try {
        all = d_mismatches(ctx, tt, flats, kept[1], alt, n_mma, m_mma, alt_tiles, nullptr) == 0;
      } catch (const InputError&) {
      }
      if (all && fix.empty()) {
        fix = fmt::format("the layout of '{}' is Layout {} ({}); this MMA writes Layout {}: declare the accumulator "
                          "as {}, or issue the MMA as {}",
                          region.buffer, hw::to_char(alt), datapath_instr(alt), hw::to_char(d),
                          datapath_factory(d, n_mma, tiles.front().base.lane()), datapath_instr(alt));
        w["layout_datapath"] = std::string(1, hw::to_char(alt));
      }
    }
  }
  // Fix 2: the same data path at another D address.
  if (fix.empty()) {
    const std::int64_t dl = mm.have.lane - mm.want.lane, dc = mm.have.col - mm.want.col;
    std::vector<DTile> moved = tiles;
    bool valid = true;
    for (auto& t : moved) {
      const std::int64_t l = t.base.lane() + dl, c = t.base.col() + dc;
      valid = valid && l >= 0 && c >= 0;
      t.base = hw::TmemAddress::make(static_cast<std::uint32_t>(l), static_cast<std::uint32_t>(c));
    }
    bool all = false;
    try {
      all = valid && d_mismatches(ctx, tt, flats, kept[1], d, n_mma, m_mma, moved, nullptr) == 0;
    } catch (const InputError&) {
    }
    if (all)
      fix = fmt::format("use D address lane {} column {}", moved.front().base.lane(), moved.front().base.col());
    else
      fix = fmt::format("declare the accumulator as {} (what {} writes)",
                        datapath_factory(d, n_mma, tiles.front().base.lane()), instr);
  }
  out.push_back({Severity::kError, msg, w, fix});
}

// accumulator_problems, remembered by everything it depends on.
void memo_accumulator(const KernelContext& ctx, ImageCache& cache, AccumulatorMemo& memo, const Region& region,
                      Datapath d, int m_mma, int n_mma, const std::vector<DTile>& tiles, const std::string& instr,
                      std::vector<Problem>& out) {
  std::string key = fmt::format("{}|{}|{}|{}|{}", region.text, hw::to_char(d), m_mma, n_mma, instr);
  for (const auto& t : tiles) key += fmt::format("|{},{},{}", t.row0, t.col0, t.base.raw);
  auto it = memo.find(key);
  if (it == memo.end()) {
    std::vector<Problem> found;
    accumulator_problems(ctx, cache, region, d, m_mma, n_mma, tiles, instr, found);
    it = memo.emplace(key, std::move(found)).first;
  }
  out.insert(out.end(), it->second.begin(), it->second.end());
}

// One tile of a TMEM A operand: region rows [row0, +rows) and columns [col0, +k) at `base`.
struct ATile {
  std::int64_t row0 = 0, col0 = 0;
  hw::TmemAddress base;
};

// Hash of a TMEM cell, for the set of every cell a buffer covers.
struct CellHash {
  std::size_t operator()(const TmemCell& c) const {
    return std::hash<std::int64_t>()((c.lane * 65536 + c.col) * 32 + c.bit);
  }
};

void a_problems(const KernelContext& ctx, ImageCache& cache, const Region& region, Datapath d, int m_mma, int k_mma,
                const std::vector<ATile>& tiles, const std::string& instr, std::vector<Problem>& out) {
  const ResolvedBuffer& b = *ctx.buffer(region.buffer);
  const auto kept = region.kept_shape();
  const TmemImageTable& tt = cache.tmem(b);
  const std::vector<std::int64_t>& flats = cache.flats(b, region);
  const bool two_banks = d == Datapath::B || d == Datapath::E;
  std::unordered_set<TmemCell, CellHash> buffer_cells;  // built on the first two-bank miss
  std::int64_t bad = 0, other_bank = 0;
  struct Miss {
    std::int64_t idx;
    int m, k;
    hw::TmemBitCell want;
    TmemCell have;
    std::size_t tile;
  };
  std::optional<Miss> first, first_bank;
  try {
    for (std::size_t t = 0; t < tiles.size(); ++t)
      for (int m = 0; m < m_mma; ++m)
        for (int k = 0; k < k_mma; ++k) {
          const std::int64_t idx = (tiles[t].row0 + m) * kept[1] + tiles[t].col0 + k;
          const auto imgs = tt.of(flats[static_cast<std::size_t>(idx)]);
          const auto cells = hw::a_operand_cells(*ctx.target, d, m, k, b.elem_bits, tiles[t].base);
          std::size_t miss_at = cells.size();
          for (std::size_t c = 0; c < cells.size() && miss_at == cells.size(); ++c)
            if (!has_mma_image(imgs, TmemCell{cells[c].lane, cells[c].col, cells[c].bit})) miss_at = c;
          if (miss_at == cells.size()) continue;
          const Miss mi{idx, m, k, cells[miss_at], imgs.empty() ? TmemCell{} : imgs.front(), t};
          // Only the upper bank's copy is missing and another part of the same buffer is there:
          // the batched A[2, M, K] form, where lanes 64..127 hold a different A on purpose.
          if (two_banks && miss_at == 1) {
            if (buffer_cells.empty()) buffer_cells.insert(tt.cells.begin(), tt.cells.end());
            const hw::TmemBitCell& w = cells[1];
            if (buffer_cells.count(TmemCell{w.lane, w.col, w.bit})) {
              ++other_bank;
              if (!first_bank) first_bank = mi;
              continue;
            }
          }
          ++bad;
          if (!first) first = mi;
        }
  } catch (const InputError& e) {
    out.push_back({Severity::kError, fmt::format("{} reading A from '{}': [{}] {}", instr, region.text, e.check_id(),
                                                 e.message()),
                   {{"error", e.check_id()}}, ""});
    return;
  }
  const std::int64_t total = static_cast<std::int64_t>(tiles.size()) * m_mma * k_mma;
  auto witness = [&](const Miss& x) {
    return nlohmann::json{{"element", region.coord(x.idx)},
                          {"operand", "A"},
                          {"mma", {{"lane", x.want.lane}, {"col", x.want.col}, {"bit", x.want.bit}}},
                          {"layout", {{"lane", x.have.lane}, {"col", x.have.col}, {"bit", x.have.bit}}},
                          {"datapath", std::string(1, hw::to_char(d))},
                          {"a", {{"lane", tiles[x.tile].base.lane()}, {"col", tiles[x.tile].base.col()}}}};
  };
  if (first) {
    const Miss& x = *first;
    nlohmann::json w = witness(x);
    w["disagreeing_elements"] = bad;
    out.push_back(
        {Severity::kError,
         fmt::format("A element {} of '{}' (tile row {}, K {}): {} (Layout {}) reads it from lane {} column {} bit {}, "
                     "the layout of '{}' puts it at lane {} column {} bit {} ({} of {} elements disagree)",
                     coord_text(region.coord(x.idx)), region.buffer, x.m, x.k, instr, hw::to_char(d), x.want.lane,
                     x.want.col, x.want.bit, region.buffer, x.have.lane, x.have.col, x.have.bit, bad, total),
         w,
         fmt::format("lay A out as tmem_mma_operand_layout(\"A\", ...) of this MMA (Layout {}), or pass the A address "
                     "of its element (0, 0)",
                     hw::to_char(d))});
  } else if (first_bank) {
    const Miss& x = *first_bank;
    nlohmann::json w = witness(x);
    w["other_bank_elements"] = other_bank;
    w["kind"] = "batched A";
    out.push_back(
        {Severity::kNote,
         fmt::format("{} (Layout {}) computes accumulator columns n >= N/2 in lanes 64..127 from the A rows held "
                     "there: A element {} of '{}' is read from lane {} column {} too, which holds another part of '{}' "
                     "(TVM's batched A[2, M, K]), so D[:, N/2:] is a product with a different A than '{}' ({} "
                     "elements)",
                     instr, hw::to_char(d), coord_text(region.coord(x.idx)), region.buffer, x.want.lane, x.want.col,
                     b.model->name, region.text, other_bank),
         w, ""});
  }
}

}  // namespace

KernelFinding tmem_mma_op(const KernelContext& ctx, ImageCache& cache, AccumulatorMemo& memo, std::size_t i,
                          const MmaOp& mo) {
  const Op& op = ctx.op(i);
  std::vector<std::string> related = {mo.d_region.buffer};
  if (mo.a_tmem && mo.a) related.push_back(mo.a->buffer);
  try {
    std::vector<Problem> problems;
    Datapath d;
    try {
      d = hw::mma_datapath(static_cast<int>(mo.m), op.cta_group, mo.ws, mo.idesc && mo.idesc->sparse);
    } catch (const InputError& e) {
      problems.push_back({Severity::kError, e.message(), {{"m", mo.m}, {"cta_group", op.cta_group}, {"ws", mo.ws}}, ""});
      return problems_finding(ctx, i, std::move(problems), "", related);
    }
    if (d == Datapath::C) {
      KernelFinding f = op_finding(ctx, i, prove::Status::kUndecided,
                                   "Layout C (M=128, cta_group::2, sparse A) is unresolved: PTX and CUTLASS disagree on "
                                   "its accumulator placement (docs/sim.md)");
      f.related = related;
      return f;
    }
    const std::string instr = fmt::format("tcgen05.mma{}.cta_group::{}.kind::{} M={} N={}", mo.ws ? ".ws" : "",
                                          op.cta_group, mo.mma_kind, mo.m, mo.n);
    const int rows = hw::datapath_rows_per_cta(d);
    const auto kept = mo.d_region.kept_shape();
    const TmemRef da = tmem_address(ctx, mo.d);
    if (kept[0] != rows || kept[1] != mo.n) {
      problems.push_back({Severity::kError,
                          fmt::format("d_region '{}' is {} x {}; {} (Layout {}) accumulates {} x {} per CTA",
                                      mo.d_region.text, kept[0], kept[1], instr, hw::to_char(d), rows, mo.n),
                          {{"d_region", kept}, {"accumulator", {rows, mo.n}}, {"datapath", std::string(1, hw::to_char(d))}},
                          fmt::format("name the {} x {} accumulator in d_region", rows, mo.n)});
    } else {
      memo_accumulator(ctx, cache, memo, mo.d_region, d, rows, static_cast<int>(mo.n),
                       {DTile{0, 0, hw::TmemAddress::make(static_cast<std::uint32_t>(da.lane),
                                                          static_cast<std::uint32_t>(da.col))}},
                       instr, problems);
    }
    std::string a_note;
    if (mo.a_tmem) {
      if (!mo.a) {
        a_note = "; A in TMEM not checked (no `a` region)";
      } else {
        const auto ak = mo.a->kept_shape();
        const TmemRef aa = tmem_address(ctx, *mo.a_tmem);
        if (mo.a_km) {
          problems.push_back({Severity::kError, "A in TMEM cannot be transposed (a_dims KM)", {}, ""});
        } else if (ak[0] != rows || ak[1] != mo.k) {
          problems.push_back({Severity::kError,
                              fmt::format("a '{}' is {} x {}; {} reads A as {} x {} per CTA", mo.a->text, ak[0], ak[1],
                                          instr, rows, mo.k),
                              {{"a", ak}, {"operand", {rows, mo.k}}}, ""});
        } else {
          a_problems(ctx, cache, *mo.a, d, rows, static_cast<int>(mo.k),
                     {ATile{0, 0, hw::TmemAddress::make(static_cast<std::uint32_t>(aa.lane),
                                                        static_cast<std::uint32_t>(aa.col))}},
                     instr, problems);
        }
      }
    }
    return problems_finding(ctx, i, std::move(problems),
                            fmt::format("{} (Layout {}): every element of '{}' is where the data path writes it{}{}",
                                        instr, hw::to_char(d), mo.d_region.text,
                                        mo.a_tmem && mo.a ? fmt::format(", and of A '{}'", mo.a->text) : "", a_note),
                            related);
  } catch (const InputError& e) {
    return exception_finding(ctx, i, e, related);
  }
}

KernelFinding tmem_gemm_op(const KernelContext& ctx, ImageCache& cache, AccumulatorMemo& memo, std::size_t i,
                           const GemmAsyncOp& g) {
  const Op& op = ctx.op(i);
  std::vector<std::string> related = {g.d.buffer};
  const ResolvedBuffer* ab = ctx.buffer(g.a.buffer);
  const bool a_tmem = ab && ab->scope == prove::Scope::kTmem;
  if (a_tmem) related.push_back(g.a.buffer);
  try {
    const GemmAsyncPlan p = lower_gemm_async(ctx, cache, op, g);
    std::vector<Problem> problems;
    std::vector<DTile> dt;
    std::vector<ATile> at;
    for (const MmaTile& t : p.tiles) {
      if (t.ki == 0)
        dt.push_back({static_cast<std::int64_t>(t.mi) * p.m_mma, static_cast<std::int64_t>(t.ni) * p.n_mma,
                      hw::TmemAddress::make(static_cast<std::uint32_t>(t.d.lane), static_cast<std::uint32_t>(t.d.col))});
      if (t.ni == 0 && t.a)
        at.push_back({static_cast<std::int64_t>(t.mi) * p.m_mma, static_cast<std::int64_t>(t.ki) * p.mma_k,
                      hw::TmemAddress::make(static_cast<std::uint32_t>(t.a->lane), static_cast<std::uint32_t>(t.a->col))});
    }
    const std::string instr = fmt::format("tcgen05.mma{}.cta_group::{}.kind::{} M={} N={}", p.ws ? ".ws" : "",
                                          p.cta_group, p.kind, p.m_desc, p.n_mma);
    memo_accumulator(ctx, cache, memo, g.d, p.datapath, p.m_mma, p.n_mma, dt, instr, problems);
    if (a_tmem) a_problems(ctx, cache, g.a, p.datapath, p.m_mma, p.mma_k, at, instr, problems);
    for (auto& pr : problems) {
      if (!pr.witness.is_object()) pr.witness = nlohmann::json::object();
      pr.witness["plan"] = p.path;
    }
    return problems_finding(ctx, i, std::move(problems),
                            fmt::format("derived plan {}: every element of D '{}'{} is where the data path puts it",
                                        p.path, g.d.text, a_tmem ? fmt::format(" and of A '{}'", g.a.text) : ""),
                            related);
  } catch (const InputError& e) {
    return exception_finding(ctx, i, e, related);
  }
}

}  // namespace tirx::kernel::checks
