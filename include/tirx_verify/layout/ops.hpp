// tirx_verify/layout/ops.hpp — the layout algebra real kernels build layouts with.
//
// Each function follows TVM's implementation (spec section (e)); where TVM fails with an
// InternalError/AssertionError these throw InputError with check id "layout.well-formed"
// and a message naming the operation. Where TVM silently accepts nonsense (a region outside
// the shape, a tile_to shape that is not a multiple, a non-divisible pack stride) these throw
// too; docs/semantics-differences.md lists every such case. Implementations live one concern
// per file: group.cpp, group_many.cpp, scope.cpp, canonicalize.cpp, slice.cpp, tile.cpp,
// tile_match.cpp, direct_sum.cpp, reshape_ops.cpp.
//
// Shapes are logical shapes (extents >= 1, row-major); every op that takes a shape throws
// InputError("layout.well-formed") for an extent < 1. All arithmetic is int64 and checked.
//
// Worked example (spec (e), tile then slice):
//
//   inner  S[(2,4):(1,2)]            a 2x4 tile, column-major in m
//   outer  S[(8,8):(8,1)]            8x8 tiles, row-major
//   tile(inner, outer, [8,8], [2,4]) = S[(8,2,32):(64,1,2)]     a 16x32 tensor
//     (outer strides x inner span 8 on m: (8,64),(8,8); interleave per dim:
//      (8,64),(2,1) | (8,8),(4,2); canonicalize fuses (8,8),(4,2) -> (32,2))
//   slice(S[(8,8):(8,1)], [64], [(5,8)]) = S[3:1] + 5
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
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

// ---------------- group_many (group_many.cpp) ----------------
struct GroupedMany {
  TileLayout layout;
  std::vector<std::vector<std::size_t>> seps;  // one separator list per shape
};
// The minimal common refinement of several logical shapes (TVM TileLayout.group_many).
// Cumulative products ("boundaries") of every shape and of the shard extents are merged;
// a boundary value repeated k times in some sequence (a dimension of extent 1) is kept k
// times, so an extent-1 dimension becomes a real unit iter. Only splits shard iters: iter
// (e, s) covering refined extents f0..fk becomes (f0, s*f1*..*fk), ..., (fk, s); never
// canonicalizes or reorders. seps[i] has shapes[i].size()+1 entries.
//   S[30:1], ([6,5],[2,15])  ->  S[(2,3,5):(15,5,1)], seps [[0,2,3],[0,1,3]]
// Throws InputError("layout.well-formed") for: no shapes, an empty shape, an extent < 1,
// unequal totals (between shapes or against the layout size), and boundaries that do not
// divide each other ("incompatible cumulative boundaries", e.g. [3,4] vs [2,6]).
GroupedMany group_many(const TileLayout& l, std::span<const Shape> shapes);

// ---------------- scope analysis (scope.cpp) ----------------
// Thread-scope analysis (TVM TileLayout.get_scope): nullopt when the shard has no thread axis.
// Otherwise every thread axis in shard, replica and offset contributes the edge
// subscope -> scope of the axis registry; the chain from the narrowest subscope outward must
// use every edge once. Result (inner, outer):
//   S[(8,4,2):(4@laneid,1@laneid,1)]                          -> (thread, warp)
//   S[(2,8,2,4,2):(2@warpid,4@laneid,1@warpid,1@laneid,1)]    -> (thread, cta)
// Throws InputError("layout.well-formed") on conflicting edges ("conflicting scopes"), an
// incomplete walk ("disconnected scope chain", e.g. wgid with laneid) or a cycle (bx with tx;
// TVM loops forever there).
struct ScopePair {
  ScopeKind inner, outer;
  friend bool operator==(const ScopePair&, const ScopePair&) = default;
};
std::optional<ScopePair> get_scope(const TileLayout& l);

// TVM verify_well_formed(): validates the layout (extents, overflow), the swizzle parameters
// of a ComposeLayout and the scope chain. Returns true or throws (TVM never returns false).
bool verify_well_formed(const Layout& l);

// The thread-axis fusion TVM's canonicalize applies under `with Target("cuda")`: each thread
// iter (and each offset, as an extent-1 iter) on an axis with a fuser for the layout's scope
// pair is rewritten, e.g. warpid (thread,cta) -> tx with stride x32, laneid (thread,warpgroup)
// -> tid_in_wg, wid_in_wg (thread,warpgroup) -> tid_in_wg x32. Offsets landing on one axis are
// added (TVM overwrites one with the other; see docs/semantics-differences.md).
TileLayout fuse_thread_axes(const TileLayout& l, ScopePair scope);

// ---------------- canonicalize (canonicalize.cpp) ----------------
struct CanonicalizeOptions {
  // Apply TVM's thread-axis fusion (what canonicalize does under `with Target("cuda")`):
  // warpid+laneid -> tx, wid_in_wg+laneid -> tid_in_wg, ...
  bool cuda_target = false;
};
// TVM's steps, in order: (1) drop extent-1 shard iters (keep one (1,1,axis of the first iter)
// if all go; replica iters are never dropped); (2) drop zero offsets; (3) compute get_scope()
// (throws on a bad chain even without a target) and, with cuda_target, fuse thread axes;
// (4) fuse runs of adjacent same-axis shard iters with e_next*s_next == s_prev into
// (product, innermost stride); (5) sort replica iters into a fixed order (TVM sorts by
// structural hash: an arbitrary but deterministic order; ours is (axis, stride, extent)).
//   S[(8,2,3,6):(6,24,6,1)]            -> S[(8,2,18):(6,24,1)]
//   S[(8,4,8):(4@laneid,1@laneid,4)]   -> S[(32,8):(1@laneid,4)]
// ComposeLayout: the tile is canonicalized, the swizzle kept (the result stays a ComposeLayout).
TileLayout canonicalize(const TileLayout& l, const CanonicalizeOptions& opt = {});
Layout canonicalize(const Layout& l, const CanonicalizeOptions& opt = {});

// ---------------- slice (slice.cpp) ----------------
// Region per dimension as [begin, end). Canonicalizes (with `opt`), groups by `shape`, slices
// each block independently and adds the start offsets to the layout's existing offsets (the
// result is raw: it may hold extent-1 iters and zero offsets; canonicalize it to compare).
// ComposeLayout: a bare-swizzle tile is first replaced by S[prod(shape):1]; the swizzle then
// acts on the absolute (pre-swizzle) address, i.e. the region start becomes a tile offset.
//   S[(4,4,4,4):(64,4,16,1)], [16,16], [(2,3),(6,10)] -> S[(1,2,2):(4,14,1)] + 26
// nullopt when the region is not representable as a TileLayout (TVM returns None).
// Throws: len(shape) != len(region); a region outside [0, shape) or empty (TVM does not
// check); shape not groupable ("can not be grouped by shape").
std::optional<Layout> slice(const Layout& l, std::span<const std::int64_t> shape,
                            std::span<const std::pair<std::int64_t, std::int64_t>> region,
                            const CanonicalizeOptions& opt = {});

// ---------------- tile (tile.cpp) ----------------
// inner.tile(outer, outer_shape, inner_shape): each outer element is a copy of the inner tile;
// the result has shape outer_shape[d]*inner_shape[d]. Steps: canonicalize both; group outer by
// outer_shape and inner by inner_shape; multiply the stride of every outer shard iter whose
// axis the inner shard uses by the inner span on that axis (span includes the inner replica
// and offset; outer replica and offset are not rescaled); interleave per dimension (outer
// block d, inner block d); replicas inner then outer; offsets added; canonicalize.
// ComposeLayout inner: a bare-swizzle tile is replaced by S[prod(inner_shape):1] first.
// Throws on rank mismatch or shapes that cannot be grouped.
Layout tile(const Layout& inner, const TileLayout& outer, std::span<const std::int64_t> outer_shape,
            std::span<const std::int64_t> inner_shape, const CanonicalizeOptions& opt = {});
// tile_to(to_shape, cur_shape) = tile(S[to/cur], to/cur, cur). Throws unless every to[d] is a
// positive multiple of cur[d] (TVM floor-divides silently; see semantics-differences).
Layout tile_to(const Layout& l, std::span<const std::int64_t> to_shape,
               std::span<const std::int64_t> cur_shape, const CanonicalizeOptions& opt = {});

// ---------------- tile recognition (tile_match.cpp) ----------------
// The inverses of tile() that TVM's dispatchers use (TVM is_tile_inner / is_tile_outer).
// is_tile_inner: with `inner` the receiver, find `outer` such that inner.tile(outer,
// tiled_shape/inner_shape, inner_shape) == tiled (canonical forms); nullopt if none is found.
// Thread axes of `tiled` are split (tx -> warpid/laneid, ...) when `opt.cuda_target` and the
// scopes differ, as TVM does under a CUDA target. ComposeLayout: both must carry the same
// swizzle; a bare-swizzle tile is replaced by S[prod(shape):1].
std::optional<TileLayout> is_tile_inner(const Layout& inner, const Layout& tiled,
                                        std::span<const std::int64_t> tiled_shape,
                                        std::span<const std::int64_t> inner_shape,
                                        const CanonicalizeOptions& opt = {});
// is_tile_outer: with `outer` the receiver, find `inner`; verified by re-tiling. A ComposeLayout
// `tiled` yields the inner wrapped in its swizzle; a ComposeLayout receiver always gives
// nullopt (as TVM).
std::optional<Layout> is_tile_outer(const Layout& outer, const Layout& tiled,
                                    std::span<const std::int64_t> tiled_shape,
                                    std::span<const std::int64_t> outer_shape,
                                    const CanonicalizeOptions& opt = {});

// ---------------- direct_sum (direct_sum.cpp) ----------------
// right.direct_sum(left, left_shape, right_shape): L(a,b) = left(a) + right(b), indexed by the
// interleaved shape [l0, r0, l1, r1, ...]. Like tile() without span scaling: canonicalize,
// group, interleave (left block d, right block d), replicas left then right, offsets added,
// canonicalize. ComposeLayout right: bare-swizzle tile -> S[prod(right_shape):1].
//   S[(2,2):(4,1)].direct_sum(S[(2,2):(8,2)], [2,2], [2,2]) = S[16:1]
Layout direct_sum(const Layout& right, const TileLayout& left, std::span<const std::int64_t> left_shape,
                  std::span<const std::int64_t> right_shape, const CanonicalizeOptions& opt = {});
// Recognizers (TVM is_direct_sum_right / is_direct_sum_left). is_direct_sum_right: `right` is B,
// returns A with sum == B.direct_sum(A, ...). is_direct_sum_left: `left` is A, returns B.
// Throws if interleaved_shape does not have twice the rank; nullopt on a structural mismatch.
std::optional<TileLayout> is_direct_sum_right(const Layout& right, const Layout& sum,
                                              std::span<const std::int64_t> interleaved_shape,
                                              std::span<const std::int64_t> right_shape);
std::optional<TileLayout> is_direct_sum_left(const Layout& left, const Layout& sum,
                                             std::span<const std::int64_t> interleaved_shape,
                                             std::span<const std::int64_t> left_shape);

// ---------------- reshaping utilities (reshape_ops.cpp) ----------------
// storage: drop every shard/replica iter and offset on a thread axis (what one thread stores).
//   S[(8,4,2):(4@laneid,1@laneid,1)] -> S[2:1]; a ComposeLayout keeps its swizzle.
Layout storage(const Layout& l);
// unpack(n): each element becomes n contiguous elements: shard strides * n, append (n, 1@m);
// replica and offset unchanged (as TVM). ComposeLayout: n a power of two, per_element += log2 n.
//   S[(8,8):(8,1)].unpack(2) = S[(8,8,2):(16,2,1)]  (canonical S[(8,16):(16,1)])
Layout unpack(const Layout& l, std::int64_t n);
// pack(n): inverse of unpack. The last shard iter must be stride 1 on a memory axis with
// extent % n == 0; other shard strides are divided by n (must divide: TVM floor-divides);
// replica and offset unchanged. ComposeLayout: n a power of two, per_element >= log2 n.
Layout pack(const Layout& l, std::int64_t n);
// broadcast(n, position, axis): insert the stride-0 iter (n, 0@axis) at `position` (Python
// list.insert index; -1 = after the last iter). ComposeLayout: applied to the tile. The new iter
// is marked a declared broadcast (Iter::broadcast), so layout.injective accepts the view.
Layout broadcast(const Layout& l, std::int64_t n, int position = -1, Axis axis = AxisId::m);
// declare_broadcasts(l): `l` with every stride-0 shard iter marked a declared broadcast
// (Iter::broadcast): the buffer is a read-only broadcast view (CLI --allow-broadcast, a kernel
// model's "broadcast": true). The map is unchanged (the result == l).
Layout declare_broadcasts(const Layout& l);
// permute_dims(perm): shard[i] of the result = shard[perm[i]]; perm must be a permutation of
// 0..len(shard)-1.
TileLayout permute_dims(const TileLayout& l, std::span<const int> perm);
// permute_by_groups(seps, perm): seps as returned by group(); group i of the result is group
// perm[i] of `l`. perm must be a permutation of the group indices.
TileLayout permute_by_groups(const TileLayout& l, std::span<const std::size_t> seps,
                             std::span<const int> perm);

}  // namespace tirx
