// Element images in hardware units (images.hpp).
#include "tirx_verify/kernel/images.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/arch.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/sweep.hpp"

namespace tirx::kernel {

namespace {

const Layout& layout_of(const ResolvedBuffer& b) {
  if (!b.layout)
    throw InputError("kernel.layout",
                     fmt::format("buffer '{}' has no usable layout ({})", b.model->name, b.layout_error));
  return *b.layout;
}

std::int64_t bits_of(const ResolvedBuffer& b) {
  if (b.elem_bits <= 0)
    throw InputError("kernel.layout", fmt::format("buffer '{}' has no dtype: element sizes are unknown", b.model->name));
  return b.elem_bits;
}

}  // namespace

std::string coord_text(std::span<const std::int64_t> c) {
  std::string s = "[";
  for (std::size_t i = 0; i < c.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", c[i]);
  return s + "]";
}

std::vector<std::int64_t> coord_of_flat(const ResolvedBuffer& b, std::int64_t flat) {
  const auto& shape = b.model->shape;
  std::vector<std::int64_t> c(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    c[d] = flat % shape[d];
    flat /= shape[d];
  }
  return c;
}

namespace detail {
Sweep checked_sweep(const ResolvedBuffer& b, std::int64_t max_points) {
  const Layout& l = layout_of(b);
  bits_of(b);
  Sweep sw(l.tile(), true);
  if (sw.points() > max_points)
    throw InputError("kernel.limit", fmt::format("buffer '{}' has {} (element, replica) points, past the limit of {}",
                                                 b.model->name, sw.points(), max_points));
  return sw;
}
}  // namespace detail

std::vector<Coord> element_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord) {
  const Layout& l = layout_of(b);
  const auto& shape = b.model->shape;
  if (coord.size() != shape.size())
    throw InputError("model.schema", fmt::format("element {} of buffer '{}' has rank {}, the buffer {}",
                                                 coord_text(coord), b.model->name, coord.size(), shape.size()));
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (coord[d] < 0 || coord[d] >= shape[d])
      throw InputError("model.schema",
                       fmt::format("element {} is outside buffer '{}' of shape {}", coord_text(coord), b.model->name,
                                   coord_text(shape)));
    flat = checked_add(checked_mul(flat, shape[d]), coord[d]);
  }
  return l.images(l.tile().split(flat));
}

std::vector<std::int64_t> smem_byte_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord) {
  const std::int64_t bits = bits_of(b);
  std::vector<std::int64_t> out;
  for (const Coord& c : element_images(b, coord))
    out.push_back(checked_add(b.smem_base_bytes, checked_mul(c.get(AxisId::m), bits) / 8));
  return out;
}

std::vector<std::int64_t> global_byte_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord) {
  const std::int64_t bits = bits_of(b);
  std::vector<std::int64_t> out;
  for (const Coord& c : element_images(b, coord)) out.push_back(checked_mul(c.get(AxisId::m), bits) / 8);
  return out;
}

std::int64_t smem_bit_of(const ResolvedBuffer& b, const Coord& c) {
  return checked_add(checked_mul(b.smem_base_bytes, 8), checked_mul(c.get(AxisId::m), bits_of(b)));
}

TmemCell tmem_cell_of(const ResolvedBuffer& b, const Coord& c) {
  const std::int64_t colbits = checked_mul(c.get(AxisId::TCol), bits_of(b));
  return {checked_add(b.tmem_lane, c.get(AxisId::TLane)), checked_add(b.tmem_col, floor_div(colbits, 32)),
          static_cast<int>(floor_mod(colbits, 32))};
}

namespace {

// The register cell of one image `c` of a fragment element (header: thread axes relative to the
// op's warps). Returns an empty string on success, else why the image names no thread of them.
std::string reg_cell_try(const Coord& c, std::int64_t bits, const std::vector<int>& warps, RegCell& out) {
  // Warp slot = index into the op's warps: 4 wgid + (tid_in_wg / 32 or wid_in_wg).
  std::int64_t warp_slot = -1, cta_warp = -1, lane = -1;
  if (c.has(AxisId::tx)) {
    cta_warp = c.get(AxisId::tx) / arch::kWarpSize;
    lane = c.get(AxisId::tx) % arch::kWarpSize;
  }
  if (c.has(AxisId::tid_in_wg)) {
    warp_slot = c.get(AxisId::tid_in_wg) / arch::kWarpSize;
    lane = c.get(AxisId::tid_in_wg) % arch::kWarpSize;
  } else if (c.has(AxisId::wid_in_wg)) {
    warp_slot = c.get(AxisId::wid_in_wg);
  }
  if (c.has(AxisId::wgid)) warp_slot = arch::kWarpsPerWarpgroup * c.get(AxisId::wgid) + (warp_slot < 0 ? 0 : warp_slot);
  if (c.has(AxisId::warpid)) cta_warp = c.get(AxisId::warpid);
  if (c.has(AxisId::laneid)) lane = c.get(AxisId::laneid);
  if (lane < 0) lane = 0;  // no lane axis: a value every lane of the warp holds (uniform)
  if (lane >= arch::kWarpSize) return "(lane >= 32)";
  if (warp_slot >= 0) {
    if (warp_slot < static_cast<std::int64_t>(warps.size())) {
      cta_warp = warps[static_cast<std::size_t>(warp_slot)];
    } else {
      // Fewer warps than the fragment's warpgroup: the op's warp with this index in its
      // warpgroup (header), if exactly one has it.
      int found = -1, count = 0;
      for (int w : warps)
        if (w % arch::kWarpsPerWarpgroup == warp_slot % arch::kWarpsPerWarpgroup) {
          found = w;
          ++count;
        }
      if (count != 1) return fmt::format("(warp {} of the op's {} warps)", warp_slot, warps.size());
      cta_warp = found;
    }
  }
  if (cta_warp < 0) {
    if (warps.size() != 1) return "(no warp axis, and the op has several warps)";
    cta_warp = warps.front();
  } else if (std::find(warps.begin(), warps.end(), cta_warp) == warps.end()) {
    return fmt::format("(warp {} is not one of the op's warps)", cta_warp);
  }
  const std::int64_t regbits = checked_mul(c.get(AxisId::m), bits);
  out = {static_cast<int>(cta_warp), static_cast<int>(lane), floor_div(regbits, 32), static_cast<int>(floor_mod(regbits, 32))};
  return {};
}

[[noreturn]] void fragment_error(const ResolvedBuffer& b, std::span<const std::int64_t> coord, const Coord& c,
                                 const std::string& why) {
  throw InputError("kernel.fragment", fmt::format("element {} of fragment '{}' is held by {} {}", coord_text(coord),
                                                  b.model->name, c.to_string(), why));
}

std::int64_t element_count(const ResolvedBuffer& b) {
  std::int64_t n = 1;
  for (auto e : b.model->shape) n = checked_mul(n, e);
  return n;
}

// Calls f(flat, replica, coord) for every image of every element of b, in flat order, replicas
// fastest. A TileLayout is swept (no allocation per element); a ComposeLayout goes through
// Layout::images.
template <class F>
void for_each_image(const ResolvedBuffer& b, std::int64_t max_points, std::int64_t& replicas, F&& f) {
  const Layout& l = layout_of(b);
  const std::int64_t n = element_count(b);
  if (l.size() != n)
    throw InputError("kernel.layout", fmt::format("buffer '{}': the layout has {} elements, the shape {}", b.model->name,
                                                  l.size(), n));
  replicas = l.tile().replica_count();
  if (checked_mul(n, replicas) > max_points)
    throw InputError("kernel.limit", fmt::format("buffer '{}' has {} elements x {} images, more than the {} a kernel "
                                                 "check visits",
                                                 b.model->name, n, replicas, max_points));
  if (l.is_compose()) {
    for (std::int64_t flat = 0; flat < n; ++flat) {
      const auto imgs = l.images(l.tile().split(flat));
      for (std::size_t r = 0; r < imgs.size(); ++r) f(flat, static_cast<std::int64_t>(r), imgs[r]);
    }
    return;
  }
  Sweep sw(l.tile(), true);
  const auto& axes = sw.axes();
  sw.for_each([&](std::int64_t flat, std::int64_t r, const std::int64_t* v) {
    Coord c;
    for (std::size_t i = 0; i < axes.size(); ++i) c.set(axes[i], v[i]);
    f(flat, r, c);
  });
}

}  // namespace

RegCell reg_cell_of(const ResolvedBuffer& b, const Coord& c, const std::vector<int>& warps) {
  RegCell cell;
  const std::string why = reg_cell_try(c, bits_of(b), warps, cell);
  if (!why.empty())
    throw InputError("kernel.fragment",
                     fmt::format("an element of fragment '{}' is held by {} {}", b.model->name, c.to_string(), why));
  return cell;
}

std::vector<TmemCell> tmem_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord) {
  std::vector<TmemCell> out;
  for (const Coord& c : element_images(b, coord)) out.push_back(tmem_cell_of(b, c));
  return out;
}

std::vector<RegCell> reg_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord,
                                const std::vector<int>& warps) {
  const std::int64_t bits = bits_of(b);
  std::vector<RegCell> out;
  for (const Coord& c : element_images(b, coord)) {
    RegCell cell;
    const std::string why = reg_cell_try(c, bits, warps, cell);
    if (!why.empty()) fragment_error(b, coord, c, why);
    out.push_back(cell);
  }
  return out;
}

TmemImageTable tmem_image_table(const ResolvedBuffer& b, std::int64_t max_points) {
  const std::int64_t bits = bits_of(b);
  TmemImageTable t;
  if (!layout_of(b).is_compose()) {  // the common case: the bulk sweep above
    t.replicas = b.layout->tile().replica_count();
    if (b.layout->size() != element_count(b))
      throw InputError("kernel.layout", fmt::format("buffer '{}': the layout has {} elements, the shape {}",
                                                    b.model->name, b.layout->size(), element_count(b)));
    const std::int64_t points = checked_mul(element_count(b), t.replicas);
    if (points > max_points)
      throw InputError("kernel.limit", fmt::format("buffer '{}' has {} (element, replica) points, past the limit of {}",
                                                   b.model->name, points, max_points));
    t.cells.reserve(static_cast<std::size_t>(points));
    for_each_tmem_cell(b, max_points, [&](std::int64_t, const TmemCell& c) { t.cells.push_back(c); });
    return t;
  }
  for_each_image(b, max_points, t.replicas, [&](std::int64_t, std::int64_t, const Coord& c) {
    if (t.cells.empty()) t.cells.reserve(static_cast<std::size_t>(element_count(b) * t.replicas));
    const std::int64_t colbits = checked_mul(c.get(AxisId::TCol), bits);
    t.cells.push_back({b.tmem_lane + c.get(AxisId::TLane), b.tmem_col + colbits / 32, static_cast<int>(colbits % 32)});
  });
  return t;
}

RegImageTable reg_image_table(const ResolvedBuffer& b, const std::vector<int>& warps, std::int64_t max_points) {
  const std::int64_t bits = bits_of(b);
  RegImageTable t;
  for_each_image(b, max_points, t.replicas, [&](std::int64_t, std::int64_t, const Coord& c) {
    if (t.cells.empty()) t.cells.reserve(static_cast<std::size_t>(element_count(b) * t.replicas));
    RegCell cell;
    if (!reg_cell_try(c, bits, warps, cell).empty()) cell = RegCell{-1, 0, 0, 0};
    t.cells.push_back(cell);
  });
  return t;
}

std::vector<std::int64_t> region_flat_indices(const Region& r, const std::vector<std::int64_t>& shape) {
  if (r.dims.size() != shape.size())
    throw InputError("model.schema", fmt::format("region '{}' has {} dimensions, buffer '{}' {}", r.text,
                                                 r.dims.size(), r.buffer, shape.size()));
  std::vector<std::int64_t> weight(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) weight[d - 1] = checked_mul(weight[d], shape[d]);
  std::vector<std::int64_t> out;
  const std::int64_t n = r.size();
  out.reserve(static_cast<std::size_t>(n));
  std::vector<std::int64_t> c(shape.size());
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    c[d] = r.dims[d].lo;
    flat += c[d] * weight[d];
  }
  for (std::int64_t i = 0; i < n; ++i) {
    out.push_back(flat);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++c[d] < r.dims[d].hi) {
        flat += weight[d];
        break;
      }
      flat -= (c[d] - 1 - r.dims[d].lo) * weight[d];
      c[d] = r.dims[d].lo;
    }
  }
  return out;
}

std::int64_t smem_address(const KernelContext& ctx, const AddressRef& a) {
  if (!a.element) throw InputError("model.schema", fmt::format("address {} is not a shared-memory element", a.text));
  const ResolvedBuffer* b = ctx.buffer(a.element->buffer);
  std::vector<std::int64_t> c;
  for (const auto& d : a.element->dims) c.push_back(d.lo);
  return checked_add(smem_byte_images(*b, c).front(), a.offset_bytes);
}

TmemRef tmem_address(const KernelContext& ctx, const AddressRef& a) {
  if (a.tmem) return *a.tmem;
  if (!a.element) throw InputError("model.schema", fmt::format("address {} is not a TMEM address", a.text));
  const ResolvedBuffer* b = ctx.buffer(a.element->buffer);
  std::vector<std::int64_t> c;
  for (const auto& d : a.element->dims) c.push_back(d.lo);
  const TmemCell cell = tmem_images(*b, c).front();
  return {cell.lane, cell.col};
}

}  // namespace tirx::kernel
