#include "tirx_verify/hw/tmem.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

std::string describe(TmemAddress a) {
  return fmt::format("0x{:08X} (lane {}, column {})", a.raw, a.lane(), a.col());
}

TmemElementSlot tmem_element_slot(std::int64_t elem_col, int elem_bits) {
  if (elem_bits != 8 && elem_bits != 16 && elem_bits != 32)
    throw InputError("tmem.address", fmt::format("TMEM elements are 8, 16 or 32 bits wide, not {}", elem_bits));
  if (elem_col < 0) throw InputError("tmem.address", fmt::format("negative TCol coordinate {}", elem_col));
  int per_cell = 32 / elem_bits;
  return TmemElementSlot{static_cast<int>(elem_col / per_cell), static_cast<int>(elem_col % per_cell) * elem_bits,
                         elem_bits};
}

LaneRange subpartition_lanes(const Target& target, int warp_in_wg) {
  int n = target.tmem_subpartition_lanes();
  if (warp_in_wg < 0 || warp_in_wg >= target.warps_per_warpgroup)
    throw InputError("tmem.address", fmt::format("warp index {} is not a warp of a warpgroup (0..{})", warp_in_wg,
                                                 target.warps_per_warpgroup - 1));
  return LaneRange{n * warp_in_wg, n * warp_in_wg + n - 1};
}

void check_partition(const Target& target, std::string_view instr, int warp_in_wg, TmemAddress base, int lane_first,
                     int lane_count) {
  LaneRange ok = subpartition_lanes(target, warp_in_wg);
  int last = lane_first + lane_count - 1;
  if (lane_first >= ok.first && last <= ok.last) return;
  int width = ok.last - ok.first + 1;
  std::string note =
      lane_count == width
          ? fmt::format("warp {} must use lane field {}; lane {} belongs to warp {} of the warpgroup", warp_in_wg,
                        ok.first, lane_first, lane_first / width)
          : fmt::format("warp {} may use lane fields {}..{} (0 or 16 past its first lane for the lower/upper "
                        "half-slab); lane {} belongs to warp {} of the warpgroup",
                        warp_in_wg, ok.first, ok.last - lane_count + 1, lane_first, lane_first / width);
  throw InputError("tmem.partition",
                   fmt::format("{} by warp {} of its warpgroup at address {} touches lanes {}..{}; warp {} may access "
                               "lanes {}..{} only",
                               instr, warp_in_wg, describe(base), lane_first, last, warp_in_wg, ok.first, ok.last),
                   {}, std::nullopt, std::move(note));
}

Tmem::Tmem(const Target& target)
    : target_(target), geom_(target.require_tmem("tensor memory")), alloc_(target),
      cells_(static_cast<std::size_t>(geom_.lanes) * geom_.columns) {}

void Tmem::check_access(int lane, int col, std::string_view instr) const {
  if (lane < 0 || lane >= geom_.lanes || col < 0 || col >= geom_.columns)
    throw InputError("tmem.address", fmt::format("{} touches lane {}, column {}, outside TMEM ({} lanes x {} columns)",
                                                 instr, lane, col, geom_.lanes, geom_.columns));
  if (!alloc_.is_allocated(col))
    throw InputError("tmem.alloc", fmt::format("{} touches column {}, which is not allocated", instr, col), {},
                     std::nullopt, "tcgen05.alloc the columns first");
}

TmemCell Tmem::read(int lane, int col, std::string_view instr) const {
  check_access(lane, col, instr);
  return cells_[index(lane, col)];
}

void Tmem::write(int lane, int col, std::uint32_t value, std::uint32_t mask, std::string_view instr) {
  check_access(lane, col, instr);
  TmemCell& c = cells_[index(lane, col)];
  c.value = (c.value & ~mask) | (value & mask);
  c.known |= mask;
}

void Tmem::store(int lane, int col, TmemCell cell, std::uint32_t mask, std::string_view instr) {
  check_access(lane, col, instr);
  TmemCell& c = cells_[index(lane, col)];
  c.value = (c.value & ~mask) | (cell.value & cell.known & mask);
  c.known = (c.known & ~mask) | (cell.known & mask);
}

}  // namespace tirx::hw
