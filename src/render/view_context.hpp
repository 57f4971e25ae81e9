// What every view needs while it enumerates a layout (private to src/render): the logical
// shape, the point sweep with the swizzle applied, the flags, owner and labels of a point.
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tirx_verify/prove/check.hpp"
#include "tirx_verify/render/grid.hpp"
#include "tirx_verify/render/views.hpp"

namespace tirx::render {

// One point's image: a value per axis (0 for an axis the layout does not use), m swizzled.
struct Point {
  std::array<std::int64_t, kNumAxes> v{};
  std::int64_t operator[](AxisId a) const { return v[static_cast<int>(a)]; }
};

std::string print_text(const Layout& l);
std::string shape_text(const std::vector<std::int64_t>& shape);
bool uses_thread_axis(const Layout& l);

class ViewContext {
 public:
  // `finding`: (flat, replica) points the witness names; replica -1 = every copy.
  ViewContext(const prove::CheckInput& in, const RenderOptions& opt, View view,
              std::vector<std::pair<std::int64_t, std::int64_t>> finding);

  const prove::CheckInput& in;
  const RenderOptions& opt;
  View view;
  std::vector<std::int64_t> shape;  // the logical shape (in.shape or the default)
  std::int64_t last = 1;            // shape.back()
  int bits = 0;                     // element bits (0: unknown)

  // f(flat, replica, const Point&) for every point, in sweep order; polls the budget. Throws
  // InputError("render.size") past opt.max_points.
  template <class F>
  void sweep(F&& f) const;

  unsigned point_flags(std::int64_t flat, std::int64_t rep, const Point& c) const;
  int owner(std::int64_t flat, const Point& c) const;
  std::string owner_name() const;  // what the colours mean, "" for none
  std::string owner_label(int owner) const;  // one owner's name for the legend ("thread 37", "a = 1")
  // The legend of a finished grid: every owner's name when there are at most kMaxLegend.
  void fill_legend(Grid& g) const;
  std::string image_label(const Point& c) const;              // "w5 l0 m0"
  std::string logical_label(std::int64_t flat, std::int64_t rep) const;  // "3,5" or "3,5 r1"
  std::string abbreviations() const;  // "w = warpid, l = laneid, m = m"
  std::string title_text() const;     // the layout as written
  std::int64_t thread_of(const Point& c) const;
  std::string thread_formula() const;
  std::int64_t elems_per_tmem_col() const { return bits > 0 && bits < 32 ? 32 / bits : 1; }
  std::int64_t banks() const;
  std::int64_t bank_bytes() const;
  // Charges the picture's memory to in.limits.budget before the grid is made: ~1.5 KB a drawn
  // cell (labels included) for at most opt.max_rows x opt.max_cols cells, 8 bytes an occupancy
  // entry when Occupancy would be enabled for a rows x cols grid of `slots` slots (0: the view
  // keeps none). Throws
  // BudgetExceeded(kMemory) when it does not fit.
  MemoryCharge charge_picture(std::int64_t rows, std::int64_t cols, int slots) const;
  std::int64_t warp_size() const { return in.machine.warp_size > 0 ? in.machine.warp_size : 32; }

 private:
  void sweep_impl(const std::function<void(std::int64_t, std::int64_t, const Point&)>& f) const;
  bool marked(std::int64_t flat) const;
  ColorBy color_;
  std::vector<Axis> axes_;  // the axes the layout uses
  std::set<std::pair<std::int64_t, std::int64_t>> finding_;
};

template <class F>
void ViewContext::sweep(F&& f) const {
  sweep_impl(std::function<void(std::int64_t, std::int64_t, const Point&)>(std::forward<F>(f)));
}

// The view itself, from a context (views.cpp).
Grid build_view_with(const ViewContext& x);

}  // namespace tirx::render
