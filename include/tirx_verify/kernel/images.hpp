// tirx_verify/kernel/images.hpp — where a buffer element lives, in the units the hardware uses.
//
// A buffer's layout maps each logical element to coordinates on axes (layout/layout.hpp); the
// kernel checks compare those with what an instruction touches, so both sides are brought to
// the hardware's units here:
//
//   scope    layout coordinates           image                                   units
//   shared   m (swizzle applied)          base + m * bits / 8                      absolute byte address
//   global   m                            m * bits / 8                             bytes from the tensor base
//   tmem     TLane, TCol                  (lane0 + TLane, col0 + TCol*bits/32,     lane, 32-bit column,
//                                          bit (TCol*bits) % 32)                   first bit in the cell
//   local    thread axes, m               (warp, lane, m*bits/32, (m*bits) % 32)  CTA warp index, lane,
//                                                                                 32-bit register, bit
//
// A local (register fragment) layout names threads relative to the warps that execute the op:
// tid_in_wg t is lane t % 32 of the op's warp t / 32 (counted in the op's "warps" list);
// wid_in_wg w is the op's w-th warp; warpid is a CTA warp index (must be in the list); tx is
// the CTA thread index. For example the fragment S[(128, 32):(1@tid_in_wg, 1)] executed by
// warps [4, 5, 6, 7] holds element (37, 3) in warp 5, lane 5, register 3.
//
// An element with replicas has one image per replica, in the layout's replica order.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/region.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/sweep.hpp"

namespace tirx::kernel {

struct TmemCell {
  std::int64_t lane = 0;
  std::int64_t col = 0;   // 32-bit column from the allocation base
  int bit = 0;            // first bit of the element inside the cell
  friend bool operator==(const TmemCell&, const TmemCell&) = default;
};

struct RegCell {
  int warp = 0;           // CTA-wide warp index
  int lane = 0;
  std::int64_t reg = 0;   // 32-bit register index in the thread's fragment
  int bit = 0;            // first bit of the element inside the register
  friend bool operator==(const RegCell&, const RegCell&) = default;
};

// Layout images (one per replica) of the element at buffer coordinate `coord`. Throws
// InputError("kernel.layout") when the buffer's layout did not parse, or "model.schema" when
// `coord` has the wrong rank or is outside the shape.
std::vector<Coord> element_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord);

// Shared memory: absolute byte address of the element's first byte, per replica.
std::vector<std::int64_t> smem_byte_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord);
// Global memory: byte offset of the element from the tensor base, per replica.
std::vector<std::int64_t> global_byte_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord);
// TMEM cells, per replica.
std::vector<TmemCell> tmem_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord);
// Register cells of a local buffer executed by `warps`, per replica. Throws
// InputError("kernel.fragment") when the thread coordinates do not name a thread of those
// warps (e.g. tid_in_wg 160 with four warps).
std::vector<RegCell> reg_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord,
                                const std::vector<int>& warps);

// The absolute shared-memory byte address an AddressRef names (its element's first byte, plus
// offset_bytes). Throws InputError("model.schema") for a TMEM address.
std::int64_t smem_address(const KernelContext& ctx, const AddressRef& a);
// The TMEM (lane, 32-bit column) an AddressRef names, from the allocation base.
TmemRef tmem_address(const KernelContext& ctx, const AddressRef& a);

// "[0, 1, 8]" for messages and witnesses.
std::string coord_text(std::span<const std::int64_t> c);

// The buffer coordinate (row-major over its shape) of flat element index `flat`.
std::vector<std::int64_t> coord_of_flat(const ResolvedBuffer& b, std::int64_t flat);

// Bulk forms for checks that visit every element: an odometer sweep of the layout (no per-element
// allocation), every replica included, in flat order. f(flat, image). Throw as the one-element
// forms, and InputError("kernel.limit") when the layout has more than `max_points` points.
template <class F>
void for_each_smem_byte(const ResolvedBuffer& b, std::int64_t max_points, F&& f);  // f(flat, byte address)
template <class F>
void for_each_tmem_cell(const ResolvedBuffer& b, std::int64_t max_points, F&& f);  // f(flat, TmemCell)

namespace detail {
// The sweep of b's layout, checked against max_points; the slot of `a` in it (-1 if unused).
Sweep checked_sweep(const ResolvedBuffer& b, std::int64_t max_points);
}  // namespace detail

template <class F>
void for_each_smem_byte(const ResolvedBuffer& b, std::int64_t max_points, F&& f) {
  const Sweep sw = detail::checked_sweep(b, max_points);
  const int slot = sw.index_of(Axis(AxisId::m));
  const SwizzleSpec* z = b.layout->swizzle();
  const std::int64_t bits = b.elem_bits, base = b.smem_base_bytes;
  sw.for_each([&](std::int64_t flat, std::int64_t, const std::int64_t* v) {
    std::int64_t m = slot < 0 ? 0 : v[slot];
    if (z) m = z->apply(m);
    f(flat, checked_add(base, checked_mul(m, bits) / 8));
  });
}

template <class F>
void for_each_tmem_cell(const ResolvedBuffer& b, std::int64_t max_points, F&& f) {
  const Sweep sw = detail::checked_sweep(b, max_points);
  const int ls = sw.index_of(Axis(AxisId::TLane)), cs = sw.index_of(Axis(AxisId::TCol));
  const std::int64_t bits = b.elem_bits;
  sw.for_each([&](std::int64_t flat, std::int64_t, const std::int64_t* v) {
    const std::int64_t colbits = checked_mul(cs < 0 ? 0 : v[cs], bits);
    f(flat, TmemCell{b.tmem_lane + (ls < 0 ? 0 : v[ls]), b.tmem_col + colbits / 32, static_cast<int>(colbits % 32)});
  });
}

}  // namespace tirx::kernel
