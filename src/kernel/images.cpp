// Element images in hardware units (images.hpp).
#include "tirx_verify/kernel/images.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

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

std::vector<TmemCell> tmem_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord) {
  const std::int64_t bits = bits_of(b);
  std::vector<TmemCell> out;
  for (const Coord& c : element_images(b, coord)) {
    const std::int64_t colbits = checked_mul(c.get(AxisId::TCol), bits);
    out.push_back({b.tmem_lane + c.get(AxisId::TLane), b.tmem_col + colbits / 32, static_cast<int>(colbits % 32)});
  }
  return out;
}

std::vector<RegCell> reg_images(const ResolvedBuffer& b, std::span<const std::int64_t> coord,
                                const std::vector<int>& warps) {
  const std::int64_t bits = bits_of(b);
  std::vector<RegCell> out;
  auto fail = [&](const Coord& c, const std::string& why) {
    throw InputError("kernel.fragment",
                     fmt::format("element {} of fragment '{}' is held by {} {}", coord_text(coord), b.model->name,
                                 c.to_string(), why));
  };
  for (const Coord& c : element_images(b, coord)) {
    // Warp slot = index into the op's warps: 4 wgid + (tid_in_wg / 32 or wid_in_wg).
    std::int64_t warp_slot = -1, cta_warp = -1, lane = -1;
    if (c.has(AxisId::tx)) {
      cta_warp = c.get(AxisId::tx) / 32;
      lane = c.get(AxisId::tx) % 32;
    }
    if (c.has(AxisId::tid_in_wg)) {
      warp_slot = c.get(AxisId::tid_in_wg) / 32;
      lane = c.get(AxisId::tid_in_wg) % 32;
    } else if (c.has(AxisId::wid_in_wg)) {
      warp_slot = c.get(AxisId::wid_in_wg);
    }
    if (c.has(AxisId::wgid)) warp_slot = 4 * c.get(AxisId::wgid) + (warp_slot < 0 ? 0 : warp_slot);
    if (c.has(AxisId::warpid)) cta_warp = c.get(AxisId::warpid);
    if (c.has(AxisId::laneid)) lane = c.get(AxisId::laneid);
    if (lane < 0) lane = 0;  // no lane axis: a value every lane of the warp holds (uniform)
    if (lane >= 32) fail(c, "(lane >= 32)");
    if (warp_slot >= 0) {
      if (warp_slot >= static_cast<std::int64_t>(warps.size()))
        fail(c, fmt::format("(warp {} of the op's {} warps)", warp_slot, warps.size()));
      cta_warp = warps[static_cast<std::size_t>(warp_slot)];
    }
    if (cta_warp < 0) {
      if (warps.size() != 1) fail(c, "(no warp axis, and the op has several warps)");
      cta_warp = warps.front();
    } else if (std::find(warps.begin(), warps.end(), cta_warp) == warps.end()) {
      fail(c, fmt::format("(warp {} is not one of the op's warps)", cta_warp));
    }
    const std::int64_t regbits = checked_mul(c.get(AxisId::m), bits);
    out.push_back({static_cast<int>(cta_warp), static_cast<int>(lane), regbits / 32, static_cast<int>(regbits % 32)});
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
