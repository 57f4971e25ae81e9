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
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "checks_internal.hpp"
#include "fragment.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/sweep.hpp"

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
  const std::int64_t k = width / eb;
  const std::int64_t n = in.layout.size();
  if (in.access->size() != n)
    throw InputError("layout.well-formed",
                     fmt::format("--access fragment has {} elements, the buffer {}", in.access->size(), n));
  if (point_count(in.access->tile()) > in.limits.max_enumeration_points) {
    res.status = Status::kUndecided;
    res.message = fmt::format("enumeration limit: {} elements x {} replica copies of the --access fragment", n,
                              in.access->tile().replica_count());
    return res;
  }
  auto fail = [&](std::string msg, nlohmann::json w) {
    res.status = Status::kFail;
    res.message = std::move(msg);
    res.witness = std::move(w);
    return res;
  };
  Budget* budget = in.limits.budget;
  const TileLayout& ft = in.access->tile();
  const std::int64_t points = point_count(ft);
  // Byte address of every element (flat order), then one (thread, slot, element) entry per
  // fragment point, sorted by (thread, slot); of two elements in one slot the later one counts.
  // Flat tables, charged before they are allocated; the loops poll the deadline.
  MemoryCharge held = charge(budget, n * 8 + points * static_cast<std::int64_t>(sizeof(Entry)),
                             "the bank-conflict tables (byte address per element, one entry per fragment point)");
  std::vector<std::int64_t> address(static_cast<std::size_t>(n));
  {
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
  entries.reserve(static_cast<std::size_t>(points));
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
      entries.push_back(Entry{f.thread / ws, f.slot / k, static_cast<std::int32_t>(f.thread % ws),
                              static_cast<std::int32_t>(f.slot % k), flat});
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
  auto addr_of = [&](const Entry& e) { return address[static_cast<std::size_t>(e.element)]; };
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
  struct Instr {
    std::vector<std::uint64_t> addr;
    std::uint64_t mask = 0;
  };
  int worst_excess = -1, total = 0;
  std::pair<std::int64_t, std::int64_t> worst_key{0, 0};
  hw::WavefrontCount worst{};
  Instr ins, worst_ins;
  Pacer pace(budget, "bank conflicts: wavefronts", static_cast<double>(entries.size()), "register slots");
  for (std::size_t i = 0; i < entries.size();) {
    const std::pair<std::int64_t, std::int64_t> key{entries[i].warp, entries[i].instr};
    ins.addr.assign(static_cast<std::size_t>(ws), 0);
    ins.mask = 0;
    for (; i < entries.size() && entries[i].warp == key.first && entries[i].instr == key.second; ++i) {
      pace.step();
      if (entries[i].sub != 0) continue;
      ins.addr[static_cast<std::size_t>(entries[i].lane)] = static_cast<std::uint64_t>(addr_of(entries[i]));
      ins.mask |= std::uint64_t{1} << entries[i].lane;
    }
    hw::SmemAccess acc;
    acc.width_bytes = width;
    acc.addresses = ins.addr;
    acc.active_mask = ins.mask;
    const hw::WavefrontCount wc = hw::count_wavefronts(target, acc);
    ++total;
    if (wc.excess() > worst_excess) {
      worst_excess = wc.excess();
      worst = wc;
      worst_key = key;
      worst_ins = ins;
    }
  }
  if (worst_excess <= 0) {
    res.status = Status::kPass;
    res.message = fmt::format("{} warp-wide {}-byte accesses, each at its ideal wavefront count", total, width);
    return res;
  }
  // Explain the worst access: the phase and bank with the most distinct words.
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
  return fail(fmt::format("warp {} instruction {} ({}-byte accesses of slots {}..{}) takes {} wavefronts, ideal {}: in "
                          "phase {} threads {} hit bank {} with {} distinct words",
                          worst_key.first, worst_key.second, width, worst_key.second * k, worst_key.second * k + k - 1,
                          worst.wavefronts, worst.ideal, best_phase, nlohmann::json(best_threads).dump(), best_bank,
                          best_words),
              {{"warp", worst_key.first},
               {"instruction", worst_key.second},
               {"wavefronts", worst.wavefronts},
               {"ideal", worst.ideal},
               {"phase", best_phase},
               {"bank", best_bank},
               {"threads", best_threads},
               {"addresses", worst_ins.addr}});
}

}  // namespace tirx::prove
