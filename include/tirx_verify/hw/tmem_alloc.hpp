// tirx_verify/hw/tmem_alloc.hpp — tcgen05.alloc / dealloc / relinquish_alloc_permit rules.
//
// PTX ISA 9.1 §9.7.16.1.2 "Tensor Memory Allocation" and §9.7.16.7.1
// "tcgen05.alloc/dealloc/relinquish_alloc_permit":
//   * alloc takes whole columns (all lanes); nCols is a power of two in
//     [alloc_min_columns, alloc_max_columns] = [32, 512] on sm_100a;
//   * the column count "should not increase between any two allocations in execution order
//     within the CTA": successive allocation sizes are non-increasing;
//   * dealloc frees exactly a previous allocation (same address, same nCols); everything
//     must be freed before the kernel exits;
//   * after relinquish_alloc_permit the CTA may not allocate again;
//   * alloc blocks until enough columns are free. The simulator models one CTA, so a
//     request that cannot be satisfied would block forever: it is reported as an error.
// Every violation throws InputError("tmem.alloc").
//
// The address alloc returns: PTX writes "the address of the allocated TMEM" to shared
// memory; kernels use it as (lane 0, first column). The simulator picks the lowest free
// run of columns that starts on a multiple of the granularity (32). Which columns the
// hardware picks is not specified; code must not depend on it.
//
//   alloc(128) -> column 0      alloc(64) -> column 128     alloc(256) -> error (increase)
//   dealloc(col 0, 128); alloc(32) -> column 0 (lowest free run)
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tirx_verify/hw/target.hpp"

namespace tirx::hw {

struct TmemAllocation {
  int first_col = 0;  // first allocated column
  int ncols = 0;      // number of columns
};

class TmemAllocator {
 public:
  // Throws InputError("target.feature") if the target has no TMEM.
  explicit TmemAllocator(const Target& target);

  // tcgen05.alloc nCols: returns the first allocated column (the address's lane field is 0).
  // Throws tmem.alloc: nCols not a power of two in [min, max]; larger than the previous
  // allocation; permit relinquished; not enough contiguous free columns.
  int alloc(int ncols);
  // tcgen05.dealloc taddr, nCols: `first_col` and `ncols` must name a live allocation
  // exactly; `lane` (the address's lane field) must be 0. Throws tmem.alloc otherwise.
  void dealloc(int lane, int first_col, int ncols);
  // tcgen05.relinquish_alloc_permit.
  void relinquish() { relinquished_ = true; }
  bool relinquished() const { return relinquished_; }

  bool is_allocated(int col) const;
  const std::vector<TmemAllocation>& live() const { return live_; }
  // Kernel exit: throws tmem.alloc naming the first allocation still live.
  void check_all_freed() const;

 private:
  TmemGeometry geom_;
  std::vector<TmemAllocation> live_;   // sorted by first_col
  std::optional<int> last_size_;       // size of the previous allocation in execution order
  bool relinquished_ = false;
};

}  // namespace tirx::hw
