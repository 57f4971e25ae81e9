// The naive reference evaluator and text helpers of the properties (props_internal.hpp).
#include <algorithm>

#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx::props {

Point point_of(const Coord& c) {
  Point p{};
  for (int i = 0; i < kNumAxes; ++i) p[static_cast<std::size_t>(i)] = c.get(Axis(static_cast<AxisId>(i)));
  return p;
}

std::string show_point(const Point& p) {
  std::string r;
  for (const auto& info : axis_registry()) {
    const std::int64_t v = p[static_cast<std::size_t>(info.id)];
    if (v != 0) r += fmt::format("{}{}: {}", r.empty() ? "" : ", ", info.name, v);
  }
  return "{" + r + "}";
}

std::vector<std::int64_t> ref_digits(const TileLayout& l, std::int64_t x) {
  std::vector<std::int64_t> d(l.shard.size(), 0);
  for (std::size_t k = l.shard.size(); k-- > 0;) {
    if (k == 0) {
      d[0] = x;
    } else {
      d[k] = x % l.shard[k].extent;
      x /= l.shard[k].extent;
    }
  }
  return d;
}

std::vector<std::int64_t> ref_replica_digits(const TileLayout& l, std::int64_t r) {
  std::vector<std::int64_t> d(l.replica.size(), 0);
  for (std::size_t k = l.replica.size(); k-- > 0;) {
    d[k] = r % l.replica[k].extent;
    r /= l.replica[k].extent;
  }
  return d;
}

std::int64_t ref_swizzle(const SwizzleSpec& s, std::int64_t m) {
  // spec (f): q = m // 2^M, low = m mod 2^M; inner: bits [S, S+B) of q XOR-ed into bits [0, B);
  // outer: bits [0, B) into [S, S+B); address = q' * 2^M + low.
  const std::int64_t unit = std::int64_t{1} << s.per_element;
  std::int64_t q = m / unit, low = m % unit;
  if (low < 0) {
    low += unit;
    q -= 1;
  }
  std::int64_t qq = q;
  if (s.swizzle_inner) {
    for (int b = 0; b < s.swizzle_len; ++b)
      if ((q >> (s.atom_len + b)) & 1) qq ^= std::int64_t{1} << b;
  } else {
    for (int b = 0; b < s.swizzle_len; ++b)
      if ((q >> b) & 1) qq ^= std::int64_t{1} << (s.atom_len + b);
  }
  return qq * unit + low;
}

Point ref_image(const Layout& l, const std::vector<std::int64_t>& d, const std::vector<std::int64_t>& rd) {
  const TileLayout& t = l.tile();
  Point p{};
  for (std::size_t k = 0; k < t.shard.size(); ++k) p[static_cast<std::size_t>(t.shard[k].axis.index())] += d[k] * t.shard[k].stride;
  for (std::size_t k = 0; k < t.replica.size(); ++k)
    p[static_cast<std::size_t>(t.replica[k].axis.index())] += rd[k] * t.replica[k].stride;
  for (const auto& e : t.offset.entries()) p[static_cast<std::size_t>(e.axis.index())] += e.value;
  if (const SwizzleSpec* s = l.swizzle()) {
    auto& m = p[static_cast<std::size_t>(Axis(AxisId::m).index())];
    m = ref_swizzle(*s, m);
  }
  return p;
}

std::vector<Point> ref_images(const Layout& l, std::int64_t x) {
  const TileLayout& t = l.tile();
  const auto d = ref_digits(t, x);
  std::int64_t reps = 1;
  for (const Iter& it : t.replica) reps *= it.extent;
  std::vector<Point> out;
  for (std::int64_t r = 0; r < reps; ++r) out.push_back(ref_image(l, d, ref_replica_digits(t, r)));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::int64_t> rm_coord(std::int64_t x, const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> c(shape.size(), 0);
  for (std::size_t d = shape.size(); d-- > 0;) {
    c[d] = x % shape[d];
    x /= shape[d];
  }
  return c;
}

std::string show_ints(const std::vector<std::int64_t>& v, const char* sep) {
  std::string r;
  for (std::size_t i = 0; i < v.size(); ++i) r += fmt::format("{}{}", i ? sep : "", v[i]);
  return r;
}

std::string layout_text(const Layout& l) { return print_layout(l, PrintStyle::kBuilder); }

void fail(const std::string& what, const std::string& reproduce) {
  RC_FAIL(what + "\nreproduce: " + reproduce);
  __builtin_unreachable();
}

}  // namespace tirx::props
