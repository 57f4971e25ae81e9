// smem.bank-conflicts by translation (bank_translate.hpp): the common refinement of the buffer
// and the fragment, the outer digits, and the reduced layouts.
#include "bank_translate.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/sweep.hpp"

namespace tirx::prove::banks {

namespace {

using i128 = __int128;

// One digit of the common refinement: its extent, weight in the flat index, and the iter it
// refines in each layout with its coefficient there.
struct Digit {
  std::int64_t extent = 1, weight = 1;
  Iter buf, frag;  // extent = this digit's, stride = the coefficient on the iter's axis
  i128 thread = 0, slot = 0;  // fragment coefficients (fragment.hpp's thread index, register slot)
  int comp = -1;              // outer candidate: 0 warp, 1 instruction; -1 not a candidate
  i128 unit = 0;              // coefficient in warps or instructions
  bool outer = false;
};

// Suffix products (flat weights) of a shard list: weight[k] = prod of the extents after k.
std::vector<std::int64_t> weights(const std::vector<Iter>& shard) {
  std::vector<std::int64_t> w(shard.size(), 1);
  for (std::size_t k = shard.size(); k-- > 1;) w[k - 1] = checked_mul(w[k], shard[k].extent, "size");
  return w;
}

// The (thread, slot) coefficient of one unit on fragment axis a (fragment.hpp).
std::pair<i128, i128> fragment_unit(Axis a, const MachineLimits& ml) {
  const i128 ws = ml.warp_size, wg = i128{ml.warp_size} * ml.warps_per_warpgroup;
  switch (a.id()) {
    case AxisId::tx:
    case AxisId::tid_in_wg:
    case AxisId::laneid: return {1, 0};
    case AxisId::wid_in_wg:
    case AxisId::warpid: return {ws, 0};
    case AxisId::wgid: return {wg, 0};
    case AxisId::m: return {0, 1};
    default: return {0, 0};
  }
}

i128 floor_div128(i128 a, i128 b) {
  i128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

bool fits64(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

std::optional<Translated> reduce(const CheckInput& in, std::int64_t eb, int width) {
  const TileLayout& bt = in.layout.tile();
  const TileLayout& ft = in.access->tile();
  const MachineLimits& ml = in.machine;
  const std::int64_t ws = ml.warp_size, k = width / eb, n = bt.size();
  if (ws < 1 || k < 1 || n < 2 || ft.size() != n) return std::nullopt;
  // The full problem's own range checks (what simulate's sweeps and address products throw):
  // let it report them.
  {
    const Sweep b(bt, false), f(ft, true);
    const int m = b.index_of(AxisId::m);
    std::int64_t lo = m >= 0 ? b.min(m) : 0, hi = m >= 0 ? b.max(m) : 0;
    if (const SwizzleSpec* z = in.layout.swizzle()) {
      const i128 p = z->period();
      lo = static_cast<std::int64_t>(floor_div128(lo, p) * p);
      const i128 top = (floor_div128(hi, p) + 1) * p - 1;
      if (!fits64(top)) return std::nullopt;
      hi = static_cast<std::int64_t>(top);
    }
    if (!fits64(i128{lo} * eb) || !fits64(i128{hi} * eb)) return std::nullopt;
  }
  // The common refinement.
  const std::vector<std::int64_t> bw = weights(bt.shard), fw = weights(ft.shard);
  std::set<std::int64_t> cuts{1, n};
  for (std::size_t i = 0; i < bt.shard.size(); ++i) cuts.insert(bw[i]);
  for (std::size_t i = 0; i < ft.shard.size(); ++i) cuts.insert(fw[i]);
  const std::vector<std::int64_t> c(cuts.begin(), cuts.end());
  std::vector<Digit> d;  // outermost first
  for (std::size_t i = c.size() - 1; i-- > 0;) {
    if (c[i + 1] % c[i] != 0) return std::nullopt;  // the two mixed radices do not refine
    Digit g;
    g.extent = c[i + 1] / c[i];
    g.weight = c[i];
    d.push_back(g);
  }
  // Each digit's iter in a layout: the one whose weight range [w, w * extent) holds it.
  auto place = [&](const std::vector<Iter>& shard, const std::vector<std::int64_t>& w, Digit& g) -> std::optional<Iter> {
    for (std::size_t i = 0; i < shard.size(); ++i)
      if (shard[i].extent > 1 && g.weight >= w[i] && g.weight / w[i] < shard[i].extent) {
        const i128 coef = i128{shard[i].stride} * (g.weight / w[i]);
        if (!fits64(coef) || !fits64(coef * (g.extent - 1))) return std::nullopt;
        Iter it = shard[i];
        it.extent = g.extent;
        it.stride = static_cast<std::int64_t>(coef);
        return it;
      }
    return std::nullopt;
  };
  for (Digit& g : d) {
    auto b = place(bt.shard, bw, g), f = place(ft.shard, fw, g);
    if (!b || !f) return std::nullopt;
    g.buf = *b;
    g.frag = *f;
    const auto [tu, su] = fragment_unit(g.frag.axis, ml);
    g.thread = tu * g.frag.stride;
    g.slot = su * g.frag.stride;
  }
  // Outer candidates.
  const SwizzleSpec* swz = in.layout.swizzle();
  for (Digit& g : d) {
    const i128 mcoef = g.buf.axis == Axis(AxisId::m) ? i128{g.buf.stride} : 0;
    if (g.extent < 2 || (mcoef * eb) % width != 0) continue;
    if (swz && swz->swizzle_len > 0 && mcoef % swz->period() != 0) continue;
    if (g.thread > 0 && g.slot == 0 && g.thread % ws == 0) g.comp = 0, g.unit = g.thread / ws;
    if (g.slot > 0 && g.thread == 0 && g.slot % k == 0) g.comp = 1, g.unit = g.slot / k;
    g.outer = g.comp >= 0;
  }
  // The thread and slot ranges of the inner part (inner digits, replicas, offsets).
  auto inner_range = [&](bool slot) {
    i128 lo = 0, hi = 0;
    for (const auto& e : ft.offset.entries()) {
      const auto [tu, su] = fragment_unit(e.axis, ml);
      lo += (slot ? su : tu) * e.value;
    }
    hi = lo;
    auto add = [&](i128 coef, std::int64_t extent) {
      const i128 r = coef * (extent - 1);
      (r < 0 ? lo : hi) += r;
    };
    for (const Digit& g : d)
      if (!g.outer) add(slot ? g.slot : g.thread, g.extent);
    for (const Iter& it : ft.replica) {
      const auto [tu, su] = fragment_unit(it.axis, ml);
      add((slot ? su : tu) * it.stride, it.extent);
    }
    return std::make_pair(lo, hi);
  };
  // Separation, per component; a candidate that is not separated becomes inner (and widens the
  // span), so start over until every remaining outer digit is separated.
  for (bool changed = true; changed;) {
    changed = false;
    for (int comp = 0; comp < 2 && !changed; ++comp) {
      const auto [lo, hi] = inner_range(comp == 1);
      const i128 unit = comp == 0 ? ws : k;
      i128 bound = floor_div128(hi, unit) - floor_div128(lo, unit);
      std::vector<Digit*> os;
      for (Digit& g : d)
        if (g.outer && g.comp == comp) os.push_back(&g);
      std::stable_sort(os.begin(), os.end(), [](const Digit* a, const Digit* b) { return a->unit < b->unit; });
      for (Digit* g : os) {
        if (g->unit > bound) {
          bound += g->unit * (g->extent - 1);
          continue;
        }
        g->outer = false;
        changed = true;
        break;
      }
    }
  }
  // No negative thread or slot anywhere (outer coefficients are positive: the minimum is inner).
  if (inner_range(false).first < 0 || inner_range(true).first < 0) return std::nullopt;
  Translated out;
  std::vector<Iter> bs, fs;
  for (const Digit& g : d) {
    if (g.outer) {
      out.copies = checked_mul(out.copies, g.extent, "instruction copies");
      ++out.outer_digits;
      continue;
    }
    bs.push_back(g.buf);
    fs.push_back(g.frag);
  }
  if (out.outer_digits == 0) return std::nullopt;
  TileLayout rb(bs, {}, bt.offset);
  out.buffer = swz ? Layout(ComposeLayout(*swz, rb)) : Layout(rb);
  out.access = TileLayout(fs, ft.replica, ft.offset);
  return out;
}

}  // namespace

std::optional<Translated> translate_instructions(const CheckInput& in, std::int64_t elem_bytes, int width_bytes) {
  if (!in.access || elem_bytes < 1 || width_bytes < elem_bytes || width_bytes % elem_bytes != 0) return std::nullopt;
  try {
    return reduce(in, elem_bytes, width_bytes);
  } catch (const InputError&) {
    return std::nullopt;  // an overflow the full problem reports
  }
}

}  // namespace tirx::prove::banks
