// tirx_verify/hw/tma.hpp — TMA tile loads: global tensor + box -> the bytes written to shared memory.
//
// cp.async.bulk.tensor.Nd.shared::cluster.global.tile (PTX ISA 9.1 §9.7.9.25) with a tensor
// map from cuTensorMapEncodeTiled (cuda.h, CUDA 13.0), swizzle per PTX §5.5.7:
//
//   1. The box (box[0] x box[1] x ... elements, dim 0 innermost) is read from the global
//      tensor starting at element coordinates `coords` (may be negative or run past the
//      end: those elements are filled with zeros, OOB_FILL_NONE).
//   2. It is laid out in shared memory dim 0 fastest, one box row (dim 0) after the other at
//      a row pitch of max(box0 * elem_bytes, swizzle span): element (e0, e1, ...) has the byte
//      offset o = (e1 + box1 * (e2 + ...)) * pitch + e0 * elem_bytes. A swizzled box narrower
//      than its span leaves the rest of each span-wide row untouched (H200 readback).
//   3. Each 16-byte chunk lands at swizzle(dst + o) — the swizzle of the *absolute* address
//      (swizzle.hpp), so a destination that is not period-aligned shifts the pattern phase
//      (PTX "base offset" (dst / 128) % 8 for 128B).
//
//   Example: uint16, box 64 x 8, 128B swizzle, dst = 0: element (row i, col j) has o =
//   128 i + 2 j and lands at o ^ ((i % 8) << 4): row 1's first 8 elements go to bytes 144..159.
//   With dst = 384 (3 lines past a 1024-byte boundary) row 0's first chunk goes to 384 + 48.
//
// Checked (InputError "tma.box" unless noted): rank in [1, rank_max]; element size 1, 2, 4
// or 8 bytes; dims >= 1; every global stride (dims 1..) a multiple of 16 bytes and below
// 2^40 (cuda.h) — in any order: strides need not increase with the dimension, may overlap
// (a stride below the extent of the dimension under it) and may be 0 (H200 readback
// h200_tma_nd.json: the 3-, 4- and 5-D maps TVM's tma_auto builds for swizzled tiles wider
// than a swizzle row, overlapping rows, a zero stride); box[i] in [1, box_dim_max]; box[0] * elem_bytes a
// multiple of 16; with a swizzle box[0] * elem_bytes <= the swizzle span (cuda.h); the
// box's inner start coordinate * elem_bytes a multiple of 16 (the H200 faults otherwise);
// swizzle mode offered by the target (swizzle.legal); dst aligned to smem_dst_align_bytes
// (128); the written range inside shared memory (smem.access).
//
// A tile store (cp.async.bulk.tensor ... global.shared::cta) reads box element e from the same
// shared-memory address a load would write it to (PTX §9.7.9.25: the swizzle mode describes
// the shared-memory side of both directions; not measured for stores).
//
// Evidence: the H200 readbacks tests/golden/hw/h200_tma.json (321 cases: element sizes 1-8,
// every swizzle mode, boxes narrower than the span, out-of-bounds origins, misaligned
// destinations and origins) and h200_tma_nd.json (10 cases of rank 2-5 with unordered,
// overlapping and zero strides, partial boxes, a destination at swizzle phase 3) are
// reproduced case by case (hw_readback_replay_test.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "tirx_verify/hw/smem.hpp"
#include "tirx_verify/hw/swizzle.hpp"
#include "tirx_verify/hw/target.hpp"

namespace tirx::hw {

// A global tensor as a tensor map describes it, with its bytes.
struct GlobalTensor {
  int elem_bytes = 2;
  std::vector<std::int64_t> dims;           // elements per dimension, dims[0] innermost
  std::vector<std::int64_t> strides_bytes;  // byte stride of dims[1..]; size rank-1
  std::vector<std::uint8_t> bytes;          // the whole tensor (element (c0,c1,..) at c0*elem + sum ci*stride)
};

struct TmaTileLoad {
  std::vector<std::int64_t> box;     // elements per dimension of the box
  std::vector<std::int64_t> coords;  // first element coordinate per dimension
  TmaSwizzle swizzle = TmaSwizzle::kNone;
  std::uint64_t smem_dst = 0;        // shared-memory byte address of the box
};

// Where one box element goes.
struct TmaElementPlacement {
  std::vector<std::int64_t> box_coord;  // (e0, e1, ...)
  std::uint64_t smem_address = 0;       // first byte of the element in shared memory
  bool out_of_bounds = false;           // zero-filled
};

// Bytes between consecutive box rows in shared memory: max(box[0] * elem_bytes, span).
std::int64_t tma_box_row_pitch(const GlobalTensor& tensor, const TmaTileLoad& load);
// Bytes the box occupies from the destination (rows x pitch, padding included).
std::int64_t tma_box_smem_bytes(const GlobalTensor& tensor, const TmaTileLoad& load);

// Every element of the box, dim 0 fastest, with its shared-memory address.
// Throws the checks listed above (except the shared-memory bounds).
std::vector<TmaElementPlacement> tma_tile_placement(const Target& target, const GlobalTensor& tensor,
                                                    const TmaTileLoad& load);

// Where a box lands, without the tensor's data: for checkers that walk millions of box
// elements without allocating per element.
//
//   TmaBoxGeometry g = tma_box_geometry(target, tensor, load);   // validates as above
//   g.address(row, e0)   row = e1 + box1 * (e2 + box2 * ...), e0 = dim-0 index
//
// For uint16, box 64 x 8, 128B, dst 0: address(1, 0) = 144 (row 1's first chunk in chunk 1).
struct TmaBoxGeometry {
  std::uint64_t smem_dst = 0;
  std::int64_t row_pitch = 0;    // bytes between box rows (tma_box_row_pitch)
  int elem_bytes = 0;
  Swizzle swizzle;               // tma_swizzle_functor(load.swizzle)
  std::int64_t rows = 0;         // box[1] * box[2] * ... (1 for rank 1)

  std::uint64_t address(std::int64_t row, std::int64_t e0) const {
    return swizzle.apply(smem_dst + static_cast<std::uint64_t>(row * row_pitch + e0 * elem_bytes));
  }
};
// Validates `load` against the geometry of `tensor` (elem_bytes, dims, strides_bytes; its
// `bytes` are not read, so they may be empty) and the target: every rule listed above.
// Throws as tma_tile_placement.
TmaBoxGeometry tma_box_geometry(const Target& target, const GlobalTensor& tensor, const TmaTileLoad& load);

// Executes the load into `smem`. Throws as tma_tile_placement and smem.access.
void tma_tile_load(const Target& target, const GlobalTensor& tensor, const TmaTileLoad& load, SharedMemory& smem);

}  // namespace tirx::hw
