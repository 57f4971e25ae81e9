#include "tirx_verify/hw/tcgen05_cp.hpp"

#include <array>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {

// One row of the header table. lane_of(r) = L0 + row_step * (r % split) + jump * (r / split),
// multicast copies at + copy_step * j.
struct CpInfo {
  std::string_view name;
  int rows;
  int row_bits;
  int copies;      // destination lanes per source row
  int copy_step;   // lane distance between copies
  int row_step;    // lane step between consecutive source rows
  int split;       // rows before the lane pattern jumps (= rows when it never does)
  int jump;        // lane offset of the second group of rows
};

constexpr std::array<CpInfo, 6> kCp = {{
    {"128x256b", 128, 256, 1, 0, 1, 128, 0},
    {"128x128b", 128, 128, 1, 0, 1, 128, 0},
    {"4x256b", 4, 256, 1, 0, 32, 4, 0},
    {"32x128b.warpx4", 32, 128, 4, 32, 1, 32, 0},
    {"64x128b.warpx2::02_13", 64, 128, 2, 64, 1, 64, 0},
    {"64x128b.warpx2::01_23", 64, 128, 2, 32, 1, 32, 64},
}};
const CpInfo& cp_info(CpShape s) { return kCp[static_cast<int>(s)]; }

}  // namespace

CpShape parse_cp_shape(std::string_view text) {
  if (!text.empty() && text.front() == '.') text.remove_prefix(1);
  for (std::size_t i = 0; i < kCp.size(); ++i)
    if (kCp[i].name == text) return static_cast<CpShape>(i);
  if (text == "64x128b")
    throw InputError("tcgen05.shape", "tcgen05.cp .64x128b needs a multicast: .warpx2::02_13 or .warpx2::01_23");
  if (text == "32x128b") throw InputError("tcgen05.shape", "tcgen05.cp .32x128b needs the .warpx4 multicast");
  throw InputError("tcgen05.shape", fmt::format("unknown tcgen05.cp shape '{}'", text), {}, std::nullopt,
                   "one of 128x256b, 128x128b, 4x256b, 32x128b.warpx4, 64x128b.warpx2::02_13, 64x128b.warpx2::01_23");
}

std::string_view to_string(CpShape s) { return cp_info(s).name; }
int cp_rows(CpShape s) { return cp_info(s).rows; }
int cp_row_bits(CpShape s) { return cp_info(s).row_bits; }

std::vector<int> cp_destination_lanes(CpShape s, int lane0, int row) {
  const CpInfo& ci = cp_info(s);
  int first = lane0 + ci.row_step * (row % ci.split) + ci.jump * (row / ci.split);
  std::vector<int> lanes;
  for (int j = 0; j < ci.copies; ++j) lanes.push_back(first + ci.copy_step * j);
  return lanes;
}

std::uint64_t cp_source_byte(const SmemDescriptor& desc, int row, int byte) {
  const int kChunkBytes = 16;  // the descriptor addresses 16-byte chunks (PTX ISA 9.1 §9.7.16.4.1)
  return desc.chunk_address(row, byte / kChunkBytes) + static_cast<std::uint64_t>(byte % kChunkBytes);
}

std::vector<CpCell> cp_destination_cells(CpShape s, TmemAddress dst, int row, int byte) {
  const int kCellBytes = 4;  // a TMEM cell is 32 bits (§9.7.16.1)
  std::vector<CpCell> cells;
  for (int lane : cp_destination_lanes(s, dst.lane(), row)) cells.push_back({lane, dst.col() + byte / kCellBytes, byte % kCellBytes});
  return cells;
}

void tcgen05_cp(Tmem& tmem, const SharedMemory& smem, CpShape shape, TmemAddress dst, const SmemDescriptor& desc) {
  const CpInfo& ci = cp_info(shape);
  std::string name = fmt::format("tcgen05.cp.cta_group::1.{}", ci.name);
  const int kChunkBytes = 16, kCellBytes = 4;
  int chunks = ci.row_bits / 8 / kChunkBytes;
  const TmemGeometry& g = tmem.geometry();
  // Check the whole destination before writing anything.
  for (int r = 0; r < ci.rows; ++r)
    for (int lane : cp_destination_lanes(shape, dst.lane(), r))
      if (lane >= g.lanes || dst.col() + ci.row_bits / 32 > g.columns)
        throw InputError("tmem.address", fmt::format("{} at {} writes lane {}, columns {}..{}: outside TMEM ({} x {})",
                                                     name, describe(dst), lane, dst.col(),
                                                     dst.col() + ci.row_bits / 32 - 1, g.lanes, g.columns));
  for (int r = 0; r < ci.rows; ++r) {
    std::vector<int> lanes = cp_destination_lanes(shape, dst.lane(), r);
    for (int k = 0; k < chunks; ++k) {
      std::uint64_t src = desc.chunk_address(r, k);
      for (int w = 0; w < kChunkBytes / kCellBytes; ++w) {
        std::uint32_t v = smem.read_u32(src + static_cast<std::uint64_t>(w) * kCellBytes);
        int col = dst.col() + k * (kChunkBytes / kCellBytes) + w;
        for (int lane : lanes) tmem.write(lane, col, v, 0xFFFFFFFFu, name);
      }
    }
  }
}

}  // namespace tirx::hw
