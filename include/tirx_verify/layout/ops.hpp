// tirx_verify/layout/ops.hpp — the layout algebra real kernels build layouts with.
//
// Each function follows TVM's implementation (spec section (e)); where TVM fails with an
// InternalError/AssertionError these throw InputError with check id "layout.well-formed"
// and a message naming the operation. Implementations live one concern per file:
// group.cpp, canonicalize.cpp, slice.cpp, tile.cpp, direct_sum.cpp, reshape_ops.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tirx_verify/layout/layout.hpp"

namespace tirx {

using Shape = std::vector<std::int64_t>;

// ---------------- group (group.cpp) ----------------
struct Grouped {
  TileLayout layout;                 // shard iters split so that blocks line up with `shape`
  std::vector<std::size_t> seps;     // block d = shard[seps[d] .. seps[d+1])
};
// Splits shard iters (outer part first: (e,s) -> (e/c, s*c), (c, s)) so the shard partitions
// into contiguous blocks whose extent products are shape[0], shape[1], ...; unneeded unit
// iters are dropped. nullopt when impossible (TVM: "can not be grouped by shape").
std::optional<Grouped> try_group(const TileLayout& l, std::span<const std::int64_t> shape);
Grouped group(const TileLayout& l, std::span<const std::int64_t> shape);  // throws

struct GroupedMany {
  TileLayout layout;
  std::vector<std::vector<std::size_t>> seps;  // one separator list per shape
};
// Refines by the union of all cumulative-product boundaries (repeated boundaries kept as
// unit iters). Throws on unequal totals or incompatible boundaries.
GroupedMany group_many(const TileLayout& l, std::span<const Shape> shapes);

// ---------------- canonicalize (canonicalize.cpp) ----------------
struct CanonicalizeOptions {
  // Apply TVM's thread-axis fusion (what canonicalize does under `with Target("cuda")`):
  // warpid+laneid -> tx, wid_in_wg+laneid -> tid_in_wg, ...
  bool cuda_target = false;
};
// TVM's steps: drop extent-1 shard iters (keep one (1,1,axis) if all go), drop zero offsets,
// optional scope fusion, fuse adjacent same-axis iters with e_next*s_next == s_prev, sort
// replica iters into a deterministic order.
TileLayout canonicalize(const TileLayout& l, const CanonicalizeOptions& opt = {});
Layout canonicalize(const Layout& l, const CanonicalizeOptions& opt = {});

// Thread-scope analysis (TVM get_scope): nullopt when the shard has no thread axis.
// Throws InputError("layout.well-formed") on conflicting or disconnected scope chains.
struct ScopePair { ScopeKind inner, outer; };
std::optional<ScopePair> get_scope(const TileLayout& l);

// ---------------- slice (slice.cpp) ----------------
// Region per dimension as [begin, end). Canonicalizes, groups by `shape`, slices each block.
// nullopt when the region is not representable as a TileLayout (TVM returns None).
std::optional<Layout> slice(const Layout& l, std::span<const std::int64_t> shape,
                            std::span<const std::pair<std::int64_t, std::int64_t>> region);

// ---------------- tile (tile.cpp) ----------------
// inner.tile(outer, outer_shape, inner_shape): each outer element is a copy of the inner tile
// (outer strides on axes the inner shard uses are scaled by the inner span on that axis).
Layout tile(const Layout& inner, const TileLayout& outer, std::span<const std::int64_t> outer_shape,
            std::span<const std::int64_t> inner_shape);
// tile_to(to_shape, cur_shape) = tile(S[to/cur], to/cur, cur).
Layout tile_to(const Layout& l, std::span<const std::int64_t> to_shape, std::span<const std::int64_t> cur_shape);

// ---------------- direct_sum (direct_sum.cpp) ----------------
// right.direct_sum(left, left_shape, right_shape): L(a,b) = left(a) + right(b), indexed by the
// interleaved shape [l0, r0, l1, r1, ...]. No span scaling.
Layout direct_sum(const Layout& right, const TileLayout& left, std::span<const std::int64_t> left_shape,
                  std::span<const std::int64_t> right_shape);

// ---------------- reshaping utilities (reshape_ops.cpp) ----------------
Layout storage(const Layout& l);                        // drop everything on thread axes
Layout unpack(const Layout& l, std::int64_t n);         // strides*n, append (n,1@m); compose: M += log2 n
Layout pack(const Layout& l, std::int64_t n);           // inverse of unpack (checked)
Layout broadcast(const Layout& l, std::int64_t n, int position = -1, Axis axis = AxisId::m);
TileLayout permute_dims(const TileLayout& l, std::span<const int> perm);

}  // namespace tirx
