// Internal to src/kernel/checks: the elements each thread of an op holds in a register region.
//
// For a region of a local (register fragment) buffer and the op's warps, slots[w * 32 + lane]
// lists that thread's (register bit position, region element index) pairs in register order
// (reg * 32 + bit ascending) — every replica image counts, so an element two threads hold is in
// both lists. A warp-collective instruction takes a thread's registers in this order: its
// operand register j is the j-th distinct register of the thread's slots (bank_conflicts.cpp,
// fragment.cpp). Throws what RegionSweep and reg_cell_of throw (kernel.layout,
// kernel.fragment).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tirx_verify/kernel/images.hpp"
#include "tirx_verify/kernel/region_sweep.hpp"

namespace tirx::kernel::checks {

struct RegSlot {
  std::int64_t regbit = 0;  // reg * 32 + bit
  std::int64_t elem = 0;    // index in the region (row-major over its kept dims)
};

inline std::vector<std::vector<RegSlot>> thread_slots(const ResolvedBuffer& b, const Region& r,
                                                      const std::vector<int>& warps) {
  std::vector<std::vector<RegSlot>> slots(warps.size() * 32);
  RegionSweep sw(b, r);
  sw.for_each([&](std::int64_t i, std::int64_t, const Coord& c) {
    const RegCell cell = reg_cell_of(b, c, warps);
    const auto w = std::find(warps.begin(), warps.end(), cell.warp) - warps.begin();
    slots[static_cast<std::size_t>(w) * 32 + static_cast<std::size_t>(cell.lane)].push_back({cell.reg * 32 + cell.bit, i});
  });
  for (auto& s : slots)
    std::stable_sort(s.begin(), s.end(), [](const RegSlot& a, const RegSlot& b) { return a.regbit < b.regbit; });
  return slots;
}

// The distinct registers of one thread's slots, ascending.
inline std::vector<std::int64_t> registers_of(const std::vector<RegSlot>& s) {
  std::vector<std::int64_t> regs;
  for (const RegSlot& x : s)
    if (regs.empty() || regs.back() != x.regbit / 32) regs.push_back(x.regbit / 32);
  return regs;
}

}  // namespace tirx::kernel::checks
