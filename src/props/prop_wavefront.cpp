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

// One generated access on a named target; shown as the `tirx-verify sim smem` command.
struct SmemCase {
  std::string target;
  hw::SmemAccess access;
};

std::string sim_command(const SmemCase& c) {
  std::vector<std::int64_t> addrs(c.access.addresses.begin(), c.access.addresses.end());
  std::string r = fmt::format("tirx-verify sim smem --target {} --access-bytes {} --addresses {}", c.target,
                              c.access.width_bytes, show_ints(addrs));
  if (c.access.active_mask != ~std::uint64_t{0}) r += fmt::format(" --active-mask {}", c.access.active_mask);
  if (c.access.is_store) r += " --store";
  return r + " --json";
}

void showValue(const SmemCase& c, std::ostream& os) { os << sim_command(c); }

hw::SmemAccess draw_access(const hw::Target& t) {
  hw::SmemAccess a;
  a.is_store = *rc::gen::inRange(0, 3) == 0;
  a.width_bytes = pick({4, 8, 16});
  const std::uint64_t w = static_cast<std::uint64_t>(a.width_bytes);
  const int n = t.warp_size;
  a.addresses.assign(static_cast<std::size_t>(n), 0);
  const std::uint64_t base = w * static_cast<std::uint64_t>(*rc::gen::inRange(0, 64));
  const int pattern = *rc::gen::inRange(0, 8);
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
      case 5: addr += w * static_cast<std::uint64_t>(i ^ flip); break;      // permuted
      case 6: addr += (ti >> 1) * w * (stride + 1); break;                 // pairs t, t^1 on one address
      default: addr += (ti & ~std::uint64_t{2}) * w * (stride + 1);        // pairs t, t^2 on one address
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

// The phase size the model's rule gives (banks.hpp steps 1-2): phase_threads[width]; a load of a
// width in uniform_pair_widths whose active threads agree with their active partner t ^ k, for
// one k in uniform_pair_xor, takes phases twice as large (at most the warp).
int rule_phase(const hw::Target& t, const hw::SmemAccess& a) {
  const hw::WavefrontModel& m = t.wavefront;
  const int p = m.phase_threads.at(a.width_bytes);
  if (a.is_store || !m.uniform_pair_widths.count(a.width_bytes)) return p;
  auto active = [&](int th) { return ((a.active_mask >> th) & 1u) != 0; };
  for (int k : m.uniform_pair_xor) {
    bool all = true;
    for (int th = 0; th < t.warp_size; ++th) {
      const int u = th ^ k;
      if (u < t.warp_size && active(th) && active(u) &&
          a.addresses[static_cast<std::size_t>(th)] != a.addresses[static_cast<std::size_t>(u)])
        all = false;
    }
    if (all) return std::min(2 * p, t.warp_size);
  }
  return p;
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
            const SmemCase c = *rc::gen::exec([] {
              SmemCase c;
              c.target = pick<std::string>({"sm_90a", "sm_100a"});
              c.access = draw_access(target_named(c.target));
              return c;
            });
            const hw::Target& t = target_named(c.target);
            const hw::SmemAccess& a = c.access;
            const int phase = rule_phase(t, a);
            const hw::WavefrontCount model = hw::count_wavefronts(t, a);
            const hw::WavefrontCount brute = brute_force(t, a, phase);
            RC_TAG(phase == t.wavefront.phase_threads.at(a.width_bytes) ? "textbook phases" : "uniform-pair phases");
            if (!(model == brute))
              fail(fmt::format("{}: {}-byte {}: the model counts {} wavefronts (ideal {}), brute force with {}-thread "
                               "phases {} (ideal {})",
                               c.target, a.width_bytes, a.is_store ? "store" : "load", model.wavefronts, model.ideal,
                               phase, brute.wavefronts, brute.ideal),
                   sim_command(c));
          }};
}

}  // namespace tirx::props
