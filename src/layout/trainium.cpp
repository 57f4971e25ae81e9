// Trainium layouts (trainium.hpp), after TVM's TileLayout.trainium / to_psum.
#include "tirx_verify/layout/trainium.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx {

namespace {

[[noreturn]] void trainium_fail(const std::string& msg) { throw InputError("layout.well-formed", msg); }

// Row-major strides of `shape` on `axis` (innermost 1).
std::vector<Iter> row_major_on(const std::vector<std::int64_t>& shape, Axis axis) {
  std::vector<Iter> out(shape.size());
  std::int64_t stride = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    out[i] = Iter{shape[i], stride, axis};
    stride = checked_mul(stride, shape[i], "trainium stride");
  }
  return out;
}

}  // namespace

TileLayout trainium(std::string_view annotation, std::span<const std::int64_t> shape_in, bool is_psum) {
  std::string ann(annotation);
  for (char c : ann)
    if (c != 'P' && c != 'F') trainium_fail(fmt::format("trainium: annotation '{}' must be a string of 'P' and 'F'", ann));
  if (ann.size() != shape_in.size())
    trainium_fail(fmt::format("trainium: annotation '{}' has {} letters but the shape has {} dimensions", ann, ann.size(),
                     shape_in.size()));
  std::vector<std::int64_t> shape(shape_in.begin(), shape_in.end());
  for (std::int64_t e : shape)
    if (e < 1) trainium_fail(fmt::format("trainium: extent {} must be >= 1", e));
  const auto num_p = std::count(ann.begin(), ann.end(), 'P');
  bool split_p = false;
  std::size_t p_idx = 0;
  if (num_p == 1) {
    p_idx = ann.find('P');
    const std::int64_t p = shape[p_idx];
    if (!(p <= kTrainiumPartitions || p % kTrainiumPartitions == 0))
      trainium_fail(fmt::format("trainium: the one P dimension has {} partitions: it must be <= {} or a multiple of {}", p,
                       kTrainiumPartitions, kTrainiumPartitions));
    if (p > kTrainiumPartitions) {  // the high part of P becomes the outermost F dimension
      split_p = true;
      ann = "F" + ann;
      shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(p_idx));
      shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(p_idx), kTrainiumPartitions);
      shape.insert(shape.begin(), p / kTrainiumPartitions);
    }
  } else if (num_p > 1) {
    std::int64_t prod = 1;
    for (std::size_t i = 0; i < ann.size(); ++i)
      if (ann[i] == 'P') prod = checked_mul(prod, shape[i], "trainium partitions");
    if (prod > kTrainiumPartitions)
      trainium_fail(fmt::format("trainium: {} P dimensions hold {} partitions, more than {}", num_p, prod, kTrainiumPartitions));
  }
  std::vector<std::int64_t> f_shape, p_shape;
  for (std::size_t i = 0; i < ann.size(); ++i) (ann[i] == 'F' ? f_shape : p_shape).push_back(shape[i]);
  const std::vector<Iter> f = row_major_on(f_shape, AxisId::F), p = row_major_on(p_shape, AxisId::P);
  std::vector<Iter> shard;
  std::size_t fi = 0, pi = 0;
  for (char c : ann) shard.push_back(c == 'F' ? f[fi++] : p[pi++]);
  if (split_p) {  // the high P part moves from the front to just before the 128-partition iter
    const Iter high = shard.front();
    shard.erase(shard.begin());
    shard.insert(shard.begin() + static_cast<std::ptrdiff_t>(p_idx), high);
  }
  TileLayout out(std::move(shard));
  out.validate();
  return is_psum ? to_psum(out) : out;
}

TileLayout to_psum(const TileLayout& l) {
  std::vector<Iter> shard;
  for (const Iter& it : l.shard) {
    if (it.axis != Axis(AxisId::F)) {
      shard.push_back(it);
      continue;
    }
    if (it.stride != 0 && it.stride % kPsumElemsPerBank == 0) {
      shard.push_back(Iter{it.extent, it.stride / kPsumElemsPerBank, AxisId::Bank});
    } else if (it.stride > 0 && kPsumElemsPerBank % it.stride == 0) {
      const std::int64_t c = kPsumElemsPerBank / it.stride;
      if (it.extent < c) {
        shard.push_back(it);
      } else if (it.extent % c == 0) {
        shard.push_back(Iter{it.extent / c, 1, AxisId::Bank});
        shard.push_back(Iter{c, it.stride, AxisId::F});
      } else {
        trainium_fail(fmt::format("to_psum: {} can not be converted to a PSUM layout (F iter ({}, {}) crosses a {}-element bank "
                         "unevenly)", print_layout(Layout(l)), it.extent, it.stride, kPsumElemsPerBank));
      }
    } else {
      trainium_fail(fmt::format("to_psum: {} can not be converted to a PSUM layout (F stride {} neither a multiple nor a "
                       "divisor of {})", print_layout(Layout(l)), it.stride, kPsumElemsPerBank));
    }
  }
  return TileLayout(std::move(shard));
}

}  // namespace tirx
