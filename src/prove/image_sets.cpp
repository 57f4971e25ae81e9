// Image sets of one element for the equivalence witness (image_sets.hpp).
#include "image_sets.hpp"

#include <algorithm>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/sweep.hpp"

namespace tirx::prove {

ImageStream::ImageStream(const Layout& l, std::int64_t flat, std::span<const Axis> axes) : swz_(l.swizzle()) {
  const TileLayout& t = l.tile();
  (void)Sweep(t, /*include_replicas=*/true);  // throws if a reachable coordinate overflows int64
  std::vector<int> slot_of(kNumAxes, -1);
  for (std::size_t i = 0; i < axes.size(); ++i) slot_of[axes[i].index()] = static_cast<int>(i);
  if (swz_) m_slot_ = slot_of[Axis(AxisId::m).index()];
  base_.assign(axes.size(), 0);
  const Coord c = t.apply_iters(t.split(flat));
  for (std::size_t i = 0; i < axes.size(); ++i) base_[i] = c.has(axes[i]) ? c.get(axes[i]) : 0;
  for (const Iter& it : t.replica) {
    steps_.push_back({slot_of[it.axis.index()], it.extent, it.stride});
    count_ = checked_mul(count_, it.extent, "replica count");
  }
  digits_.assign(steps_.size(), 0);
  value_ = base_;
  refresh();
}

void ImageStream::refresh() {
  if (m_slot_ < 0) return;  // image() is value_ itself
  image_ = value_;
  image_[static_cast<std::size_t>(m_slot_)] = swz_->apply(image_[static_cast<std::size_t>(m_slot_)]);
}

bool ImageStream::advance() {
  for (std::size_t k = steps_.size(); k-- > 0;) {
    const Step& s = steps_[k];
    if (++digits_[k] < s.extent) {
      if (s.slot >= 0) value_[static_cast<std::size_t>(s.slot)] += s.stride;
      refresh();
      return true;
    }
    if (s.slot >= 0) value_[static_cast<std::size_t>(s.slot)] -= (s.extent - 1) * s.stride;
    digits_[k] = 0;
  }
  return false;
}

namespace {

using i128 = __int128;

i128 abs128(i128 x) { return x < 0 ? -x : x; }

// floor(x / y), y != 0.
i128 floor_div(i128 x, i128 y) {
  i128 q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
  return q;
}
i128 ceil_div(i128 x, i128 y) { return -floor_div(-x, y); }

// Is `d` = sum r_k * s_k over the iters its[k..] with 0 <= r_k < e_k? The iters are sorted by
// decreasing |stride|; [lo[k], hi[k]] is the range of that sum. Depth-first over the digit of
// the largest stride first, trying only the digits that leave a remainder inside the range of
// the rest: one digit per level when each |stride| exceeds the reach of the smaller ones (the
// usual, uniquely decodable case), and at most (iters x copies) nodes in the worst case.
bool representable(const std::vector<Iter>& its, std::size_t k, i128 d, const std::vector<i128>& lo,
                   const std::vector<i128>& hi, Pacer& pace) {
  pace.step();
  if (k == its.size()) return d == 0;
  if (d < lo[k] || d > hi[k]) return false;
  const i128 s = its[k].stride;
  // r * s in [d - hi[k+1], d - lo[k+1]]
  const i128 a = d - hi[k + 1], b = d - lo[k + 1];
  i128 r0 = s > 0 ? ceil_div(a, s) : ceil_div(b, s);
  i128 r1 = s > 0 ? floor_div(b, s) : floor_div(a, s);
  r0 = std::max<i128>(r0, 0);
  r1 = std::min<i128>(r1, its[k].extent - 1);
  for (i128 r = r0; r <= r1; ++r)
    if (representable(its, k + 1, d - r * s, lo, hi, pace)) return true;
  return false;
}

}  // namespace

bool contains(const Layout& l, std::int64_t flat, std::span<const Axis> axes, const Image& img, Budget* budget) {
  const TileLayout& t = l.tile();
  (void)Sweep(t, /*include_replicas=*/true);  // every reachable value fits int64
  const Coord base = t.apply_iters(t.split(flat));
  const SwizzleSpec* z = l.swizzle();
  // A replica iter whose axis is not compared changes no compared value.
  Pacer pace(budget, "witness image sets", static_cast<double>(t.replica_count()), "replica copies");
  for (std::size_t i = 0; i < axes.size(); ++i) {
    // The swizzle is an involution on m: un-swizzle the image, then it is affine in the digits.
    const std::int64_t v = z && axes[i] == Axis(AxisId::m) ? z->apply(img[i]) : img[i];
    const i128 d = static_cast<i128>(v) - (base.has(axes[i]) ? base.get(axes[i]) : 0);
    std::vector<Iter> its;
    for (const Iter& it : t.replica)
      if (it.axis == axes[i] && it.extent > 1 && it.stride != 0) its.push_back(it);
    std::sort(its.begin(), its.end(),
              [](const Iter& x, const Iter& y) { return abs128(x.stride) > abs128(y.stride); });
    std::vector<i128> lo(its.size() + 1, 0), hi(its.size() + 1, 0);  // range of the sum of iters [k, n)
    for (std::size_t k = its.size(); k-- > 0;) {
      const i128 step = static_cast<i128>(its[k].extent - 1) * its[k].stride;
      lo[k] = lo[k + 1] + (step < 0 ? step : 0);
      hi[k] = hi[k + 1] + (step > 0 ? step : 0);
    }
    if (!representable(its, 0, d, lo, hi, pace)) return false;
  }
  return true;
}

std::vector<Image> materialize(const Layout& l, std::int64_t flat, std::span<const Axis> axes, Budget* budget,
                               MemoryCharge& held) {
  ImageStream s(l, flat, axes);
  // Each image: a vector header and its values, twice while sorting.
  held.release();
  held = charge(budget, s.count() * static_cast<std::int64_t>(2 * (sizeof(Image) + 8 * axes.size() + 16)),
                "the witness image sets");
  std::vector<Image> out;
  out.reserve(static_cast<std::size_t>(s.count()));
  do out.push_back(s.image());
  while (s.advance());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Extreme> extremes(const Layout& l, std::int64_t flat, std::span<const Axis> axes) {
  const TileLayout& t = l.tile();
  (void)Sweep(t, /*include_replicas=*/true);  // every value below fits int64
  const Coord c = t.apply_iters(t.split(flat));
  Image base(axes.size(), 0);
  for (std::size_t i = 0; i < axes.size(); ++i) base[i] = c.has(axes[i]) ? c.get(axes[i]) : 0;
  const SwizzleSpec* z = l.swizzle();
  // The image of the replica digits `digits` (swizzle applied to m).
  auto image_of = [&](const std::vector<std::int64_t>& digits) {
    Image img = base;
    for (std::size_t k = 0; k < t.replica.size(); ++k)
      for (std::size_t i = 0; i < axes.size(); ++i)
        if (t.replica[k].axis == axes[i]) img[i] += digits[k] * t.replica[k].stride;
    for (std::size_t i = 0; i < axes.size(); ++i)
      if (z && axes[i] == Axis(AxisId::m)) img[i] = z->apply(img[i]);
    return img;
  };
  std::vector<Extreme> out;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (z && axes[i] == Axis(AxisId::m)) continue;  // not affine in the digits
    std::vector<std::int64_t> dmax(t.replica.size(), 0), dmin(t.replica.size(), 0);
    for (std::size_t k = 0; k < t.replica.size(); ++k) {
      const Iter& it = t.replica[k];
      if (it.axis != axes[i] || it.extent < 2 || it.stride == 0) continue;
      (it.stride > 0 ? dmax : dmin)[k] = it.extent - 1;
    }
    Extreme e;
    e.axis = i;
    e.max_image = image_of(dmax);
    e.min_image = image_of(dmin);
    e.hi = e.max_image[i];
    e.lo = e.min_image[i];
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<Image> first_images(const Layout& l, std::int64_t flat, std::span<const Axis> axes, std::size_t n) {
  ImageStream s(l, flat, axes);
  std::vector<Image> out;
  std::size_t seen = 0;  // copies may repeat (a stride-0 replica): look at a bounded number
  do {
    if (std::find(out.begin(), out.end(), s.image()) == out.end()) out.push_back(s.image());
  } while (out.size() < n && ++seen < n * 1024 && s.advance());
  return out;
}

}  // namespace tirx::prove
