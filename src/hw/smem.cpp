#include "tirx_verify/hw/smem.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::hw {

SharedMemory::SharedMemory(const Target& target) : SharedMemory(target.smem_bytes_per_cta) {}

SharedMemory::SharedMemory(std::int64_t bytes) {
  if (bytes < 0 || bytes > (std::int64_t{1} << 32))
    throw InputError("smem.access", fmt::format("shared memory size {} is out of range", bytes));
  bytes_.assign(static_cast<std::size_t>(bytes), 0);
  written_.assign(static_cast<std::size_t>(bytes), false);
}

void SharedMemory::check_range(std::uint64_t addr, std::uint64_t len, std::string_view what) const {
  if (addr > bytes_.size() || len > bytes_.size() - addr)
    throw InputError("smem.access", fmt::format("{} at bytes [0x{:X}, 0x{:X}) is outside shared memory ({} bytes)",
                                                what, addr, addr + len, bytes_.size()));
}

std::uint8_t SharedMemory::read_u8(std::uint64_t addr) const {
  check_range(addr, 1, "read");
  return bytes_[addr];
}
std::uint16_t SharedMemory::read_u16(std::uint64_t addr) const {
  check_range(addr, 2, "read");
  return static_cast<std::uint16_t>(bytes_[addr] | (bytes_[addr + 1] << 8));
}
std::uint32_t SharedMemory::read_u32(std::uint64_t addr) const {
  check_range(addr, 4, "read");
  return static_cast<std::uint32_t>(bytes_[addr]) | (static_cast<std::uint32_t>(bytes_[addr + 1]) << 8) |
         (static_cast<std::uint32_t>(bytes_[addr + 2]) << 16) | (static_cast<std::uint32_t>(bytes_[addr + 3]) << 24);
}
void SharedMemory::read(std::uint64_t addr, std::span<std::uint8_t> out) const {
  check_range(addr, out.size(), "read");
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = bytes_[addr + i];
}

void SharedMemory::write_u8(std::uint64_t addr, std::uint8_t v) {
  check_range(addr, 1, "write");
  bytes_[addr] = v;
  written_[addr] = true;
}
void SharedMemory::write_u16(std::uint64_t addr, std::uint16_t v) {
  check_range(addr, 2, "write");
  for (int i = 0; i < 2; ++i) {
    bytes_[addr + i] = static_cast<std::uint8_t>(v >> (8 * i));
    written_[addr + i] = true;
  }
}
void SharedMemory::write_u32(std::uint64_t addr, std::uint32_t v) {
  check_range(addr, 4, "write");
  for (int i = 0; i < 4; ++i) {
    bytes_[addr + i] = static_cast<std::uint8_t>(v >> (8 * i));
    written_[addr + i] = true;
  }
}
void SharedMemory::write(std::uint64_t addr, std::span<const std::uint8_t> in) {
  check_range(addr, in.size(), "write");
  for (std::size_t i = 0; i < in.size(); ++i) {
    bytes_[addr + i] = in[i];
    written_[addr + i] = true;
  }
}

bool SharedMemory::is_written(std::uint64_t addr) const {
  check_range(addr, 1, "read");
  return written_[addr];
}

}  // namespace tirx::hw
