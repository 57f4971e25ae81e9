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
//                              \___ run ___/  \___ run ___/
//
// The two innermost digits that vary (replica iters of extent > 1 come after the shard iters)
// form a *block*: along each exactly one axis moves, by a constant stride, and the flat index
// (or the replica ordinal) by a constant step. for_each_run hands over whole blocks — the values
// at the block's first point and, for each of the two digits, the axis that moves and its stride
// — so a consumer's inner loop is a linear ramp (key_ij = key_0 + i * dkey2 + j * dkey) that the
// compiler vectorises, with no odometer branch per point (two digits, so that a short innermost
// extent such as 4 replica copies still gives long blocks); for_each is the per-point form on top
// of it. Digits of extent 1 never move and are left out of the odometer.
//
// The per-axis minimum and maximum over the whole sweep are computed up front with checked
// arithmetic, so the loop itself cannot overflow (construction throws InputError
// "layout.well-formed" if any reachable coordinate does not fit int64).
#pragma once

#include <cstdint>
#include <type_traits>
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

  // One block: count2 x count points; point (i, j) (j fastest) has flat index
  // flat + i * flat_step2 + j * flat_step, replica ordinal replica + i * replica_step2 +
  // j * replica_step, and the values of point (0, 0) plus i * stride2 on values[slot2] and
  // j * stride on values[slot] (slot2 may equal slot; slot -1: nothing moves, count = 1; slot2
  // -1: count2 = 1). `values` is the sweep's scratch array: a consumer may change values[slot]
  // and values[slot2] while it works on the block but must restore them before returning.
  struct Run {
    std::int64_t flat = 0, replica = 0, count = 1;
    int slot = -1;
    std::int64_t stride = 0, flat_step = 0, replica_step = 0;
    std::int64_t count2 = 1;
    int slot2 = -1;
    std::int64_t stride2 = 0, flat_step2 = 0, replica_step2 = 0;
    std::int64_t* values = nullptr;
  };
  // f(const Run&) for every block in sweep order; return false from f to stop (f may return void).
  template <class F>
  void for_each_run(F&& f) const;

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
    std::int64_t replica_weight = 0;  // replica ordinal step (replica iters), 0 for shard iters
  };
  std::vector<Axis> axes_;
  std::vector<int> slot_ = std::vector<int>(kNumAxes, -1);
  std::vector<std::int64_t> base_, min_, max_;
  std::vector<Step> dims_;  // the digits that move (extent > 1), outermost first: shard, then replica
  std::int64_t points_ = 0, elements_ = 0, replicas_ = 1;
};

template <class F>
void Sweep::for_each_run(F&& f) const {
  std::vector<std::int64_t> v = base_;
  const std::size_t nd = dims_.size();
  auto call = [&](const Run& r) {
    if constexpr (std::is_same_v<decltype(f(r)), bool>)
      return f(r);
    else
      return f(r), true;
  };
  if (nd == 0) {
    if (points_ > 0) call(Run{0, 0, 1, -1, 0, 0, 0, 1, -1, 0, 0, 0, v.data()});
    return;
  }
  const Step& in = dims_[nd - 1];
  Run run{0, 0, in.extent, in.slot, in.stride, in.flat_weight, in.replica_weight, 1, -1, 0, 0, 0, v.data()};
  std::size_t outer = nd - 1;  // the odometer's digits: dims_[0, outer)
  if (nd >= 2) {
    const Step& in2 = dims_[nd - 2];
    run.count2 = in2.extent;
    run.slot2 = in2.slot;
    run.stride2 = in2.stride;
    run.flat_step2 = in2.flat_weight;
    run.replica_step2 = in2.replica_weight;
    outer = nd - 2;
  }
  std::vector<std::int64_t> d(outer, 0);
  while (true) {
    if (!call(run)) return;
    // advance the odometer of the outer digits
    std::size_t k = outer;
    while (true) {
      if (k == 0) return;
      --k;
      const Step& s = dims_[k];
      if (++d[k] < s.extent) {  // step only to a digit that exists: its value is in range
        v[s.slot] += s.stride;
        run.flat += s.flat_weight;
        run.replica += s.replica_weight;
        break;
      }
      v[s.slot] -= s.wrap;  // back to digit 0 (wrap = (extent-1)*stride, checked at construction)
      run.flat -= (s.extent - 1) * s.flat_weight;
      run.replica -= (s.extent - 1) * s.replica_weight;
      d[k] = 0;
    }
  }
}

template <class F>
void Sweep::for_each(F&& f) const {
  constexpr bool stops = std::is_same_v<decltype(f(std::int64_t{}, std::int64_t{}, static_cast<const std::int64_t*>(nullptr))), bool>;
  for_each_run([&](const Run& r) {
    std::int64_t* v = r.values;
    const std::int64_t v2 = r.slot2 >= 0 ? v[r.slot2] : 0;
    for (std::int64_t i = 0; i < r.count2; ++i) {
      if (r.slot2 >= 0) v[r.slot2] = v2 + i * r.stride2;  // i * stride2 <= wrap: in range
      const std::int64_t v1 = r.slot >= 0 ? v[r.slot] : 0;  // slot2 == slot: includes i * stride2
      const std::int64_t flat = r.flat + i * r.flat_step2, rep = r.replica + i * r.replica_step2;
      for (std::int64_t j = 0; j < r.count; ++j) {
        if (r.slot >= 0) v[r.slot] = v1 + j * r.stride;
        if constexpr (stops) {
          if (!f(flat + j * r.flat_step, rep + j * r.replica_step, static_cast<const std::int64_t*>(v))) {
            if (r.slot >= 0) v[r.slot] = v1;
            if (r.slot2 >= 0) v[r.slot2] = v2;
            return false;
          }
        } else {
          f(flat + j * r.flat_step, rep + j * r.replica_step, static_cast<const std::int64_t*>(v));
        }
      }
      if (r.slot >= 0) v[r.slot] = v1;
    }
    if (r.slot2 >= 0) v[r.slot2] = v2;
    return true;
  });
}

}  // namespace tirx
