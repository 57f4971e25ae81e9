// kernel.fragment: the register fragment an ldmatrix/stmatrix, mma.sync or wgmma op names is the
// instruction's own fragment — which thread's which register holds which matrix element.
//
// The register side of every check here comes from the op's register region through the op's
// warps (images.hpp reg_cell_of: warp, lane, register, bit); a thread's operand registers are
// its distinct registers in the region, ascending (thread_slots.hpp). The instruction side is
// src/hw's:
//
//   op          operand                    instruction map (thread t, element i or register j)
//   ldmatrix,   regs <-> smem              hw::ldmatrix_element: register j half h of thread t is
//   stmatrix                               element (row, col) of matrix j; the fragment's element
//                                          there must sit at row_address(matrix, row) + 2 col in
//                                          shared memory, rows 16-byte aligned (PTX ISA 9.1
//                                          §9.7.14.5.15/16). Registers are taken num at a time:
//                                          instruction k moves registers [k num, (k+1) num).
//   mma.sync    a (M, K) = (16, 16)        hw::mma_m16n8k16_a(t, i) = (row, col)   (§9.7.14.5.8)
//   m16n8k16    b (N, K) = (8, 16)         hw::mma_m16n8k16_b(t, i) = (k, n)
//               c (M, N) = (16, 8)         hw::mma_m16n8k16_c(t, i) = (row, col)
//   m16n8k8     a (16, 8), b (8, 8)        hw::mma_m16n8k8_a / _b; c as m16n8k16   (§9.7.14.5.7)
//   wgmma       d (64, N)                  hw::wgmma_m64nNk16_d(w, t, i, N)        (§9.7.15.5.1.1.1)
//
// For mma/wgmma, element i of a thread lives in its register i * bits / 32 at bit
// (i * bits) % 32 (two 16-bit elements per register, the lower one in bits 15..0). Every warp
// is checked on its own (wgmma: warp w = the op's w-th warp of its warpgroup). A fail names the
// op and the buffer, the first mismatching element with both images — the fragment's (warp,
// lane, register, bit) and shared byte, the instruction's (thread, register, matrix row/col or
// element index) — and a fix when one is clear (.trans, a transposed fragment).
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "checks.hpp"
#include "thread_slots.hpp"
#include "tirx_verify/hw/ldmatrix.hpp"
#include "tirx_verify/hw/mma_fragments.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/region_sweep.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::checks {

namespace {

constexpr std::int64_t kMaxFragmentPoints = std::int64_t{1} << 20;

KernelFinding finding(const KernelContext& ctx, std::size_t i, prove::Status s, std::string msg,
                      std::vector<std::string> related) {
  KernelFinding f = op_finding(ctx, i, s, std::move(msg));
  f.related = std::move(related);
  if (s == prove::Status::kFail) f.severity = Severity::kError;
  return f;
}

const ResolvedBuffer* usable(const KernelContext& ctx, const Region& r, std::string& why) {
  const ResolvedBuffer* b = ctx.buffer(r.buffer);
  if (!b) {
    why = fmt::format("no buffer '{}'", r.buffer);
    return nullptr;
  }
  if (!b->layout) {
    why = fmt::format("'{}' has no usable layout ({})", b->model->name, b->layout_error);
    return nullptr;
  }
  if (b->elem_bits <= 0) {
    why = fmt::format("'{}' has no dtype", b->model->name);
    return nullptr;
  }
  return b;
}

// The first element of a register region whose thread is not one of the op's warps (or whose
// lane is outside the warp): the fragment and the op disagree on who executes it.
std::optional<std::pair<std::int64_t, std::string>> foreign_element(const ResolvedBuffer& b, const Region& r,
                                                                    const std::vector<int>& warps) {
  std::optional<std::pair<std::int64_t, std::string>> out;
  RegionSweep sw(b, r);
  sw.for_each([&](std::int64_t i, std::int64_t, const Coord& c) {
    try {
      (void)reg_cell_of(b, c, warps);
      return true;
    } catch (const InputError& e) {
      const std::string& m = e.message();
      const auto held = m.find(" is held by ");
      out = {i, held == std::string::npos ? m : m.substr(held + 12)};
      return false;
    }
  });
  return out;
}

KernelFinding foreign_finding(const KernelContext& ctx, std::size_t i, const Region& r, std::int64_t elem,
                              const std::string& who, std::vector<std::string> related) {
  const Op& op = ctx.op(i);
  KernelFinding f = finding(
      ctx, i, prove::Status::kFail,
      fmt::format("'{}' is issued by warps {}, but its fragment '{}' gives element {} to the thread {}: the fragment and "
                  "the instruction disagree on which warp holds it",
                  op.name, nlohmann::json(op.warps).dump(), r.text, coord_text(r.coord(elem)), who),
      std::move(related));
  f.witness = {{"buffer", r.buffer}, {"element", r.coord(elem)}, {"held_by", who}, {"warps", op.warps}};
  f.fix = "issue the op from the warps the fragment names, or give the fragment the op's warps (check the order in "
          "which the layout repeats warps and warpgroups along M)";
  return f;
}

// ---- ldmatrix / stmatrix ----

struct LdmMismatch {
  int warp = 0, lane = 0, instr = 0, reg_j = 0, half = 0;
  std::int64_t reg = 0;                 // the fragment register
  hw::MatrixElement me;
  std::int64_t frag_byte = 0;           // where the fragment's element is
  std::int64_t instr_byte = 0;          // where the instruction reads/writes it
  std::int64_t elem = 0;                // the fragment's element (region index)
  bool count = false;                   // the thread holds the wrong number of registers
  std::string why;
};

// First disagreement between the fragment and an ldmatrix with `in`, or nullopt.
std::optional<LdmMismatch> ldmatrix_mismatch(const hw::LdmatrixInstr& in, const std::vector<int>& warps,
                                             const std::vector<std::vector<RegSlot>>& slots,
                                             const std::vector<std::int64_t>& addr, int* instructions) {
  *instructions = 0;
  for (std::size_t w = 0; w < warps.size(); ++w) {
    std::vector<std::vector<std::int64_t>> regs(32);
    std::size_t nregs = 0;
    for (int t = 0; t < 32; ++t) {
      regs[t] = registers_of(slots[w * 32 + static_cast<std::size_t>(t)]);
      nregs = std::max(nregs, regs[t].size());
    }
    const std::size_t n = static_cast<std::size_t>(in.num);
    for (int t = 0; t < 32; ++t)
      if (regs[t].size() != nregs || nregs % n != 0) {
        LdmMismatch m;
        m.warp = warps[w];
        m.lane = t;
        m.count = true;
        m.why = fmt::format("holds {} registers of the region; an ldmatrix .x{} gives every thread {} per instruction "
                            "(warp {} lane 0 holds {})",
                            regs[t].size(), in.num, in.num, warps[w], regs[0].size());
        return m;
      }
    for (std::size_t k = 0; k * n < nregs; ++k) {
      ++*instructions;
      std::vector<std::int64_t> row(static_cast<std::size_t>(8 * in.num), -1);
      for (int pass = 0; pass < 2; ++pass)  // pass 0 fixes each row's address from its column 0
        for (int t = 0; t < 32; ++t)
          for (int j = 0; j < in.num; ++j)
            for (int h = 0; h < 2; ++h) {
              const std::int64_t reg = regs[t][k * n + static_cast<std::size_t>(j)];
              const auto& s = slots[w * 32 + static_cast<std::size_t>(t)];
              auto it = std::find_if(s.begin(), s.end(), [&](const RegSlot& x) { return x.regbit == reg * 32 + 16 * h; });
              const hw::MatrixElement me = hw::ldmatrix_element(in, t, j, h);
              std::int64_t& ra = row[static_cast<std::size_t>(8 * me.matrix + me.row)];
              LdmMismatch m;
              m.warp = warps[w];
              m.lane = t;
              m.instr = static_cast<int>(k);
              m.reg_j = j;
              m.half = h;
              m.reg = reg;
              m.me = me;
              if (it == s.end()) {
                if (pass == 1) {
                  m.why = fmt::format("has no element in bits {}..{} of register {}", 16 * h, 16 * h + 15, reg);
                  return m;
                }
                continue;
              }
              const std::int64_t a = addr[static_cast<std::size_t>(it->elem)];
              if (pass == 0) {
                if (me.col == 0) ra = a;
                continue;
              }
              m.frag_byte = a;
              m.elem = it->elem;
              if (ra < 0) ra = a - 2 * me.col;  // no thread holds column 0 of this row: take this one
              m.instr_byte = ra + 2 * me.col;
              if (ra % 16 != 0) {
                m.why = fmt::format("puts row {} of matrix {} at byte {}, not 16-byte aligned", me.row, me.matrix, ra);
                return m;
              }
              if (a != m.instr_byte) {
                m.why = "mismatch";
                return m;
              }
            }
    }
  }
  return std::nullopt;
}

std::optional<KernelFinding> check_ldmatrix(const KernelContext& ctx, std::size_t i, const LdmatrixOp& l) {
  const Op& op = ctx.op(i);
  std::string why;
  const ResolvedBuffer* sb = usable(ctx, l.smem, why);
  const ResolvedBuffer* rb = sb ? usable(ctx, l.regs, why) : nullptr;
  const std::vector<std::string> related = {l.regs.buffer, l.smem.buffer};
  if (!rb) return finding(ctx, i, prove::Status::kNotApplicable, why, related);
  const char* name = l.store ? "stmatrix" : "ldmatrix";
  if (sb->elem_bits != 16 || rb->elem_bits != 16)
    return finding(ctx, i, prove::Status::kFail,
                   fmt::format("{} .b16 moves 16-bit elements; '{}' is {} and '{}' {}", name, sb->model->name,
                               sb->model->dtype, rb->model->name, rb->model->dtype),
                   related);
  RegionSweep ss(*sb, l.smem);
  if (ss.points() > kMaxFragmentPoints)
    return finding(ctx, i, prove::Status::kUndecided,
                   fmt::format("enumeration limit: {} elements (at most {})", ss.points(), kMaxFragmentPoints), related);
  std::vector<std::int64_t> addr(static_cast<std::size_t>(ss.size()));
  ss.for_each([&](std::int64_t e, std::int64_t r, const Coord& c) {
    if (r == 0) addr[static_cast<std::size_t>(e)] = smem_bit_of(*sb, c) / 8;
  });
  if (const auto fe = foreign_element(*rb, l.regs, op.warps))
    return foreign_finding(ctx, i, l.regs, fe->first, fe->second, related);
  const auto slots = thread_slots(*rb, l.regs, op.warps);
  hw::LdmatrixInstr in{l.num, l.trans};
  hw::validate(in);
  int instructions = 0;
  const auto m = ldmatrix_mismatch(in, op.warps, slots, addr, &instructions);
  const std::string spelled = fmt::format("{}.sync.aligned.m8n8.x{}{}.shared.b16", name, l.num, l.trans ? ".trans" : "");
  if (!m)
    return finding(ctx, i, prove::Status::kPass,
                   fmt::format("{} instruction(s) of {} by {} warp(s): every register of '{}' holds the element of "
                               "'{}' the instruction moves (rows contiguous and 16-byte aligned)",
                               instructions, spelled, op.warps.size(), l.regs.text, l.smem.text),
                   related);
  KernelFinding f = finding(ctx, i, prove::Status::kFail, "", related);
  nlohmann::json frag = {{"warp", m->warp}, {"lane", m->lane}};
  if (m->count) {
    f.message = fmt::format("{} '{}': warp {} lane {} {}", spelled, op.name, m->warp, m->lane, m->why);
    f.witness = {{"fragment", frag}, {"buffer", l.regs.buffer}};
    f.fix = fmt::format("give the register region {} registers per thread per instruction (or change .x{})", l.num,
                        l.num);
    return f;
  }
  frag["reg"] = m->reg;
  frag["bit"] = 16 * m->half;
  const nlohmann::json instr = {{"thread", m->lane},    {"instruction", m->instr}, {"reg", m->reg_j},
                                {"half", m->half},      {"matrix", m->me.matrix},  {"row", m->me.row},
                                {"col", m->me.col},     {"row_thread", 8 * m->me.matrix + m->me.row}};
  if (m->why == "mismatch") {
    f.message = fmt::format(
        "{} '{}': warp {} lane {} register {} (the instruction's register {} of instruction {}, bits {}..{}) is "
        "element (row {}, col {}) of matrix {} — byte {} of the row thread {} passes; the fragment '{}' puts element {} "
        "of '{}' there, which '{}' keeps at byte {}",
        spelled, op.name, m->warp, m->lane, m->reg, m->reg_j, m->instr, 16 * m->half, 16 * m->half + 15, m->me.row,
        m->me.col, m->me.matrix, m->instr_byte, 8 * m->me.matrix + m->me.row, l.regs.text,
        coord_text(l.smem.coord(m->elem)), l.smem.text, l.smem.buffer, m->frag_byte);
  } else {
    f.message = fmt::format("{} '{}': warp {} lane {} {}", spelled, op.name, m->warp, m->lane, m->why);
  }
  f.witness = {{"buffer", l.regs.buffer},
               {"element", l.smem.coord(m->elem)},
               {"fragment", frag},
               {"fragment_byte", m->frag_byte},
               {"instruction", instr},
               {"instruction_byte", m->instr_byte}};
  hw::LdmatrixInstr other{l.num, !l.trans};
  int dummy = 0;
  if (!ldmatrix_mismatch(other, op.warps, slots, addr, &dummy))
    f.fix = l.trans ? fmt::format("drop .trans: the fragment is the plain {} fragment of this tile", name)
                    : fmt::format("use {}.trans: the fragment holds the tile transposed", name);
  return f;
}

// ---- mma.sync / wgmma operand fragments ----

enum class Operand { kA, kB, kC, kWgmmaD, kA8, kB8 };

// (row, col) of the region element that thread (w, t)'s element i must be, region order.
hw::RowCol expected(Operand o, int w, int t, int i, int n_total) {
  switch (o) {
    case Operand::kA: return hw::mma_m16n8k16_a(t, i);
    case Operand::kB: {
      const hw::RowCol kn = hw::mma_m16n8k16_b(t, i);  // (k, n); the region is (N, K)
      return {kn.col, kn.row};
    }
    case Operand::kC: return hw::mma_m16n8k16_c(t, i);
    case Operand::kA8: return hw::mma_m16n8k8_a(t, i);
    case Operand::kB8: {
      const hw::RowCol kn = hw::mma_m16n8k8_b(t, i);  // (k, n); the region is (N, K)
      return {kn.col, kn.row};
    }
    case Operand::kWgmmaD: return hw::wgmma_m64nNk16_d(w, t, i, n_total);
  }
  return {};
}

struct OperandMismatch {
  int warp = 0, lane = 0, index = 0;
  std::int64_t reg = 0, bit = 0;
  hw::RowCol want;
  std::optional<std::int64_t> elem;  // the fragment's element there, if any
};

std::optional<OperandMismatch> operand_mismatch(Operand o, const std::vector<int>& warps,
                                                const std::vector<std::vector<RegSlot>>& slots, const Region& r,
                                                int bits, int per_thread, int n_total, bool transposed) {
  const auto shape = r.kept_shape();
  for (std::size_t w = 0; w < warps.size(); ++w)
    for (int t = 0; t < 32; ++t) {
      const auto& s = slots[w * 32 + static_cast<std::size_t>(t)];
      const auto regs = registers_of(s);
      for (int i = 0; i < per_thread; ++i) {
        OperandMismatch m;
        m.warp = warps[w];
        m.lane = t;
        m.index = i;
        const std::int64_t rb = static_cast<std::int64_t>(i) * bits;
        m.bit = rb % 32;
        const std::size_t reg_pos = static_cast<std::size_t>(rb / 32);
        m.reg = reg_pos < regs.size() ? regs[reg_pos] : -1;
        m.want = expected(o, static_cast<int>(w % 4), t, i, n_total);
        if (transposed) std::swap(m.want.row, m.want.col);
        if (m.reg < 0) return m;
        auto it = std::find_if(s.begin(), s.end(), [&](const RegSlot& x) { return x.regbit == m.reg * 32 + m.bit; });
        if (it == s.end()) return m;
        m.elem = it->elem;
        const std::int64_t row = it->elem / shape[1], col = it->elem % shape[1];
        if (row != m.want.row || col != m.want.col) return m;
      }
      if (static_cast<int>(s.size()) != per_thread) {
        OperandMismatch m;
        m.warp = warps[w];
        m.lane = t;
        m.index = per_thread;
        m.reg = -2;  // too many elements
        return m;
      }
    }
  return std::nullopt;
}

struct OperandSpec {
  Operand o;
  const char* name;          // "A", "B", "C", "D"
  const Region* region;
  std::int64_t rows, cols;
  std::vector<int> bits;     // allowed element sizes
  int per_thread;
  int n_total = 0;
  const char* section;
};

std::optional<std::string> check_operand(const KernelContext& ctx, const Op& op, const OperandSpec& sp,
                                         nlohmann::json* witness, std::string* fix) {
  std::string why;
  const ResolvedBuffer* b = usable(ctx, *sp.region, why);
  if (!b) return "n/a:" + why;
  const auto shape = sp.region->kept_shape();
  if (shape.size() != 2 || shape[0] != sp.rows || shape[1] != sp.cols)
    return fmt::format("operand {} '{}' has shape {}; the instruction's {} is ({}, {})", sp.name, sp.region->text,
                       coord_text(shape), sp.name, sp.rows, sp.cols);
  if (std::find(sp.bits.begin(), sp.bits.end(), b->elem_bits) == sp.bits.end())
    return fmt::format("operand {} '{}' is {} ({}-bit elements), which this instruction's {} fragment does not take",
                       sp.name, sp.region->text, b->model->dtype, b->elem_bits, sp.name);
  if (const auto fe = foreign_element(*b, *sp.region, op.warps)) {
    *witness = {{"operand", sp.name},
                {"buffer", sp.region->buffer},
                {"element", sp.region->coord(fe->first)},
                {"held_by", fe->second},
                {"warps", op.warps}};
    *fix = "issue the op from the warps the fragment names, or give the fragment the op's warps (check the order in "
           "which the layout repeats warps and warpgroups along M)";
    return fmt::format("operand {} '{}': the fragment gives element {} to the thread {}, but the op is issued by warps "
                       "{}: the fragment and the instruction disagree on which warp holds it",
                       sp.name, sp.region->text, coord_text(sp.region->coord(fe->first)), fe->second,
                       nlohmann::json(op.warps).dump());
  }
  const auto slots = thread_slots(*b, *sp.region, op.warps);
  const int per_thread = sp.per_thread;
  const auto m = operand_mismatch(sp.o, op.warps, slots, *sp.region, b->elem_bits, per_thread, sp.n_total, false);
  if (!m) return std::nullopt;
  nlohmann::json frag = {{"warp", m->warp}, {"lane", m->lane}};
  if (m->reg >= 0) {
    frag["reg"] = m->reg;
    frag["bit"] = m->bit;
  }
  *witness = {{"operand", sp.name},
              {"buffer", sp.region->buffer},
              {"fragment", frag},
              {"instruction", {{"thread", m->lane}, {"index", m->index}, {"row", m->want.row}, {"col", m->want.col}}}};
  if (m->elem) (*witness)["element"] = sp.region->coord(*m->elem);
  if (!operand_mismatch(sp.o, op.warps, slots, *sp.region, b->elem_bits, per_thread, sp.n_total, true)) {
    *fix = fmt::format("the fragment holds operand {} transposed: swap the two dimensions of '{}'s layout", sp.name,
                       sp.region->buffer);
  } else if (m->elem && m->reg >= 0) {
    // The same elements in another register order?
    const auto& th = slots[static_cast<std::size_t>(std::find(op.warps.begin(), op.warps.end(), m->warp) -
                                                    op.warps.begin()) * 32 + static_cast<std::size_t>(m->lane)];
    const auto shape2 = sp.region->kept_shape();
    const int w_in_wg = static_cast<int>((std::find(op.warps.begin(), op.warps.end(), m->warp) - op.warps.begin()) % 4);
    std::vector<std::pair<std::int64_t, std::int64_t>> have, want;
    for (const RegSlot& x : th) have.emplace_back(x.elem / shape2[1], x.elem % shape2[1]);
    for (int i = 0; i < per_thread; ++i) {
      const hw::RowCol rc = expected(sp.o, w_in_wg, m->lane, i, sp.n_total);
      want.emplace_back(rc.row, rc.col);
    }
    const std::pair<std::int64_t, std::int64_t> got{*m->elem / shape2[1], *m->elem % shape2[1]};
    const auto pos = std::find(want.begin(), want.end(), got);
    std::sort(have.begin(), have.end());
    auto sorted_want = want;
    std::sort(sorted_want.begin(), sorted_want.end());
    if (have == sorted_want && pos != want.end()) {
      const std::int64_t i2 = pos - want.begin();
      *fix = fmt::format("the fragment holds the instruction's elements in another register order: its register {} "
                         "bits {}..{} holds what the instruction takes from its register {} bits {}..{} (element {}); "
                         "reorder the layout's register iters (or, for a fragment an ldmatrix fills, the rows the "
                         "lanes pass)",
                         m->reg, m->bit, m->bit + b->elem_bits - 1, i2 * b->elem_bits / 32, (i2 * b->elem_bits) % 32,
                         (i2 * b->elem_bits) % 32 + b->elem_bits - 1, i2);
    }
  }
  const std::string where = fmt::format("warp {} lane {}", m->warp, m->lane);
  if (m->reg == -2)
    return fmt::format("operand {} '{}': {} holds more than the {} elements of the instruction's fragment", sp.name,
                       sp.region->text, where, per_thread);
  if (m->reg < 0 || !m->elem)
    return fmt::format("operand {} '{}': {} has no element {} (register {} bits {}..{}), which the instruction reads "
                       "as ({}, {}) ({})",
                       sp.name, sp.region->text, where, m->index, m->reg < 0 ? std::string("?") : std::to_string(m->reg),
                       m->bit, m->bit + b->elem_bits - 1, m->want.row, m->want.col, sp.section);
  return fmt::format("operand {} '{}': {} register {} bits {}..{} is the instruction's element {} = ({}, {}) ({}); the "
                     "fragment puts element {} of '{}' there",
                     sp.name, sp.region->text, where, m->reg, m->bit, m->bit + b->elem_bits - 1, m->index, m->want.row,
                     m->want.col, sp.section, coord_text(sp.region->coord(*m->elem)), sp.region->buffer);
}

std::optional<KernelFinding> check_operands(const KernelContext& ctx, std::size_t i, const std::string& spelled,
                                            const std::vector<OperandSpec>& specs) {
  std::vector<std::string> related;
  for (const auto& s : specs) related.push_back(s.region->buffer);
  for (const auto& s : specs) {
    nlohmann::json w;
    std::string fix;
    const auto err = check_operand(ctx, ctx.op(i), s, &w, &fix);
    if (!err) continue;
    if (err->rfind("n/a:", 0) == 0) return finding(ctx, i, prove::Status::kNotApplicable, err->substr(4), related);
    KernelFinding f = finding(ctx, i, prove::Status::kFail, fmt::format("{} '{}': {}", spelled, ctx.op(i).name, *err),
                              related);
    f.witness = std::move(w);
    f.fix = std::move(fix);
    return f;
  }
  std::string names;
  for (const auto& s : specs) names += fmt::format("{}{} '{}'", names.empty() ? "" : ", ", s.name, s.region->text);
  return finding(ctx, i, prove::Status::kPass,
                 fmt::format("{} by {} warp(s): {} are the instruction's fragments ({})", spelled,
                             ctx.op(i).warps.size(), names, specs.front().section),
                 related);
}

}  // namespace

std::vector<KernelFinding> fragment(const KernelContext& ctx) {
  std::vector<KernelFinding> out;
  for (std::size_t i = 0; i < ctx.model->ops.size(); ++i) {
    const Op& op = ctx.op(i);
    std::optional<KernelFinding> f;
    try {
      if (const auto* l = std::get_if<LdmatrixOp>(&op.data)) {
        f = check_ldmatrix(ctx, i, *l);
      } else if (const auto* m = std::get_if<MmaSyncOp>(&op.data); m && m->shape == "m16n8k8") {
        f = check_operands(ctx, i, "mma.sync.aligned.m16n8k8",
                           {{Operand::kA8, "A", &m->a, 16, 8, {16}, hw::kMmaK8AElems, 0, "PTX ISA 9.1 §9.7.14.5.7"},
                            {Operand::kB8, "B", &m->b, 8, 8, {16}, hw::kMmaK8BElems, 0, "PTX ISA 9.1 §9.7.14.5.7"},
                            {Operand::kC, "C", &m->c, 16, 8, {32, 16}, hw::kMmaCElems, 0, "PTX ISA 9.1 §9.7.14.5.7"}});
      } else if (const auto* m = std::get_if<MmaSyncOp>(&op.data)) {
        f = check_operands(ctx, i, "mma.sync.aligned.m16n8k16",
                           {{Operand::kA, "A", &m->a, 16, 16, {16}, hw::kMmaAElems, 0, "PTX ISA 9.1 §9.7.14.5.8"},
                            {Operand::kB, "B", &m->b, 8, 16, {16}, hw::kMmaBElems, 0, "PTX ISA 9.1 §9.7.14.5.8"},
                            {Operand::kC, "C", &m->c, 16, 8, {32, 16}, hw::kMmaCElems, 0, "PTX ISA 9.1 §9.7.14.5.8"}});
      } else if (const auto* w = std::get_if<WgmmaOp>(&op.data); w && w->d) {
        if (op.warps.size() != 4 || op.warps[0] % 4 != 0 ||
            !std::is_sorted(op.warps.begin(), op.warps.end()) || op.warps[3] != op.warps[0] + 3)
          f = finding(ctx, i, prove::Status::kFail,
                      fmt::format("wgmma '{}' is issued by warps {}; wgmma is warpgroup-wide: the four warps 4g .. 4g+3",
                                  op.name, nlohmann::json(op.warps).dump()),
                      {w->d->buffer});
        else
          f = check_operands(ctx, i, fmt::format("wgmma.mma_async.m64n{}k16", w->n),
                             {{Operand::kWgmmaD, "D", &*w->d, 64, w->n, {32}, static_cast<int>(w->n / 2),
                               static_cast<int>(w->n), "PTX ISA 9.1 §9.7.15.5.1.1.1"}});
      }
    } catch (const InputError& e) {
      f = finding(ctx, i, prove::Status::kNotApplicable, fmt::format("[{}] {}", e.check_id(), e.message()), {});
    }
    if (f) out.push_back(std::move(*f));
  }
  return out;
}

}  // namespace tirx::kernel::checks
