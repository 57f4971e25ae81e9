// tirx_verify/layout/compose_layout.hpp — ComposeLayout: an affine tile followed by an XOR swizzle.
//
// The tile maps a logical element to one linear element address m (it must use axis `m`
// only); the swizzle then permutes m. With M = per_element, B = swizzle_len, S = atom_len:
//
//         m = | high ............ | x[S+B-1 .. S] | ... | x[B-1 .. 0] | low M bits |
//                                   \______ XOR ______/^
//   q  = m >> M,  low = m & (2^M - 1)
//   swizzle_inner=true : q' = q ^ ((q >> S) & (2^B-1))          bits [S,S+B) into [0,B)
//   swizzle_inner=false: q' = q ^ ((q & (2^B-1)) << S)          bits [0,B) into [S,S+B)
//   address = q' << M | low
//
// Period 2^(M+B+S) elements; legal iff M >= 0, B >= 0, S >= B (TVM ComposeLayoutNode).
// Only swizzle_inner=true exists in hardware (TMA / UMMA descriptors).
//
// Example (seed chapter): 128B swizzle on an (8,64) float16 tile, (M,B,S) = (3,3,3):
//   addr(i,j) = 64i + 8*((j/8) XOR i) + j%8; column j=0 -> addr 72i -> bank (addr/2)%32 =
//   0,4,8,...,28 for i = 0..7 (8 distinct banks); without the swizzle all rows hit bank 0.
#pragma once

#include <cstdint>
#include <span>

#include "tirx_verify/layout/coord.hpp"
#include "tirx_verify/layout/tile_layout.hpp"

namespace tirx {

// The three swizzle parameters (bit counts, not bytes) and the direction.
struct SwizzleSpec {
  int per_element = 0;  // M: low bits kept as they are (2^M elements = one 16-byte vector)
  int swizzle_len = 0;  // B: width of the XOR-ed bit field
  int atom_len = 0;     // S: distance between the two bit fields
  bool swizzle_inner = true;

  // Throws InputError("swizzle.legal") unless M >= 0, B >= 0, S >= B and M+B+S <= 62.
  void validate() const;
  std::int64_t period() const { return std::int64_t{1} << (per_element + swizzle_len + atom_len); }
  // The swizzled address of element address m (m may be negative: the XOR acts on the
  // two's-complement bits, as TVM's floordiv/floormod formula does for the period part).
  std::int64_t apply(std::int64_t m) const;
  friend bool operator==(const SwizzleSpec&, const SwizzleSpec&) = default;
};

class ComposeLayout {
 public:
  SwizzleSpec swizzle;
  TileLayout tile;

  ComposeLayout() = default;
  ComposeLayout(SwizzleSpec s, TileLayout t) : swizzle(s), tile(std::move(t)) {}

  // Validates the swizzle and the tile; the tile must map onto axis m only
  // (InputError("layout.well-formed") otherwise).
  void validate() const;

  std::int64_t size() const { return tile.size(); }
  std::int64_t span() const { return tile.span(); }
  // True when the tile is one stride-1 iter on m with no replica/offset (a "bare swizzle").
  bool is_swizzle_only() const;

  Coord apply(std::int64_t flat) const;
  Coord apply_iters(std::span<const std::int64_t> digits) const;
  Coord apply(std::span<const std::int64_t> coord, std::span<const std::int64_t> shape) const;

  friend bool operator==(const ComposeLayout&, const ComposeLayout&) = default;
};

}  // namespace tirx
