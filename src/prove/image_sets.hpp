// Internal: the image set of one element under a layout (every replica copy, swizzled), for the
// witness of layout.equivalent, within the budget.
//
// A layout may give an element billions of replica copies (R[268435456:1@laneid]), so the set is
// never built when it is large: ImageStream walks the copies one at a time (an odometer over the
// replica digits keeping one running value per compared axis, no allocation per copy), and
// `contains` asks whether one image is among them by a pruned search over the replica digits,
// polling the deadline.
// Small sets (at most kMaxMaterializedImages copies) are built, sorted and charged to the budget.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tirx_verify/layout/budget.hpp"
#include "tirx_verify/layout/layout.hpp"

namespace tirx::prove {

// Largest replica count whose image set is built in memory for a witness.
inline constexpr std::int64_t kMaxMaterializedImages = std::int64_t{1} << 20;
// Images listed per side in a witness (the counts are always given).
inline constexpr std::size_t kListedImages = 64;

using Image = std::vector<std::int64_t>;  // values on the compared axes, in their order

class ImageStream {
 public:
  // The copies of element `flat` of `l`, compared on `axes` (absent axes read 0).
  ImageStream(const Layout& l, std::int64_t flat, std::span<const Axis> axes);
  std::int64_t count() const { return count_; }
  // The current copy's image (swizzle applied); advance() moves to the next, false at the end.
  const Image& image() const { return m_slot_ >= 0 ? image_ : value_; }  // no copy when unswizzled
  bool advance();

 private:
  void refresh();
  const SwizzleSpec* swz_;
  int m_slot_ = -1;
  std::vector<std::int64_t> base_, value_;  // per compared axis: the element's value, the copy's
  struct Step {
    int slot;
    std::int64_t extent, stride;
  };
  std::vector<Step> steps_;
  std::vector<std::int64_t> digits_;
  std::int64_t count_ = 1;
  Image image_;
};

// Is `img` one of the images of element `flat` of `l`? Per compared axis (each replica iter moves
// one axis), a depth-first search over the replica digits, largest |stride| first, trying only
// digits that leave a remainder the smaller iters can still reach: O(replica iters) when the
// strides are uniquely decodable (each |stride| beyond the reach of the smaller ones, the usual
// case), at most (iters x copies) steps in the worst case; polls the deadline (Pacer).
bool contains(const Layout& l, std::int64_t flat, std::span<const Axis> axes, const Image& img, Budget* budget);

// The sorted, de-duplicated image set (replica count <= kMaxMaterializedImages), its memory
// charged to `budget` for as long as `held` lives.
std::vector<Image> materialize(const Layout& l, std::int64_t flat, std::span<const Axis> axes, Budget* budget,
                               MemoryCharge& held);

// The images of element `flat` of `l` that are extreme on axis `axes[i]`: for each compared axis
// i on which the value is affine in the replica digits (every axis but a swizzled m), the image
// whose replica digits maximize (then minimize) it, every other digit 0, with the range [lo, hi]
// of that axis over all copies. O(replica iters); no streaming.
struct Extreme {
  std::size_t axis = 0;  // index into `axes`
  std::int64_t lo = 0, hi = 0;
  Image min_image, max_image;
};
std::vector<Extreme> extremes(const Layout& l, std::int64_t flat, std::span<const Axis> axes);

// The first `n` images in replica order (duplicates kept out).
std::vector<Image> first_images(const Layout& l, std::int64_t flat, std::span<const Axis> axes, std::size_t n);

}  // namespace tirx::prove
