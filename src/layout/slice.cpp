// slice — the layout of a rectangular sub-region (TVM TileLayoutNode::Slice, tile_slice.cc).
//
// The layout is canonicalized, grouped by the logical shape, and each dimension's block of
// iters is sliced on its own. For one block with iters (E_k, S_k) (outermost first) and
// row-major block strides B_k, a region [begin, begin+n):
//
//   start digit   d_k = (begin / B_k) % E_k          offset += d_k * S_k on axis a_k
//   one iter      -> (n, S)
//   peel          inner iters with d_k == 0 whose extent divides the remaining n are kept
//                 whole; the first iter that cannot be peeled is the pivot
//   fits          d_p + rem <= E_p                   -> (rem, S_p) + peeled iters
//   wraps once    rem even, d_p + rem/2 == E_p, the next-outer digit can step and is on the
//                 same axis -> (2, S_{p-1} - (E_p - rem/2) * S_p), (rem/2, S_p) + peeled
//   otherwise     not a TileLayout (nullopt)
//
// Example: S[(4,4,4,4):(64,4,16,1)], shape [16,16], region [(2,3),(6,10)]
//   dim 0: block (4,64),(4,4), begin 2 -> digits (0,2), offset 8,  shard (1,4)
//   dim 1: block (4,16),(4,1), begin 6 -> digits (1,2), offset 18, wrap: (2,14),(2,1)
//   result S[(1,2,2):(4,14,1)] + 26
#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "layout/ops_util.hpp"

namespace tirx {

namespace {

void add_slice_offset(OffsetMap& o, Axis a, std::int64_t v) {
  o.set(a, checked_add(o.get(a), v, "slice offset"));
}

// Slices [begin, begin+n) of one group block. `offset` receives the start offsets (entries
// are created even for a zero contribution, as TVM does).
std::optional<std::vector<Iter>> slice_block(const std::vector<Iter>& block_iters, std::int64_t begin,
                                             std::int64_t n, OffsetMap& offset,
                                             const CanonicalizeOptions& opt) {
  // group() gives an extent-1 dimension one unit iter (as TVM's Group), so a block is never empty.
  if (block_iters.empty()) return std::vector<Iter>{};
  const TileLayout block = canonicalize(TileLayout(block_iters), opt);
  const auto& shard = block.shard;
  const std::size_t m = shard.size();

  std::vector<std::int64_t> stride_of_digit(m);  // B_k
  std::int64_t acc = 1;
  for (std::size_t k = m; k-- > 0;) {
    stride_of_digit[k] = acc;
    acc = checked_mul(acc, shard[k].extent, "slice block size");
  }
  std::vector<std::int64_t> d(m);
  for (std::size_t k = 0; k < m; ++k) {
    d[k] = m == 1 ? begin / stride_of_digit[k] : (begin / stride_of_digit[k]) % shard[k].extent;
    add_slice_offset(offset, shard[k].axis, checked_mul(d[k], shard[k].stride, "slice offset"));
  }
  if (m == 1) return std::vector<Iter>{Iter{n, shard[0].stride, shard[0].axis}};

  std::int64_t rem = n;
  std::vector<Iter> peeled;  // innermost first
  std::size_t pivot = m;     // m = "all peeled"
  for (std::size_t k = m; k-- > 0;) {
    if (d[k] != 0 || rem % shard[k].extent != 0) {
      pivot = k;
      break;
    }
    peeled.push_back(shard[k]);
    rem /= shard[k].extent;
  }
  std::vector<Iter> out;
  auto append_peeled = [&] { out.insert(out.end(), peeled.rbegin(), peeled.rend()); };
  if (pivot == m) {
    if (rem != 1) return std::nullopt;
    append_peeled();
    return out;
  }
  const Iter& p = shard[pivot];
  if (d[pivot] + rem <= p.extent) {
    out.push_back(Iter{rem, p.stride, p.axis});
    append_peeled();
    return out;
  }
  const std::int64_t half = rem / 2;
  const bool even = rem % 2 == 0;
  const bool meets_end = d[pivot] + half == p.extent;
  const bool outer_can_step = pivot == 0 || d[pivot - 1] + 1 <= shard[pivot - 1].extent;
  if (even && meets_end && outer_can_step && (pivot == 0 || shard[pivot - 1].axis == p.axis)) {
    const std::int64_t outer_stride = pivot > 0 ? shard[pivot - 1].stride : 0;
    const std::int64_t skipped = checked_mul(p.extent - half, p.stride, "slice wrap stride");
    out.push_back(Iter{2, checked_sub(outer_stride, skipped, "slice wrap stride"), p.axis});
    out.push_back(Iter{half, p.stride, p.axis});
    append_peeled();
    return out;
  }
  return std::nullopt;
}

std::optional<TileLayout> slice_tile(const TileLayout& l, std::span<const std::int64_t> shape,
                                     std::span<const std::pair<std::int64_t, std::int64_t>> region,
                                     const CanonicalizeOptions& opt) {
  const TileLayout canon = canonicalize(l, opt);
  const Grouped g = group(canon, shape);
  TileLayout out;
  out.replica = g.layout.replica;
  out.offset = g.layout.offset;
  for (std::size_t dim = 0; dim + 1 < g.seps.size(); ++dim) {
    std::vector<Iter> block(g.layout.shard.begin() + static_cast<std::ptrdiff_t>(g.seps[dim]),
                            g.layout.shard.begin() + static_cast<std::ptrdiff_t>(g.seps[dim + 1]));
    const auto [b, e] = region[dim];
    auto sliced = slice_block(block, b, e - b, out.offset, opt);
    if (!sliced) return std::nullopt;
    out.shard.insert(out.shard.end(), sliced->begin(), sliced->end());
  }
  return out;
}

}  // namespace

std::optional<Layout> slice(const Layout& l, std::span<const std::int64_t> shape,
                            std::span<const std::pair<std::int64_t, std::int64_t>> region,
                            const CanonicalizeOptions& opt) {
  if (shape.size() != region.size())
    throw InputError("layout.well-formed",
                     fmt::format("slice: the shape has {} dimensions but the region has {}",
                                 shape.size(), region.size()));
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const auto [b, e] = region[d];
    if (shape[d] < 1)
      throw InputError("layout.well-formed",
                       fmt::format("slice: shape extent {} of dimension {} must be >= 1", shape[d], d));
    if (b < 0 || e > shape[d] || b >= e)
      throw InputError("layout.well-formed",
                       fmt::format("slice: region [{}, {}) of dimension {} is empty or outside [0, {})",
                                   b, e, d, shape[d]));
  }
  if (!l.is_compose()) {
    auto t = slice_tile(l.tile(), shape, region, opt);
    if (!t) return std::nullopt;
    return Layout(std::move(*t));
  }
  const ComposeLayout& c = l.as_compose();
  c.swizzle.validate();
  // A bare swizzle is an identity tile over whatever shape it is viewed with.
  const TileLayout base = detail::compose_base(c, shape, "slice");
  auto t = slice_tile(base, shape, region, opt);
  if (!t) return std::nullopt;
  return Layout(ComposeLayout(c.swizzle, std::move(*t)));
}

}  // namespace tirx
