// smem.bank-conflicts on the ops of a kernel: every warp-wide shared-memory access an op makes
// takes the ideal number of wavefronts.
//
// The buffer-level check of the same id (src/prove/check_bank_conflicts.cpp, `check --access`)
// takes a fragment and a width from the command line; here both come from the op, and the
// result is a finding with subject_kind "op" (one per op, pass or fail):
//
//   op kind                              per thread and instruction
//   smem.access, copy / copy_async       access_bytes of consecutive register slots, which must be
//     (dispatch thread, shared side)     one aligned vector in shared memory (ld/st.shared.vN)
//   ldmatrix / stmatrix                  .x num: thread 8j + i supplies row i of matrix j
//                                        (hw::ldmatrix_row_role / ldmatrix_element, PTX ISA 9.1
//                                        §9.7.14.5.15/16), its registers taken num at a time
//
// Who holds which element comes from the op's register region (images.hpp reg_cell_of: warp,
// lane, register, bit through the op's warps), where it lives from the shared region (the
// absolute byte address, swizzle and placement included); the two regions correspond element by
// element. A thread's elements are ordered by their bit position in its registers; instruction
// k of a thread moves its k-th access_bytes of them. Threads of a warp that hold none of an
// instruction's elements are inactive. The wavefronts of each (warp, instruction) are counted
// by hw::count_wavefronts / hw::ldmatrix_wavefronts (banks.hpp, calibrated on an H200). The
// finding names the worst instruction (most excess wavefronts; the first such in warp and
// instruction order): its warp, index, wavefronts vs ideal, and the phase, bank and threads of
// its busiest bank, all 32 addresses, and a fix when the collision has a clear shape (threads
// of one phase whose addresses are a multiple of 128 bytes apart: pad the rows or swizzle).
// TMA, tcgen05.cp and MMA operand reads are not thread accesses and are not asked.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "checks.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/hw/ldmatrix.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/region_sweep.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::checks {

namespace {

constexpr std::int64_t kMaxBankPoints = std::int64_t{1} << 20;  // region elements x replicas per op

// One element as a thread moves it: its position in the thread's registers and its address.
struct Slot {
  std::int64_t regbit = 0;   // reg * 32 + bit
  std::int64_t addr = 0;     // absolute shared byte address
};

// The shared-memory side of one thread access op.
struct ThreadAccess {
  const Region* smem = nullptr;
  const Region* regs = nullptr;
  int access_bytes = 0;
  bool store = false;
  bool ldmatrix = false;
  hw::LdmatrixInstr ldm;
};

std::optional<ThreadAccess> thread_access(const KernelContext& ctx, const Op& op) {
  ThreadAccess t;
  if (const auto* s = std::get_if<SmemAccessOp>(&op.data)) {
    t = {&s->smem, &s->regs, s->access_bytes, s->store, false, {}};
  } else if (const auto* l = std::get_if<LdmatrixOp>(&op.data)) {
    t = {&l->smem, &l->regs, 16, l->store, true, {l->num, l->trans}};
  } else if (const auto* c = std::get_if<CopyOp>(&op.data)) {
    if (c->dispatch == "ldstmatrix") {
      t.ldmatrix = true;
      t.smem = nullptr;  // the plan of a tile-level ldmatrix/stmatrix copy is not derived
      return t;
    }
    if (c->dispatch != "thread") return std::nullopt;
    const ResolvedBuffer* d = ctx.buffer(c->dst.buffer);
    const ResolvedBuffer* s = ctx.buffer(c->src.buffer);
    if (!d || !s) return std::nullopt;
    if (d->scope == prove::Scope::kShared && s->scope == prove::Scope::kLocal)
      t = {&c->dst, &c->src, c->access_bytes, true, false, {}};
    else if (s->scope == prove::Scope::kShared && d->scope == prove::Scope::kLocal)
      t = {&c->src, &c->dst, c->access_bytes, false, false, {}};
    else
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  return t;
}

struct Instr {
  int warp = 0;                        // CTA warp
  int index = 0;                       // instruction index in the warp
  std::vector<std::uint64_t> addr;     // per lane (or per row for ldmatrix)
  std::uint64_t mask = 0;
  hw::WavefrontCount wc;
};

struct Collision {
  int phase = 0, bank = 0, words = 0;
  std::vector<int> threads;
  std::vector<std::uint64_t> addrs;
};

// The busiest bank of the busiest phase of an access (banks.hpp steps 1-3).
Collision worst_bank(const hw::Target& target, const Instr& in, int width, bool ldmatrix, bool store) {
  Collision best;
  int p = 0;
  if (ldmatrix) {
    p = target.wavefront.ldmatrix_phase_rows;
  } else {
    hw::SmemAccess acc{width, in.addr, in.mask, store};
    p = hw::phase_threads(target, acc);
  }
  const int n = static_cast<int>(in.addr.size());
  for (int ph = 0; ph * p < n; ++ph) {
    std::map<int, std::set<std::uint64_t>> words;
    std::map<int, std::vector<int>> threads;
    std::map<int, std::vector<std::uint64_t>> addrs;
    for (int t = ph * p; t < std::min(n, (ph + 1) * p); ++t) {
      if (!((in.mask >> t) & 1u)) continue;
      for (int w = 0; w < width / target.bank_bytes; ++w) {
        const std::uint64_t a = in.addr[static_cast<std::size_t>(t)] + static_cast<std::uint64_t>(w * target.bank_bytes);
        const int b = hw::bank_of(target, a);
        if (words[b].insert(a / static_cast<std::uint64_t>(target.bank_bytes)).second) {
          threads[b].push_back(t);
          addrs[b].push_back(in.addr[static_cast<std::size_t>(t)]);
        }
      }
    }
    for (const auto& [b, ws] : words)
      if (static_cast<int>(ws.size()) > best.words) best = {ph, b, static_cast<int>(ws.size()), threads[b], addrs[b]};
  }
  return best;
}

// A fix when the collision has a clear shape:
//   * every active thread's address is a0 + t * P (one row per thread, rows P bytes apart): the
//     smallest pitch P' > P (in steps of the access width, at most 128 bytes more) at which the
//     same access takes the ideal count — a row pad;
//   * the colliding threads' addresses are a multiple of 128 bytes apart: pad or swizzle.
std::string fix_for(const hw::Target& target, const Instr& in, const Collision& c, int width, bool store) {
  int t0 = -1;
  std::int64_t pitch = 0;
  bool linear = !in.addr.empty() && in.mask != 0;
  for (int t = 0; t < static_cast<int>(in.addr.size()) && linear; ++t) {
    if (!((in.mask >> t) & 1u)) continue;
    const std::int64_t a = static_cast<std::int64_t>(in.addr[static_cast<std::size_t>(t)]);
    if (t0 < 0) {
      t0 = t;
    } else if (pitch == 0 && t > t0) {
      if ((a - static_cast<std::int64_t>(in.addr[static_cast<std::size_t>(t0)])) % (t - t0) != 0) linear = false;
      pitch = (a - static_cast<std::int64_t>(in.addr[static_cast<std::size_t>(t0)])) / (t - t0);
    } else if (a != static_cast<std::int64_t>(in.addr[static_cast<std::size_t>(t0)]) + (t - t0) * pitch) {
      linear = false;
    }
  }
  if (linear && pitch > 0) {
    const std::int64_t a0 = static_cast<std::int64_t>(in.addr[static_cast<std::size_t>(t0)]);
    for (std::int64_t p = pitch + width; p <= pitch + target.wavefront_bytes(); p += width) {
      hw::SmemAccess acc{width, in.addr, in.mask, store};
      for (int t = 0; t < static_cast<int>(acc.addresses.size()); ++t)
        if ((in.mask >> t) & 1u) acc.addresses[static_cast<std::size_t>(t)] = static_cast<std::uint64_t>(a0 + (t - t0) * p);
      if (hw::count_wavefronts(target, acc).excess() == 0)
        return fmt::format("each thread accesses its own row, rows {} bytes apart: a row pitch of {} bytes (pad every "
                           "row by {} more bytes) makes this access take the ideal {} wavefronts",
                           pitch, p, p - pitch, in.wc.ideal);
    }
  }
  if (c.addrs.size() < 2) return {};
  std::uint64_t g = 0;
  for (std::size_t i = 1; i < c.addrs.size(); ++i) {
    const std::uint64_t d = c.addrs[i] > c.addrs[0] ? c.addrs[i] - c.addrs[0] : c.addrs[0] - c.addrs[i];
    g = std::gcd(g, d);
  }
  const std::uint64_t wf = static_cast<std::uint64_t>(target.wavefront_bytes());
  if (g == 0 || g % wf != 0) return {};
  return fmt::format(
      "the colliding threads' addresses are multiples of {} bytes apart (rows of a power-of-two pitch): pad each row "
      "by {} bytes, or swizzle the 16-byte chunks of a row with its row index (the TMA/UMMA 128B swizzle, "
      "ComposeLayout(3, 3, 3, ...) on 16-bit elements)",
      g, width);
}

class BankCheck {
 public:
  BankCheck(const KernelContext& ctx, std::size_t i) : ctx_(ctx), i_(i), op_(ctx.op(i)) {}

  std::optional<KernelFinding> run() {
    const auto ta = thread_access(ctx_, op_);
    if (!ta) return std::nullopt;
    ta_ = *ta;
    if (!ta_.smem)
      return na("a tile-level ldstmatrix copy: its ldmatrix/stmatrix plan (.num, .trans, row addresses) is not "
                "derived; model the instructions as ldmatrix/stmatrix ops to have their wavefronts counted");
    const ResolvedBuffer* sb = ctx_.buffer(ta_.smem->buffer);
    const ResolvedBuffer* rb = ctx_.buffer(ta_.regs->buffer);
    if (!sb || !rb) return std::nullopt;
    smem_name_ = sb->model->name;
    if (!sb->layout || !rb->layout) return na(fmt::format("'{}' has no usable layout", !sb->layout ? smem_name_ : rb->model->name));
    if (sb->elem_bits <= 0 || rb->elem_bits <= 0) return na("a buffer has no dtype");
    try {
      if (!collect(*sb, *rb)) return finding_;
      return ta_.ldmatrix ? run_ldmatrix(*rb) : run_vectors(*sb);
    } catch (const InputError& e) {
      return na(fmt::format("[{}] {}", e.check_id(), e.message()));
    }
  }

 private:
  KernelFinding make(prove::Status s, std::string msg) {
    KernelFinding f = op_finding(ctx_, i_, s, std::move(msg));
    if (!smem_name_.empty()) f.related = {smem_name_};
    return f;
  }
  KernelFinding na(std::string why) { return make(prove::Status::kNotApplicable, std::move(why)); }

  // slots_[warp slot * 32 + lane]: the thread's elements.
  bool collect(const ResolvedBuffer& sb, const ResolvedBuffer& rb) {
    RegionSweep ss(sb, *ta_.smem), rs(rb, *ta_.regs);
    if (ss.size() != rs.size()) {
      finding_ = na(fmt::format("regions '{}' and '{}' differ in size", ta_.smem->text, ta_.regs->text));
      return false;
    }
    if (rs.points() > kMaxBankPoints || ss.size() > kMaxBankPoints) {
      finding_ = make(prove::Status::kUndecided,
                      fmt::format("enumeration limit: {} elements x {} replicas (at most {})", rs.size(), rs.replicas(),
                                  kMaxBankPoints));
      return false;
    }
    std::vector<std::int64_t> addr(static_cast<std::size_t>(ss.size()));
    ss.for_each([&](std::int64_t i, std::int64_t r, const Coord& c) {
      if (r == 0) addr[static_cast<std::size_t>(i)] = smem_bit_of(sb, c) / 8;
    });
    slots_.assign(op_.warps.size() * 32, {});
    rs.for_each([&](std::int64_t i, std::int64_t, const Coord& c) {
      const RegCell cell = reg_cell_of(rb, c, op_.warps);
      const auto w = std::find(op_.warps.begin(), op_.warps.end(), cell.warp) - op_.warps.begin();
      slots_[static_cast<std::size_t>(w) * 32 + static_cast<std::size_t>(cell.lane)].push_back(
          {cell.reg * 32 + cell.bit, addr[static_cast<std::size_t>(i)]});
    });
    for (auto& s : slots_) std::sort(s.begin(), s.end(), [](const Slot& a, const Slot& b) { return a.regbit < b.regbit; });
    reg_bits_ = rb.elem_bits;
    smem_bytes_ = sb.elem_bits / 8;
    return true;
  }

  std::optional<KernelFinding> run_vectors(const ResolvedBuffer& sb) {
    const int width = ta_.access_bytes;
    const hw::Target& target = *ctx_.target;
    if (sb.elem_bits % 8 != 0 || reg_bits_ != sb.elem_bits || (width * 8) % sb.elem_bits != 0)
      return na(fmt::format("{}-byte accesses of {}-bit shared elements from {}-bit register elements are not "
                            "modelled",
                            width, sb.elem_bits, reg_bits_));
    if (width != 4 && width != 8 && width != 16)
      return na(fmt::format("{}-byte accesses: the wavefront model covers 4, 8 and 16 bytes (banks.hpp)", width));
    const std::size_t k = static_cast<std::size_t>(width * 8 / sb.elem_bits);
    std::map<std::pair<int, int>, Instr> instrs;
    for (std::size_t t = 0; t < slots_.size(); ++t) {
      const auto& s = slots_[t];
      const int warp = op_.warps[t / 32], lane = static_cast<int>(t % 32);
      for (std::size_t j = 0; j < s.size(); j += k) {
        const int index = static_cast<int>(j / k);
        if (j + k > s.size())
          return vector_fail(warp, lane, index, s[j], fmt::format("holds {} elements, not a whole number of {}-byte "
                                                                   "accesses",
                                                                   s.size(), width));
        for (std::size_t e = 1; e < k; ++e)
          if (s[j + e].addr != s[j].addr + static_cast<std::int64_t>(e) * smem_bytes_ ||
              s[j + e].regbit != s[j].regbit + static_cast<std::int64_t>(e) * reg_bits_)
            return vector_fail(warp, lane, index, s[j + e],
                               fmt::format("element {} of the access is at byte {} (register bit {}); one vector needs "
                                           "byte {} (register bit {})",
                                           e, s[j + e].addr, s[j + e].regbit, s[j].addr + static_cast<std::int64_t>(e) * smem_bytes_,
                                           s[j].regbit + static_cast<std::int64_t>(e) * reg_bits_));
        if (s[j].addr % width != 0)
          return vector_fail(warp, lane, index, s[j], fmt::format("byte address {} is not {}-byte aligned", s[j].addr, width));
        Instr& in = instrs[{warp, index}];
        if (in.addr.empty()) {
          in.warp = warp;
          in.index = index;
          in.addr.assign(static_cast<std::size_t>(target.warp_size), 0);
        }
        in.addr[static_cast<std::size_t>(lane)] = static_cast<std::uint64_t>(s[j].addr);
        in.mask |= std::uint64_t{1} << lane;
      }
    }
    for (auto& [key, in] : instrs) {
      hw::SmemAccess acc{width, in.addr, in.mask, ta_.store};
      in.wc = hw::count_wavefronts(target, acc);
    }
    return verdict(instrs, width, false);
  }

  std::optional<KernelFinding> run_ldmatrix(const ResolvedBuffer& rb) {
    const hw::Target& target = *ctx_.target;
    if (rb.elem_bits != 16 || smem_bytes_ != 2)
      return na(fmt::format("ldmatrix/stmatrix .b16 moves 16-bit elements; the registers hold {}-bit and shared memory "
                            "{}-bit ones",
                            rb.elem_bits, smem_bytes_ * 8));
    const int num = ta_.ldm.num;
    std::map<std::pair<int, int>, Instr> instrs;
    for (std::size_t w = 0; w < op_.warps.size(); ++w) {
      // Registers of each thread, in order; instruction k uses registers [k num, (k+1) num).
      std::vector<std::vector<std::int64_t>> regs(32);
      std::vector<std::map<std::int64_t, std::int64_t>> at(32);  // regbit -> address
      for (int t = 0; t < 32; ++t) {
        for (const Slot& s : slots_[w * 32 + static_cast<std::size_t>(t)]) {
          at[t][s.regbit] = s.addr;
          if (regs[t].empty() || regs[t].back() != s.regbit / 32) regs[t].push_back(s.regbit / 32);
        }
      }
      std::size_t count = 0;
      for (const auto& r : regs) count = std::max(count, r.size());
      for (std::size_t k = 0; k * static_cast<std::size_t>(num) < count; ++k) {
        Instr in;
        in.warp = op_.warps[w];
        in.index = static_cast<int>(k);
        in.addr.assign(static_cast<std::size_t>(8 * num), 0);
        std::vector<bool> have(static_cast<std::size_t>(8 * num), false);
        for (int t = 0; t < 32; ++t)
          for (int j = 0; j < num; ++j) {
            const std::size_t ri = k * static_cast<std::size_t>(num) + static_cast<std::size_t>(j);
            if (ri >= regs[t].size()) continue;
            for (int h = 0; h < 2; ++h) {
              const hw::MatrixElement me = hw::ldmatrix_element(ta_.ldm, t, j, h);
              if (me.col != 0) continue;
              auto it = at[t].find(regs[t][ri] * 32 + 16 * h);
              if (it == at[t].end()) continue;
              in.addr[static_cast<std::size_t>(8 * me.matrix + me.row)] = static_cast<std::uint64_t>(it->second);
              have[static_cast<std::size_t>(8 * me.matrix + me.row)] = true;
            }
          }
        if (std::find(have.begin(), have.end(), false) != have.end())
          return na(fmt::format("warp {} instruction {}: the fragment does not give every row of the {} matrices "
                                "(kernel.fragment checks it)",
                                op_.warps[w], k, num));
        for (std::size_t r = 0; r < in.addr.size(); ++r)
          if (in.addr[r] % 16 != 0)
            return na(fmt::format("warp {} instruction {}: row {} starts at byte {}, not 16-byte aligned "
                                  "(kernel.fragment checks it)",
                                  op_.warps[w], k, r, in.addr[r]));
        in.mask = (std::uint64_t{1} << (8 * num)) - 1;
        in.wc = hw::ldmatrix_wavefronts(target, in.addr);
        instrs[{in.warp, in.index}] = std::move(in);
      }
    }
    return verdict(instrs, 16, true);
  }

  std::optional<KernelFinding> vector_fail(int warp, int lane, int index, const Slot& s, const std::string& why) {
    KernelFinding f = make(prove::Status::kFail,
                           fmt::format("warp {} lane {}: its {}-byte access {} of '{}': {}; no single {}.shared moves "
                                       "that",
                                       warp, lane, ta_.access_bytes, index, ta_.smem->text, why,
                                       ta_.store ? "st" : "ld"));
    f.severity = Severity::kError;
    f.witness = {{"warp", warp}, {"lane", lane}, {"instruction", index}, {"access_bytes", ta_.access_bytes},
                 {"address", s.addr}, {"reg", s.regbit / 32}, {"bit", s.regbit % 32}};
    f.fix = "make access_bytes match the contiguous run each thread holds, or fix the fragment / shared layout";
    return f;
  }

  std::optional<KernelFinding> verdict(const std::map<std::pair<int, int>, Instr>& instrs, int width, bool ldm) {
    const hw::Target& target = *ctx_.target;
    if (instrs.empty()) return na("no thread of the op's warps holds an element of the region");
    const Instr* worst = nullptr;
    std::int64_t total = 0, ideal = 0;
    for (const auto& [key, in] : instrs) {
      total += in.wc.wavefronts;
      ideal += in.wc.ideal;
      if (!worst || in.wc.excess() > worst->wc.excess()) worst = &in;
    }
    const std::string what = ldm ? fmt::format("{}.x{}{}", ta_.store ? "stmatrix" : "ldmatrix", ta_.ldm.num,
                                              ta_.ldm.trans ? ".trans" : "")
                                 : fmt::format("{}-byte {}", width, ta_.store ? "stores" : "loads");
    if (worst->wc.excess() <= 0)
      return make(prove::Status::kPass, fmt::format("{} warp-wide {} of '{}', each at its ideal wavefront count ({} in "
                                                    "all)",
                                                    instrs.size(), what, ta_.smem->text, total));
    const Collision c = worst_bank(target, *worst, width, ldm, ta_.store);
    KernelFinding f = make(
        prove::Status::kFail,
        fmt::format("warp {} instruction {} ({} of '{}') takes {} wavefronts, ideal {}: in phase {} {} {} hit bank {} "
                    "with {} distinct words; the op's {} instructions take {} wavefronts, ideal {}",
                    worst->warp, worst->index, what, ta_.smem->text, worst->wc.wavefronts, worst->wc.ideal, c.phase,
                    ldm ? "rows" : "threads", nlohmann::json(c.threads).dump(), c.bank, c.words, instrs.size(), total,
                    ideal));
    f.severity = Severity::kWarning;
    f.witness = {{"warp", worst->warp},
                 {"instruction", worst->index},
                 {"wavefronts", worst->wc.wavefronts},
                 {"ideal", worst->wc.ideal},
                 {"phase", c.phase},
                 {"bank", c.bank},
                 {ldm ? "rows" : "threads", c.threads},
                 {"addresses", worst->addr},
                 {"op_wavefronts", total},
                 {"op_ideal", ideal}};
    f.fix = ldm ? fix_for(target, Instr{}, c, width, ta_.store) : fix_for(target, *worst, c, width, ta_.store);
    return f;
  }

  const KernelContext& ctx_;
  std::size_t i_;
  const Op& op_;
  ThreadAccess ta_;
  std::string smem_name_;
  std::vector<std::vector<Slot>> slots_;
  int reg_bits_ = 0;
  std::int64_t smem_bytes_ = 0;
  KernelFinding finding_;
};

}  // namespace

std::vector<KernelFinding> bank_conflicts(const KernelContext& ctx) {
  std::vector<KernelFinding> out;
  for (std::size_t i = 0; i < ctx.model->ops.size(); ++i)
    if (auto f = BankCheck(ctx, i).run()) out.push_back(std::move(*f));
  return out;
}

}  // namespace tirx::kernel::checks
