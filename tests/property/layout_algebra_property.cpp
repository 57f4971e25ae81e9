// Property tests of the layout algebra (RapidCheck): every operation keeps the function it is
// documented to keep, checked element by element on random small layouts.
//   canonicalize      apply(x) unchanged for every x
//   group_many        apply(x) unchanged; block products equal the shapes
//   slice             when it succeeds, sliced(region coord) == layout(shape coord)
//   tile              tiled(o*inner + i) == (outer(o) - O_outer)*span + O_outer + inner(i) on m
//   direct_sum        sum(a, b) == left(a) + right(b) on every axis
//   unpack / pack     pack(unpack(l, n), n) has the same apply as l
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {

using Shape = std::vector<std::int64_t>;

const std::vector<AxisId> kAxes = {AxisId::m, AxisId::m, AxisId::TCol, AxisId::TLane, AxisId::laneid};

// A layout built dimension by dimension (so it always groups by `shape`): each dimension's
// extent is split into 1..3 factor iters with random strides and axes.
struct Gen {
  TileLayout layout;
  Shape shape;
};

rc::Gen<Gen> gen_layout(bool memory_only) {
  return rc::gen::exec([memory_only] {
    Gen g;
    const int dims = *rc::gen::inRange(1, 4);
    for (int d = 0; d < dims; ++d) {
      const int parts = *rc::gen::inRange(1, 3);
      std::int64_t extent = 1;
      for (int p = 0; p < parts; ++p) {
        const std::int64_t e = *rc::gen::element<std::int64_t>(1, 2, 3, 4);
        const std::int64_t s = *rc::gen::inRange<std::int64_t>(-4, 40);
        const AxisId a = memory_only ? AxisId::m : *rc::gen::elementOf(kAxes);
        g.layout.shard.push_back(Iter{e, s, Axis(a)});
        extent *= e;
      }
      g.shape.push_back(extent);
    }
    if (*rc::gen::inRange(0, 3) == 0) g.layout.offset.set(AxisId::m, *rc::gen::inRange<std::int64_t>(0, 9));
    if (!memory_only && *rc::gen::inRange(0, 3) == 0)
      g.layout.replica.push_back(Iter{2, *rc::gen::inRange<std::int64_t>(1, 5), Axis(AxisId::TLane)});
    return g;
  });
}

std::vector<std::int64_t> split_rm(std::int64_t x, const Shape& shape) {
  std::vector<std::int64_t> c(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    c[d] = x % shape[d];
    x /= shape[d];
  }
  return c;
}

std::string show(const TileLayout& l) {
  std::string out = "S[";
  for (const Iter& it : l.shard)
    out += "(" + std::to_string(it.extent) + "," + std::to_string(it.stride) + "@" + std::string(it.axis.name()) + ")";
  out += "]";
  for (const Iter& it : l.replica)
    out += " R(" + std::to_string(it.extent) + "," + std::to_string(it.stride) + "@" + std::string(it.axis.name()) + ")";
  for (const auto& e : l.offset.entries()) out += " + " + std::to_string(e.value) + "@" + std::string(e.axis.name());
  return out;
}

std::string show(const Shape& s) {
  std::string out = "(";
  for (auto v : s) out += std::to_string(v) + ",";
  return out + ")";
}

bool same_point(const Coord& a, const Coord& b) {
  for (int i = 0; i < kNumAxes; ++i) {
    const Axis ax(static_cast<AxisId>(i));
    if (a.get(ax) != b.get(ax)) return false;
  }
  return true;
}

RC_GTEST_PROP(LayoutAlgebraProperty, CanonicalizeKeepsApply, ()) {
  const Gen g = *gen_layout(false);
  const TileLayout c = canonicalize(g.layout);
  RC_ASSERT(c.size() == g.layout.size());
  for (std::int64_t x = 0; x < g.layout.size(); ++x) RC_ASSERT(same_point(c.apply(x), g.layout.apply(x)));
  RC_ASSERT(canonicalize(c) == c);  // idempotent
}

RC_GTEST_PROP(LayoutAlgebraProperty, GroupManyKeepsApply, ()) {
  const Gen g = *gen_layout(false);
  // a second shape: the same total as one flat dimension, or the per-iter extents
  Shape iters;
  for (const Iter& it : g.layout.shard) iters.push_back(it.extent);
  const std::vector<Shape> shapes = {g.shape, iters, Shape{g.layout.size()}};
  const GroupedMany gm = group_many(g.layout, shapes);
  for (std::int64_t x = 0; x < g.layout.size(); ++x) RC_ASSERT(same_point(gm.layout.apply(x), g.layout.apply(x)));
  for (std::size_t i = 0; i < shapes.size(); ++i)
    for (std::size_t d = 0; d < shapes[i].size(); ++d) {
      std::int64_t prod = 1;
      for (std::size_t k = gm.seps[i][d]; k < gm.seps[i][d + 1]; ++k) prod *= gm.layout.shard[k].extent;
      RC_ASSERT(prod == shapes[i][d]);
    }
}

RC_GTEST_PROP(LayoutAlgebraProperty, SliceAgreesWithTheLayoutOnTheRegion, ()) {
  const Gen g = *gen_layout(false);
  std::vector<std::pair<std::int64_t, std::int64_t>> region;
  Shape rshape;
  for (std::int64_t n : g.shape) {
    const std::int64_t b = *rc::gen::inRange<std::int64_t>(0, n);
    const std::int64_t e = *rc::gen::inRange<std::int64_t>(b + 1, n + 1);
    region.emplace_back(b, e);
    rshape.push_back(e - b);
  }
  const auto s = slice(Layout(g.layout), g.shape, region);
  RC_CLASSIFY(s.has_value(), "representable");
  if (!s) return;
  const std::int64_t n = std::accumulate(rshape.begin(), rshape.end(), std::int64_t{1}, std::multiplies<>());
  for (std::int64_t u = 0; u < n; ++u) {
    const auto rc = split_rm(u, rshape);
    std::vector<std::int64_t> sc(rc.size());
    for (std::size_t d = 0; d < rc.size(); ++d) sc[d] = region[d].first + rc[d];
    RC_ASSERT(same_point(s->apply(rc, rshape), g.layout.apply(sc, g.shape)));
  }
}

RC_GTEST_PROP(LayoutAlgebraProperty, SliceOfWholeRowsAlwaysSucceeds, ()) {
  // Full extents in every dimension but the first: always a TileLayout.
  const Gen g = *gen_layout(false);
  std::vector<std::pair<std::int64_t, std::int64_t>> region;
  for (std::int64_t n : g.shape) region.emplace_back(0, n);
  const std::int64_t b = *rc::gen::inRange<std::int64_t>(0, g.shape[0]);
  region[0] = {b, b + 1};
  RC_ASSERT(slice(Layout(g.layout), g.shape, region).has_value());
}

RC_GTEST_PROP(LayoutAlgebraProperty, TilePlacesCopiesOfTheInnerTile, ()) {
  const Gen in = *gen_layout(true);
  const Gen out = *gen_layout(true);
  RC_PRE(in.shape.size() == out.shape.size());
  RC_PRE(in.layout.size() * out.layout.size() <= 4096);
  const Layout t = tile(Layout(in.layout), out.layout, out.shape, in.shape);
  RC_LOG() << "inner " << show(in.layout) << " " << show(in.shape) << "\nouter " << show(out.layout) << " "
           << show(out.shape) << "\ntiled " << show(t.tile()) << "\n";  // printed on failure
  const std::int64_t span = in.layout.span(AxisId::m), o_off = out.layout.offset.get(AxisId::m);
  Shape ts(in.shape.size());
  for (std::size_t d = 0; d < ts.size(); ++d) ts[d] = out.shape[d] * in.shape[d];
  for (std::int64_t a = 0; a < out.layout.size(); ++a)
    for (std::int64_t b = 0; b < in.layout.size(); ++b) {
      const auto oc = split_rm(a, out.shape), ic = split_rm(b, in.shape);
      std::vector<std::int64_t> tc(ts.size());
      for (std::size_t d = 0; d < ts.size(); ++d) tc[d] = oc[d] * in.shape[d] + ic[d];
      const std::int64_t want = (out.layout.apply(a).get(AxisId::m) - o_off) * span + o_off +
                                in.layout.apply(b).get(AxisId::m);
      std::int64_t flat = 0;
      for (std::size_t d = 0; d < ts.size(); ++d) flat = flat * ts[d] + tc[d];
      RC_ASSERT(t.apply(flat).get(AxisId::m) == want);
    }
}

RC_GTEST_PROP(LayoutAlgebraProperty, DirectSumAddsTheAddends, ()) {
  const Gen right = *gen_layout(false);
  const Gen left = *gen_layout(false);
  RC_PRE(right.shape.size() == left.shape.size());
  RC_PRE(right.layout.size() * left.layout.size() <= 4096);
  const Layout sum = direct_sum(Layout(right.layout), left.layout, left.shape, right.shape);
  Shape inter;
  for (std::size_t d = 0; d < left.shape.size(); ++d) {
    inter.push_back(left.shape[d]);
    inter.push_back(right.shape[d]);
  }
  for (std::int64_t a = 0; a < left.layout.size(); ++a)
    for (std::int64_t b = 0; b < right.layout.size(); ++b) {
      const auto lc = split_rm(a, left.shape), rc = split_rm(b, right.shape);
      std::vector<std::int64_t> c;
      for (std::size_t d = 0; d < lc.size(); ++d) {
        c.push_back(lc[d]);
        c.push_back(rc[d]);
      }
      std::int64_t flat = 0;
      for (std::size_t d = 0; d < inter.size(); ++d) flat = flat * inter[d] + c[d];
      const Coord got = sum.apply(flat), l = left.layout.apply(a), r = right.layout.apply(b);
      for (int i = 0; i < kNumAxes; ++i) {
        const Axis ax(static_cast<AxisId>(i));
        RC_ASSERT(got.get(ax) == l.get(ax) + r.get(ax));
      }
    }
}

RC_GTEST_PROP(LayoutAlgebraProperty, PackUndoesUnpack, ()) {
  const Gen g = *gen_layout(false);
  const std::int64_t n = *rc::gen::element<std::int64_t>(1, 2, 4);
  const Layout back = pack(unpack(Layout(g.layout), n), n);
  for (std::int64_t x = 0; x < g.layout.size(); ++x) RC_ASSERT(same_point(back.apply(x), g.layout.apply(x)));
}

}  // namespace
}  // namespace tirx
