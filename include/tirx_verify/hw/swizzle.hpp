// tirx_verify/hw/swizzle.hpp — XOR swizzles: CuTe's Swizzle<B,M,S>, TIRx's ComposeLayout form,
// and the TMA / UMMA swizzle modes.
//
// Swizzle<B,M,S> (CUTLASS cute/swizzle.hpp, spec §7.1) XORs the B bits starting at bit M+S
// into the B bits starting at bit M (S < 0: the other way round, bits M into M+|S|):
//
//   Swizzle<3,4,3> on a shared-memory byte address (the TMA/UMMA "128B" mode):
//
//     bit  9 8 7 | 6 5 4 | 3 2 1 0
//          y y y | z z z | . . . .      z ^= y : the 16-byte chunk (bits 4..6) of each
//          \_____ XOR ___/               128-byte line is permuted by the line index mod 8
//
//   byte address   line (a>>7)&7   chunk (a>>4)&7   -> swizzled
//        0             0               0               0
//      128             1               0             144   (chunk 1)
//      400             3               1             416   (chunk 1^3 = 2)
//
// It is an involution (applying it twice is the identity) and a bijection on every aligned
// block of its period 2^(M+B+|S|).
//
// TIRx ComposeLayout(per_element M, swizzle_len B, atom_len S, swizzle_inner) acts on an
// *element* address m: swizzle_inner=true is Swizzle<B,M,S>, swizzle_inner=false is
// Swizzle<B,M,-S> (bits [M, M+B) XOR-ed into [M+S, M+S+B)). For 2^e-byte elements a byte
// swizzle Swizzle<B,M,S> is the element swizzle Swizzle<B,M-e,S>.
//
// TMA / UMMA modes on byte addresses (cuda.h CUtensorMapSwizzle; PTX ISA 9.1 §5.5.7
// "Swizzling Modes"; CUTLASS copy_traits_sm90_tma_swizzle.hpp, mma_sm100_desc.hpp):
//
//   mode            functor          span  period   availability
//   none            Swizzle<0,4,3>      -     16 B    sm_90a, sm_100a
//   32B             Swizzle<1,4,3>    32 B   256 B    sm_90a, sm_100a
//   64B             Swizzle<2,4,3>    64 B   512 B    sm_90a, sm_100a
//   128B            Swizzle<3,4,3>   128 B  1024 B    sm_90a, sm_100a
//   128B_ATOM_32B   Swizzle<2,5,2>   128 B   512 B    sm_100a (32-byte atoms within 128 B)
//   128B_ATOM_64B   Swizzle<1,6,1>   128 B   256 B    sm_100a; from PTX's pattern table, CUTLASS
//                                                     disagrees (spec §10.5): treat as unverified
//   (128B_ATOM_32B_FLIP_8B is rejected: which lines are flipped is unverified.)
//
// The hardware XORs with the *absolute* shared-memory address bits, so a buffer that does
// not start on a period boundary sees the pattern shifted (TMA "base offset"
// (dst / 128) % 8 for 128B). Layout descriptions assume period alignment:
// check_swizzle_base_alignment reports a base that breaks it.
#pragma once

#include <cstdint>
#include <string_view>

namespace tirx::hw {

// CuTe Swizzle<B,M,S>. Build with make(); a tiny value type.
struct Swizzle {
  int b = 0;  // bits XOR-ed
  int m = 0;  // lowest bit of the destination field (S >= 0)
  int s = 0;  // shift between the fields; negative = source below destination

  // Throws InputError("swizzle.legal") unless B >= 0, M >= 0, |S| >= B and M+B+|S| <= 62.
  static Swizzle make(int b, int m, int s);
  std::uint64_t apply(std::uint64_t addr) const;
  // 2^(M+B+|S|): the swizzle is a bijection on every aligned block of this many units.
  std::uint64_t period() const;
  // The same swizzle on element addresses of 2^log2_elem_bytes-byte elements (M reduced).
  // Throws InputError("swizzle.legal") if M < log2_elem_bytes.
  Swizzle for_elements(int log2_elem_bytes) const;
  friend bool operator==(const Swizzle&, const Swizzle&) = default;
};

// TIRx ComposeLayout swizzle parameters (spec tirx_semantics (f)), evaluated here
// independently of the layout module's SwizzleSpec.
struct ComposeSwizzle {
  int per_element = 0;  // M
  int swizzle_len = 0;  // B
  int atom_len = 0;     // S
  bool swizzle_inner = true;

  // Throws InputError("swizzle.legal") unless M >= 0, B >= 0, S >= B (TVM's rule).
  Swizzle as_cute() const;
  // Swizzled element address; m >= 0.
  std::uint64_t apply(std::uint64_t m) const { return as_cute().apply(m); }
  std::uint64_t period() const { return as_cute().period(); }
};

enum class TmaSwizzle { kNone, k32B, k64B, k128B, k128BAtom32B, k128BAtom64B };

// "none", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_64B" (case-insensitive; the
// CUtensorMapSwizzle names CU_TENSOR_MAP_SWIZZLE_* are accepted too).
// Throws InputError("swizzle.legal") for anything else, naming FLIP_8B as unverified.
TmaSwizzle parse_tma_swizzle(std::string_view text);
std::string_view to_string(TmaSwizzle mode);

// The functor of a mode on byte addresses (table above).
Swizzle tma_swizzle_functor(TmaSwizzle mode);
// Bytes of one swizzled row ("span"): 0 for none, else 32/64/128.
int tma_swizzle_span_bytes(TmaSwizzle mode);
// Alignment a buffer base needs for the pattern to start at its first byte: the period
// (16 B for none, the 16-byte unit every TMA/UMMA address is counted in).
std::uint64_t tma_swizzle_alignment_bytes(TmaSwizzle mode);

// Swizzled absolute shared-memory byte address.
inline std::uint64_t swizzle_address(TmaSwizzle mode, std::uint64_t byte_address) {
  return tma_swizzle_functor(mode).apply(byte_address);
}

// Throws InputError("swizzle.legal") if `base` (bytes) is not a multiple of
// tma_swizzle_alignment_bytes(mode); the message gives the pattern phase the base implies
// ((base >> 7) % lines-per-period, the descriptor "base offset").
void check_swizzle_base_alignment(TmaSwizzle mode, std::uint64_t base);

}  // namespace tirx::hw
