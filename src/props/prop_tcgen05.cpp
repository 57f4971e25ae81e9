// tcgen05.atom_vs_sim — tcgen05_atom_layout against the simulated tcgen05.ld / tcgen05.st.
//
// A random (register fragment, TMEM data path) pair the TIRx dispatcher moves (generators.hpp
// AtomPair) is executed in the simulator, in the direction drawn:
//
//   ld: every element (r, c) is written into the TMEM cell (and 16-bit half) the data-path
//       layout names (TLane, base column + TCol); each warp issues the tcgen05.ld instructions
//       the dispatcher plans (hw::tcgen05_ldst_plan); register (thread, m / epb) half m % epb
//       must hold element (r, c)'s label, where (thread, m) is what
//       tcgen05_atom_layout.apply(r, c) names, and the fragment must cover every register half
//       exactly once;
//   st: the registers are filled through the atom layout, each warp issues the planned
//       tcgen05.st, and every TMEM cell the data-path layout names must hold the label.
//
// The plan itself is checked against the table of spec tirx_semantics (h) (lane field, first
// register, per warp w; R = registers of one issue):
//   D, .32x32b, 128 rows   (32w, 0)
//   D, .16x*b, 128 rows    (32w, 0) and (32w + 16, R)
//   D, .16x*b, 64 rows     (32w, 0)                  the lower half-slab: the rows of the F view
//   F sub_slab s, 64 rows  (32w + 16 s, 0)
//   B, .32x32b, 64 rows    (32w, 0) with .num = cols / 2 (the fp32 image: each row's two column
//                          halves sit in lanes r and r + 64)
// .num = cols / (32-bit columns per repetition x elements per column) otherwise, no .pack. A 64-row
// fragment of a D buffer reads the rows tmem_datapath_layout("F", 64, cols, 0) names, so its
// TMEM side is that layout.
#include <algorithm>

#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tcgen05_dispatch.hpp"
#include "tirx_verify/hw/tcgen05_ldst.hpp"
#include "tirx_verify/hw/tmem.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx::props {

namespace {

const hw::Target& sm100_target() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

struct Issue {
  int lane;
  int first_reg;
  friend bool operator==(const Issue&, const Issue&) = default;
};

// The spec (h) table above.
std::vector<Issue> spec_plan(const AtomPair& p, int warp, int regs_per_issue) {
  const int lanes = sm100_target().tmem_subpartition_lanes();  // 32
  const int half = lanes / 2;                           // 16
  if (p.datapath == "F") return {{lanes * warp + half * p.sub_slab, 0}};
  if (p.instr_shape == "32x32b" || p.rows == 64) return {{lanes * warp, 0}};
  return {{lanes * warp, 0}, {lanes * warp + half, regs_per_issue}};
}

std::uint32_t label(const AtomPair& p, std::int64_t r, std::int64_t c, int bits) {
  if (bits == 32) return static_cast<std::uint32_t>(r << 16 | c);
  return static_cast<std::uint32_t>(r * p.cols + c + 1) & 0xFFFFu;
}

}  // namespace

Property tcgen05_atom_property() {
  return {"tcgen05.atom_vs_sim",
          "tcgen05_atom_layout.apply() equals the registers the simulated tcgen05.ld/st move for each data path", 60, [] {
            const AtomPair p = *gen_atom_pair();
            const bool store = p.store;
            RC_TAG(fmt::format("{} {}-row {}", p.datapath, p.rows, store ? "st" : "ld"));
            const hw::Target& target = sm100_target();
            const DType dt = DType::parse(p.dtype);
            const int bits = dt.bits, epb = 32 / bits;
            const TileLayout atom = tcgen05_atom_layout(p.instr_shape, p.rows, p.cols, dt);
            // The TMEM side: the buffer's data path, or for a 64-row fragment of D the lower-half F view.
            const bool d64 = p.datapath == "D" && p.rows == 64;
            const TileLayout tm = d64 ? tmem_datapath_layout("F", 64, p.cols, 0)
                                      : tmem_datapath_layout(p.datapath, p.datapath == "D" ? 128 : 64, p.cols, p.sub_slab);
            // (B: TMEM holds the (64, cols) tile in all 128 lanes, cols / 2 columns each.)
            const std::vector<std::int64_t> shape = {p.rows, p.cols};
            const std::int64_t per_rep = p.instr_shape == "32x32b" ? 1 : p.instr_shape == "16x64b" ? 2
                                         : p.instr_shape == "16x128b"                            ? 4
                                                                                                 : 8;
            hw::LdStInstr in;
            in.shape = hw::parse_ldst_shape(p.instr_shape);
            in.num = static_cast<int>(p.datapath == "B" ? p.cols / 2 : p.cols / (per_rep * epb));
            const int R = hw::regs_per_thread(in);
            // The dispatcher's plan per warp, checked against the spec table.
            std::vector<std::vector<Issue>> plans;
            for (int w = 0; w < target.warps_per_warpgroup; ++w) {
              std::vector<Issue> got;
              for (const hw::LdStIssue& is :
                   hw::tcgen05_ldst_plan(target, hw::parse_datapath(p.datapath), p.sub_slab, in, static_cast<int>(p.rows),
                                         hw::TmemAddress::make(0, static_cast<std::uint32_t>(p.base_col)), w)) {
                if (is.address.col() != p.base_col)
                  fail(fmt::format("the dispatcher's plan for warp {} issues at column {}, not the buffer's column {}", w,
                                   is.address.col(), p.base_col),
                       "tirx-verify sim tcgen05.ld --help");
                got.push_back({is.address.lane(), is.first_reg});
              }
              if (got != spec_plan(p, w, R)) {
                std::string g, e;
                for (const Issue& i : got) g += fmt::format(" (lane {}, reg {})", i.lane, i.first_reg);
                for (const Issue& i : spec_plan(p, w, R)) e += fmt::format(" (lane {}, reg {})", i.lane, i.first_reg);
                fail(fmt::format("the dispatcher plans{} for warp {} of {} x {}, spec (h) says{}", g, w, p.instr_shape,
                                 p.datapath, e),
                     "");
              }
              plans.push_back(std::move(got));
            }
            const int issues = static_cast<int>(plans[0].size());
            const int warps = target.warps_per_warpgroup, ws = target.warp_size;
            const std::string atom_call = fmt::format("tcgen05_atom_layout(\"{}\", ({}, {}), \"{}\")", p.instr_shape, p.rows,
                                                      p.cols, p.dtype);
            const std::string tm_call =
                d64 ? fmt::format("tmem_datapath_layout(\"F\", 64, {})", p.cols)
                    : fmt::format("tmem_datapath_layout(\"{}\", {}, {}{})", p.datapath, p.datapath == "D" ? 128 : 64,
                                  p.cols, p.sub_slab ? ", sub_slab=1" : "");
            // Shows the element on both sides and the simulated instruction of its warp.
            auto repro = [&](std::int64_t r, std::int64_t c) {
              const std::vector<std::int64_t> rc = {r, c};
              const Coord a = atom.apply(rc, shape);
              const int w = static_cast<int>((a.get(AxisId::tid_in_wg) + ws * a.get(AxisId::wid_in_wg)) / ws);
              const Issue first = plans[static_cast<std::size_t>(std::clamp(w, 0, warps - 1))][0];
              return fmt::format("tirx-verify apply {} {} {} --shape {},{}; tirx-verify apply {} {} {} --shape {},{}; "
                                 "tirx-verify sim {} --shape {} --num {} --lane {} --col {} --warp {} --json",
                                 shell_quote(atom_call), r, c, p.rows, p.cols, shell_quote(tm_call), r, c,
                                 d64 ? 64 : p.rows, p.cols, store ? "tcgen05.st" : "tcgen05.ld", p.instr_shape, in.num,
                                 first.lane, p.base_col, w);
            };
            // Where element (r, c) sits on each side.
            struct Where {
              int warp, thread, reg, half;  // registers (thread within its warp)
              int lane, col, bit;           // TMEM
            };
            auto where = [&](std::int64_t r, std::int64_t c) {
              const std::vector<std::int64_t> rc = {r, c};
              const Coord a = atom.apply(rc, shape), t = tm.apply(rc, shape);
              const std::int64_t tid =
                  a.get(AxisId::tid_in_wg) + ws * a.get(AxisId::wid_in_wg) + a.get(AxisId::laneid);
              const std::int64_t m = a.get(AxisId::m);
              const hw::TmemElementSlot s = hw::tmem_element_slot(t.get(AxisId::TCol), bits);
              return Where{static_cast<int>(tid / ws), static_cast<int>(tid % ws), static_cast<int>(m / epb),
                           static_cast<int>(m % epb), static_cast<int>(t.get(AxisId::TLane)), p.base_col + s.col, s.bit};
            };
            const std::uint32_t mask16 = bits == 32 ? 0xFFFFFFFFu : 0xFFFFu;

            hw::Tmem tmem(target);
            tmem.allocator().alloc(target.tmem->columns);
            std::vector<hw::WarpRegisters> regs(static_cast<std::size_t>(warps), hw::WarpRegisters(ws, R * issues));
            std::vector<int> hits(static_cast<std::size_t>(warps * ws * R * issues * epb), 0);
            for (std::int64_t r = 0; r < p.rows; ++r)
              for (std::int64_t c = 0; c < p.cols; ++c) {
                const Where w = where(r, c);
                if (w.warp < 0 || w.warp >= warps || w.reg < 0 || w.reg >= R * issues)
                  fail(fmt::format("{}: element ({}, {}) goes to warp {} register {}, outside the {} registers per thread "
                                   "of the plan",
                                   atom_call, r, c, w.warp, w.reg, R * issues),
                       repro(r, c));
                const std::size_t h = static_cast<std::size_t>(((w.warp * ws + w.thread) * R * issues + w.reg) * epb + w.half);
                if (++hits[h] != 1)
                  fail(fmt::format("{}: two elements share warp {} thread {} register {} half {} (one is ({}, {}))", atom_call,
                                   w.warp, w.thread, w.reg, w.half, r, c),
                       repro(r, c));
                const std::uint32_t v = label(p, r, c, bits);
                if (store) {
                  auto& wr = regs[static_cast<std::size_t>(w.warp)];
                  const std::uint32_t keep = wr.value(w.thread, w.reg), known = wr.known(w.thread, w.reg);
                  const int shift = bits * w.half;
                  wr.set(w.thread, w.reg, (keep & ~(mask16 << shift)) | (v << shift), known | (mask16 << shift));
                } else {
                  tmem.write(w.lane, w.col, v << w.bit, mask16 << w.bit);
                }
              }
            for (int h : hits)
              if (h != 1)
                fail(fmt::format("{} does not cover every register half of the plan ({} x {} registers per thread)", atom_call,
                                 issues, R),
                     repro(0, 0));
            // Execute the plan.
            for (int w = 0; w < warps; ++w)
              for (const Issue& is : plans[static_cast<std::size_t>(w)]) {
                const hw::TmemAddress base = hw::TmemAddress::make(static_cast<std::uint32_t>(is.lane),
                                                                   static_cast<std::uint32_t>(p.base_col));
                try {
                  if (store) {
                    hw::WarpRegisters part(ws, R);
                    for (int t = 0; t < ws; ++t)
                      for (int k = 0; k < R; ++k)
                        part.set(t, k, regs[static_cast<std::size_t>(w)].value(t, is.first_reg + k),
                                 regs[static_cast<std::size_t>(w)].known(t, is.first_reg + k));
                    hw::tcgen05_st(tmem, in, base, w, part);
                  } else {
                    const hw::WarpRegisters part = hw::tcgen05_ld(tmem, in, base, w);
                    for (int t = 0; t < ws; ++t)
                      for (int k = 0; k < R; ++k)
                        regs[static_cast<std::size_t>(w)].set(t, is.first_reg + k, part.value(t, k), part.known(t, k));
                  }
                } catch (const InputError& e) {
                  fail(fmt::format("{} by warp {} at lane {} column {} throws:\n{}", hw::spelling(in, store), w, is.lane,
                                   p.base_col, e.render()),
                       repro(0, 0));
                }
              }
            // Compare element by element.
            for (std::int64_t r = 0; r < p.rows; ++r)
              for (std::int64_t c = 0; c < p.cols; ++c) {
                const Where w = where(r, c);
                const std::uint32_t want = label(p, r, c, bits);
                std::uint32_t got, known;
                if (store) {
                  const hw::TmemCell cell = tmem.read(w.lane, w.col);
                  got = (cell.value >> w.bit) & mask16;
                  known = (cell.known >> w.bit) & mask16;
                } else {
                  const auto& wr = regs[static_cast<std::size_t>(w.warp)];
                  got = (wr.value(w.thread, w.reg) >> (bits * w.half)) & mask16;
                  known = (wr.known(w.thread, w.reg) >> (bits * w.half)) & mask16;
                }
                if (got != want || known != mask16)
                  fail(fmt::format("{} with {} at column {}: element ({}, {}) {} warp {} thread {} register {} half {} / TMEM "
                                   "lane {} column {} bit {}: found 0x{:X} (known 0x{:X}), expected 0x{:X}",
                                   hw::spelling(in, store), tm_call, p.base_col, r, c, store ? "stored from" : "loaded into",
                                   w.warp, w.thread, w.reg, w.half, w.lane, w.col, w.bit, got, known, want),
                       repro(r, c));
              }
          }};
}

}  // namespace tirx::props
