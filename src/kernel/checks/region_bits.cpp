// Storage bit addresses of region elements and their inverse (region_bits.hpp).
#include "region_bits.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/kernel/images.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "tirx_verify/layout/sweep.hpp"
#include "tirx_verify/hw/swizzle.hpp"

namespace tirx::kernel::checks {

namespace {

// Every axis the tile uses is m (or it uses none).
bool only_m(const TileLayout& t) {
  for (const Axis a : t.axes())
    if (a != Axis(AxisId::m)) return false;
  return true;
}

}  // namespace

RegionBits region_bits(const ResolvedBuffer& b, const Region& r, std::int64_t max_elements, bool want_bits) {
  RegionBits out;
  if (!b.layout) {
    out.why_not = fmt::format("the layout of '{}' did not parse ({})", b.model->name, b.layout_error);
    return out;
  }
  if (b.elem_bits <= 0) {
    out.why_not = fmt::format("'{}' has no dtype", b.model->name);
    return out;
  }
  out.elem_bits = b.elem_bits;
  const std::int64_t n = r.size();
  if (n > max_elements) {
    out.why_not = fmt::format("region '{}' has {} elements, above the limit of {}", r.text, n, max_elements);
    return out;
  }
  const std::int64_t base_bits =
      b.scope == prove::Scope::kShared ? checked_mul(b.smem_base_bytes, 8, "shared address") : 0;
  const auto& shape = b.model->shape;
  std::vector<std::pair<std::int64_t, std::int64_t>> reg;
  for (const auto& d : r.dims) reg.emplace_back(d.lo, d.hi);
  std::optional<Layout> sl;
  try {
    sl = slice(*b.layout, shape, reg);
  } catch (const InputError&) {
    sl.reset();  // fall back to one element at a time below
  }
  out.bits.reserve(static_cast<std::size_t>(n));
  if (sl && only_m(sl->tile()) && sl->tile().size() == n) {
    const TileLayout& t = sl->tile();
    const SwizzleSpec* swz = sl->swizzle();
    try {
      Sweep sw(t, false);
      const int slot = sw.index_of(Axis(AxisId::m));
      // Bound every address before the loop: |m| <= max |sweep m| (+ the swizzle period).
      std::int64_t reach = slot >= 0 ? std::max(std::abs(sw.min(slot)), std::abs(sw.max(slot))) : 0;
      if (swz) reach = checked_add(reach, swz->period(), "bit address");
      checked_add(std::abs(base_bits), checked_mul(reach, b.elem_bits, "bit address"), "bit address");
      const bool affine = !swz && t.replica.empty();
      if (want_bits || !affine) {
        out.bits.assign(static_cast<std::size_t>(n), 0);
        sw.for_each([&](std::int64_t flat, std::int64_t, const std::int64_t* v) {
          std::int64_t m = slot >= 0 ? v[slot] : 0;
          if (swz) m = swz->apply(m);
          out.bits[static_cast<std::size_t>(flat)] = base_bits + m * b.elem_bits;
        });
      }
      if (!swz && t.replica.empty()) {
        std::vector<RegionBits::Digit> digits;
        std::int64_t weight = 1;
        for (std::size_t k = t.shard.size(); k-- > 0;) {
          digits.push_back({t.shard[k].extent, checked_mul(t.shard[k].stride, b.elem_bits), weight});
          weight = checked_mul(weight, t.shard[k].extent);
        }
        out.affine = std::move(digits);
        out.affine_base_bits = checked_add(base_bits, checked_mul(t.offset.get(Axis(AxisId::m)), b.elem_bits));
      }
      return out;
    } catch (const InputError&) {
      out.bits.clear();  // overflow somewhere: the slow path reports it precisely
    }
  }
  try {
    for (std::int64_t i = 0; i < n; ++i) {
      const auto c = r.coord(i);
      const Coord img = element_images(b, c).front();
      out.bits.push_back(checked_add(base_bits, checked_mul(img.get(AxisId::m), b.elem_bits), "bit address"));
    }
  } catch (const InputError& e) {
    out.bits.clear();
    out.why_not = fmt::format("the addresses of '{}' are not computable: [{}] {}", r.text, e.check_id(), e.message());
  }
  return out;
}

BitIndex::BitIndex(const RegionBits& rb) : rb_(rb) {
  if (rb.affine) {
    std::vector<RegionBits::Digit> d;
    for (const auto& x : *rb.affine)
      if (x.extent > 1) d.push_back(x);
    bool nested = true;
    std::sort(d.begin(), d.end(), [](const auto& a, const auto& b) { return a.stride_bits < b.stride_bits; });
    std::int64_t reach = rb.elem_bits - 1;  // the last bit an element of the lower digits can hold
    for (const auto& x : d) {
      if (x.stride_bits <= reach) {
        nested = false;
        break;
      }
      reach += (x.extent - 1) * x.stride_bits;  // bounded: the sweep computed these addresses
    }
    if (nested) {
      std::reverse(d.begin(), d.end());
      nested_ = std::move(d);
      use_nested_ = true;
      return;
    }
  }
  if (rb.bits.empty()) return;  // not usable(): the caller computes the addresses
  sorted_.reserve(rb.bits.size());
  for (std::size_t i = 0; i < rb.bits.size(); ++i) sorted_.emplace_back(rb.bits[i], static_cast<std::int64_t>(i));
  std::sort(sorted_.begin(), sorted_.end());
}

std::optional<BitIndex::Hit> BitIndex::find_run(std::int64_t bit, std::int64_t& run, std::int64_t& step) const {
  run = 0;
  step = 0;
  if (!use_nested_ || nested_.empty()) return find(bit);
  std::int64_t r = bit - rb_.affine_base_bits;
  if (r < 0) return std::nullopt;
  std::int64_t index = 0, last_digit = 0;
  for (const auto& d : nested_) {
    const std::int64_t q = r / d.stride_bits;
    if (q >= d.extent) return std::nullopt;
    r -= q * d.stride_bits;
    index += q * d.weight;
    last_digit = q;
  }
  if (r >= rb_.elem_bits) return std::nullopt;
  const auto& inner = nested_.back();
  if (r == 0 && inner.stride_bits == rb_.elem_bits) {
    run = inner.extent - 1 - last_digit;
    step = inner.weight;
  }
  return Hit{index, r};
}

std::optional<BitIndex::Hit> BitIndex::find(std::int64_t bit) const {
  if (use_nested_) {
    std::int64_t r = bit - rb_.affine_base_bits;
    if (r < 0) return std::nullopt;
    std::int64_t index = 0;
    for (const auto& d : nested_) {
      const std::int64_t q = r / d.stride_bits;
      if (q >= d.extent) return std::nullopt;
      r -= q * d.stride_bits;
      index += q * d.weight;
    }
    if (r >= rb_.elem_bits) return std::nullopt;
    return Hit{index, r};
  }
  auto it = std::upper_bound(sorted_.begin(), sorted_.end(), std::make_pair(bit, INT64_MAX));
  if (it == sorted_.begin()) return std::nullopt;
  --it;
  if (bit - it->first >= rb_.elem_bits) return std::nullopt;
  return Hit{it->second, bit - it->first};
}

std::optional<hw::TmaSwizzle> layout_hw_swizzle(const Layout& l, int elem_bits) {
  const SwizzleSpec* s = l.swizzle();
  if (!s || s->swizzle_len == 0) return hw::TmaSwizzle::kNone;
  if (elem_bits <= 0 || 128 % elem_bits != 0) return std::nullopt;
  if (!s->swizzle_inner || s->atom_len != 3 || (std::int64_t{1} << s->per_element) != 128 / elem_bits)
    return std::nullopt;
  switch (s->swizzle_len) {
    case 1: return hw::TmaSwizzle::k32B;
    case 2: return hw::TmaSwizzle::k64B;
    case 3: return hw::TmaSwizzle::k128B;
    default: return std::nullopt;
  }
}

std::int64_t layout_swizzle_period_bytes(const Layout& l, int elem_bits) {
  const SwizzleSpec* s = l.swizzle();
  if (!s || s->swizzle_len == 0) return 0;
  return s->period() * elem_bits / 8;
}

// The swizzle phase a misaligned swizzled buffer runs at, as a sentence; empty if aligned.
std::string swizzle_phase_note(const KernelContext& ctx, const ResolvedBuffer& s, std::string* fix) {
  if (!s.layout) return {};
  const auto mode = layout_hw_swizzle(*s.layout, s.elem_bits);
  if (!mode || *mode == hw::TmaSwizzle::kNone) return {};
  const std::int64_t period = static_cast<std::int64_t>(hw::tma_swizzle_alignment_bytes(*mode));
  const std::int64_t base = s.smem_base_bytes;  // the buffer's element offset 0 (a view's offset included)
  if (floor_mod(base, period) == 0) return {};
  const std::int64_t lines = period / 128, phase = floor_mod(floor_div(base, 128), lines);
  const BufferModel& root = ctx.model->buffers[s.root];
  const std::int64_t view_off = s.model->view_offset_bytes;
  if (fix) {
    if (s.root != s.index && floor_mod(view_off, period) != 0)
      *fix = fmt::format("give the view {} of {} an offset that is a multiple of {} bytes (not {})", s.model->name,
                         root.name, period, view_off);
    else
      *fix = fmt::format("place {} at a multiple of {} bytes (e.g. byte {})", root.name, period,
                         (floor_div(base - view_off, period) + 1) * period);
  }
  return fmt::format("{} starts at byte {}, {} lines past a {}-byte boundary: the {} pattern is shifted by {} (base "
                     "offset {}); the layout assumes phase 0",
                     s.model->name, base, floor_div(floor_mod(base, period), 128), period, hw::to_string(*mode), phase,
                     phase);
}

}  // namespace tirx::kernel::checks
