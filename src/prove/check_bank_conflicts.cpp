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

#include <map>
#include <set>

#include "checks_internal.hpp"
#include "fragment.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::prove {

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
  if (n > in.limits.max_enumeration_points) {
    res.status = Status::kUndecided;
    res.message = fmt::format("enumeration limit: {} elements", n);
    return res;
  }
  auto fail = [&](std::string msg, nlohmann::json w) {
    res.status = Status::kFail;
    res.message = std::move(msg);
    res.witness = std::move(w);
    return res;
  };
  // (thread, slot) -> (byte address, element)
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<std::int64_t, std::int64_t>> slots;
  const TileLayout& ft = in.access->tile();
  for (std::int64_t e = 0; e < n; ++e) {
    const std::int64_t addr = in.layout.apply(e).get(AxisId::m) * eb;
    for (const Coord& c : ft.replica_images(ft.split(e))) {
      const FragmentSlot f = fragment_slot(c, in.machine);
      slots[{f.thread, f.slot}] = {addr, e};
    }
  }
  // Per (warp, instruction): the 32 addresses.
  struct Instr {
    std::vector<std::uint64_t> addr;
    std::uint64_t mask = 0;
  };
  std::map<std::pair<std::int64_t, std::int64_t>, Instr> instrs;
  const int ws = target.warp_size;
  for (const auto& [key, val] : slots) {
    const auto [thread, slot] = key;
    if (slot % k != 0) continue;  // vector heads only
    for (std::int64_t j = 1; j < k; ++j) {
      auto it = slots.find({thread, slot + j});
      if (it == slots.end() || it->second.first != val.first + j * eb)
        return fail(fmt::format("thread {} register slots [{}, {}) are not one contiguous {}-byte vector in shared "
                                "memory (slot {} is at byte {}, slot {} at {})",
                                thread, slot, slot + k, width, slot, val.first, slot + j,
                                it == slots.end() ? std::string("nowhere") : std::to_string(it->second.first)),
                    {{"thread", thread}, {"slot", slot}, {"access_bytes", width}});
    }
    if (val.first % width != 0)
      return fail(fmt::format("thread {} slot {}: byte address {} is not {}-byte aligned", thread, slot, val.first, width),
                  {{"thread", thread}, {"slot", slot}, {"address", val.first}});
    Instr& ins = instrs[{thread / ws, slot / k}];
    if (ins.addr.empty()) ins.addr.assign(static_cast<std::size_t>(ws), 0);
    ins.addr[static_cast<std::size_t>(thread % ws)] = static_cast<std::uint64_t>(val.first);
    ins.mask |= std::uint64_t{1} << (thread % ws);
  }
  int worst_excess = -1, total = 0;
  std::pair<std::int64_t, std::int64_t> worst_key{0, 0};
  hw::WavefrontCount worst{};
  for (const auto& [key, ins] : instrs) {
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
    }
  }
  if (worst_excess <= 0) {
    res.status = Status::kPass;
    res.message = fmt::format("{} warp-wide {}-byte accesses, each at its ideal wavefront count", total, width);
    return res;
  }
  // Explain the worst access: the phase and bank with the most distinct words.
  const Instr& ins = instrs[worst_key];
  hw::SmemAccess acc{width, ins.addr, ins.mask, false};
  const int p = hw::phase_threads(target, acc);
  int best_words = 0, best_bank = 0, best_phase = 0;
  std::vector<int> best_threads;
  for (int ph = 0; ph * p < ws; ++ph) {
    std::map<int, std::set<std::uint64_t>> words;
    std::map<int, std::vector<int>> threads;
    for (int t = ph * p; t < (ph + 1) * p; ++t) {
      if (!((ins.mask >> t) & 1u)) continue;
      for (int w = 0; w < width / target.bank_bytes; ++w) {
        const std::uint64_t a = ins.addr[static_cast<std::size_t>(t)] + static_cast<std::uint64_t>(w * target.bank_bytes);
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
               {"addresses", ins.addr}});
}

}  // namespace tirx::prove
