// Internal: the image set of one element under a layout (every replica copy, swizzled), for the
// witness of layout.equivalent, within the budget.
//
// A layout may give an element billions of replica copies (R[268435456:1@laneid]), so the set is
// never built when it is large: ImageStream walks the copies one at a time (an odometer over the
// replica digits keeping one running value per compared axis, no allocation per copy), and
// `contains` asks whether one image is among them in O(copies) time, polling the deadline.
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
  const Image& image() const { return image_; }
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

// Is `img` one of the images of element `flat` of `l`? O(replica iters) when the replica iters
// of every axis are uniquely decodable (each |stride| beyond the reach of the smaller ones: the
// usual case), else O(replica copies), streaming them and polling the deadline.
bool contains(const Layout& l, std::int64_t flat, std::span<const Axis> axes, const Image& img, Budget* budget);

// The sorted, de-duplicated image set (replica count <= kMaxMaterializedImages), its memory
// charged to `budget` for as long as `held` lives.
std::vector<Image> materialize(const Layout& l, std::int64_t flat, std::span<const Axis> axes, Budget* budget,
                               MemoryCharge& held);

// The first `n` images in replica order (duplicates kept out).
std::vector<Image> first_images(const Layout& l, std::int64_t flat, std::span<const Axis> axes, std::size_t n);

}  // namespace tirx::prove
