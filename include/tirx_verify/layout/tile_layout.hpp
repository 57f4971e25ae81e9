// tirx_verify/layout/tile_layout.hpp — TileLayout: shard + replica + offset over named axes.
//
// The model (TVM docs/tirx/layout.rst; TVM src/tirx/ir/layout/):
//
//   L(x) = { D(x) + r + O : r ranges over the replica iters }
//   D(x)[a] = sum over shard iters k on axis a of c_k(x) * stride_k
//
// where the logical index x is split mixed-radix over the shard extents (the LAST iter is the
// fastest-varying digit c_{n-1}), each replica iter adds t * stride on its axis for t in
// [0, extent), and O is a constant per-axis offset.
//
// Worked example, logical shape (8,16):
//   S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid
//
//   (i,j)   flat  digits c0..c3   laneid  warpid (base, replica)  m
//   (0,0)     0   0,0,0,0            0      5, 9                  0
//   (0,1)     1   0,0,0,1            0      5, 9                  1
//   (0,2)     2   0,0,1,0            1      5, 9                  0
//   (1,0)    16   1,0,0,0            4      5, 9                  0
//   (0,8)     8   0,1,0,0            0      6, 10                 0
//   (7,15)  127   7,1,3,1           31      6, 10                 1
//
// so laneid = 4i + (j/2)%4, warpid = j/8 + 5 (+4 for the replica copy), m = j%2.
// apply() returns only D(x)+O (TVM never reports replicas); replica_images() gives them all.
//
// Units: strides/offsets on `m` and `TCol` count buffer elements; TLane counts lanes; thread
// axes count threads/warps/warpgroups. All arithmetic is int64 and checked.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tirx_verify/layout/axis.hpp"
#include "tirx_verify/layout/coord.hpp"

namespace tirx {

// One strided walk: coordinate c in [0, extent) contributes c * stride on `axis`.
// Extents must be >= 1 (validated by TileLayout::validate, not here); strides may be 0
// (broadcast) or negative.
//
// `broadcast` marks a stride-0 shard iter created as a *declared* broadcast: a read-only view
// whose elements share storage on purpose (TVM's `broadcast()`, the `sf_reuse` iter of
// sf_tmem_layout / sf_smem_layout). layout.injective lets the elements that differ only in a
// declared broadcast digit share a cell; any other stride-0 iter is a contraction and fails.
// The mark is a fact about where the iter came from, not about the map: operator== ignores it,
// and the printed notation (TVM's and the builder form) has no way to write it, so a printed
// declared broadcast reads back undeclared (docs/notation.md). It only counts while the stride
// is 0 (is_declared_broadcast).
struct Iter {
  std::int64_t extent = 1;
  std::int64_t stride = 1;
  Axis axis{};
  bool broadcast = false;
  bool is_declared_broadcast() const { return broadcast && stride == 0; }
  friend bool operator==(const Iter& a, const Iter& b) {
    return a.extent == b.extent && a.stride == b.stride && a.axis == b.axis;
  }
};

// Constant per-axis displacement. Kept sorted by axis name (TVM's print order); an entry
// with value 0 is kept until canonicalize() (TVM keeps `+ 0@laneid` too).
class OffsetMap {
 public:
  struct Entry {
    Axis axis;
    std::int64_t value;
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  void add(Axis a, std::int64_t v);     // merges with an existing entry (checked)
  void set(Axis a, std::int64_t v);
  void erase(Axis a);
  std::int64_t get(Axis a) const;       // 0 when absent
  bool has(Axis a) const;
  bool empty() const { return entries_.empty(); }
  const std::vector<Entry>& entries() const { return entries_; }
  friend bool operator==(const OffsetMap&, const OffsetMap&) = default;

 private:
  std::vector<Entry> entries_;
};

class TileLayout {
 public:
  std::vector<Iter> shard;    // outermost first
  std::vector<Iter> replica;
  OffsetMap offset;

  TileLayout() = default;
  TileLayout(std::vector<Iter> s, std::vector<Iter> r = {}, OffsetMap o = {})
      : shard(std::move(s)), replica(std::move(r)), offset(std::move(o)) {}

  // Row-major default layout on `m` for a shape: S[(d0,..,dn):(d1*..*dn, .., 1)].
  static TileLayout row_major(std::span<const std::int64_t> shape);

  // Throws InputError("layout.well-formed") for extents < 1, or an extent product / span that
  // overflows int64. Everything else in this class assumes a validated layout.
  void validate() const;

  // ---- queries (TVM semantics, section (e) of the spec) ----
  // Product of the shard extents (replicas not counted).
  std::int64_t size() const;
  // Product of the shard extents on one axis (1 if none).
  std::int64_t size(Axis a) const;
  // 1 + sum (e-1)*s over shard AND replica iters on the axis + the axis offset.
  std::int64_t span(Axis a) const;
  // Same over all memory axes together (TVM mixes e.g. TLane and TCol).
  std::int64_t span() const;
  // The axes used by shard, replica or offset, in registry order.
  std::vector<Axis> axes() const;
  bool uses_axis(Axis a) const;
  bool has_thread_axis_in_shard() const;
  std::int64_t replica_count() const;  // product of replica extents (1 if none)

  // ---- apply, the three TVM forms ----
  // (1) flat logical index, split mixed-radix over the shard extents; the outermost digit
  //     takes the undivided remainder (no wrap), as TVM does. Negative x is an error.
  Coord apply(std::int64_t flat) const;
  // (2) per-shard-iter coordinates; count must equal shard.size() (InputError otherwise).
  //     No range checks, as TVM.
  Coord apply_iters(std::span<const std::int64_t> digits) const;
  // (3) logical coordinates with a shape. If the shard can be grouped by `shape` (group()),
  //     each coordinate is split over its own group only; otherwise flatten row-major then
  //     split. len(coord) must equal len(shape) (InputError otherwise).
  Coord apply(std::span<const std::int64_t> coord, std::span<const std::int64_t> shape) const;

  // Digits of a flat index (same split as apply(flat)).
  std::vector<std::int64_t> split(std::int64_t flat) const;

  // Every physical coordinate of the element with the given shard digits: D(x)+O+r for each
  // replica combination r, in odometer order of the replica iters (last fastest).
  std::vector<Coord> replica_images(std::span<const std::int64_t> digits) const;

  friend bool operator==(const TileLayout&, const TileLayout&) = default;
};

}  // namespace tirx
