#include "tirx_verify/hw/tmem_alloc.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {
[[noreturn]] void alloc_error(std::string msg, std::string note = {}) {
  throw InputError("tmem.alloc", std::move(msg), {}, std::nullopt, std::move(note));
}
bool pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }
}  // namespace

TmemAllocator::TmemAllocator(const Target& target) : geom_(target.require_tmem("tcgen05.alloc")) {}

int TmemAllocator::alloc(int ncols) {
  if (relinquished_)
    alloc_error("tcgen05.alloc after tcgen05.relinquish_alloc_permit: this CTA may no longer allocate");
  if (!pow2(ncols) || ncols < geom_.alloc_min_columns || ncols > geom_.alloc_max_columns)
    alloc_error(fmt::format("tcgen05.alloc of {} columns: nCols must be a power of two in [{}, {}]", ncols,
                            geom_.alloc_min_columns, geom_.alloc_max_columns));
  if (last_size_ && ncols > *last_size_)
    alloc_error(fmt::format("tcgen05.alloc of {} columns after an allocation of {}: successive allocation sizes "
                            "must not increase (PTX ISA 9.1 §9.7.16.7.1)",
                            ncols, *last_size_),
                "allocate the largest buffer first");
  // Lowest free run of ncols columns starting on a granularity boundary.
  for (int start = 0; start + ncols <= geom_.columns; start += geom_.alloc_granularity_columns) {
    bool free = std::none_of(live_.begin(), live_.end(), [&](const TmemAllocation& a) {
      return start < a.first_col + a.ncols && a.first_col < start + ncols;
    });
    if (free) {
      live_.push_back({start, ncols});
      std::sort(live_.begin(), live_.end(), [](auto& x, auto& y) { return x.first_col < y.first_col; });
      last_size_ = ncols;
      return start;
    }
  }
  int used = 0;
  for (const auto& a : live_) used += a.ncols;
  alloc_error(fmt::format("tcgen05.alloc of {} columns cannot be satisfied: {} of {} columns are allocated and no "
                          "free run is long enough (the instruction would block forever in a single CTA)",
                          ncols, used, geom_.columns));
}

void TmemAllocator::dealloc(int lane, int first_col, int ncols) {
  if (lane != 0)
    alloc_error(fmt::format("tcgen05.dealloc address has lane field {}; an allocation's address has lane 0", lane));
  auto it = std::find_if(live_.begin(), live_.end(), [&](const TmemAllocation& a) { return a.first_col == first_col; });
  if (it == live_.end())
    alloc_error(fmt::format("tcgen05.dealloc of column {}: no live allocation starts there", first_col));
  if (it->ncols != ncols)
    alloc_error(fmt::format("tcgen05.dealloc of column {} with nCols {}: the allocation there has {} columns",
                            first_col, ncols, it->ncols));
  live_.erase(it);
}

bool TmemAllocator::is_allocated(int col) const {
  return std::any_of(live_.begin(), live_.end(),
                     [&](const TmemAllocation& a) { return col >= a.first_col && col < a.first_col + a.ncols; });
}

void TmemAllocator::check_all_freed() const {
  if (!live_.empty())
    alloc_error(fmt::format("{} TMEM allocation(s) still live at kernel exit, the first at column {} ({} columns)",
                            live_.size(), live_.front().first_col, live_.front().ncols),
                "every tcgen05.alloc needs a matching tcgen05.dealloc before the kernel exits");
}

}  // namespace tirx::hw
