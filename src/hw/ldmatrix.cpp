#include "tirx_verify/hw/ldmatrix.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

namespace {
constexpr int kRows = 8;          // rows per .m8n8 matrix
constexpr int kElemBytes = 2;     // .b16
constexpr int kRowBytes = 16;     // 8 elements x 2 bytes
constexpr int kThreadsPerRow = 4; // four threads share one fragment row (2 elements each)

void check_addresses(const Target& target, const LdmatrixInstr& in, std::span<const std::uint64_t> addr) {
  validate(in);
  if (static_cast<int>(addr.size()) != target.warp_size)
    throw InputError("ldmatrix.shape", fmt::format("ldmatrix/stmatrix needs {} thread addresses, got {}",
                                                   target.warp_size, addr.size()));
  for (int t = 0; t < kRows * in.num; ++t)
    if (addr[t] % kRowBytes != 0)
      throw InputError("smem.access", fmt::format("ldmatrix/stmatrix row address 0x{:X} of thread {} is not 16-byte "
                                                  "aligned",
                                                  addr[t], t));
}

// Byte address of element (row, col) of matrix j.
std::uint64_t element_address(std::span<const std::uint64_t> addr, const MatrixElement& e) {
  return addr[static_cast<std::size_t>(kRows * e.matrix + e.row)] + static_cast<std::uint64_t>(kElemBytes * e.col);
}
}  // namespace

void validate(const LdmatrixInstr& in) {
  if (in.num != 1 && in.num != 2 && in.num != 4)
    throw InputError("ldmatrix.shape", fmt::format("ldmatrix/stmatrix .m8n8 takes .x1, .x2 or .x4, not .x{}", in.num));
}

RowRole ldmatrix_row_role(const LdmatrixInstr& in, int thread) {
  validate(in);
  if (thread < 0 || thread >= kRows * in.num) return RowRole{};
  return RowRole{thread / kRows, thread % kRows};
}

MatrixElement ldmatrix_element(const LdmatrixInstr& in, int thread, int reg, int half) {
  validate(in);
  int g = thread / kThreadsPerRow, q = thread % kThreadsPerRow;
  int k = 2 * q + half;  // the second coordinate walks two elements per thread
  if (!in.trans) return MatrixElement{reg, g, k};
  return MatrixElement{reg, k, g};
}

WarpRegisters ldmatrix(const Target& target, const SharedMemory& smem, const LdmatrixInstr& in,
                       std::span<const std::uint64_t> addresses) {
  check_addresses(target, in, addresses);
  WarpRegisters regs(target.warp_size, in.num);
  for (int t = 0; t < target.warp_size; ++t)
    for (int j = 0; j < in.num; ++j) {
      std::uint32_t lo = smem.read_u16(element_address(addresses, ldmatrix_element(in, t, j, 0)));
      std::uint32_t hi = smem.read_u16(element_address(addresses, ldmatrix_element(in, t, j, 1)));
      regs.set(t, j, lo | (hi << 16));
    }
  return regs;
}

void stmatrix(const Target& target, SharedMemory& smem, const LdmatrixInstr& in,
              std::span<const std::uint64_t> addresses, const WarpRegisters& regs) {
  check_addresses(target, in, addresses);
  if (regs.threads() != target.warp_size || regs.regs() != in.num)
    throw InputError("ldmatrix.shape", fmt::format("stmatrix .x{} needs {} threads x {} registers, got {} x {}", in.num,
                                                   target.warp_size, in.num, regs.threads(), regs.regs()));
  for (int t = 0; t < target.warp_size; ++t)
    for (int j = 0; j < in.num; ++j) {
      std::uint32_t v = regs.value(t, j);
      smem.write_u16(element_address(addresses, ldmatrix_element(in, t, j, 0)), static_cast<std::uint16_t>(v));
      smem.write_u16(element_address(addresses, ldmatrix_element(in, t, j, 1)), static_cast<std::uint16_t>(v >> 16));
    }
}

}  // namespace tirx::hw
