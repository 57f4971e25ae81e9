// tirx_verify/kernel/lower_tma.hpp — the TMA instructions a tile-level copy_async (dispatch
// tma) lowers to, derived the way TVM's planners do (python/tvm/backend/cuda/tile_primitive/
// copy_async/tma.py at the mirrored TVM commit; read for its rules, not copied).
//
// tma_auto, in short (TensorMap order: dimension 0 innermost):
//
//   1. swizzle mode = the shared layout's swizzle_len (TileLayout: none; ComposeLayout with
//      swizzle_inner=false and a swizzle: refused). TVM looks at nothing else of the swizzle —
//      its per_element and atom_len are not checked against the hardware's 16-byte chunks and
//      8-line atoms; kernel.tma-layout checks the bytes.
//   2. the shared region's pre-swizzle tile, sliced and canonicalized, refined by the global
//      region's extents; its iters sorted by stride must form one contiguous chain (strides
//      1, e0, e0*e1, ...).
//   3. the global layout, sliced per dimension, grouped jointly by (shared iters, copy dims):
//      every global iter belongs to one shared iter (or is a unit coordinate-only dimension).
//      TensorMap dims follow the shared chain order; the first iter of a copy dim spans the
//      whole tensor dim (coordinate = start / inner product), inner ones span themselves.
//   4. the box covers the first p shared iters of the chain; the rest become issue loops (one
//      instruction per combination, shared offset digit * stride, coordinates advanced). The
//      largest p whose plan is legal wins, after TVM's repairs: unit dims dropped, adjacent
//      dims merged where the inner one is copied whole and the strides continue, the element
//      type widened (uint16/32/64) while the box is too large.
//   5. each instruction's shared address: the buffer's placement + (layout offset + issue
//      offset) x element size — a flat pointer, no swizzle (TVM ptr_to of a 1-D view).
//
//   Asmem (2,128,64) fp16 mma_shared_layout 128B, copy Asmem[0,:,:] <- A[0:128, 0:64] of a
//   row-major (1024, 1024) A: one instruction, dims [1024, 1024], strides [2048], box
//   [64, 128], coords [0, 0], swizzle 128B, destination = Asmem's placement.
//
// tma_explicit (tried when tma_auto refuses): the sliced shared layout must be one contiguous
// run; dims = the global shape reversed, strides from the global layout (innermost 1), box
// = the global region's extents reversed, coords = its start reversed.
//
// Failures are results, not exceptions: `error` names TVM's stage ("shared-chain",
// "group-global", "prefix-search", ...) and why, as TVM would refuse to compile the copy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tirx_verify/hw/swizzle.hpp"
#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/region.hpp"

namespace tirx::kernel {

// A tensor map and the instructions issued with it (units in the field names; dims, box and
// coords in elements of `dtype`, innermost first).
struct TmaPlan {
  std::string dtype;                        // the TensorMap element type (may be a widened uintN)
  int elem_bits = 0;
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> strides_bytes;  // dims 1..
  std::vector<std::int64_t> box;
  hw::TmaSwizzle swizzle = hw::TmaSwizzle::kNone;
  std::int64_t global_base_bytes = 0;       // the TensorMap's base: byte offset of the global
                                            // layout's m offset (a view's start) in its storage
  struct Issue {
    std::vector<std::int64_t> coords;
    std::int64_t smem_byte = 0;             // absolute shared-memory destination
  };
  std::vector<Issue> issues;
  std::string planner;                      // "tma_auto" or "tma_explicit"
};

struct TmaLowering {
  std::optional<TmaPlan> plan;
  std::string stage;  // TVM's stage name when no plan was found
  std::string error;  // why (both planners' reasons when both refuse)
};

// Plans the copy between `shared` (a region of a shared buffer) and `global` (a region of a
// global buffer; same element count), as TVM's tma_auto, else tma_explicit. Refuses more than
// `max_issues` instructions. Never throws for a well-formed context.
TmaLowering lower_tma_copy(const KernelContext& ctx, const Region& shared, const Region& global,
                           std::int64_t max_issues = 4096);

}  // namespace tirx::kernel
