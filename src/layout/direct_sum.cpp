// direct_sum and its recognizers (TVM tile_direct_sum_ops.cc).
//
// B.direct_sum(A, shape_A, shape_B) is tiling without span scaling: L(a, b) = A(a) + B(b),
// indexed by the interleaved shape [A0, B0, A1, B1, ...]:
//
//   A = S[(2,2):(8,2)], B = S[(2,2):(4,1)], shapes [2,2], [2,2]
//   interleave (2,8) (2,4) | (2,2) (2,1)  -> canonical S[16:1]
//   L(p, q, i, j) = 8p + 2i + 4q + j
//
// The scale-factor TMEM layout is built this way: an atom S[(32,k):(1@TLane,1@TCol)] +
// R[4:32@TLane] plus an outer placement of atoms along TCol.
#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "layout/ops_util.hpp"

namespace tirx {

namespace {

using Block = std::pair<std::size_t, std::size_t>;

Block block(const Grouped& g, std::size_t d) { return {g.seps[d], g.seps[d + 1]}; }

TileLayout sum_tiles(const TileLayout& right_in, const TileLayout& left_in, std::span<const std::int64_t> left_shape,
                     std::span<const std::int64_t> right_shape, const CanonicalizeOptions& opt) {
  if (left_shape.size() != right_shape.size())
    throw InputError("layout.well-formed",
                     fmt::format("direct_sum: left_shape has {} dimensions but right_shape has {}",
                                 left_shape.size(), right_shape.size()));
  detail::checked_shape_size(left_shape, "direct_sum", "left_shape");
  detail::checked_shape_size(right_shape, "direct_sum", "right_shape");
  const Grouped left = group(canonicalize(left_in, opt), left_shape);
  const Grouped right = group(canonicalize(right_in, opt), right_shape);
  TileLayout out;
  for (std::size_t d = 0; d < left_shape.size(); ++d) {
    auto [lb, le] = block(left, d);
    auto [rb, re] = block(right, d);
    out.shard.insert(out.shard.end(), left.layout.shard.begin() + static_cast<std::ptrdiff_t>(lb),
                     left.layout.shard.begin() + static_cast<std::ptrdiff_t>(le));
    out.shard.insert(out.shard.end(), right.layout.shard.begin() + static_cast<std::ptrdiff_t>(rb),
                     right.layout.shard.begin() + static_cast<std::ptrdiff_t>(re));
  }
  out.replica = left.layout.replica;
  out.replica.insert(out.replica.end(), right.layout.replica.begin(), right.layout.replica.end());
  out.offset = left.layout.offset;
  for (const auto& e : right.layout.offset.entries())
    out.offset.set(e.axis, checked_add(out.offset.get(e.axis), e.value, "direct_sum offset"));
  return canonicalize(out, opt);
}

// Iters equal, except that extent-1 iters match whatever their stride/axis.
bool equal_relax_unit(const Iter& a, const Iter& b) {
  if (a.extent != b.extent) return false;
  return a.extent == 1 || (a.stride == b.stride && a.axis == b.axis);
}

OffsetMap subtract_offsets(const OffsetMap& sum, const OffsetMap& part) {
  OffsetMap out = sum;
  for (const auto& e : part.entries())
    out.set(e.axis, checked_sub(out.get(e.axis), e.value, "direct_sum offset"));
  return out;
}

std::vector<Iter> replica_minus(const std::vector<Iter>& sum, const std::vector<Iter>& part) {
  std::vector<Iter> out;
  for (const Iter& it : sum)
    if (std::find(part.begin(), part.end(), it) == part.end()) out.push_back(it);
  return out;
}

// Shared by both recognizers: `known` is the addend we have, at interleaved position
// `known_pos` (0 = left, 1 = right) of each dimension pair; returns the other addend.
std::optional<TileLayout> recover(const Layout& known_l, const Layout& sum_l,
                                  std::span<const std::int64_t> interleaved_shape,
                                  std::span<const std::int64_t> known_shape, int known_pos, const char* op) {
  if (interleaved_shape.size() != 2 * known_shape.size())
    throw InputError("layout.well-formed",
                     fmt::format("{}: the interleaved shape has {} dimensions, expected twice the {} "
                                 "of the addend shape",
                                 op, interleaved_shape.size(), known_shape.size()));
  if (known_l.is_compose() != sum_l.is_compose()) return std::nullopt;
  if (known_l.is_compose() && !(*known_l.swizzle() == *sum_l.swizzle())) return std::nullopt;
  detail::checked_shape_size(interleaved_shape, op, "interleaved shape");
  detail::checked_shape_size(known_shape, op, "addend shape");
  const TileLayout sum = canonicalize(sum_l.tile());
  const TileLayout known = canonicalize(known_l.tile());
  const Grouped gs = group(sum, interleaved_shape);
  const Grouped gk = group(known, known_shape);
  TileLayout other;
  for (std::size_t d = 0; d < known_shape.size(); ++d) {
    const Block kb = block(gk, d);
    const Block sk = block(gs, 2 * d + known_pos);       // the known addend's slot in the sum
    const Block so = block(gs, 2 * d + 1 - known_pos);  // the other addend's slot
    const std::size_t kcount = kb.second - kb.first, scount = sk.second - sk.first;
    if (kcount != scount) return std::nullopt;
    for (std::size_t j = 0; j < kcount; ++j)
      if (!equal_relax_unit(gs.layout.shard[sk.first + j], gk.layout.shard[kb.first + j])) return std::nullopt;
    other.shard.insert(other.shard.end(), gs.layout.shard.begin() + static_cast<std::ptrdiff_t>(so.first),
                       gs.layout.shard.begin() + static_cast<std::ptrdiff_t>(so.second));
  }
  other.replica = replica_minus(sum.replica, known.replica);
  other.offset = subtract_offsets(sum.offset, known.offset);
  return other;
}

}  // namespace

Layout direct_sum(const Layout& right, const TileLayout& left, std::span<const std::int64_t> left_shape,
                  std::span<const std::int64_t> right_shape, const CanonicalizeOptions& opt) {
  if (!right.is_compose()) return Layout(sum_tiles(right.tile(), left, left_shape, right_shape, opt));
  const ComposeLayout& c = right.as_compose();
  c.swizzle.validate();
  return Layout(ComposeLayout(
      c.swizzle, sum_tiles(detail::compose_base(c, right_shape, "direct_sum"), left, left_shape, right_shape, opt)));
}

std::optional<TileLayout> is_direct_sum_right(const Layout& right, const Layout& sum,
                                              std::span<const std::int64_t> interleaved_shape,
                                              std::span<const std::int64_t> right_shape) {
  return recover(right, sum, interleaved_shape, right_shape, 1, "is_direct_sum_right");
}

std::optional<TileLayout> is_direct_sum_left(const Layout& left, const Layout& sum,
                                             std::span<const std::int64_t> interleaved_shape,
                                             std::span<const std::int64_t> left_shape) {
  return recover(left, sum, interleaved_shape, left_shape, 0, "is_direct_sum_left");
}

}  // namespace tirx
