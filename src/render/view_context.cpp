#include "view_context.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/sweep.hpp"
#include "tirx_verify/hw/target.hpp"

namespace tirx::render {

std::string print_text(const Layout& l) { return print_layout(l, PrintStyle::kBuilder); }

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + ")";
}

namespace {

// Short names for labels (the legend spells them out).
std::string_view short_name(AxisId a) {
  switch (a) {
    case AxisId::warpid: return "w";
    case AxisId::laneid: return "l";
    case AxisId::wgid: return "wg";
    case AxisId::tid_in_wg: return "t";
    case AxisId::wid_in_wg: return "wi";
    case AxisId::TLane: return "L";
    case AxisId::TCol: return "C";
    default: return Axis(a).name();
  }
}

// The default logical shape: (prod of all shard extents but the last, the last).
std::vector<std::int64_t> default_shape(const Layout& l) {
  const auto& s = l.tile().shard;
  if (s.size() <= 1) return {l.size()};
  return {l.size() / s.back().extent, s.back().extent};
}

}  // namespace

ViewContext::ViewContext(const prove::CheckInput& in_, const RenderOptions& opt_, View view_,
                         std::vector<std::pair<std::int64_t, std::int64_t>> finding)
    : in(in_), opt(opt_), view(view_), bits(in_.elem_bits), finding_(finding.begin(), finding.end()) {
  shape = in.shape ? *in.shape : default_shape(in.layout);
  std::int64_t prod = 1;
  bool overflow = false;
  for (std::int64_t d : shape) {
    if (d < 1) throw InputError("cli.usage", fmt::format("--shape: extent {} must be >= 1", d), shape_text(shape), 0);
    overflow = overflow || __builtin_mul_overflow(prod, d, &prod);
  }
  if (overflow || prod != in.layout.size())
    throw InputError("layout.well-formed",
                     fmt::format("shape {} has {} elements but the layout has {}", shape_text(shape),
                                 overflow ? std::string("more than 2^63") : std::to_string(prod), in.layout.size()),
                     in.text, 0);
  last = shape.back();
  for (const auto& m : opt.marks)
    if (m.size() != shape.size())
      throw InputError("cli.usage",
                       fmt::format("--mark has {} coordinates but the shape {} has rank {}", m.size(), shape_text(shape),
                                   shape.size()));
  axes_ = in.layout.tile().axes();
  // Registry order puts TCol before TLane; a TMEM address reads (lane, column).
  const auto tl = std::find(axes_.begin(), axes_.end(), Axis(AxisId::TLane));
  const auto tc = std::find(axes_.begin(), axes_.end(), Axis(AxisId::TCol));
  if (tl != axes_.end() && tc != axes_.end()) std::iter_swap(tl, tc);
  color_ = opt.color_by;
  if (color_ == ColorBy::kAuto) {
    if (view == View::kLogical) {
      if (uses_thread_axis(in.layout))
        color_ = ColorBy::kThread;
      else if (in.layout.tile().uses_axis(AxisId::TLane))
        color_ = ColorBy::kLaneBlock;
      else if (bits > 0 && (in.scope == prove::Scope::kShared || in.scope == prove::Scope::kGlobal))
        color_ = ColorBy::kChunk;
      else
        color_ = ColorBy::kRow;
    } else {
      color_ = view == View::kSmem ? ColorBy::kVector : shape.size() >= 3 ? ColorBy::kOuter : ColorBy::kRow;
    }
  }
}

void ViewContext::sweep_impl(const std::function<void(std::int64_t, std::int64_t, const Point&)>& f) const {
  const Sweep s(in.layout.tile(), /*include_replicas=*/true);
  if (s.points() > opt.max_points)
    throw InputError("render.size",
                     fmt::format("the layout has {} points ({} elements x {} replica copies); a picture enumerates at "
                                 "most {}",
                                 s.points(), s.elements(), s.replicas(), opt.max_points),
                     in.text, 0, "draw a slice of it, or raise --max-points");
  std::vector<int> slot_axis;
  for (Axis a : s.axes()) slot_axis.push_back(a.index());
  const SwizzleSpec* z = in.layout.swizzle();
  const int m = Axis(AxisId::m).index();
  Pacer pace(in.limits.budget, "render", static_cast<double>(s.points()));
  Point p;
  s.for_each([&](std::int64_t flat, std::int64_t rep, const std::int64_t* v) {
    pace.step();
    for (std::size_t i = 0; i < slot_axis.size(); ++i) p.v[slot_axis[i]] = v[i];
    if (z) p.v[m] = z->apply(p.v[m]);
    f(flat, rep, p);
  });
}

bool ViewContext::marked(std::int64_t flat) const {
  if (opt.marks.empty()) return false;
  const auto c = prove::logical_coord(flat, shape);
  for (const auto& pat : opt.marks) {
    bool ok = true;
    for (std::size_t d = 0; d < pat.size() && ok; ++d) ok = !pat[d] || *pat[d] == c[d];
    if (ok) return true;
  }
  return false;
}

unsigned ViewContext::point_flags(std::int64_t flat, std::int64_t rep, const Point& c) const {
  unsigned f = rep > 0 ? kReplica : 0u;
  if (marked(flat)) f |= kMarked;
  if (!finding_.empty() && (finding_.count({flat, rep}) || finding_.count({flat, -1}))) f |= kFinding;
  // A thread coordinate past the machine (the logical view shows where an element's owner is wrong).
  const std::int64_t ws = warp_size();
  if (c[AxisId::laneid] < 0 || c[AxisId::laneid] >= ws) f |= kOutOfBounds;
  if (in.machine.warps_per_warpgroup > 0 &&
      (c[AxisId::wid_in_wg] >= in.machine.warps_per_warpgroup || c[AxisId::tid_in_wg] >= ws * in.machine.warps_per_warpgroup))
    f |= kOutOfBounds;
  if (in.machine.max_threads_per_cta > 0 && c[AxisId::tx] >= in.machine.max_threads_per_cta) f |= kOutOfBounds;
  if (in.machine.tmem_lanes > 0 && in.layout.tile().uses_axis(AxisId::TLane) &&
      (c[AxisId::TLane] < 0 || c[AxisId::TLane] >= in.machine.tmem_lanes))
    f |= kOutOfBounds;
  return f;
}

std::int64_t ViewContext::thread_of(const Point& c) const {
  const std::int64_t ws = warp_size();
  const std::int64_t wg = ws * (in.machine.warps_per_warpgroup > 0 ? in.machine.warps_per_warpgroup : 4);
  std::int64_t t = checked_add(c[AxisId::tx], c[AxisId::laneid], "thread index");
  t = checked_add(t, checked_mul(ws, checked_add(c[AxisId::warpid], c[AxisId::wid_in_wg], "thread index"), "thread index"),
                  "thread index");
  t = checked_add(t, c[AxisId::tid_in_wg], "thread index");
  return checked_add(t, checked_mul(wg, c[AxisId::wgid], "thread index"), "thread index");
}

std::string ViewContext::thread_formula() const {
  std::string s;
  const std::int64_t ws = warp_size();
  for (Axis a : axes_) {
    if (!a.is_thread()) continue;
    std::string term(a.name());
    if (a.id() == AxisId::warpid || a.id() == AxisId::wid_in_wg) term = fmt::format("{}*{}", ws, a.name());
    if (a.id() == AxisId::wgid) term = fmt::format("{}*wgid", ws * (in.machine.warps_per_warpgroup > 0 ? in.machine.warps_per_warpgroup : 4));
    s += (s.empty() ? "" : " + ") + term;
  }
  return s.empty() ? "0" : s;
}

int ViewContext::owner(std::int64_t flat, const Point& c) const {
  switch (color_) {
    case ColorBy::kThread: return static_cast<int>(floor_mod(thread_of(c), 1 << 20));
    case ColorBy::kWarp: return static_cast<int>(floor_mod(floor_div(thread_of(c), warp_size()), 1 << 20));
    case ColorBy::kLaneBlock: {
      const std::int64_t sub = in.target && in.target->tmem ? in.target->tmem_subpartition_lanes() : 32;
      return static_cast<int>(floor_mod(floor_div(c[AxisId::TLane], sub), 1 << 20));
    }
    case ColorBy::kChunk: {
      if (bits <= 0) return 0;
      const std::int64_t byte = floor_div(checked_mul(c[AxisId::m], bits, "bit address"), 8);
      return static_cast<int>(floor_mod(floor_div(byte, 16), banks() * bank_bytes() / 16));
    }
    case ColorBy::kRow: return static_cast<int>(floor_mod(flat / last, 1 << 20));
    case ColorBy::kOuter: return static_cast<int>(floor_mod(flat / (in.layout.size() / shape.front()), 1 << 20));
    case ColorBy::kVector: {
      const std::int64_t b = bits > 0 ? bits : 32;
      return static_cast<int>((static_cast<__int128>(flat % last) * b / 128) % (1 << 20));
    }
    default: return -1;
  }
}

std::string ViewContext::owner_name() const {
  switch (color_) {
    case ColorBy::kThread: return "the owning thread (" + thread_formula() + "), cycling through the palette";
    case ColorBy::kWarp: return "the owning warp";
    case ColorBy::kLaneBlock: return "the TMEM lane block (a warp's 32-lane sub-partition)";
    case ColorBy::kChunk: return "the 16-byte chunk of its 128-byte line the element's address is in (banks 4k..4k+3)";
    case ColorBy::kRow: return "the logical row (flat index / " + std::to_string(last) + ")";
    case ColorBy::kOuter: return "the first logical coordinate (of shape " + shape_text(shape) + ")";
    case ColorBy::kVector: return "the logical 16-byte vector of the element within its row";
    default: return "";
  }
}

std::string ViewContext::owner_label(int o) const {
  switch (color_) {
    case ColorBy::kThread: return fmt::format("thread {}", o);
    case ColorBy::kWarp: return fmt::format("warp {}", o);
    case ColorBy::kLaneBlock: return fmt::format("lane block {}", o);
    case ColorBy::kChunk: return fmt::format("chunk {} (banks {}..{})", o, 4 * o, 4 * o + 3);
    case ColorBy::kRow: return fmt::format("row {}", o);
    case ColorBy::kOuter: return fmt::format("first coordinate {}", o);
    case ColorBy::kVector: {
      const std::int64_t per = 128 / (bits > 0 && bits <= 128 ? bits : 32);
      return fmt::format("vector {} (columns {}..{})", o, o * per, o * per + per - 1);
    }
    default: return "";
  }
}

void ViewContext::fill_legend(Grid& g) const {
  if (color_ == ColorBy::kNone) return;
  std::set<int> owners;
  for (std::int64_t r = 0; r < g.drawn_rows(); ++r)
    for (std::int64_t c = 0; c < g.drawn_cols(); ++c) {
      const Cell& cell = g.drawn(r, c);
      if (cell.entries == 0 || cell.owner < 0) continue;
      owners.insert(cell.owner);
      if (owners.size() > kMaxLegend || cell.mixed_owner) return;  // too many, or hidden inside blocks
    }
  for (int o : owners) g.legend.emplace_back(o, owner_label(o));
}

std::string ViewContext::image_label(const Point& c) const {
  std::string s;
  for (Axis a : axes_) s += fmt::format("{}{}{}", s.empty() ? "" : " ", short_name(a.id()), c[a.id()]);
  return s;
}

std::string ViewContext::logical_label(std::int64_t flat, std::int64_t rep) const {
  const auto c = prove::logical_coord(flat, shape);
  std::string s;
  for (std::size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i]);
  return rep ? fmt::format("{} r{}", s, rep) : s;
}

std::string ViewContext::abbreviations() const {
  std::string s;
  for (Axis a : axes_)
    if (short_name(a.id()) != a.name()) s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", short_name(a.id()), a.name());
  return s.empty() ? "axes by name" : s;
}

std::string ViewContext::title_text() const { return in.text.empty() ? print_text(in.layout) : in.text; }

MemoryCharge ViewContext::charge_picture(std::int64_t rows, std::int64_t cols, int slots) const {
  constexpr std::int64_t kBytesPerDrawnCell = 1500;  // the cell, its SVG DOM nodes and text (measured ~1.2 KB)
  const std::int64_t drawn = std::min(rows, opt.max_rows) * std::min(cols, opt.max_cols);
  std::int64_t bytes = drawn * kBytesPerDrawnCell;
  if (slots > 0 && rows <= Occupancy::kMaxOccupancy && cols <= Occupancy::kMaxOccupancy &&
      rows * cols <= Occupancy::kMaxOccupancy / slots)
    bytes += rows * cols * slots * static_cast<std::int64_t>(sizeof(std::int64_t));
  return charge(in.limits.budget, bytes, "the picture's grid");
}

std::int64_t ViewContext::banks() const { return in.target && in.target->banks > 0 ? in.target->banks : 32; }
std::int64_t ViewContext::bank_bytes() const {
  return in.target && in.target->bank_bytes > 0 ? in.target->bank_bytes : 4;
}

}  // namespace tirx::render
