// smem.wavefronts — the wavefront model against a brute-force count.
//
// For a random warp-wide shared-memory access (4, 8 or 16 bytes per thread; contiguous,
// strided, broadcast, random, swizzled-row and permuted address patterns; a full or random
// active mask) on sm_90a or sm_100a, hw::count_wavefronts must equal the count made here
// from the rule the model states (hw/banks.hpp): cut the warp into phases of P threads (P from
// the target's calibrated phase_threads for the access width); a phase costs as many
// wavefronts as its busiest bank has distinct 4-byte words requested by active threads; ideal
// = per phase ceil(distinct words / banks). Counted with plain loops and a std::set per bank.
#include <set>

#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/hw/target.hpp"

namespace tirx::props {

namespace {

const hw::Target& target_named(const std::string& name) {
  static const hw::Target sm90 = hw::load_target("sm_90a"), sm100 = hw::load_target("sm_100a");
  return name == "sm_90a" ? sm90 : sm100;
}

hw::SmemAccess draw_access(const hw::Target& t) {
  hw::SmemAccess a;
  a.width_bytes = pick({4, 8, 16});
  const std::uint64_t w = static_cast<std::uint64_t>(a.width_bytes);
  const int n = t.warp_size;
  a.addresses.assign(static_cast<std::size_t>(n), 0);
  const std::uint64_t base = w * static_cast<std::uint64_t>(*rc::gen::inRange(0, 64));
  const int pattern = *rc::gen::inRange(0, 6);
  const std::uint64_t stride = static_cast<std::uint64_t>(*rc::gen::inRange(0, 40));       // in units of w
  const std::uint64_t group = static_cast<std::uint64_t>(pick({1, 2, 4, 8, 16}));
  const bool swizzled = *rc::gen::arbitrary<bool>();
  const int flip = pick({1, 2, 4, 16, 3});
  for (int i = 0; i < n; ++i) {
    const std::uint64_t ti = static_cast<std::uint64_t>(i);
    std::uint64_t addr = base;
    switch (pattern) {
      case 0: addr += ti * w; break;                                       // contiguous
      case 1: addr += ti * w * stride; break;                              // strided (0: all one address)
      case 2: addr += (ti % group) * w; break;                             // broadcast groups
      case 3: addr += w * static_cast<std::uint64_t>(*rc::gen::inRange(0, 256)); break;  // random
      case 4: {  // 128-byte rows of eight 16-byte chunks, optionally the 128B swizzle (chunk ^= row % 8)
        const std::uint64_t row = ti / 8, chunk = ti % 8;
        addr += 128 * row + 16 * (swizzled ? chunk ^ (row % 8) : chunk);
        break;
      }
      default: addr += w * static_cast<std::uint64_t>(i ^ flip);            // permuted
    }
    a.addresses[static_cast<std::size_t>(i)] = addr;
  }
  if (*rc::gen::inRange(0, 3) == 0) {
    a.active_mask = 0;
    for (int i = 0; i < n; ++i)
      if (*rc::gen::inRange(0, 4) != 0) a.active_mask |= std::uint64_t{1} << i;
  }
  return a;
}

hw::WavefrontCount brute_force(const hw::Target& t, const hw::SmemAccess& a, int phase) {
  hw::WavefrontCount c;
  for (int first = 0; first < t.warp_size; first += phase) {
    std::vector<std::set<std::uint64_t>> words(static_cast<std::size_t>(t.banks));
    std::set<std::uint64_t> all;
    for (int th = first; th < first + phase && th < t.warp_size; ++th) {
      if (!((a.active_mask >> th) & 1u)) continue;
      for (int b = 0; b < a.width_bytes; b += t.bank_bytes) {
        const std::uint64_t word = (a.addresses[static_cast<std::size_t>(th)] + static_cast<std::uint64_t>(b)) /
                                   static_cast<std::uint64_t>(t.bank_bytes);
        words[static_cast<std::size_t>(word % static_cast<std::uint64_t>(t.banks))].insert(word);
        all.insert(word);
      }
    }
    std::size_t busiest = 0;
    for (const auto& s : words) busiest = std::max(busiest, s.size());
    c.wavefronts += static_cast<int>(busiest);
    c.ideal += static_cast<int>((all.size() + static_cast<std::size_t>(t.banks) - 1) / static_cast<std::size_t>(t.banks));
  }
  return c;
}

}  // namespace

Property smem_wavefronts_property() {
  return {"smem.wavefronts", "the wavefront model equals a brute-force count of distinct words per bank per phase", 500, [] {
            const std::string name = pick<std::string>({"sm_90a", "sm_100a"});
            const hw::Target& t = target_named(name);
            const hw::SmemAccess a = draw_access(t);
            const int phase = t.wavefront.phase_threads.at(a.width_bytes);
            const hw::WavefrontCount model = hw::count_wavefronts(t, a);
            const hw::WavefrontCount brute = brute_force(t, a, phase);
            if (!(model == brute)) {
              std::vector<std::int64_t> addrs(a.addresses.begin(), a.addresses.end());
              fail(fmt::format("{}: {}-byte access, mask 0x{:X}, addresses {}: the model counts {} wavefronts (ideal {}), "
                               "brute force with {}-thread phases {} (ideal {})",
                               name, a.width_bytes, a.active_mask, show_ints(addrs), model.wavefronts, model.ideal, phase,
                               brute.wavefronts, brute.ideal),
                   "(no CLI for shared-memory accesses yet) the addresses above");
            }
          }};
}

}  // namespace tirx::props
