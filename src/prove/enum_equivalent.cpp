// Enumeration engine, equivalence: two odometers in lock step over the flat index
// (see enum_engine.hpp). Each step updates one running value per axis (no division); the image
// set of an element is its base value plus each precomputed replica displacement, swizzled,
// sorted and de-duplicated. Replica-free layouts compare the single images directly.
#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/sweep.hpp"
#include "tirx_verify/prove/enum_engine.hpp"

namespace tirx::prove::enumerate {

namespace {

class Walker {
 public:
  Walker(const Layout& l, const std::vector<Axis>& axes, Budget* budget) : swz_(l.swizzle()), n_(axes.size()) {
    const TileLayout& t = l.tile();
    (void)Sweep(t, /*include_replicas=*/true);  // throws if any reachable coordinate overflows int64
    // The replica displacements and one element's image set (twice while sorting).
    std::int64_t bytes = 0;
    if (__builtin_mul_overflow(t.replica_count(), static_cast<std::int64_t>(n_ * 8 * 4 + 48), &bytes)) bytes = -1;
    charge_ = charge(budget, bytes, "the replica image sets of the equivalence sweep");
    std::vector<int> slot_of(kNumAxes, -1);
    for (std::size_t i = 0; i < axes.size(); ++i) slot_of[axes[i].index()] = static_cast<int>(i);
    if (swz_) m_slot_ = slot_of[Axis(AxisId::m).index()];
    for (const Iter& it : t.shard) steps_.push_back({slot_of[it.axis.index()], it.extent, it.stride});
    digits_.assign(steps_.size(), 0);
    value_.assign(n_, 0);
    for (const auto& e : t.offset.entries()) value_[slot_of[e.axis.index()]] = e.value;
    // Every replica displacement, odometer order.
    std::vector<std::int64_t> r(n_, 0), rd(t.replica.size(), 0);
    nrep_ = 0;
    while (true) {
      reps_.insert(reps_.end(), r.begin(), r.end());
      ++nrep_;
      std::size_t k = t.replica.size();
      for (; k > 0; --k) {
        const Iter& it = t.replica[k - 1];
        const int s = slot_of[it.axis.index()];
        if (++rd[k - 1] < it.extent) {
          r[s] += it.stride;
          break;
        }
        r[s] -= (it.extent - 1) * it.stride;
        rd[k - 1] = 0;
      }
      if (k == 0) break;
    }
  }

  std::size_t replicas() const { return nrep_; }

  // The image set of the current element into `out` (flattened, n_ values per image).
  void images(std::vector<std::int64_t>& out) const {
    out.resize(nrep_ * n_);
    for (std::size_t r = 0; r < nrep_; ++r)
      for (std::size_t i = 0; i < n_; ++i) {
        std::int64_t x = value_[i] + reps_[r * n_ + i];
        if (static_cast<int>(i) == m_slot_) x = swz_->apply(x);
        out[r * n_ + i] = x;
      }
    if (nrep_ > 1) {
      std::vector<std::vector<std::int64_t>> rows(nrep_);
      for (std::size_t r = 0; r < nrep_; ++r) rows[r].assign(out.begin() + r * n_, out.begin() + (r + 1) * n_);
      std::sort(rows.begin(), rows.end());
      rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
      out.clear();
      for (const auto& row : rows) out.insert(out.end(), row.begin(), row.end());
    }
  }

  void next() {
    for (std::size_t k = steps_.size(); k > 0; --k) {
      const Step& s = steps_[k - 1];
      if (++digits_[k - 1] < s.extent) {
        value_[s.slot] += s.stride;
        return;
      }
      value_[s.slot] -= (s.extent - 1) * s.stride;
      digits_[k - 1] = 0;
    }
  }

 private:
  struct Step {
    int slot;
    std::int64_t extent, stride;
  };
  const SwizzleSpec* swz_;
  std::size_t n_;
  int m_slot_ = -1;
  std::vector<Step> steps_;
  std::vector<std::int64_t> digits_, value_, reps_;
  std::size_t nrep_ = 1;
  MemoryCharge charge_;
};

}  // namespace

EquivalenceAnswer equivalent(const Layout& a, const Layout& b, const EngineLimits& limits) {
  EquivalenceAnswer ans;
  if (a.size() != b.size()) {
    ans.status = Status::kNotApplicable;
    ans.message = "sizes differ";
    return ans;
  }
  const std::vector<Axis> axes = union_axes(a, b);
  const std::int64_t size = a.size();
  const std::int64_t reps = std::max(a.tile().replica_count(), b.tile().replica_count());
  std::int64_t points = 0;
  if (__builtin_mul_overflow(size, reps, &points) || points > limits.max_enumeration_points) {
    ans.status = Status::kUndecided;
    ans.message = fmt::format("enumeration limit: {} elements x {} replica copies exceed max_enumeration_points={}",
                              size, reps, limits.max_enumeration_points);
    return ans;
  }
  Walker wa(a, axes, limits.budget), wb(b, axes, limits.budget);
  std::vector<std::int64_t> ia, ib;
  Pacer pace(limits.budget, "enumeration", static_cast<double>(points));
  for (std::int64_t flat = 0; flat < size; ++flat) {
    pace.step(reps);
    wa.images(ia);
    wb.images(ib);
    if (ia != ib) {
      ans.status = Status::kFail;
      ans.flat = flat;
      return ans;
    }
    wa.next();
    wb.next();
  }
  ans.status = Status::kPass;
  ans.message = fmt::format("{} elements compared", size);
  return ans;
}

}  // namespace tirx::prove::enumerate
