// tirx_verify/hw/smem.hpp — byte-addressed shared memory of one CTA.
//
// Shared memory is a flat array of bytes (Target::smem_bytes_per_cta, 227 KiB on sm_90a and
// sm_100a); addresses here are byte offsets from the CTA's shared window (what
// __cvta_generic_to_shared returns). Multi-byte values are little-endian, as on the GPU:
//
//   address  0x100 0x101 0x102 0x103
//   bytes     0x78  0x56  0x34  0x12     read_u32(0x100) = 0x12345678
//
// Bytes never written read as 0 here and are reported as unwritten by is_written(), so a
// test can tell "the instruction wrote 0" from "nothing wrote this byte".
// Every access outside [0, size) throws InputError("smem.access").
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tirx_verify/hw/target.hpp"

namespace tirx::hw {

class SharedMemory {
 public:
  explicit SharedMemory(const Target& target);
  // A memory of `bytes` bytes (tests, small scratch).
  explicit SharedMemory(std::int64_t bytes);

  std::int64_t size() const { return static_cast<std::int64_t>(bytes_.size()); }

  // Throws InputError("smem.access") unless [addr, addr + len) lies inside the memory.
  // `what` names the access in the message.
  void check_range(std::uint64_t addr, std::uint64_t len, std::string_view what) const;

  std::uint8_t read_u8(std::uint64_t addr) const;
  std::uint16_t read_u16(std::uint64_t addr) const;
  std::uint32_t read_u32(std::uint64_t addr) const;
  void read(std::uint64_t addr, std::span<std::uint8_t> out) const;

  void write_u8(std::uint64_t addr, std::uint8_t v);
  void write_u16(std::uint64_t addr, std::uint16_t v);
  void write_u32(std::uint64_t addr, std::uint32_t v);
  void write(std::uint64_t addr, std::span<const std::uint8_t> in);

  bool is_written(std::uint64_t addr) const;

 private:
  std::vector<std::uint8_t> bytes_;
  std::vector<bool> written_;
};

}  // namespace tirx::hw
