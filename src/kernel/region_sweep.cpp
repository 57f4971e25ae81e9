// RegionSweep (region_sweep.hpp): the constructor and the full split of a flat index.
#include "tirx_verify/kernel/region_sweep.hpp"

#include <fmt/format.h>

#include "tirx_verify/kernel/images.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {

RegionSweep::RegionSweep(const ResolvedBuffer& b, const Region& r) : region_(r), shape_(b.model->shape) {
  if (!b.layout)
    throw InputError("kernel.layout",
                     fmt::format("buffer '{}' has no usable layout ({})", b.model->name, b.layout_error));
  if (region_.dims.size() != shape_.size())
    throw InputError("model.schema", fmt::format("region '{}' has {} indices, buffer '{}' has rank {}", region_.text,
                                                 region_.dims.size(), b.model->name, shape_.size()));
  row_stride_.assign(shape_.size(), 1);
  for (std::size_t d = shape_.size(); d-- > 0;) {
    const RegionDim& rd = region_.dims[d];
    if (rd.lo < 0 || rd.hi > shape_[d] || rd.lo >= rd.hi)
      throw InputError("model.schema", fmt::format("region '{}' is outside buffer '{}' of shape {}", region_.text,
                                                   b.model->name, coord_text(shape_)));
    if (d + 1 < shape_.size()) row_stride_[d] = checked_mul(row_stride_[d + 1], shape_[d + 1]);
  }
  size_ = region_.size();
  const Layout& l = *b.layout;
  std::int64_t elems = 1;
  for (std::int64_t e : shape_) elems = checked_mul(elems, e);
  if (elems != l.size())
    throw InputError("kernel.layout", fmt::format("buffer '{}' has {} elements (shape {}) but its layout has {}",
                                                  b.model->name, elems, coord_text(shape_), l.size()));
  const TileLayout& t = l.tile();
  for (const Iter& it : t.shard) {
    shard_.push_back({it.axis.index(), it.extent, it.stride});
    offset_.present |= 1u << it.axis.index();
  }
  for (const Iter& it : t.replica) {
    replica_.push_back({it.axis.index(), it.extent, it.stride});
    offset_.present |= 1u << it.axis.index();
    replicas_ = checked_mul(replicas_, it.extent);
  }
  for (const auto& e : t.offset.entries()) offset_.add(e.axis, e.value);
  swizzle_ = l.swizzle();
}

void RegionSweep::split_into(std::int64_t flat, std::vector<std::int64_t>& digits, Coord& base) const {
  base = offset_;
  std::int64_t rem = flat;
  for (std::size_t k = shard_.size(); k-- > 0;) {
    const Step& s = shard_[k];
    if (k > 0) {
      digits[k] = rem % s.extent;
      rem /= s.extent;
    } else {
      digits[k] = rem;  // the outermost digit takes the undivided remainder (TileLayout::split)
    }
    base.value[s.axis] = checked_add(base.value[s.axis], checked_mul(digits[k], s.stride, "apply"), "apply");
  }
}

}  // namespace tirx::kernel
