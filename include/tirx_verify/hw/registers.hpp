// tirx_verify/hw/registers.hpp — the 32-bit registers of one warp, with known-bit masks.
//
// A warp-wide instruction reads or writes a vector of 32-bit registers in every thread
// ({r0, r1, ...} in PTX). The simulator keeps, next to each value, a mask of the bits whose
// value it actually knows: a register loaded from a TMEM cell whose upper half was never
// defined (e.g. written by tcgen05.st.unpack::16b, PTX ISA 9.1 §9.7.16.8.2 leaves it
// unspecified) has those bits cleared in `known`, so a test can tell "0" from "unknown".
//
//   thread t, register r  ->  value[t * regs + r], known[t * regs + r]
#pragma once

#include <cstdint>
#include <vector>

namespace tirx::hw {

class WarpRegisters {
 public:
  WarpRegisters() = default;
  // threads: threads in the warp (Target::warp_size); regs: registers per thread.
  // All registers start as value 0, known mask 0 (undefined).
  WarpRegisters(int threads, int regs)
      : threads_(threads), regs_(regs), value_(static_cast<std::size_t>(threads) * regs, 0),
        known_(static_cast<std::size_t>(threads) * regs, 0) {}

  int threads() const { return threads_; }
  int regs() const { return regs_; }

  std::uint32_t value(int t, int r) const { return value_[index(t, r)]; }
  std::uint32_t known(int t, int r) const { return known_[index(t, r)]; }
  bool fully_known(int t, int r) const { return known(t, r) == 0xFFFFFFFFu; }

  // Sets the register to `v`; the bits in `mask` become known, the others unknown.
  void set(int t, int r, std::uint32_t v, std::uint32_t mask = 0xFFFFFFFFu) {
    value_[index(t, r)] = v & mask;
    known_[index(t, r)] = mask;
  }

 private:
  std::size_t index(int t, int r) const { return static_cast<std::size_t>(t) * regs_ + r; }
  int threads_ = 0;
  int regs_ = 0;
  std::vector<std::uint32_t> value_;
  std::vector<std::uint32_t> known_;
};

}  // namespace tirx::hw
