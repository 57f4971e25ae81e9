#include "tirx_verify/hw/tcgen05_ldst.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {

// A step of the (thread, register) -> (lane, column) map (header table).
struct Step {
  int dlane = 0;
  int dcol = 0;
  bool imm = false;  // .16x32bx2 thread bit 4: the second half, +imm columns
};

// One row of the header table: the whole description of a shape.
struct ShapeInfo {
  std::string_view name;
  int lanes;                  // lanes covered
  int cols_per_rep;           // 32-bit columns one repetition covers (unpacked, per half)
  int regs_per_rep;           // registers per thread per repetition
  int max_num;                // Table 49/50
  std::array<Step, 5> tbit;   // contribution of thread bit 0..4
  std::array<Step, 2> rbit;   // contribution of register bit 0..1 (within a repetition)
};

constexpr Step L(int d) { return Step{d, 0, false}; }
constexpr Step C(int d) { return Step{0, d, false}; }
constexpr Step kNone{};
constexpr Step kImm{0, 0, true};

constexpr std::array<ShapeInfo, 5> kShapes = {{
    {"32x32b", 32, 1, 1, 128, {L(1), L(2), L(4), L(8), L(16)}, {kNone, kNone}},
    {"16x64b", 16, 2, 1, 128, {L(8), C(1), L(1), L(2), L(4)}, {kNone, kNone}},
    {"16x128b", 16, 4, 2, 64, {C(1), C(2), L(1), L(2), L(4)}, {L(8), kNone}},
    {"16x256b", 16, 8, 4, 32, {C(2), C(4), L(1), L(2), L(4)}, {C(1), L(8)}},
    {"16x32bx2", 16, 1, 1, 128, {L(1), L(2), L(4), L(8), kImm}, {kNone, kNone}},
}};

const ShapeInfo& ldst_info(LdStShape s) { return kShapes[static_cast<int>(s)]; }

[[noreturn]] void shape_error(std::string msg, std::string note = {}) {
  throw InputError("tcgen05.shape", std::move(msg), {}, std::nullopt, std::move(note));
}

}  // namespace

LdStShape parse_ldst_shape(std::string_view text) {
  if (!text.empty() && text.front() == '.') text.remove_prefix(1);
  for (std::size_t i = 0; i < kShapes.size(); ++i)
    if (kShapes[i].name == text) return static_cast<LdStShape>(i);
  shape_error(fmt::format("unknown tcgen05.ld/st shape '{}'", text), "one of 32x32b, 16x64b, 16x128b, 16x256b, 16x32bx2");
}

std::string_view to_string(LdStShape s) { return ldst_info(s).name; }
int max_num(LdStShape s) { return ldst_info(s).max_num; }
int shape_lanes(LdStShape s) { return ldst_info(s).lanes; }
int regs_per_thread(const LdStInstr& in) { return ldst_info(in.shape).regs_per_rep * in.num; }

int column_footprint(const LdStInstr& in) {
  const ShapeInfo& si = ldst_info(in.shape);
  int half = si.cols_per_rep * in.num * (in.pack ? 2 : 1);
  if (in.shape == LdStShape::k16x32bx2) return std::max(half, in.imm + half);
  return half;
}

std::string spelling(const LdStInstr& in, bool is_store) {
  std::string s = fmt::format("tcgen05.{}.sync.aligned.{}.x{}", is_store ? "st" : "ld", to_string(in.shape), in.num);
  if (in.pack) s += is_store ? ".unpack::16b" : ".pack::16b";
  return s + ".b32";
}

void validate(const LdStInstr& in) {
  const ShapeInfo& si = ldst_info(in.shape);
  bool pow2 = in.num > 0 && (in.num & (in.num - 1)) == 0;
  if (!pow2 || in.num > si.max_num)
    shape_error(fmt::format(".num x{} is not legal for tcgen05.ld/st .{}", in.num, si.name),
                fmt::format("PTX ISA 9.1 Table 49/50: .{} takes x1, x2, x4, ... x{}", si.name, si.max_num));
  if (in.shape == LdStShape::k16x32bx2) {
    if (in.imm < 0)
      shape_error(".16x32bx2 needs the immHalfSplitoff immediate (a non-negative column offset)",
                  "pass --imm K; CUTLASS uses K = num (2*num with pack) so the two halves are contiguous");
    // A column offset wider than the column field of a TMEM address (lane << 16 | column) names
    // no column; it would also overflow the footprint arithmetic below.
    if (in.imm > 0xFFFF)
      shape_error(fmt::format("immHalfSplitoff {} is wider than the 16-bit column field of a TMEM address", in.imm));
  } else if (in.imm >= 0) {
    shape_error(fmt::format("the immHalfSplitoff immediate exists only for .16x32bx2, not .{}", si.name));
  }
}

LdStCell ldst_cell(const LdStInstr& in, TmemAddress base, int t, int r) {
  const ShapeInfo& si = ldst_info(in.shape);
  int dlane = 0, dcol = 0, imm_cols = 0;
  for (int b = 0; b < 5; ++b) {
    if (!((t >> b) & 1)) continue;
    const Step& s = si.tbit[b];
    dlane += s.dlane;
    dcol += s.dcol;
    if (s.imm) imm_cols += in.imm;
  }
  int within = r % si.regs_per_rep;
  for (int b = 0; b < 2; ++b) {
    if (!((within >> b) & 1)) continue;
    dlane += si.rbit[b].dlane;
    dcol += si.rbit[b].dcol;
  }
  dcol += (r / si.regs_per_rep) * si.cols_per_rep;
  LdStCell c;
  c.lane = base.lane() + dlane;
  if (in.pack) {
    c.col = base.col() + imm_cols + 2 * dcol;
    c.col_hi = c.col + 1;
  } else {
    c.col = base.col() + imm_cols + dcol;
  }
  return c;
}

std::vector<LdStAccess> warp_accesses(const Target& target, const LdStInstr& in, TmemAddress base, int warp_in_wg,
                                      bool is_store) {
  const TmemGeometry& g = target.require_tmem("tcgen05.ld/st");
  validate(in);
  std::string name = spelling(in, is_store);
  check_partition(target, name, warp_in_wg, base, base.lane(), shape_lanes(in.shape));
  int last_col = base.col() + column_footprint(in) - 1;
  if (last_col >= g.columns)
    throw InputError("tmem.address", fmt::format("{} at {} covers columns {}..{}, past the last column {}", name,
                                                 describe(base), base.col(), last_col, g.columns - 1));
  std::vector<LdStAccess> out;
  int regs = regs_per_thread(in);
  out.reserve(static_cast<std::size_t>(target.warp_size) * regs);
  for (int t = 0; t < target.warp_size; ++t)
    for (int r = 0; r < regs; ++r) out.push_back({t, r, ldst_cell(in, base, t, r)});
  return out;
}

LaneFieldAccess resolve_lane_field(const Target& target, LdStShape shape, int lane_field, int warp_in_wg) {
  const TmemGeometry& g = target.require_tmem("tcgen05.ld/st");
  const LaneRange own = subpartition_lanes(target, warp_in_wg);  // throws for a bad warp index
  const int sub = own.last - own.first + 1;                        // 32
  LaneFieldAccess a;
  a.lane_field = lane_field;
  a.warp_in_wg = warp_in_wg;
  a.lanes = shape_lanes(shape);
  a.outside = lane_field < 0 || lane_field >= g.lanes;
  const int field = lane_field < 0 ? 0 : lane_field;
  a.named_subpartition = field / sub;
  a.first_lane = own.first + field % sub;
  a.names_other_subpartition = a.named_subpartition != 0 && a.named_subpartition != warp_in_wg;
  a.crosses = field % sub + a.lanes > sub;
  return a;
}

WarpRegisters tcgen05_ld(Tmem& tmem, const LdStInstr& in, TmemAddress base, int warp_in_wg) {
  const Target& target = tmem.target();
  auto acc = warp_accesses(target, in, base, warp_in_wg, false);
  std::string name = spelling(in, false);
  WarpRegisters regs(target.warp_size, regs_per_thread(in));
  for (const auto& a : acc) {
    TmemCell lo = tmem.read(a.cell.lane, a.cell.col, name);
    if (!in.pack) {
      regs.set(a.thread, a.reg, lo.value, lo.known);
    } else {
      TmemCell hi = tmem.read(a.cell.lane, a.cell.col_hi, name);
      std::uint32_t v = (lo.value & 0xFFFFu) | ((hi.value & 0xFFFFu) << 16);
      std::uint32_t k = (lo.known & 0xFFFFu) | ((hi.known & 0xFFFFu) << 16);
      regs.set(a.thread, a.reg, v, k);
    }
  }
  return regs;
}

void tcgen05_st(Tmem& tmem, const LdStInstr& in, TmemAddress base, int warp_in_wg, const WarpRegisters& regs) {
  const Target& target = tmem.target();
  auto acc = warp_accesses(target, in, base, warp_in_wg, true);
  std::string name = spelling(in, true);
  if (regs.threads() != target.warp_size || regs.regs() != regs_per_thread(in))
    shape_error(fmt::format("{} needs {} threads x {} registers, got {} x {}", name, target.warp_size,
                            regs_per_thread(in), regs.threads(), regs.regs()));
  std::set<std::pair<int, int>> written;
  auto claim = [&](int lane, int col, const LdStAccess& a) {
    if (!written.insert({lane, col}).second)
      shape_error(fmt::format("{} at {} writes lane {}, column {} from two threads (thread {} register {} is the "
                              "second)",
                              name, describe(base), lane, col, a.thread, a.reg),
                  "the two .16x32bx2 halves overlap: use imm >= the half's column footprint");
  };
  for (const auto& a : acc) {
    std::uint32_t v = regs.value(a.thread, a.reg);
    std::uint32_t k = regs.known(a.thread, a.reg);
    claim(a.cell.lane, a.cell.col, a);
    if (!in.pack) {
      tmem.store(a.cell.lane, a.cell.col, TmemCell{v, k}, 0xFFFFFFFFu, name);
    } else {
      // .unpack::16b: the low half of each cell gets one 16-bit value; the upper half is
      // unspecified (spec §3), so it becomes unknown.
      claim(a.cell.lane, a.cell.col_hi, a);
      tmem.store(a.cell.lane, a.cell.col, TmemCell{v & 0xFFFFu, k & 0xFFFFu}, 0xFFFFFFFFu, name);
      tmem.store(a.cell.lane, a.cell.col_hi, TmemCell{v >> 16, k >> 16}, 0xFFFFFFFFu, name);
    }
  }
}

}  // namespace tirx::hw
