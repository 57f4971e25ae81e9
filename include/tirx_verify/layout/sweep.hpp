// tirx_verify/layout/sweep.hpp — incremental (odometer) evaluation of a layout over all elements.
//
// apply() answers one element; a proof by enumeration needs all of them, fast. Sweep walks the
// shard digits as an odometer (last digit fastest, i.e. flat index order) and, optionally, every
// replica combination of each element (replica digits fastest), keeping one running int64 per
// used axis: stepping digit k adds stride_k to its axis, a wrap subtracts (extent_k - 1) * stride_k
// (the loop never steps past the last digit, so every value it holds is a reachable coordinate).
// No division, no allocation in the loop.
//
//   S[(2,3):(10,1)]      flat: 0    1    2    3    4    5
//   values[m]:                 0    1    2   10   11   12
//
// The per-axis minimum and maximum over the whole sweep are computed up front with checked
// arithmetic, so the loop itself cannot overflow (construction throws InputError
// "layout.well-formed" if any reachable coordinate does not fit int64).
#pragma once

#include <cstdint>
#include <vector>

#include "tirx_verify/layout/layout.hpp"

namespace tirx {

class Sweep {
 public:
  // include_replicas: also visit D(x)+O+r for every replica combination r of each element.
  // exclude_declared_broadcast: visit only digit 0 of the declared broadcast shard iters
  // (Iter::is_declared_broadcast; the visited "flat" index is still the element's real flat
  // index). Every other iter, stride 0 or not, is swept.
  Sweep(const TileLayout& l, bool include_replicas, bool exclude_declared_broadcast = false);

  // Axes that have a running value (compact index i <-> axes()[i]), registry order.
  const std::vector<Axis>& axes() const { return axes_; }
  int index_of(Axis a) const { return slot_[a.index()]; }  // -1 if unused
  std::int64_t min(int slot) const { return min_[slot]; }
  std::int64_t max(int slot) const { return max_[slot]; }
  // Number of (element, replica) points the sweep visits.
  std::int64_t points() const { return points_; }
  std::int64_t elements() const { return elements_; }
  std::int64_t replicas() const { return replicas_; }

  // f(std::int64_t flat, std::int64_t replica, const std::int64_t* values) for every point;
  // return false from f to stop early (f may also return void). values[i] is the coordinate on
  // axes()[i].
  template <class F>
  void for_each(F&& f) const;

 private:
  struct Step {
    int slot;
    std::int64_t extent, stride, flat_weight;
    std::int64_t wrap;  // (extent - 1) * stride: what returning the digit to 0 subtracts
  };
  std::vector<Axis> axes_;
  std::vector<int> slot_ = std::vector<int>(kNumAxes, -1);
  std::vector<std::int64_t> base_, min_, max_;
  std::vector<Step> shard_, replica_;
  std::int64_t points_ = 0, elements_ = 0, replicas_ = 1;
};

template <class F>
void Sweep::for_each(F&& f) const {
  std::vector<std::int64_t> v = base_;
  std::vector<std::int64_t> sd(shard_.size(), 0), rd(replica_.size(), 0);
  std::int64_t flat = 0;
  const std::size_t ns = shard_.size(), nr = replica_.size();
  while (true) {
    for (std::int64_t r = 0;; ++r) {
      if constexpr (std::is_same_v<decltype(f(flat, r, v.data())), bool>) {
        if (!f(flat, r, v.data())) return;
      } else {
        f(flat, r, v.data());
      }
      // advance replica odometer
      std::size_t k = nr;
      while (k > 0) {
        --k;
        const Step& s = replica_[k];
        if (++rd[k] < s.extent) {  // step only to a digit that exists: its value is in range
          v[s.slot] += s.stride;
          goto next_replica;
        }
        v[s.slot] -= s.wrap;  // back to digit 0 (wrap = (extent-1)*stride, checked at construction)
        rd[k] = 0;
      }
      break;  // replicas wrapped (or none)
    next_replica:;
    }
    // advance shard odometer
    std::size_t k = ns;
    while (true) {
      if (k == 0) return;
      --k;
      const Step& s = shard_[k];
      if (++sd[k] < s.extent) {
        if (s.slot >= 0) v[s.slot] += s.stride;
        flat += s.flat_weight;
        break;
      }
      if (s.slot >= 0) v[s.slot] -= s.wrap;
      flat -= (s.extent - 1) * s.flat_weight;
      sd[k] = 0;
    }
  }
}

}  // namespace tirx
