// tirx_verify/kernel/region_sweep.hpp — every element of a buffer region with its physical
// images, fast: no allocation per element.
//
// images.hpp answers one element at a time (element_images allocates a vector per call); a
// kernel check that walks every element an op touches needs all of them. RegionSweep visits
// the region's elements in its own order (row-major over the kept dimensions, the order two
// regions correspond in) and, for each, every replica image of the buffer's layout, with the
// XOR swizzle of a ComposeLayout applied to m:
//
//   buffer acc (128, 64) float32, layout S[(128,64):(1@TLane,1@TCol)], region acc[0:2, 8:11]
//     i     0       1       2       3       4       5
//     coord [0, 8]  [0, 9]  [0, 10] [1, 8]  [1, 9]  [1, 10]
//     image TLane 0 TLane 0 TLane 0 TLane 1 TLane 1 TLane 1
//           TCol 8  TCol 9  TCol 10 TCol 8  TCol 9  TCol 10
//
// The element's flat index (row-major over the buffer's shape) is split over the layout's shard
// extents exactly as element_images does (TileLayout::split); a step of +1 in the flat index is
// one odometer step, any other step re-splits (a few divisions). The images equal
// images.hpp's element_images, replica for replica (tested in kernel_region_sweep_test.cpp).
// The hardware units of an image come from images.hpp (smem_bit_of, tmem_cell_of,
// reg_cell_of).
#pragma once

#include <cstdint>
#include <vector>

#include "tirx_verify/kernel/kernel_check.hpp"
#include "tirx_verify/kernel/region.hpp"
#include "tirx_verify/layout/coord.hpp"

namespace tirx::kernel {

class RegionSweep {
 public:
  // Throws InputError("kernel.layout") when the buffer's layout did not parse, and
  // "model.schema" when the region does not fit the buffer's shape (bound regions always do).
  RegionSweep(const ResolvedBuffer& b, const Region& r);

  std::int64_t size() const { return size_; }          // region elements
  std::int64_t replicas() const { return replicas_; }  // images per element (1 without replicas)
  // Region elements x replicas: the number of calls for_each makes.
  std::int64_t points() const { return size_ * replicas_; }
  const Region& region() const { return region_; }

  // f(std::int64_t i, std::int64_t replica, const Coord& image) for every region element i
  // (region order) and replica (odometer order of the replica iters, as element_images).
  // f may return false to stop early.
  template <class F>
  void for_each(F&& f) const;

 private:
  struct Step {
    int axis;              // Axis index
    std::int64_t extent, stride;
  };
  void split_into(std::int64_t flat, std::vector<std::int64_t>& digits, Coord& base) const;

  Region region_;
  std::vector<std::int64_t> shape_;       // the buffer's shape
  std::vector<std::int64_t> row_stride_;  // row-major flat weight of each buffer dim
  std::vector<Step> shard_, replica_;
  Coord offset_;                          // the layout's offset, with the present mask of every used axis
  const SwizzleSpec* swizzle_ = nullptr;
  std::int64_t size_ = 0, replicas_ = 1;
};

template <class F>
void RegionSweep::for_each(F&& f) const {
  if (size_ == 0) return;
  const std::size_t rank = region_.dims.size();
  std::vector<std::int64_t> c(rank), digits(shard_.size(), 0), rd(replica_.size(), 0);
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    c[d] = region_.dims[d].lo;
    flat += c[d] * row_stride_[d];
  }
  Coord base;
  split_into(flat, digits, base);
  const int m = static_cast<int>(AxisId::m);
  for (std::int64_t i = 0;;) {
    // Every replica image of element i, computed in place on `base`: the replica odometer adds
    // its strides and takes them back when it wraps, and a swizzled m is restored after the call.
    for (std::int64_t r = 0;; ++r) {
      bool go = true;
      if (swizzle_ && (base.present >> m & 1u)) {
        const std::int64_t m0 = base.value[m];
        base.value[m] = swizzle_->apply(m0);
        if constexpr (std::is_same_v<decltype(f(i, r, base)), bool>) {
          go = f(i, r, static_cast<const Coord&>(base));
        } else {
          f(i, r, static_cast<const Coord&>(base));
        }
        base.value[m] = m0;
      } else if constexpr (std::is_same_v<decltype(f(i, r, base)), bool>) {
        go = f(i, r, static_cast<const Coord&>(base));
      } else {
        f(i, r, static_cast<const Coord&>(base));
      }
      if (!go) return;
      std::size_t k = replica_.size();
      while (k > 0) {
        --k;
        const Step& s = replica_[k];
        base.value[s.axis] += s.stride;
        if (++rd[k] < s.extent) goto next_replica;
        base.value[s.axis] -= s.extent * s.stride;
        rd[k] = 0;
      }
      break;
    next_replica:;
    }
    if (++i == size_) return;
    // Next region coordinate (row-major over the kept dims).
    std::int64_t next = flat;
    for (std::size_t d = rank; d-- > 0;) {
      if (region_.dims[d].point) continue;
      next += row_stride_[d];
      if (++c[d] < region_.dims[d].hi) break;
      next -= (c[d] - region_.dims[d].lo) * row_stride_[d];
      c[d] = region_.dims[d].lo;
    }
    if (next == flat + 1 && !shard_.empty()) {
      // One odometer step of the shard digits (last fastest); the outermost digit never wraps.
      for (std::size_t k = shard_.size(); k-- > 0;) {
        const Step& s = shard_[k];
        base.value[s.axis] += s.stride;
        if (k == 0) {
          ++digits[0];
          break;
        }
        if (++digits[k] < s.extent) break;
        base.value[s.axis] -= s.extent * s.stride;
        digits[k] = 0;
      }
    } else {
      split_into(next, digits, base);
    }
    flat = next;
  }
}

}  // namespace tirx::kernel
