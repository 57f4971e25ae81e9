#include "tirx_verify/hw/banks.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {

[[noreturn]] void access_error(std::string msg) { throw InputError("smem.access", std::move(msg)); }

bool active(const SmemAccess& a, int t) { return (a.active_mask >> t) & 1u; }  // t < 64 (Target)

// Words of one phase: every bank word requested by an active thread of the phase.
// Returns sorted distinct word indices.
std::vector<std::uint64_t> phase_words(const Target& target, const SmemAccess& a, int first, int count) {
  std::vector<std::uint64_t> words;
  int per_thread = a.width_bytes / target.bank_bytes;
  for (int t = first; t < std::min(first + count, target.warp_size); ++t) {
    if (!active(a, t)) continue;
    std::uint64_t w0 = a.addresses[t] / target.bank_bytes;
    for (int k = 0; k < per_thread; ++k) words.push_back(w0 + k);
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

WavefrontCount count_with_phases(const Target& target, const SmemAccess& a, int phase_threads) {
  WavefrontCount out;
  std::vector<int> per_bank(target.banks);
  for (int first = 0; first < target.warp_size; first += phase_threads) {
    std::vector<std::uint64_t> words = phase_words(target, a, first, phase_threads);
    if (words.empty()) continue;
    std::fill(per_bank.begin(), per_bank.end(), 0);
    for (std::uint64_t w : words) ++per_bank[w % target.banks];
    out.wavefronts += *std::max_element(per_bank.begin(), per_bank.end());
    out.ideal += static_cast<int>((words.size() + target.banks - 1) / target.banks);
  }
  return out;
}

}  // namespace

int bank_of(const Target& target, std::uint64_t byte_address) {
  return static_cast<int>((byte_address / target.bank_bytes) % target.banks);
}

int textbook_phase_threads(const Target& target, int width_bytes) {
  return std::min(target.warp_size, target.wavefront_bytes() / width_bytes);
}

void validate(const Target& target, const SmemAccess& a) {
  if (a.width_bytes != 4 && a.width_bytes != 8 && a.width_bytes != 16)
    access_error(fmt::format("shared-memory access width {} bytes: only 4, 8 and 16 are modelled", a.width_bytes));
  if (static_cast<int>(a.addresses.size()) != target.warp_size)
    access_error(fmt::format("a warp-wide access needs {} addresses (one per thread), got {}", target.warp_size,
                             a.addresses.size()));
  for (int t = 0; t < target.warp_size; ++t)
    if (active(a, t) && a.addresses[t] % a.width_bytes != 0)
      access_error(fmt::format("thread {} address 0x{:X} is not aligned to the {}-byte access width", t, a.addresses[t],
                               a.width_bytes));
}

int phase_threads(const Target& target, const SmemAccess& a) {
  validate(target, a);
  const WavefrontModel& m = target.wavefront;
  int p = m.phase_threads.at(a.width_bytes);
  if (a.is_store || !m.uniform_pair_widths.count(a.width_bytes)) return p;
  for (int k : m.uniform_pair_xor) {
    bool uniform = true;
    for (int t = 0; t < target.warp_size && uniform; ++t) {
      int u = t ^ k;
      // Only pairs of two active threads are compared (H200: an inactive partner does not
      // break the shortcut).
      if (u < target.warp_size && active(a, t) && active(a, u) && a.addresses[t] != a.addresses[u]) uniform = false;
    }
    if (uniform) return std::min(2 * p, target.warp_size);
  }
  return p;
}

WavefrontCount count_wavefronts(const Target& target, const SmemAccess& a) {
  return count_with_phases(target, a, phase_threads(target, a));
}

WavefrontCount count_wavefronts_reference(const Target& target, const SmemAccess& a, int phase_threads) {
  validate(target, a);
  if (phase_threads < 1 || phase_threads > target.warp_size)
    access_error(fmt::format("phase size {} threads is outside [1, {}]", phase_threads, target.warp_size));
  // Brute force: for each phase, for each bank, collect the distinct words by linear search.
  WavefrontCount out;
  for (int first = 0; first < target.warp_size; first += phase_threads) {
    int last = std::min(first + phase_threads, target.warp_size);
    int busiest = 0, total = 0;
    for (int bank = 0; bank < target.banks; ++bank) {
      std::vector<std::uint64_t> seen;
      for (int t = first; t < last; ++t) {
        if (!active(a, t)) continue;
        for (std::uint64_t byte = a.addresses[t]; byte < a.addresses[t] + a.width_bytes; byte += target.bank_bytes) {
          std::uint64_t word = byte / target.bank_bytes;
          if (static_cast<int>(word % target.banks) != bank) continue;
          if (std::find(seen.begin(), seen.end(), word) == seen.end()) seen.push_back(word);
        }
      }
      busiest = std::max(busiest, static_cast<int>(seen.size()));
      total += static_cast<int>(seen.size());
    }
    out.wavefronts += busiest;
    out.ideal += (total + target.banks - 1) / target.banks;
  }
  return out;
}

WavefrontCount ldmatrix_wavefronts(const Target& target, std::span<const std::uint64_t> rows) {
  std::size_t n = rows.size();
  if (n != 8 && n != 16 && n != 32)
    access_error(fmt::format("ldmatrix/stmatrix .m8n8 takes 8, 16 or 32 row addresses (x1, x2, x4), got {}", n));
  const int kRowBytes = 16;  // one 8 x 16-bit matrix row (PTX ISA 9.1 §9.7.14.5.15)
  SmemAccess a;
  a.width_bytes = kRowBytes;
  a.addresses.assign(static_cast<std::size_t>(target.warp_size), 0);
  a.active_mask = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (rows[i] % kRowBytes != 0)
      access_error(fmt::format("ldmatrix row {} address 0x{:X} is not 16-byte aligned", i, rows[i]));
    a.addresses[i] = rows[i];
    a.active_mask |= std::uint64_t{1} << i;
  }
  return count_with_phases(target, a, target.wavefront.ldmatrix_phase_rows);
}

}  // namespace tirx::hw
