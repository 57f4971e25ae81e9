// tirx_verify/prove/gf2.hpp — the GF(2) engine: power-of-two layouts as bit matrices.
//
// When every extent is a power of two, a digit c_k in [0, 2^e) is exactly e free bits, and the
// element domain is the cube GF(2)^n of all digit bits. When a stride is 2^a, digit bit b lands
// on coordinate bit a+b of its axis. If on each axis no two digits (shard or replica) can set the
// same bit, the axis sum never carries, so "+" is "XOR": the layout is an affine map over GF(2)
//     image(x) = A x  XOR  c          (A: coordinate bits x digit bits, c: the offsets)
// and an XOR swizzle (bits [M+S, M+S+B) XOR-ed into [M, M+B) of m) is linear on those bits too,
// so a ComposeLayout is the product of two such matrices. Example, 128B swizzle on an (8,64)
// fp16 tile, ComposeLayout(3,3,3, S[(8,64):(64,1)]): digit bits i0..i2 (row), j0..j5 (column)
//
//   m bit:   0   1   2   3      4      5      6   7   8
//   tile :   j0  j1  j2  j3     j4     j5     i0  i1  i2
//   swz  :   j0  j1  j2  j3^i0  j4^i1  j5^i2  i0  i1  i2     rank 9 = 9 digit bits: injective
//
// Decisions are row reductions over 64-bit words (one word per axis), microseconds each:
//   injective   columns of A restricted to the storage axes independent (kernel = {0}); a
//               dependency e_j = XOR of earlier columns is a collision: the witness is the pair
//               (2^j, 2^j XOR kernel vector) — the first collision in sweep order, as enumeration
//               finds it, because columns are inserted from the fastest digit bit up.
//   bounds      max / min of c XOR span(A) on one axis by the greedy echelon walk.
//   equivalent  image sets {A x ^ R r ^ c} equal for all x  <=>  span(R_A) = span(R_B),
//               c_A ^ c_B in span(R_A) and every column of A_A ^ A_B in span(R_A). The first
//               differing element is 0 (offset or replica span differs) or else 2^j for the
//               lowest flat bit j whose column difference leaves the span.
//
// Not applicable (another engine decides): a non-power-of-two extent or stride, a negative
// stride, two digits on one axis with overlapping bit ranges (a carry), an offset whose bits
// overlap a digit's bits (for injectivity, offsets on unswizzled axes do not matter and a
// swizzled m needs only its offset modulo the swizzle period to be carry-free).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "tirx_verify/prove/engine.hpp"

namespace tirx::prove::gf2 {

// One bit of one digit: bit `bit` of shard iter `iter` (or of replica iter `iter`).
struct DomainBit {
  bool replica = false;
  int iter = 0;
  int bit = 0;
};

// x -> A x XOR c from domain bits to coordinate bits; coordinate word w is axis axes[w] as a
// 64-bit two's-complement pattern (digit bits never reach bit 63: stride * extent fits int64).
struct AffineMap {
  std::vector<Axis> axes;
  std::vector<DomainBit> domain;           // columns, in the order the builder chose
  std::vector<std::uint64_t> columns;      // domain.size() x axes.size() words, column-major
  std::vector<std::uint64_t> constant;     // axes.size() words
  std::size_t words() const { return axes.size(); }
  std::span<const std::uint64_t> column(std::size_t j) const {
    return {columns.data() + j * words(), words()};
  }
};

struct LinearizeOptions {
  std::vector<Axis> axes;              // coordinate axes to model (others are ignored)
  bool broadcast_digits = true;        // include declared broadcast shard digits (zero columns)
  bool replicas = true;                // include replica digits
  bool exact_offsets = true;           // false: offsets only matter modulo the swizzle period
  bool swizzle = true;                 // apply the ComposeLayout swizzle to m
  bool skip_unmodeled = false;         // leave digits whose axis is not modeled out of the domain
};

// The affine map of `l` on `opt.axes`, domain bits ordered from the least significant point
// ordinal bit up (replica digits fastest, then shard digits from the last iter outward, each
// digit from its bit 0). Returns the reason when the layout is not GF(2)-linear there.
std::variant<AffineMap, std::string> linearize(const Layout& l, const LinearizeOptions& opt);

// Why the GF(2) engine cannot decide this property, or nullopt when it can (cheap, no
// decision made). Used by `auto` and by cross-checking.
std::optional<std::string> why_not_injective(const Layout& l, Scope scope);
std::optional<std::string> why_not_bounds(const Layout& l, std::span<const BoundTarget> targets);
std::optional<std::string> why_not_equivalent(const Layout& a, const Layout& b);

// The three decisions. kNotApplicable with the reason when the layout is outside the fragment.
InjectivityAnswer injective(const Layout& l, Scope scope);
BoundsAnswer bounds(const Layout& l, std::span<const BoundTarget> targets);
EquivalenceAnswer equivalent(const Layout& a, const Layout& b);

}  // namespace tirx::prove::gf2
