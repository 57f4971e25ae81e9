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
  image_ = value_;
  if (m_slot_ >= 0) image_[static_cast<std::size_t>(m_slot_)] = swz_->apply(image_[static_cast<std::size_t>(m_slot_)]);
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

// Membership by decoding, O(replica iters): the image minus the element's base value must be
// sum r_k * s_k over the replica iters of each axis with 0 <= r_k < e_k. When, on every axis,
// each |stride| exceeds the reach sum (e_j - 1)|s_j| of the smaller ones, that representation is
// unique and the digits come out largest stride first (the rest of the sum spans less than one
// step of it). nullopt when the condition fails on some axis (then the copies are streamed).
std::optional<bool> decode_member(const Layout& l, std::int64_t flat, std::span<const Axis> axes, const Image& img) {
  const TileLayout& t = l.tile();
  const Coord base = t.apply_iters(t.split(flat));
  for (std::size_t i = 0; i < axes.size(); ++i) {
    __int128 d = static_cast<__int128>(img[i]) - (base.has(axes[i]) ? base.get(axes[i]) : 0);
    if (const SwizzleSpec* z = l.swizzle(); z && axes[i] == Axis(AxisId::m))  // the swizzle is an involution
      d = static_cast<__int128>(z->apply(img[i])) - (base.has(axes[i]) ? base.get(axes[i]) : 0);
    std::vector<Iter> its;
    for (const Iter& it : t.replica)
      if (it.axis == axes[i] && it.extent > 1 && it.stride != 0) its.push_back(it);
    std::sort(its.begin(), its.end(), [](const Iter& a, const Iter& b) {
      return static_cast<__int128>(a.stride < 0 ? -static_cast<__int128>(a.stride) : a.stride) <
             static_cast<__int128>(b.stride < 0 ? -static_cast<__int128>(b.stride) : b.stride);
    });
    std::vector<__int128> lo(its.size() + 1, 0), hi(its.size() + 1, 0);  // range of the sum of iters [0, k)
    for (std::size_t k = 0; k < its.size(); ++k) {
      const __int128 step = static_cast<__int128>(its[k].extent - 1) * its[k].stride;
      const __int128 mag = its[k].stride < 0 ? -static_cast<__int128>(its[k].stride) : its[k].stride;
      if (mag <= hi[k] - lo[k]) return std::nullopt;  // not uniquely decodable
      lo[k + 1] = lo[k] + (step < 0 ? step : 0);
      hi[k + 1] = hi[k] + (step > 0 ? step : 0);
    }
    for (std::size_t k = its.size(); k-- > 0;) {
      const __int128 s = its[k].stride;
      // r * s in [d - hi[k], d - lo[k]]: at most one multiple of s lies there.
      const __int128 a = d - hi[k], b = d - lo[k];
      auto fdiv = [](__int128 x, __int128 y) {
        __int128 q = x / y;
        if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
        return q;
      };
      const __int128 r = s > 0 ? fdiv(b, s) : fdiv(-a, -s);
      if (r * s < a || r * s > b || r < 0 || r >= its[k].extent) return false;
      d -= r * s;
    }
    if (d != 0) return false;
  }
  return true;
}

}  // namespace

bool contains(const Layout& l, std::int64_t flat, std::span<const Axis> axes, const Image& img, Budget* budget) {
  if (const std::optional<bool> member = decode_member(l, flat, axes, img)) return *member;
  ImageStream s(l, flat, axes);
  Pacer pace(budget, "witness image sets", static_cast<double>(s.count()), "replica copies");
  do {
    pace.step();
    if (s.image() == img) return true;
  } while (s.advance());
  return false;
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
