// The GF(2) engine (gf2.hpp): linearize a power-of-two layout, then row-reduce.
#include "tirx_verify/prove/gf2.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "checks_internal.hpp"
#include "tirx_verify/layout/checked.hpp"

namespace tirx::prove::gf2 {

namespace {

using Words = std::vector<std::uint64_t>;

bool any(const Words& v) {
  return std::any_of(v.begin(), v.end(), [](std::uint64_t w) { return w != 0; });
}
void xor_into(Words& dst, const Words& src) {
  for (std::size_t i = 0; i < dst.size(); ++i) dst[i] ^= src[i];
}
// Highest set bit as word*64 + bit, or -1.
int high_bit(const Words& v) {
  for (std::size_t w = v.size(); w-- > 0;)
    if (v[w]) return static_cast<int>(w * 64 + 63 - __builtin_clzll(v[w]));
  return -1;
}
bool test_bit(const Words& v, int b) { return (v[static_cast<std::size_t>(b / 64)] >> (b % 64)) & 1u; }
void set_bit(Words& v, int b) { v[static_cast<std::size_t>(b / 64)] |= std::uint64_t{1} << (b % 64); }

// An XOR basis in echelon form (distinct highest bits, kept in descending order), each vector
// tracking which domain bits it is the image of.
class Basis {
 public:
  Basis(std::size_t words, std::size_t track_bits) : words_(words), track_words_((track_bits + 63) / 64 + 1) {}

  Words zero_track() const { return Words(track_words_, 0); }

  // Reduces v (tracking t) against the basis; v is zero afterwards iff it was in the span.
  void reduce(Words& v, Words& t) const {
    for (const Row& r : rows_)
      if (test_bit(v, r.pivot)) {
        xor_into(v, r.v);
        xor_into(t, r.t);
      }
  }
  bool contains(Words v) const {
    Words t = zero_track();
    reduce(v, t);
    return !any(v);
  }
  // Inserts v unless it is in the span; returns false (and the dependency in t) if it is.
  bool insert(Words v, Words& t) {
    reduce(v, t);
    if (!any(v)) return false;
    const int p = high_bit(v);
    auto pos = std::find_if(rows_.begin(), rows_.end(), [&](const Row& r) { return r.pivot < p; });
    rows_.insert(pos, Row{std::move(v), t, p});
    return true;
  }
  std::size_t rank() const { return rows_.size(); }

  // Greedy extreme of c XOR span on a one-word basis: the largest (want_max) or smallest value
  // as unsigned 64-bit, which is the signed order too when no row touches bit 63.
  std::uint64_t extreme(std::uint64_t c, bool want_max, Words& t) const {
    for (const Row& r : rows_) {
      const bool bit = (c >> r.pivot) & 1u;
      if (bit != want_max) {
        c ^= r.v[0];
        xor_into(t, r.t);
      }
    }
    return c;
  }

 private:
  struct Row {
    Words v, t;
    int pivot;
  };
  std::size_t words_, track_words_;
  std::vector<Row> rows_;
};

// The element whose domain bits are set in `t`; digits not in the domain stay 0.
Element element_of(const TileLayout& l, const AffineMap& map, const Words& t) {
  Element e;
  e.digits.assign(l.shard.size(), 0);
  e.replica.assign(l.replica.size(), 0);
  for (std::size_t j = 0; j < map.domain.size(); ++j)
    if (test_bit(t, static_cast<int>(j))) {
      const DomainBit& d = map.domain[j];
      auto& digit = d.replica ? e.replica[static_cast<std::size_t>(d.iter)] : e.digits[static_cast<std::size_t>(d.iter)];
      digit |= std::int64_t{1} << d.bit;
    }
  return e;
}

Words column_words(const AffineMap& m, std::size_t j) {
  const auto c = m.column(j);
  return Words(c.begin(), c.end());
}

}  // namespace

std::variant<AffineMap, std::string> linearize(const Layout& l, const LinearizeOptions& opt) {
  const TileLayout& t = l.tile();
  const SwizzleSpec* swz = opt.swizzle ? l.swizzle() : nullptr;
  AffineMap map;
  map.axes = opt.axes;
  std::vector<int> word_of(kNumAxes, -1);
  for (std::size_t w = 0; w < opt.axes.size(); ++w) word_of[opt.axes[w].index()] = static_cast<int>(w);
  const std::size_t nw = opt.axes.size();
  std::vector<std::uint64_t> used(nw, 0);

  auto add_iter = [&](const Iter& it, bool replica, int index) -> std::optional<std::string> {
    if (it.extent == 1) return std::nullopt;  // no bits, stride irrelevant
    const int w = word_of[it.axis.index()];
    if (w < 0 && opt.skip_unmodeled) return std::nullopt;
    if (!replica && it.is_declared_broadcast() && !opt.broadcast_digits) return std::nullopt;
    const char* kind = replica ? "replica" : "shard";
    if (!is_pow2(it.extent))
      return fmt::format("{} iter {} has extent {}, not a power of two", kind, index, it.extent);
    const int e = log2_exact(it.extent);
    int a = 0;
    if (w >= 0 && it.stride != 0) {
      if (it.stride < 0) return fmt::format("{} iter {} has a negative stride ({})", kind, index, it.stride);
      if (!is_pow2(it.stride))
        return fmt::format("{} iter {} has stride {}, not a power of two", kind, index, it.stride);
      a = log2_exact(it.stride);
      const std::uint64_t mask = ((std::uint64_t{1} << e) - 1) << a;
      if (used[static_cast<std::size_t>(w)] & mask)
        return fmt::format("{} iter {} sets bits {}..{} of {} that another digit also sets (the sum carries)", kind,
                           index, a, a + e - 1, it.axis.name());
      used[static_cast<std::size_t>(w)] |= mask;
    }
    for (int b = 0; b < e; ++b) {
      map.domain.push_back(DomainBit{replica, index, b});
      for (std::size_t x = 0; x < nw; ++x)
        map.columns.push_back(static_cast<int>(x) == w && it.stride != 0 ? std::uint64_t{1} << (a + b) : 0);
    }
    return std::nullopt;
  };

  // Least significant ordinal bit first: replica digits (last fastest), then shard digits.
  if (opt.replicas)
    for (std::size_t k = t.replica.size(); k-- > 0;)
      if (auto why = add_iter(t.replica[k], true, static_cast<int>(k))) return *why;
  for (std::size_t k = t.shard.size(); k-- > 0;)
    if (auto why = add_iter(t.shard[k], false, static_cast<int>(k))) return *why;

  map.constant.assign(nw, 0);
  for (std::size_t w = 0; w < nw; ++w) {
    const Axis ax = opt.axes[w];
    std::int64_t o = t.offset.get(ax);
    const bool swizzled_m = swz && ax == Axis(AxisId::m);
    if (!opt.exact_offsets) o = swizzled_m ? floor_mod(o, swz->period()) : 0;
    if (static_cast<std::uint64_t>(o) & used[w])
      return fmt::format("offset {} on {} shares bits with a digit (the sum carries)", o, ax.name());
    map.constant[w] = static_cast<std::uint64_t>(o);
  }
  // The swizzle is linear on the bits of m: apply it to every column and to the constant.
  if (swz && word_of[Axis(AxisId::m).index()] >= 0) {
    const std::size_t w = static_cast<std::size_t>(word_of[Axis(AxisId::m).index()]);
    auto s = [&](std::uint64_t v) {
      return static_cast<std::uint64_t>(swz->apply(static_cast<std::int64_t>(v)));
    };
    for (std::size_t j = 0; j < map.domain.size(); ++j) map.columns[j * nw + w] = s(map.columns[j * nw + w]);
    map.constant[w] = s(map.constant[w]);
  }
  return map;
}

namespace {

LinearizeOptions injective_options(const Layout& l, Scope scope) {
  LinearizeOptions o;
  o.axes = storage_axes(l.tile(), scope);
  o.broadcast_digits = false;   // a declared broadcast view, as enumeration treats it
  o.exact_offsets = false;      // a translation does not change injectivity
  return o;
}

LinearizeOptions bound_options(const BoundTarget& t) {
  LinearizeOptions o;
  o.axes = {t.axis};
  o.swizzle = t.swizzled;
  o.skip_unmodeled = true;       // digits on other axes do not move this one
  o.broadcast_digits = false;    // nor do broadcast digits (zero columns either way)
  return o;
}

LinearizeOptions equivalence_options(const Layout& a, const Layout& b) {
  LinearizeOptions o;
  o.axes = union_axes(a, b);
  return o;
}

std::optional<std::string> reason(const std::variant<AffineMap, std::string>& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> why_not_injective(const Layout& l, Scope scope) {
  return reason(linearize(l, injective_options(l, scope)));
}

std::optional<std::string> why_not_bounds(const Layout& l, std::span<const BoundTarget> targets) {
  for (const BoundTarget& t : targets)
    if (auto why = reason(linearize(l, bound_options(t)))) return fmt::format("{}: {}", t.axis.name(), *why);
  return std::nullopt;
}

std::optional<std::string> why_not_equivalent(const Layout& a, const Layout& b) {
  const LinearizeOptions o = equivalence_options(a, b);
  if (auto why = reason(linearize(a, o))) return "first layout: " + *why;
  if (auto why = reason(linearize(b, o))) return "second layout: " + *why;
  for (const Layout* l : {&a, &b})
    for (const Iter& it : l->tile().shard)
      if (!is_pow2(it.extent))
        return fmt::format("shard extent {} is not a power of two (flat index bits)", it.extent);
  return std::nullopt;
}

InjectivityAnswer injective(const Layout& l, Scope scope) {
  InjectivityAnswer ans;
  auto lin = linearize(l, injective_options(l, scope));
  if (auto why = reason(lin)) {
    ans.status = Status::kNotApplicable;
    ans.message = *why;
    return ans;
  }
  const AffineMap& map = std::get<AffineMap>(lin);
  Basis basis(map.words(), map.domain.size());
  for (std::size_t j = 0; j < map.domain.size(); ++j) {
    Words t = basis.zero_track();
    set_bit(t, static_cast<int>(j));
    if (!basis.insert(column_words(map, j), t)) {
      // e_j XOR (earlier columns in t) maps to 0: points 2^j and 2^j ^ t share a cell.
      Words v = basis.zero_track();
      set_bit(v, static_cast<int>(j));
      Words u = t;
      xor_into(u, v);
      ans.status = Status::kFail;
      ans.a = element_of(l.tile(), map, u);
      ans.b = element_of(l.tile(), map, v);
      ans.message = fmt::format("digit bit {} depends on lower bits (rank {} < {} domain bits)", j, basis.rank(),
                                map.domain.size());
      return ans;
    }
  }
  ans.status = Status::kPass;
  ans.message = fmt::format("rank {} = {} digit bits", basis.rank(), map.domain.size());
  return ans;
}

BoundsAnswer bounds(const Layout& l, std::span<const BoundTarget> targets) {
  BoundsAnswer ans;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const BoundTarget& tg = targets[i];
    auto lin = linearize(l, bound_options(tg));
    if (auto why = reason(lin)) {
      ans.status = Status::kNotApplicable;
      ans.message = fmt::format("{}: {}", tg.axis.name(), *why);
      return ans;
    }
    const AffineMap& map = std::get<AffineMap>(lin);
    Basis basis(1, map.domain.size());
    for (std::size_t j = 0; j < map.domain.size(); ++j) {
      Words t = basis.zero_track();
      set_bit(t, static_cast<int>(j));
      basis.insert(column_words(map, j), t);
    }
    Words tmin = basis.zero_track(), tmax = basis.zero_track();
    const auto lo = static_cast<std::int64_t>(basis.extreme(map.constant[0], false, tmin));
    const auto hi = static_cast<std::int64_t>(basis.extreme(map.constant[0], true, tmax));
    const bool low_bad = lo < tg.lo, high_bad = tg.hi && hi >= *tg.hi;
    if (low_bad || high_bad) {
      ans.status = Status::kFail;
      ans.target = i;
      ans.value = low_bad ? lo : hi;
      ans.element = element_of(l.tile(), map, low_bad ? tmin : tmax);
      return ans;
    }
  }
  ans.status = Status::kPass;
  ans.message = "extremes of each axis by row reduction";
  return ans;
}

EquivalenceAnswer equivalent(const Layout& a, const Layout& b) {
  EquivalenceAnswer ans;
  if (auto why = why_not_equivalent(a, b)) {
    ans.status = Status::kNotApplicable;
    ans.message = *why;
    return ans;
  }
  if (a.size() != b.size()) {
    ans.status = Status::kNotApplicable;
    ans.message = "sizes differ";
    return ans;
  }
  const LinearizeOptions o = equivalence_options(a, b);
  const AffineMap ma = std::get<AffineMap>(linearize(a, o)), mb = std::get<AffineMap>(linearize(b, o));
  const std::size_t nw = ma.words();
  const int nflat = log2_exact(a.size());
  // Column of flat bit f (or zero), and the replica span, of one map.
  auto flat_columns = [&](const AffineMap& m, const TileLayout& t) {
    std::vector<int> weight(t.shard.size(), 0);
    for (std::size_t k = t.shard.size(); k-- > 1;) weight[k - 1] = weight[k] + log2_exact(t.shard[k].extent);
    std::vector<Words> cols(static_cast<std::size_t>(nflat), Words(nw, 0));
    for (std::size_t j = 0; j < m.domain.size(); ++j)
      if (!m.domain[j].replica)
        cols[static_cast<std::size_t>(weight[static_cast<std::size_t>(m.domain[j].iter)] + m.domain[j].bit)] =
            column_words(m, j);
    return cols;
  };
  auto replica_basis = [&](const AffineMap& m) {
    Basis basis(nw, m.domain.size());
    for (std::size_t j = 0; j < m.domain.size(); ++j)
      if (m.domain[j].replica) {
        Words t = basis.zero_track();
        basis.insert(column_words(m, j), t);
      }
    return basis;
  };
  const Basis ra = replica_basis(ma), rb = replica_basis(mb);
  auto fail_at = [&](std::int64_t flat, std::string why) {
    ans.status = Status::kFail;
    ans.flat = flat;
    ans.message = std::move(why);
    return ans;
  };
  for (const auto& [m, other] : {std::pair{&ma, &rb}, std::pair{&mb, &ra}})
    for (std::size_t j = 0; j < m->domain.size(); ++j)
      if (m->domain[j].replica && !other->contains(column_words(*m, j)))
        return fail_at(0, "the replica copies span different sets");
  Words c = ma.constant;
  xor_into(c, mb.constant);
  if (!ra.contains(c)) return fail_at(0, "the offsets differ");
  const auto ca = flat_columns(ma, a.tile()), cb = flat_columns(mb, b.tile());
  for (int f = 0; f < nflat; ++f) {
    Words d = ca[static_cast<std::size_t>(f)];
    xor_into(d, cb[static_cast<std::size_t>(f)]);
    if (!ra.contains(d)) return fail_at(std::int64_t{1} << f, fmt::format("flat index bit {} maps differently", f));
  }
  ans.status = Status::kPass;
  ans.message = fmt::format("{} flat bits, {} replica dimensions: equal affine maps", nflat, ra.rank());
  return ans;
}

}  // namespace tirx::prove::gf2
