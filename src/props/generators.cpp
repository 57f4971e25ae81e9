// Generators of valid layouts and factory calls (include/tirx_verify/props/generators.hpp).
//
// Everything is drawn inside rc::gen::exec, one `*gen` per decision, with the "small" choice
// first in every element list: RapidCheck shrinks each decision toward the start of its list
// (and counts toward their lower bound), so a failing case collapses to few iters, extent 1 or
// 2, stride 1 or 0, axis m, no replica and no offset wherever the failure allows it.
#include "tirx_verify/props/generators.hpp"

#include <ostream>

#include <fmt/format.h>

#include "tirx_verify/layout/arch.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx::props {

namespace {

using rc::Gen;
namespace gen = rc::gen;

constexpr std::int64_t kExtents[] = {1, 2, 3, 4, 5, 7, 8, 16, 32, 112, 160};

// Thread axes that form one scope chain (narrowest first); a layout uses a contiguous piece.
const std::vector<std::vector<AxisId>>& thread_chains() {
  static const std::vector<std::vector<AxisId>> chains = {
      {AxisId::laneid, AxisId::warpid, AxisId::cbx},
      {AxisId::laneid, AxisId::wid_in_wg, AxisId::wgid},
      {AxisId::tid_in_wg, AxisId::wgid},
      {AxisId::tx},
  };
  return chains;
}

// The axes one layout may use (the first one, m where allowed, is what shrinking goes to) and
// the piece of a thread chain among them (narrowest first).
struct AxisDraw {
  std::vector<AxisId> axes;
  std::vector<AxisId> chain;
};

AxisDraw draw_axis_pool(AxisPool pool) {
  switch (pool) {
    case AxisPool::kMemoryM: return {{AxisId::m}, {}};
    case AxisPool::kMemory: return {{AxisId::m, AxisId::TCol, AxisId::TLane, AxisId::P, AxisId::F}, {}};
    case AxisPool::kTmem: return {{AxisId::TCol, AxisId::TLane}, {}};
    case AxisPool::kMixed: break;
  }
  AxisDraw d{{AxisId::m, AxisId::TCol, AxisId::TLane, AxisId::P}, {}};
  if (*gen::inRange(0, 4) == 0) return d;  // a quarter without thread axes
  const auto& chains = thread_chains();
  const auto& chain = chains[static_cast<std::size_t>(*gen::inRange<int>(0, static_cast<int>(chains.size())))];
  const int first = *gen::inRange<int>(0, static_cast<int>(chain.size()));
  const int last = *gen::inRange<int>(first, static_cast<int>(chain.size()));
  for (int i = first; i <= last; ++i) {
    d.axes.push_back(chain[static_cast<std::size_t>(i)]);
    d.chain.push_back(chain[static_cast<std::size_t>(i)]);
  }
  return d;
}

// Whether canonicalize() keeps axis `a` (spec tirx_semantics (e), canonicalize steps 1-2):
// shard iters of extent > 1, one unit iter on the first iter's axis when every shard iter has
// extent 1 (a non-empty shard never becomes empty), every replica iter, non-zero offsets.
bool kept_axis(const TileLayout& l, Axis a) {
  bool shard_kept = false;
  for (const Iter& it : l.shard) {
    if (it.extent == 1) continue;
    shard_kept = true;
    if (it.axis == a) return true;
  }
  if (!shard_kept && !l.shard.empty() && l.shard.front().axis == a) return true;
  for (const Iter& it : l.replica)
    if (it.axis == a) return true;
  return l.offset.get(a) != 0;
}

// Whether get_scope() on the layout as built sees axis `a`: every shard and replica iter, every
// offset entry (zero ones too).
bool present_axis(const TileLayout& l, Axis a) {
  for (const Iter& it : l.shard)
    if (it.axis == a) return true;
  for (const Iter& it : l.replica)
    if (it.axis == a) return true;
  for (const auto& e : l.offset.entries())
    if (e.axis == a) return true;
  return false;
}

}  // namespace

void close_scope_chain(TileLayout& l, const std::vector<AxisId>& chain) {
  // The span is that of the layout as built, which contains the canonical one (canonicalize
  // only drops axes); a +1 offset survives canonicalize, so filling every axis of the span
  // that canonicalize would not keep leaves both chains contiguous.
  int lo = -1, hi = -1;
  for (int i = 0; i < static_cast<int>(chain.size()); ++i)
    if (present_axis(l, chain[static_cast<std::size_t>(i)])) {
      if (lo < 0) lo = i;
      hi = i;
    }
  for (int i = lo + 1; lo >= 0 && i < hi; ++i)
    if (!kept_axis(l, chain[static_cast<std::size_t>(i)])) l.offset.set(chain[static_cast<std::size_t>(i)], 1);
}

namespace {

constexpr std::int64_t kPow2Extents[] = {1, 2, 4, 8, 16, 32};

std::int64_t draw_extent(std::int64_t budget, bool pow2) {
  std::vector<std::int64_t> ok;
  if (pow2) {
    for (std::int64_t e : kPow2Extents)
      if (e <= budget) ok.push_back(e);
  } else {
    for (std::int64_t e : kExtents)
      if (e <= budget) ok.push_back(e);
  }
  return pick(ok);
}

std::int64_t draw_stride(bool pow2) {
  if (pow2) return pick<std::int64_t>({1, 2, 4, 8, 16, 0, 32, 64, 128, 256, 512, 1024});
  switch (*gen::inRange(0, 3)) {
    case 0: return pick<std::int64_t>({1, 0, 2, -1, 4, 3, 8, -2, 16, 5, 7, -4, 32, 112});
    case 1: return *gen::inRange<std::int64_t>(1, 600);
    default: return pick<std::int64_t>({64, 128, 256, 512, 1024, 4096, 160, -64, -160, -1024});
  }
}

std::int64_t draw_offset(bool negative, bool pow2) {
  if (pow2) return pick<std::int64_t>({1, 0, 4, 64, 512, 2048});
  if (negative) return pick<std::int64_t>({1, 0, 5, -3, 16, 64, 7, -64, 512, 160});
  return pick<std::int64_t>({1, 0, 5, 3, 16, 64, 7, 512, 160});
}

Axis draw_axis(const std::vector<AxisId>& pool) { return Axis(pick(pool)); }

TileLayout draw_tile(const LayoutGenOptions& opt) {
  const AxisDraw drawn = draw_axis_pool(opt.axes);
  const std::vector<AxisId>& pool = drawn.axes;
  TileLayout l;
  std::int64_t budget = std::max<std::int64_t>(opt.max_points, 1);
  const int n = *gen::inRange(opt.min_shard, opt.max_shard + 1);
  for (int k = 0; k < n; ++k) {
    const std::int64_t e = draw_extent(budget, opt.pow2);
    budget /= e;
    l.shard.push_back(Iter{e, draw_stride(opt.pow2), draw_axis(pool)});
  }
  const int r = *gen::inRange(0, opt.max_replica + 1);
  for (int k = 0; k < r && budget >= 2; ++k) {
    const std::int64_t e = opt.pow2 ? pick<std::int64_t>({2, 4}) : pick<std::int64_t>({2, 3, 4});
    if (e > budget) break;
    budget /= e;
    l.replica.push_back(Iter{e, draw_stride(opt.pow2), draw_axis(pool)});
  }
  const int o = *gen::inRange(0, opt.max_offsets + 1);
  for (int k = 0; k < o; ++k) l.offset.add(draw_axis(pool), draw_offset(opt.negative_offsets, opt.pow2));
  close_scope_chain(l, drawn.chain);
  return l;
}

SwizzleSpec draw_swizzle() {
  SwizzleSpec s;
  s.per_element = *gen::inRange(0, 5);
  s.swizzle_len = *gen::inRange(0, 4);
  s.atom_len = s.swizzle_len + *gen::inRange(0, 4);
  s.swizzle_inner = *gen::inRange(0, 2) == 0;  // shrinks toward the hardware direction
  return s;
}

std::string q(std::string_view s) { return fmt::format("\"{}\"", s); }

std::string tuple_text(const std::vector<std::int64_t>& v) {
  std::string r = "(";
  for (std::size_t i = 0; i < v.size(); ++i) r += fmt::format("{}{}", i ? ", " : "", v[i]);
  return r + (v.size() == 1 ? ",)" : ")");
}

std::string_view mode_name(SwizzleMode m) {
  switch (m) {
    case SwizzleMode::kNone: return "SwizzleMode.SWIZZLE_NONE";
    case SwizzleMode::k32B: return "SwizzleMode.SWIZZLE_32B_ATOM";
    case SwizzleMode::k64B: return "SwizzleMode.SWIZZLE_64B_ATOM";
    case SwizzleMode::k128B: return "SwizzleMode.SWIZZLE_128B_ATOM";
  }
  return "?";
}

std::int64_t atom_columns_per_rep(std::string_view shape) {
  if (shape == "32x32b") return 1;
  if (shape == "16x64b") return 2;
  if (shape == "16x128b") return 4;
  return 8;
}

// A legal .num for the shape (Table 49 via arch.hpp), at most `cap`.
std::int64_t draw_num(std::string_view shape, std::int64_t cap) {
  std::vector<std::int64_t> nums;
  for (std::int64_t n = 1; n <= arch::tcgen05_max_num(shape) && n <= cap; n *= 2) nums.push_back(n);
  return pick(nums);
}

FactoryCall draw_factory_call() {
  using K = FactoryCall::Kind;
  FactoryCall c;
  c.kind = pick({K::kDatapath, K::kAtom, K::kWgLocal, K::kSfTmem, K::kSfSmem, K::kMmaShared,
                         K::kDefaultTmem, K::kTmemOperand});
  switch (c.kind) {
    case K::kDatapath: {
      c.datapath = pick<std::string>({"D", "F", "A", "B", "C", "E", "G"});
      const char d = c.datapath[0];
      c.rows = (d == 'A' || d == 'D') ? 128 : d == 'G' ? 32 : 64;
      c.cols = pick<std::int64_t>({4, 8, 32, 16, 12, 20, 64, 128, 256, 512});
      if (d == 'C' || d == 'F') c.sub_slab = *gen::inRange(0, 2);
      break;
    }
    case K::kAtom: {
      c.instr_shape = pick<std::string>({"32x32b", "16x64b", "16x128b", "16x256b"});
      c.rows = pick<std::int64_t>({128, 64});
      c.dtype = pick<std::string>({"float32", "float16", "bfloat16"});
      const std::int64_t epb = c.dtype == "float32" ? 1 : 2;
      if (c.instr_shape == "32x32b" && c.rows == 64) {
        c.dtype = "float32";  // the datapath-B read-back image is fp32 only
        c.cols = 2 * draw_num("32x32b", 32);
      } else {
        c.cols = draw_num(c.instr_shape, 16) * atom_columns_per_rep(c.instr_shape) * epb;
      }
      break;
    }
    case K::kWgLocal:
      c.cols = pick<std::int64_t>({1, 2, 3, 8, 16, 5, 64});
      c.rows = pick<std::int64_t>({128, 64, 1, 32, 7});
      break;
    case K::kSfTmem:
    case K::kSfSmem: {
      const bool smem = c.kind == K::kSfSmem;
      c.rows = smem ? pick<std::int64_t>({128, 256}) : pick<std::int64_t>({32, 64, 128, 256});
      c.sf_per_mma = pick<std::int64_t>({1, 2, 4});
      c.sf_k = smem ? 4 * *gen::inRange<std::int64_t>(1, 5) : c.sf_per_mma * *gen::inRange<std::int64_t>(1, 5);
      c.sf_reuse = *gen::inRange<std::int64_t>(1, 5);
      if (*gen::arbitrary<bool>()) c.pipe_depth = *gen::inRange<std::int64_t>(1, 5);
      break;
    }
    case K::kMmaShared: {
      c.dtype = pick<std::string>({"float16", "bfloat16", "float32", "int8", "uint8", "float8_e4m3fn"});
      c.mode = pick({SwizzleMode::k128B, SwizzleMode::kNone, SwizzleMode::k32B, SwizzleMode::k64B});
      const int bits = DType::parse(c.dtype).bits;
      const std::int64_t per_chunk = 128 / bits;
      const std::int64_t atom_cols = c.mode == SwizzleMode::kNone ? per_chunk : (16 << static_cast<int>(c.mode)) * 8 / bits;
      const std::int64_t rows = 8 * pick<std::int64_t>({1, 2, 8, 16, 3});
      std::int64_t k = atom_cols * pick<std::int64_t>({1, 2, 4, 3});
      if (c.mode == SwizzleMode::kNone && *gen::inRange(0, 4) == 0) k = pick<std::int64_t>({3, 12, 20});
      c.shape = {rows, k};
      if (*gen::inRange(0, 3) == 0) c.shape.insert(c.shape.begin(), pick<std::int64_t>({2, 3, 4}));
      break;
    }
    case K::kDefaultTmem:
      c.rows = pick<std::int64_t>({128, 64, 32, 16});
      c.cols = pick<std::int64_t>({32, 64, 16, 256, 512, 12});
      break;
    case K::kTmemOperand: {
      // (M, cta_group, ws) -> datapath D, F, E, A, B (factories.hpp).
      const int which = *gen::inRange(0, 5);
      const std::int64_t Ms[] = {128, 64, 64, 256, 128};
      const int groups[] = {1, 1, 1, 2, 2};
      c.operand.M = Ms[which];
      c.operand.cta_group = groups[which];
      c.operand.ws = which == 2;
      const bool folded = which == 2 || which == 4;  // E, B
      const std::int64_t rows = c.operand.M / c.operand.cta_group;
      c.operand_name = pick<std::string>({"D", "A"});
      const std::int64_t n = 2 * pick<std::int64_t>({16, 32, 64, 128});
      if (c.operand_name == "D") {
        c.dtype = "float32";
        c.shape = {rows, n};
        if (folded && *gen::arbitrary<bool>()) {
          const std::int64_t s = pick<std::int64_t>({1, 2, 4});
          if ((n / 2) % s == 0) c.operand.group = {s, 2, n / 2 / s};
        }
      } else {
        c.dtype = "float16";
        c.shape = (which == 2) ? std::vector<std::int64_t>{2, rows, n} : std::vector<std::int64_t>{rows, n};
      }
      break;
    }
  }
  return c;
}

}  // namespace

rc::Gen<TileLayout> gen_tile_layout(LayoutGenOptions opt) {
  return gen::exec([opt] { return draw_tile(opt); });
}

rc::Gen<ComposeLayout> gen_compose_layout(LayoutGenOptions opt) {
  opt.axes = AxisPool::kMemoryM;
  return gen::exec([opt] {
    TileLayout t = draw_tile(opt);
    return ComposeLayout(draw_swizzle(), std::move(t));
  });
}

rc::Gen<Layout> gen_layout(LayoutGenOptions opt) {
  return gen::exec([opt] {
    if (*gen::inRange(0, 3) < 2) return Layout(draw_tile(opt));  // shrinks toward a TileLayout
    LayoutGenOptions m = opt;
    m.axes = AxisPool::kMemoryM;
    TileLayout t = draw_tile(m);
    return Layout(ComposeLayout(draw_swizzle(), std::move(t)));
  });
}

rc::Gen<std::vector<std::int64_t>> gen_grouping_shape(const TileLayout& l) {
  std::vector<std::int64_t> extents;
  for (const Iter& it : l.shard) extents.push_back(it.extent);
  return gen::exec([extents] {
    std::vector<std::int64_t> shape;
    std::int64_t cur = 1;
    for (std::size_t k = 0; k < extents.size(); ++k) {
      cur *= extents[k];
      const bool cut = k + 1 == extents.size() || *gen::arbitrary<bool>();
      if (cut) {
        shape.push_back(cur);
        cur = 1;
        if (*gen::inRange(0, 8) == 0) shape.push_back(1);  // a unit dimension
      }
    }
    return shape;
  });
}

rc::Gen<FactoryCall> gen_factory_call() { return gen::exec(draw_factory_call); }

rc::Gen<AtomPair> gen_atom_pair() {
  return gen::exec([] {
    AtomPair p;
    p.datapath = pick<std::string>({"D", "F", "B"});
    p.dtype = pick<std::string>({"float32", "float16"});
    if (p.datapath == "B") {  // the 64-row .32x32b read-back image of Layout B, fp32 only
      p.dtype = "float32";
      p.instr_shape = "32x32b";
      p.rows = 64;
      p.cols = 2 * draw_num("32x32b", 32);
      p.base_col = 32 * *gen::inRange(0, 8);
      p.store = *gen::arbitrary<bool>();
      return p;
    }
    const std::int64_t epb = p.dtype == "float32" ? 1 : 2;
    if (p.datapath == "D") {
      p.instr_shape = pick<std::string>({"32x32b", "16x64b", "16x128b", "16x256b"});
      p.rows = p.instr_shape == "32x32b" ? 128 : pick<std::int64_t>({128, 64});
    } else {
      p.instr_shape = pick<std::string>({"16x64b", "16x128b", "16x256b"});
      p.rows = 64;
      p.sub_slab = *gen::inRange(0, 2);
    }
    const std::int64_t per_rep = atom_columns_per_rep(p.instr_shape);
    p.cols = draw_num(p.instr_shape, 64 / per_rep) * per_rep * epb;
    p.base_col = 32 * *gen::inRange(0, 8);
    p.store = *gen::arbitrary<bool>();
    return p;
  });
}

// ---------------------------------------------------------------- FactoryCall

std::string FactoryCall::text() const {
  using K = Kind;
  switch (kind) {
    case K::kDatapath:
      return sub_slab ? fmt::format("tmem_datapath_layout({}, {}, {}, sub_slab={})", q(datapath), rows, cols, sub_slab)
                      : fmt::format("tmem_datapath_layout({}, {}, {})", q(datapath), rows, cols);
    case K::kAtom:
      return fmt::format("tcgen05_atom_layout({}, ({}, {}), {})", q(instr_shape), rows, cols, q(dtype));
    case K::kWgLocal:
      return rows == 128 ? fmt::format("wg_local_layout({})", cols) : fmt::format("wg_local_layout({}, rows={})", cols, rows);
    case K::kSfTmem:
    case K::kSfSmem: {
      std::string r = fmt::format("{}({}, {}, {}", kind == K::kSfTmem ? "sf_tmem_layout" : "sf_smem_layout", rows, sf_k,
                                  sf_per_mma);
      if (sf_reuse != 1) r += fmt::format(", sf_reuse={}", sf_reuse);
      if (pipe_depth) r += fmt::format(", pipe_depth={}", *pipe_depth);
      return r + ")";
    }
    case K::kMmaShared:
      return fmt::format("mma_shared_layout({}, {}, {})", q(dtype), mode_name(mode), tuple_text(shape));
    case K::kDefaultTmem:
      return fmt::format("default_tmem_layout({}, {})", rows, cols);
    case K::kTmemOperand: {
      std::string r = fmt::format("tmem_mma_operand_layout({}, {}, {}, M={}, cta_group={}", q(operand_name),
                                  tuple_text(shape), q(dtype), operand.M, operand.cta_group);
      if (operand.ws) r += ", ws=True";
      if (!operand.group.empty()) r += ", group=" + tuple_text(operand.group);
      return r + ")";
    }
  }
  return "?";
}

Layout FactoryCall::build() const {
  using K = Kind;
  switch (kind) {
    case K::kDatapath: return tmem_datapath_layout(datapath, rows, cols, sub_slab);
    case K::kAtom: return tcgen05_atom_layout(instr_shape, rows, cols, DType::parse(dtype));
    case K::kWgLocal: return wg_local_layout(cols, rows);
    case K::kSfTmem: return sf_tmem_layout(rows, sf_k, sf_per_mma, sf_reuse, pipe_depth);
    case K::kSfSmem: return sf_smem_layout(rows, sf_k, sf_per_mma, sf_reuse, pipe_depth);
    case K::kMmaShared: return mma_shared_layout(DType::parse(dtype), mode, shape);
    case K::kDefaultTmem: return default_tmem_layout(rows, cols);
    case K::kTmemOperand: return tmem_mma_operand_layout(operand_name, shape, DType::parse(dtype), operand);
  }
  return {};
}

void showValue(const FactoryCall& c, std::ostream& os) { os << c.text(); }

void showValue(const AtomPair& p, std::ostream& os) {
  os << fmt::format("tcgen05.{} of tcgen05_atom_layout(\"{}\", ({}, {}), \"{}\") with tmem_datapath_layout(\"{}\", {}, {}{}) "
                    "at column {}",
                    p.store ? "st" : "ld", p.instr_shape, p.rows, p.cols, p.dtype, p.datapath,
                    p.datapath == "D" ? 128 : 64, p.cols, p.sub_slab ? ", sub_slab=1" : "", p.base_col);  // B, F: 64 rows
}

}  // namespace tirx::props

namespace tirx {
void showValue(const TileLayout& l, std::ostream& os) { os << print_layout(Layout(l)); }
void showValue(const ComposeLayout& l, std::ostream& os) { os << print_layout(Layout(l)); }
void showValue(const Layout& l, std::ostream& os) { os << print_layout(l); }
}  // namespace tirx
