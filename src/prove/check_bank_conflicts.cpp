// smem.bank-conflicts — every warp-wide shared-memory access of a fragment takes the minimum
// number of wavefronts.
//
// The buffer layout gives each element's byte address (element address x element bytes, after
// the swizzle); the access fragment (--access, a register layout: thread axes + m = register
// slot) says which thread moves which element, and --access-bytes how many bytes one thread
// moves per instruction (4, 8 or 16: k = bytes / element bytes consecutive register slots).
// Instruction i of a thread moves its slots [i*k, i*k + k), which must be one aligned vector in
// shared memory. For every warp and instruction the wavefront model (hw/banks.hpp, calibrated
// on an H200; CUDA Programming Guide: 32 banks of 4 bytes) counts wavefronts; the check fails
// when one takes more than the ideal. Witness: the warp, the instruction, both counts, and the
// phase, bank and threads of the worst collision.
//
// Three engines (prove/bank_engines.hpp), `auto` taking the first that applies:
//   gf2  power-of-two, carry-free buffer and fragment, the fragment a bijection onto a box of
//        (thread, slot) bits: every instruction has the same linear lane -> address map, so one
//        rank count decides all of them (microseconds at any size);
//   sim  the calibrated simulator over every fragment point (up to enum_crossover_points x 8
//        points under auto, max_enumeration_points when forced);
//   z3   "two threads of one phase at different words of one bank" over the digits (any size).
// Between gf2 and the others, auto first removes the digits that only translate whole
// instructions (bank_translate.hpp: padded rows, any count) and decides one copy
// (engine "translation+gf2/sim/z3"); forced engines and --cross-check decide the full problem.
// A z3 or gf2 failure is shown as the simulator's witness of the instruction it names.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <tuple>

#include "bank_translate.hpp"
#include "checks_internal.hpp"
#include "fragment.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/sweep.hpp"
#include "tirx_verify/prove/bank_engines.hpp"
#include "tirx_verify/prove/gf2.hpp"

namespace tirx::prove {

namespace {

// One register slot of one thread and the element it holds, keyed for the sort: thread =
// warp * warp_size + lane, slot = instr * k + sub (k slots per vector access).
struct Entry {
  std::int64_t warp, instr;
  std::int32_t lane, sub;
  std::int64_t element;
  bool same_vector(const Entry& o) const { return warp == o.warp && instr == o.instr && lane == o.lane; }
  bool same_slot(const Entry& o) const { return same_vector(o) && sub == o.sub; }
};

// One warp-wide instruction: its addresses, active lanes and wavefront count.
struct Instr {
  std::int64_t warp = 0, instr = 0;
  std::vector<std::uint64_t> addr;
  std::uint64_t mask = 0;
  hw::WavefrontCount wc{};
};

// What an engine found: a failed vector (result set), or the instruction count, the total
// wavefronts and the worst instruction (the first with the most excess).
struct Outcome {
  std::optional<CheckResult> vector_failure;
  std::int64_t instructions = 0;
  std::int64_t wavefronts = 0;
  std::optional<Instr> worst;
};

struct Setup {
  const hw::Target* target;
  std::int64_t eb, k;
  int width;
};

std::int64_t element_address(const CheckInput& in, const Setup& s, std::int64_t flat) {
  const std::int64_t x = in.layout.tile().apply(flat).get(AxisId::m);
  const SwizzleSpec* swz = in.layout.swizzle();
  return checked_mul(swz ? swz->apply(x) : x, s.eb, "byte address");
}

// The simulator: every fragment point, or (only) those of one instruction (no address table).
Outcome simulate(const CheckInput& in, const Setup& s, std::optional<std::pair<std::int64_t, std::int64_t>> only) {
  Outcome out;
  const hw::Target& target = *s.target;
  const std::int64_t eb = s.eb, k = s.k;
  const int width = s.width;
  Budget* budget = in.limits.budget;
  const TileLayout& ft = in.access->tile();
  const std::int64_t n = in.layout.size(), points = point_count(ft);
  // Byte address of every element (flat order), then one (thread, slot, element) entry per
  // fragment point, sorted by (thread, slot); of two elements in one slot the later one counts.
  // Flat tables, charged before they are allocated; the loops poll the deadline.
  MemoryCharge held = charge(budget, only ? 0 : n * 8 + points * static_cast<std::int64_t>(sizeof(Entry)),
                             "the bank-conflict tables (byte address per element, one entry per fragment point)");
  std::vector<std::int64_t> address;
  if (!only) {
    address.resize(static_cast<std::size_t>(n));
    const Sweep buf(in.layout.tile(), /*include_replicas=*/false);
    const int m = buf.index_of(AxisId::m);
    const SwizzleSpec* swz = in.layout.swizzle();
    Pacer pace(budget, "bank conflicts: element addresses", static_cast<double>(n), "elements");
    buf.for_each([&](std::int64_t flat, std::int64_t, const std::int64_t* v) {
      pace.step();
      const std::int64_t x = m >= 0 ? v[m] : 0;
      address[static_cast<std::size_t>(flat)] = checked_mul(swz ? swz->apply(x) : x, eb, "byte address");
    });
  }
  const int ws = target.warp_size;
  std::vector<Entry> entries;
  if (!only) entries.reserve(static_cast<std::size_t>(points));
  {
    const Sweep frag(ft, /*include_replicas=*/true);
    Pacer pace(budget, "bank conflicts: fragment slots", static_cast<double>(points));
    Coord c;
    frag.for_each([&](std::int64_t flat, std::int64_t, const std::int64_t* v) {
      pace.step();
      for (std::size_t i = 0; i < frag.axes().size(); ++i) c.set(frag.axes()[i], v[i]);
      const FragmentSlot f = fragment_slot(c, in.machine);
      if (f.thread < 0 || f.slot < 0)
        throw InputError("layout.well-formed",
                         fmt::format("--access fragment puts element {} at thread {}, register slot {}: both must be "
                                     ">= 0",
                                     flat, f.thread, f.slot));
      const Entry e{f.thread / ws, f.slot / k, static_cast<std::int32_t>(f.thread % ws), static_cast<std::int32_t>(f.slot % k),
                    flat};
      if (only && (e.warp != only->first || e.instr != only->second)) return;
      entries.push_back(e);
    });
  }
  // One sort groups the slots of each thread's vector (adjacent, sub = 0..k-1) and the vectors of
  // each warp-wide instruction (adjacent lanes); of two elements in one slot the later one counts.
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return std::tie(x.warp, x.instr, x.lane, x.sub, x.element) < std::tie(y.warp, y.instr, y.lane, y.sub, y.element);
  });
  {
    std::size_t w = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (w > 0 && entries[w - 1].same_slot(entries[i]))
        entries[w - 1] = entries[i];
      else
        entries[w++] = entries[i];
    }
    entries.resize(w);
  }
  auto addr_of = [&](const Entry& e) {
    return only ? element_address(in, s, e.element) : address[static_cast<std::size_t>(e.element)];
  };
  auto fail = [&](std::string msg, nlohmann::json w) {
    CheckResult r;
    r.status = Status::kFail;
    r.message = std::move(msg);
    r.witness = std::move(w);
    out.vector_failure = std::move(r);
    return out;
  };
  // Each vector head: its k slots contiguous in shared memory and the vector aligned.
  {
    Pacer pace(budget, "bank conflicts: vectors", static_cast<double>(entries.size()), "register slots");
    for (std::size_t i = 0; i < entries.size(); ++i) {
      pace.step();
      const Entry& e = entries[i];
      if (e.sub != 0) continue;  // vector heads only
      const std::int64_t thread = e.warp * ws + e.lane, slot = e.instr * k;
      for (std::int64_t j = 1; j < k; ++j) {
        const std::size_t at = i + static_cast<std::size_t>(j);
        const Entry* nx = at < entries.size() && entries[at].same_vector(e) && entries[at].sub == j ? &entries[at] : nullptr;
        if (!nx || addr_of(*nx) != addr_of(e) + j * eb)
          return fail(fmt::format("thread {} register slots [{}, {}) are not one contiguous {}-byte vector in shared "
                                  "memory (slot {} is at byte {}, slot {} at {})",
                                  thread, slot, slot + k, width, slot, addr_of(e), slot + j,
                                  nx ? std::to_string(addr_of(*nx)) : std::string("nowhere")),
                      {{"thread", thread}, {"slot", slot}, {"access_bytes", width}});
      }
      if (addr_of(e) % width != 0)
        return fail(fmt::format("thread {} slot {}: byte address {} is not {}-byte aligned", thread, slot, addr_of(e), width),
                    {{"thread", thread}, {"slot", slot}, {"address", addr_of(e)}});
    }
  }
  Instr ins;
  Pacer pace(budget, "bank conflicts: wavefronts", static_cast<double>(entries.size()), "register slots");
  for (std::size_t i = 0; i < entries.size();) {
    ins.warp = entries[i].warp;
    ins.instr = entries[i].instr;
    ins.addr.assign(static_cast<std::size_t>(ws), 0);
    ins.mask = 0;
    for (; i < entries.size() && entries[i].warp == ins.warp && entries[i].instr == ins.instr; ++i) {
      pace.step();
      if (entries[i].sub != 0) continue;
      ins.addr[static_cast<std::size_t>(entries[i].lane)] = static_cast<std::uint64_t>(addr_of(entries[i]));
      ins.mask |= std::uint64_t{1} << entries[i].lane;
    }
    hw::SmemAccess acc;
    acc.width_bytes = width;
    acc.addresses = ins.addr;
    acc.active_mask = ins.mask;
    ins.wc = hw::count_wavefronts(target, acc);
    ++out.instructions;
    out.wavefronts += ins.wc.wavefronts;
    if (!out.worst || ins.wc.excess() > out.worst->wc.excess()) out.worst = ins;
  }
  return out;
}

// The GF(2) engine on the layout pair (header); the reason when it does not apply.
std::variant<Outcome, std::string> gf2_decide(const CheckInput& in, const Setup& s) {
  const hw::Target& target = *s.target;
  const std::int64_t ws = in.machine.warp_size, wg = in.machine.warp_size * in.machine.warps_per_warpgroup;
  auto pow2 = [](std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; };
  if (!pow2(ws) || !pow2(wg) || !pow2(s.eb) || !pow2(s.k)) return std::string("a machine size is not a power of two");
  const int lws = std::countr_zero(static_cast<std::uint64_t>(ws)), lwg = std::countr_zero(static_cast<std::uint64_t>(wg));
  const int leb = std::countr_zero(static_cast<std::uint64_t>(s.eb)), lk = std::countr_zero(static_cast<std::uint64_t>(s.k));
  // Flat bit position of digit bit b of shard iter `iter` (row-major, power-of-two extents).
  auto flat_bit = [](const TileLayout& t, int iter, int b) {
    int below = 0;
    for (std::size_t i = static_cast<std::size_t>(iter) + 1; i < t.shard.size(); ++i)
      below += std::countr_zero(static_cast<std::uint64_t>(t.shard[i].extent));
    return below + b;
  };
  for (const TileLayout* t : {&in.layout.tile(), &in.access->tile()})
    for (const Iter& it : t->shard)
      if (!pow2(it.extent)) return fmt::format("shard extent {} is not a power of two", it.extent);
  // Buffer: flat bits -> byte address bits.
  gf2::LinearizeOptions bo;
  bo.axes = {Axis(AxisId::m)};
  bo.replicas = false;
  auto bv = gf2::linearize(in.layout, bo);
  if (auto* why = std::get_if<std::string>(&bv)) return "buffer: " + *why;
  const gf2::AffineMap& bm = std::get<gf2::AffineMap>(bv);
  std::vector<std::uint64_t> addr_of_flat_bit(64, 0);
  for (std::size_t j = 0; j < bm.domain.size(); ++j) {
    const int fb = flat_bit(in.layout.tile(), bm.domain[j].iter, bm.domain[j].bit);
    if (fb >= 63 || (bm.column(j)[0] >> (63 - leb)) != 0) return std::string("address bits past 63");
    addr_of_flat_bit[static_cast<std::size_t>(fb)] = bm.column(j)[0] << leb;
  }
  if (bm.constant[0] >> (63 - leb)) return std::string("address bits past 63");
  const std::uint64_t addr0 = bm.constant[0] << leb;
  // Fragment: domain bits -> one thread or slot bit each.
  const std::vector<Axis> fax = {Axis(AxisId::tx),    Axis(AxisId::tid_in_wg), Axis(AxisId::laneid), Axis(AxisId::wid_in_wg),
                                 Axis(AxisId::warpid), Axis(AxisId::wgid),      Axis(AxisId::m)};
  const int shift[] = {0, 0, 0, lws, lws, lwg, 0};
  gf2::LinearizeOptions fo;
  fo.axes = fax;
  fo.swizzle = false;
  auto fv = gf2::linearize(Layout(in.access->tile()), fo);
  if (auto* why = std::get_if<std::string>(&fv)) return "fragment: " + *why;
  const gf2::AffineMap& fm = std::get<gf2::AffineMap>(fv);
  std::uint64_t cthread = 0, cslot = 0, used_t = 0, used_s = 0;
  for (std::size_t w = 0; w + 1 < fax.size(); ++w) cthread += fm.constant[w] << shift[w];
  cslot = fm.constant[6];
  struct Bit {
    bool slot;
    int pos;
    std::uint64_t addr;
  };
  std::vector<Bit> bits;
  for (std::size_t j = 0; j < fm.domain.size(); ++j) {
    const auto col = fm.column(j);
    std::uint64_t th = 0, sl = col[6];
    for (std::size_t w = 0; w + 1 < fax.size(); ++w) th |= col[w] << shift[w];
    if ((th != 0) == (sl != 0) || std::popcount(th | sl) != 1)
      return std::string("the fragment is not a bijection onto (thread, slot) bits (a digit moves no register or several)");
    std::uint64_t& used = th ? used_t : used_s;
    if (used & (th | sl)) return std::string("two fragment digits set one thread or slot bit (a carry)");
    used |= th | sl;
    const gf2::DomainBit& d = fm.domain[j];
    const std::uint64_t a = d.replica ? 0 : addr_of_flat_bit[static_cast<std::size_t>(flat_bit(in.access->tile(), d.iter, d.bit))];
    bits.push_back(Bit{sl != 0, std::countr_zero(th | sl), a});
  }
  if ((cthread & used_t) || (cslot & used_s)) return std::string("a fragment offset shares bits with a digit (a carry)");
  if (cslot & ((std::uint64_t{1} << lk) - 1)) return std::string("the fragment's slot offset is not vector-aligned");
  const std::uint64_t wmask = static_cast<std::uint64_t>(s.width) - 1;
  if (addr0 & wmask) return std::string("the first vector is not aligned (the simulator reports it)");
  std::vector<std::uint64_t> lane_col(static_cast<std::size_t>(lws), 0);
  std::uint64_t lane_bits = 0;
  int other_bits = 0;
  for (const Bit& b : bits) {
    if (b.slot && b.pos < lk) {
      if (b.addr != (static_cast<std::uint64_t>(s.eb) << b.pos))
        return std::string("a vector's slots are not consecutive bytes (the simulator reports it)");
      continue;
    }
    if (b.addr & wmask) return std::string("a vector is not aligned (the simulator reports it)");
    if (!b.slot && b.pos < lws) {
      lane_col[static_cast<std::size_t>(b.pos)] = b.addr;
      lane_bits |= std::uint64_t{1} << b.pos;
    } else {
      ++other_bits;  // a warp or instruction bit
    }
  }
  for (int sb = 0; sb < lk; ++sb)
    if (!((used_s >> sb) & 1u)) return std::string("a vector's slot is never filled (the simulator reports it)");
  if (other_bits > 62) return std::string("more than 2^62 instructions");
  // The first instruction (every domain bit 0): its addresses; every other one has the same
  // linear part, hence the same count.
  Instr ins;
  ins.warp = static_cast<std::int64_t>(cthread >> lws);
  ins.instr = static_cast<std::int64_t>(cslot >> lk);
  ins.addr.assign(static_cast<std::size_t>(ws), 0);
  const std::uint64_t c_lane = cthread & static_cast<std::uint64_t>(ws - 1);
  for (std::uint64_t sub = lane_bits;; sub = (sub - 1) & lane_bits) {  // every subset of the lane bits
    std::uint64_t a = addr0;
    for (int b = 0; b < lws; ++b)
      if ((sub >> b) & 1u) a ^= lane_col[static_cast<std::size_t>(b)];
    const std::uint64_t lane = c_lane ^ sub;
    ins.addr[lane] = a;
    ins.mask |= std::uint64_t{1} << lane;
    if (sub == 0) break;
  }
  auto wc = banks::gf2_wavefronts(target, ins.addr, ins.mask, banks::phase_model(target, s.width, false));
  if (auto* why = std::get_if<std::string>(&wc)) return *why;
  ins.wc = std::get<hw::WavefrontCount>(wc);
  Outcome out;
  out.instructions = std::int64_t{1} << other_bits;
  out.wavefronts = checked_mul(out.instructions, ins.wc.wavefronts, "wavefront total");
  out.worst = ins;
  return out;
}

// The Z3 engine on the layout pair: an Outcome whose worst instruction is the failing one
// (simulated alone for the witness), or a pass (instructions unknown: -1); undecided as a result.
std::variant<Outcome, CheckResult> z3_decide(const CheckInput& in, const Setup& s) {
  banks::SymbolicAccess sa;
  sa.buffer = banks::constant_layout(in.layout);
  sa.access = banks::constant_layout(Layout(in.access->tile()));
  sa.elem_bytes = static_cast<int>(s.eb);
  sa.width_bytes = s.width;
  sa.machine = in.machine;
  banks::SymbolicVerdict v;
  try {
    v = banks::z3_layout(*s.target, sa, in.limits);
  } catch (const NotSymbolic& e) {
    v.status = Status::kUndecided;
    v.message = e.what();
  }
  if (v.status == Status::kUndecided) {
    CheckResult r;
    r.status = Status::kUndecided;
    r.message = "z3: " + v.message;
    return r;
  }
  Outcome out;
  if (v.status == Status::kPass) {
    out.instructions = -1;
    return out;
  }
  // The witness is the simulator's on that instruction, which sweeps the whole fragment to find
  // its slots: past the enumeration limit that sweep is refused, as the simulator itself is.
  if (const std::int64_t points = point_count(in.access->tile()); points > in.limits.max_enumeration_points) {
    CheckResult r;
    r.status = Status::kUndecided;
    r.message = fmt::format("enumeration limit: z3 finds a conflict at warp {} instruction {} ({}), but its witness "
                            "needs the {} points of the --access fragment swept (limit {})",
                            v.warp, v.instruction, v.message, count_text(static_cast<double>(points)),
                            count_text(static_cast<double>(in.limits.max_enumeration_points)));
    return r;
  }
  Outcome one = simulate(in, s, std::make_pair(v.warp, v.instruction));
  if (!one.vector_failure && (!one.worst || one.worst->wc.excess() <= 0)) {
    CheckResult r;
    r.status = Status::kUndecided;
    r.message = fmt::format("ENGINES DISAGREE on smem.bank-conflicts: z3 says {} at warp {} instruction {}, the simulator "
                            "of that instruction finds none; treated as undecided (engine bug)",
                            v.message, v.warp, v.instruction);
    return r;
  }
  return one;
}

CheckResult report(const CheckInput& in, const Setup& s, const Outcome& o, std::string engine) {
  CheckResult res;
  res.id = "smem.bank-conflicts";
  res.engine = std::move(engine);
  if (o.vector_failure) {
    res.status = Status::kFail;
    res.message = o.vector_failure->message;
    res.witness = o.vector_failure->witness;
    return res;
  }
  const int width = s.width;
  if (!o.worst || o.worst->wc.excess() <= 0) {
    res.status = Status::kPass;
    res.message = o.instructions >= 0
                      ? fmt::format("{} warp-wide {}-byte accesses, each at its ideal wavefront count", o.instructions, width)
                      : fmt::format("every warp-wide {}-byte access at its ideal wavefront count", width);
    return res;
  }
  // Explain the worst access: the phase and bank with the most distinct words.
  const hw::Target& target = *s.target;
  const int ws = target.warp_size;
  const Instr& worst_ins = *o.worst;
  const hw::WavefrontCount worst = worst_ins.wc;
  hw::SmemAccess acc{width, worst_ins.addr, worst_ins.mask, false};
  const int p = hw::phase_threads(target, acc);
  int best_words = 0, best_bank = 0, best_phase = 0;
  std::vector<int> best_threads;
  for (int ph = 0; ph * p < ws; ++ph) {
    std::map<int, std::set<std::uint64_t>> words;
    std::map<int, std::vector<int>> threads;
    for (int t = ph * p; t < (ph + 1) * p; ++t) {
      if (!((worst_ins.mask >> t) & 1u)) continue;
      for (int w = 0; w < width / target.bank_bytes; ++w) {
        const std::uint64_t a = worst_ins.addr[static_cast<std::size_t>(t)] + static_cast<std::uint64_t>(w * target.bank_bytes);
        const int b = hw::bank_of(target, a);
        if (words[b].insert(a / static_cast<std::uint64_t>(target.bank_bytes)).second) threads[b].push_back(t);
      }
    }
    for (const auto& [b, ws_] : words)
      if (static_cast<int>(ws_.size()) > best_words) {
        best_words = static_cast<int>(ws_.size());
        best_bank = b;
        best_phase = ph;
        best_threads = threads[b];
      }
  }
  const std::int64_t k = s.k;
  res.status = Status::kFail;
  res.message = fmt::format("warp {} instruction {} ({}-byte accesses of slots {}..{}) takes {} wavefronts, ideal {}: in "
                            "phase {} threads {} hit bank {} with {} distinct words",
                            worst_ins.warp, worst_ins.instr, width, worst_ins.instr * k, worst_ins.instr * k + k - 1,
                            worst.wavefronts, worst.ideal, best_phase, nlohmann::json(best_threads).dump(), best_bank,
                            best_words);
  res.witness = {{"warp", worst_ins.warp},   {"instruction", worst_ins.instr}, {"wavefronts", worst.wavefronts},
                 {"ideal", worst.ideal},     {"phase", best_phase},            {"bank", best_bank},
                 {"threads", best_threads},  {"addresses", worst_ins.addr}};
  (void)in;
  return res;
}

}  // namespace

CheckResult check_bank_conflicts(const CheckInput& in) {
  CheckResult res;
  res.id = "smem.bank-conflicts";
  res.engine = "sim";
  auto na = [&](std::string why) {
    res.status = Status::kNotApplicable;
    res.message = std::move(why);
    return res;
  };
  if (in.scope != Scope::kShared || !in.access) return na(in.scope != Scope::kShared ? "not a shared buffer" : "no --access fragment given");
  if (!in.target) return na("no target description");
  if (in.elem_bits < 8) return na("needs the element type (--dtype) of at least 8 bits");
  const hw::Target& target = *in.target;
  const std::int64_t eb = in.elem_bits / 8;
  const int width = in.access_bytes ? in.access_bytes : static_cast<int>(std::max<std::int64_t>(eb, 4));
  if (width != 4 && width != 8 && width != 16)
    throw InputError("cli.usage", fmt::format("--access-bytes must be 4, 8 or 16, got {}", width));
  if (width % eb != 0)
    throw InputError("cli.usage", fmt::format("--access-bytes {} is not a multiple of the {}-byte element", width, eb));
  const Setup s{&target, eb, width / eb, width};
  const std::int64_t n = in.layout.size();
  if (in.access->size() != n)
    throw InputError("layout.well-formed",
                     fmt::format("--access fragment has {} elements, the buffer {}", in.access->size(), n));
  const std::int64_t points = point_count(in.access->tile());
  const bool sim_fits = points <= in.limits.max_enumeration_points;
  auto sim_limit = [&] {
    CheckResult r = res;
    r.status = Status::kUndecided;
    r.message = fmt::format("enumeration limit: {} elements x {} replica copies of the --access fragment", n,
                            in.access->tile().replica_count());
    return r;
  };
  auto run_sim = [&] { return sim_fits ? report(in, s, simulate(in, s, std::nullopt), "sim") : sim_limit(); };
  auto run_gf2 = [&]() -> std::variant<CheckResult, std::string> {
    auto g = gf2_decide(in, s);
    if (auto* why = std::get_if<std::string>(&g)) return *why;
    return report(in, s, std::get<Outcome>(g), "gf2");
  };
  auto run_z3 = [&] {
    auto z = z3_decide(in, s);
    if (auto* r = std::get_if<CheckResult>(&z)) {
      CheckResult u = *r;
      u.id = res.id;
      u.engine = "z3";
      return u;
    }
    return report(in, s, std::get<Outcome>(z), "z3");
  };
  if (in.cross_check) {
    std::vector<CheckResult> rs;
    std::vector<std::string> names;
    auto g = run_gf2();
    if (auto* r = std::get_if<CheckResult>(&g)) rs.push_back(*r), names.push_back("gf2");
    if (sim_fits) rs.push_back(run_sim()), names.push_back("sim");
    rs.push_back(run_z3());
    names.push_back("z3");
    // The reported result: the simulator's when it ran (its witness is the reference), else gf2's, else z3's.
    CheckResult out = rs.front();
    for (const CheckResult& r : rs)
      if (r.engine == "sim") out = r;
    std::string engines;
    for (const auto& nm : names) engines += (engines.empty() ? "" : "+") + nm;
    for (const CheckResult& r : rs) {
      const bool decided = r.status == Status::kPass || r.status == Status::kFail;
      if (!decided) continue;
      for (const CheckResult& o : rs) {
        const bool od = o.status == Status::kPass || o.status == Status::kFail;
        const bool counts_differ = r.engine != "z3" && o.engine != "z3" && r.status == Status::kFail &&
                                   o.status == Status::kFail && r.witness != o.witness;
        if (od && (o.status != r.status || counts_differ)) {
          CheckResult d = out;
          d.status = Status::kFail;
          d.engine = engines;
          d.message = fmt::format("ENGINES DISAGREE on smem.bank-conflicts: {} says {} ({}); {} says {} ({})", r.engine,
                                  status_name(r.status), r.message, o.engine, status_name(o.status), o.message);
          return d;
        }
      }
    }
    out.engine = engines;
    return out;
  }
  switch (in.engine) {
    case Engine::kGf2: {
      auto g = run_gf2();
      if (auto* why = std::get_if<std::string>(&g)) {
        CheckResult r = res;
        r.engine = "gf2";
        r.status = Status::kUndecided;
        r.message = "gf2 cannot decide: " + *why;
        return r;
      }
      return std::get<CheckResult>(g);
    }
    case Engine::kEnum: return run_sim();
    case Engine::kZ3: return run_z3();
    default: break;
  }
  // auto: gf2 where it applies; then, where the instructions are translates of one another
  // (bank_translate.hpp: padded rows read row group by row group), the same engines on one
  // copy; the simulator up to 8x the enumeration crossover (it costs ~30-60 ns per point,
  // docs/performance.md); else z3, and the simulator when z3 is undecided and the sweep fits.
  auto g = run_gf2();
  if (auto* r = std::get_if<CheckResult>(&g)) return *r;
  if (auto t = banks::translate_instructions(in, eb, width)) {
    CheckInput rin = in;
    rin.layout = t->buffer;
    rin.access = Layout(t->access);
    const std::int64_t rpoints = point_count(t->access);
    auto scaled = [&](Outcome o, const std::string& engine) {
      if (!o.vector_failure && o.instructions >= 0) {
        std::int64_t ins = 0, wf = 0;
        if (__builtin_mul_overflow(o.instructions, t->copies, &ins) || __builtin_mul_overflow(o.wavefronts, t->copies, &wf))
          o.instructions = -1;  // "every access" (the count does not fit int64)
        else
          o.instructions = ins, o.wavefronts = wf;
      }
      return report(in, s, o, "translation+" + engine);
    };
    auto gr = gf2_decide(rin, s);
    if (auto* o = std::get_if<Outcome>(&gr)) return scaled(*o, "gf2");
    if (rpoints <= 8 * in.limits.enum_crossover_points) return scaled(simulate(rin, s, std::nullopt), "sim");
    auto z = z3_decide(rin, s);
    if (auto* o = std::get_if<Outcome>(&z)) return scaled(*o, "z3");
    if (rpoints <= in.limits.max_enumeration_points) return scaled(simulate(rin, s, std::nullopt), "sim");
    CheckResult u = std::get<CheckResult>(z);
    u.id = res.id;
    u.engine = "translation+z3";
    return u;
  }
  if (points <= 8 * in.limits.enum_crossover_points) return run_sim();
  CheckResult z = run_z3();
  if (z.status == Status::kUndecided && sim_fits) return run_sim();
  return z;
}

}  // namespace tirx::prove
