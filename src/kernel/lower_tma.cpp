// Tile-level copy_async (dispatch tma) -> TMA instructions, as TVM's tma_auto / tma_explicit
// plan them (lower_tma.hpp). Planning only: the bytes are checked by kernel.tma-layout.
#include "tirx_verify/kernel/lower_tma.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::kernel {

namespace {

struct TmaRefusal {
  std::string stage, why;
};
[[noreturn]] void refuse_tma(std::string stage, std::string why) { throw TmaRefusal{std::move(stage), std::move(why)}; }

// TensorMap element types TVM's descriptor contract accepts, with their bits.
int descriptor_bits(const std::string& dtype) {
  static const std::map<std::string, int> kBits = {
      {"int8", 8},     {"int32", 32},   {"int64", 64},     {"uint8", 8},          {"uint16", 16},
      {"uint32", 32},  {"uint64", 64},  {"float16", 16},   {"float32", 32},       {"float64", 64},
      {"bfloat16", 16}, {"float8_e4m3fn", 8}, {"float8_e5m2", 8}, {"float4_e2m1fn", 4}};
  auto it = kBits.find(dtype);
  return it == kBits.end() ? 0 : it->second;
}

// The layout without its swizzle (TVM strip_swizzle_to_tile): a bare swizzle becomes the
// identity over the buffer's shape.
TileLayout pre_swizzle_tile(const Layout& l, const std::vector<std::int64_t>& shape) {
  if (!l.is_compose()) return l.tile();
  const ComposeLayout& c = l.as_compose();
  if (c.is_swizzle_only()) return TileLayout::row_major(shape);
  return c.tile;
}

hw::TmaSwizzle tma_swizzle_mode_of(const Layout& l) {
  const SwizzleSpec* s = l.swizzle();
  if (!s || s->swizzle_len == 0) return hw::TmaSwizzle::kNone;
  if (!s->swizzle_inner)
    refuse_tma("shared-swizzle", "the shared layout swizzles with swizzle_inner=False, which no TMA mode implements");
  switch (s->swizzle_len) {
    case 1: return hw::TmaSwizzle::k32B;
    case 2: return hw::TmaSwizzle::k64B;
    case 3: return hw::TmaSwizzle::k128B;
    default: refuse_tma("shared-layout", fmt::format("swizzle_len {} names no TMA swizzle mode", s->swizzle_len));
  }
}

int atom_alignment_bytes(hw::TmaSwizzle m) {
  const int span = hw::tma_swizzle_span_bytes(m);
  return span == 0 ? 16 : span;
}

void require_plain(const TileLayout& t, const char* what, const char* stage) {
  if (!t.replica.empty()) refuse_tma(stage, fmt::format("the {} layout has replica iterators", what));
  for (const Iter& it : t.shard)
    if (it.axis.is_thread())
      refuse_tma(stage, fmt::format("the {} layout has a non-memory iterator on {}", what, it.axis.name()));
  for (const auto& e : t.offset.entries())
    if (e.axis.is_thread() && e.value != 0)
      refuse_tma(stage, fmt::format("the {} layout has a non-memory offset {}@{}", what, e.value, e.axis.name()));
}

std::int64_t memory_offset(const TileLayout& t) {
  std::int64_t v = 0;
  for (const auto& e : t.offset.entries())
    if (e.axis.is_memory()) v = checked_add(v, e.value);
  return v;
}

std::int64_t elements_to_bytes(std::int64_t elements, int bits, const char* stage, const std::string& what) {
  const std::int64_t b = checked_mul(elements, bits, "TMA plan");
  if (b % 8 != 0) refuse_tma(stage, fmt::format("{} = {} elements at {} bits is not a whole number of bytes", what,
                                            elements, bits));
  return b / 8;
}

// ---------------------------------------------------------------------------- the TensorMap spec

struct IssueCoord {
  int dim;
  std::int64_t divisor, modulus;
};
struct IssueAxis {
  std::int64_t extent, smem_stride;
  std::vector<IssueCoord> coords;
};
struct Spec {
  std::string dtype;
  int bits = 0;
  std::vector<std::int64_t> dims, box, coords, full_strides;  // full_strides[0]: the element stride in bytes
  std::int64_t inner_stride = 1;                              // elements
  hw::TmaSwizzle swizzle = hw::TmaSwizzle::kNone;
  std::vector<IssueAxis> issue;
  int effective_bytes() const { return (bits + 7) / 8; }
  std::size_t rank() const { return dims.size(); }
};

struct Rule {
  std::string rule, message;
  bool repairable;
};

// TVM's static TensorMap rules (validate_tensor_map_spec) for a tiled, non-interleaved,
// non-packed load/store.
std::vector<Rule> validate(const Spec& s) {
  std::vector<Rule> out;
  if (s.rank() < 1 || s.rank() > 5) out.push_back({"rank", fmt::format("rank {} is outside [1, 5]", s.rank()), true});
  for (std::size_t i = 1; i < s.full_strides.size(); ++i)
    if (s.full_strides[i] % 16 != 0)
      out.push_back({"global_stride_alignment",
                     fmt::format("globalStrides[{}] = {} is not a multiple of 16 bytes", i - 1, s.full_strides[i]), true});
  if (s.inner_stride != 1)
    out.push_back({"inner_stride", fmt::format("the innermost global element stride is {}, not 1", s.inner_stride),
                   false});
  for (std::size_t i = 0; i < s.box.size(); ++i)
    if (s.box[i] < 1 || s.box[i] > 256)
      out.push_back({"box_dim", fmt::format("boxDim[{}] = {} is outside [1, 256]", i, s.box[i]), true});
  if (!s.box.empty()) {
    const std::int64_t inner = s.box[0] * s.effective_bytes();
    if (inner % 16 != 0)
      out.push_back({"inner_box_bytes", fmt::format("the innermost box is {} bytes, not a multiple of 16", inner), true});
    const int span = hw::tma_swizzle_span_bytes(s.swizzle);
    if (span > 0 && inner > span)
      out.push_back({"swizzle_inner_box",
                     fmt::format("the innermost box of {} bytes exceeds the {}-byte swizzle atom", inner, span), false});
  }
  return out;
}

bool inner_dimension_legal(const Spec& s, std::int64_t box_dim) {
  const std::int64_t inner = box_dim * s.effective_bytes();
  if (inner % 16 != 0) return false;
  const int span = hw::tma_swizzle_span_bytes(s.swizzle);
  return span == 0 || inner <= span;
}

std::vector<bool> issue_dims(const Spec& s) {
  std::vector<bool> used(s.rank(), false);
  for (const auto& a : s.issue)
    for (const auto& c : a.coords) used[static_cast<std::size_t>(c.dim)] = true;
  return used;
}

void erase_dim(Spec& s, std::size_t d) {
  s.dims.erase(s.dims.begin() + static_cast<std::ptrdiff_t>(d));
  s.box.erase(s.box.begin() + static_cast<std::ptrdiff_t>(d));
  s.coords.erase(s.coords.begin() + static_cast<std::ptrdiff_t>(d));
  s.full_strides.erase(s.full_strides.begin() + static_cast<std::ptrdiff_t>(d));
  for (auto& a : s.issue)
    for (auto& c : a.coords)
      if (c.dim > static_cast<int>(d)) --c.dim;
}

// Widens the element type once (uint16/32/64) keeping every byte address (TVM _promote_auto_once).
std::optional<Spec> promote_once(const Spec& s) {
  const int eb = s.effective_bytes();
  if (eb != 1 && eb != 2 && eb != 4) return std::nullopt;
  if (s.bits < 8 || s.inner_stride != 1) return std::nullopt;
  if (issue_dims(s)[0]) return std::nullopt;
  if (s.dims[0] % 2 || s.box[0] % 2 || s.coords[0] % 2) return std::nullopt;
  for (std::size_t i = 1; i < s.full_strides.size(); ++i)
    if (s.full_strides[i] % (2 * eb)) return std::nullopt;
  Spec p = s;
  p.bits = s.bits * 2;
  p.dtype = eb == 1 ? "uint16" : eb == 2 ? "uint32" : "uint64";
  p.dims[0] /= 2;
  p.box[0] /= 2;
  p.coords[0] /= 2;
  p.full_strides[0] = checked_mul(p.full_strides[0], 2);
  return p;
}

// Drops unit dims and merges contiguous neighbours (TVM _canonicalize_auto_plan).
Spec canonicalize_spec(Spec cur) {
  const std::int64_t kMaxDim = std::int64_t{1} << 32;
  while (true) {
    const auto used = issue_dims(cur);
    bool changed = false;
    if (cur.rank() > 1) {
      for (std::size_t d = 0; d < cur.rank() && !changed; ++d) {
        if (used[d] || cur.dims[d] != 1 || cur.box[d] != 1) continue;
        if (d == 0 && (cur.full_strides[1] != cur.full_strides[0] || !inner_dimension_legal(cur, cur.box[1])))
          continue;
        erase_dim(cur, d);
        changed = true;
      }
    }
    if (changed) continue;
    bool promoted = false;
    for (std::size_t in = 0; in + 1 < cur.rank() && !changed && !promoted; ++in) {
      const std::size_t out = in + 1;
      if (used[in] || used[out]) continue;
      std::int64_t mg = 0, mb = 0;
      if (__builtin_mul_overflow(cur.dims[in], cur.dims[out], &mg) || mg > kMaxDim) continue;
      mb = cur.box[in] * cur.box[out];  // <= 256 * 256 * ... fits
      if (cur.box[in] != cur.dims[in] || cur.coords[in] != 0) continue;
      std::int64_t cont = 0;
      if (__builtin_mul_overflow(cur.dims[in], cur.full_strides[in], &cont) || cur.full_strides[out] != cont) continue;
      if (in == 0 && !inner_dimension_legal(cur, mb)) continue;
      if (mb > 256) {
        if (in == 0 && cur.rank() > 2 && cur.box[out] == cur.dims[out] && cur.coords[out] == 0) {
          if (auto p = promote_once(cur)) {
            const std::int64_t pb = p->box[0] * p->box[1];
            const std::int64_t pg = p->dims[0] * p->dims[1];
            if (pb >= 1 && pb <= 256 && pg > 0 && pg <= kMaxDim && inner_dimension_legal(*p, pb)) {
              cur = *p;
              promoted = true;
            }
          }
        }
        continue;
      }
      cur.coords[in] = cur.coords[out] * cur.dims[in];
      cur.dims[in] = mg;
      cur.box[in] = mb;
      erase_dim(cur, out);
      changed = true;
    }
    if (!changed && !promoted) return cur;
  }
}

// Canonicalize, validate, widen while only repairable rules fail (TVM _repair_auto_candidate).
std::optional<Spec> repair(Spec cand, std::vector<Rule>& failures) {
  while (true) {
    cand = canonicalize_spec(std::move(cand));
    failures = validate(cand);
    if (failures.empty()) return cand;
    for (const Rule& r : failures)
      if (!r.repairable) return std::nullopt;
    auto p = promote_once(cand);
    if (!p) return std::nullopt;
    cand = std::move(*p);
  }
}

std::string rules_text(const std::vector<Rule>& rs) {
  std::string s;
  for (const Rule& r : rs) s += fmt::format("{}{}: {}", s.empty() ? "" : "; ", r.rule, r.message);
  return s;
}

// ---------------------------------------------------------------------------- tma_auto

struct GtRec {
  std::int64_t extent, stride;
  int smem_idx;  // -1: a unit coordinate-only dimension
  std::int64_t global_dim, coordinate;
};

struct Inputs {
  const ResolvedBuffer* s;
  const ResolvedBuffer* g;
  std::vector<std::pair<std::int64_t, std::int64_t>> s_reg, g_reg;
  std::vector<std::int64_t> g_starts, g_extents;
  // The global region (the box) runs past the tensor in some dimension (a tile copy's
  // past_tensor): planning slices a layout whose dimensions are extended to hold the box
  // (g_shape_ext), while the tensor map keeps the tensor's own dims.
  bool g_past = false;
  std::vector<std::int64_t> g_shape_ext;
};

// The global layout with its dimensions extended to g_shape_ext (same strides): only a layout of
// one iterator per dimension, as written, can be extended without inventing strides.
TileLayout extended_global(const Inputs& in) {
  const ResolvedBuffer& G = *in.g;
  const auto& shape = G.model->shape;
  if (G.layout->is_compose())
    refuse_tma("not-modelled", "a box past its tensor over a swizzled global layout is not modelled");
  const TileLayout& gl = G.layout->tile();
  bool plain = gl.shard.size() == shape.size() && gl.replica.empty();
  for (std::size_t d = 0; plain && d < shape.size(); ++d) plain = gl.shard[d].extent == shape[d] && gl.shard[d].axis.is_memory();
  if (!plain)
    refuse_tma("not-modelled", fmt::format("a box past its tensor needs a global layout of one memory iterator per "
                                           "dimension, extent for extent, to extend; '{}' of '{}' is not",
                                           G.model->layout, G.model->name));
  std::vector<Iter> shard = gl.shard;
  for (std::size_t d = 0; d < shard.size(); ++d) shard[d].extent = in.g_shape_ext[d];
  return TileLayout(shard, gl.replica, gl.offset);
}

TmaPlan finish(const Spec& sp, const Inputs& in, std::int64_t smem_elem_offset, std::int64_t max_issues,
               const char* planner) {
  TmaPlan p;
  p.dtype = sp.dtype;
  p.elem_bits = sp.bits;
  p.dims = sp.dims;
  p.box = sp.box;
  p.swizzle = sp.swizzle;
  p.planner = planner;
  for (std::size_t i = 1; i < sp.full_strides.size(); ++i) p.strides_bytes.push_back(sp.full_strides[i]);
  std::int64_t count = 1;
  for (const auto& a : sp.issue) {
    count = checked_mul(count, a.extent, "TMA issue count");
    if (count > max_issues)
      refuse_tma("issues", fmt::format("the plan issues more than {} instructions", max_issues));
  }
  const int sbits = in.s->elem_bits;
  for (std::int64_t i = 0; i < count; ++i) {
    TmaPlan::Issue is;
    is.coords = sp.coords;
    std::int64_t off = 0, rest = i;
    for (std::size_t k = sp.issue.size(); k-- > 0;) {  // the last issue axis varies fastest
      const IssueAxis& a = sp.issue[k];
      const std::int64_t v = rest % a.extent;
      rest /= a.extent;
      off = checked_add(off, checked_mul(v, a.smem_stride));
      for (const IssueCoord& c : a.coords) is.coords[static_cast<std::size_t>(c.dim)] += (v / c.divisor) % c.modulus;
    }
    is.smem_byte = checked_add(in.s->smem_base_bytes,
                               elements_to_bytes(checked_add(smem_elem_offset, off), sbits, "shared-pointer",
                                                 "the shared pointer"));
    p.issues.push_back(std::move(is));
  }
  return p;
}

TmaPlan plan_auto(const Inputs& in, std::int64_t max_issues) {
  const ResolvedBuffer& S = *in.s;
  const ResolvedBuffer& G = *in.g;
  if (S.model->dtype != G.model->dtype)
    refuse_tma("dtype", fmt::format("shared dtype {} and global dtype {} differ", S.model->dtype, G.model->dtype));
  const hw::TmaSwizzle swz = tma_swizzle_mode_of(*S.layout);
  // Shared side: the pre-swizzle tile of the region, canonical, refined by the copy's extents.
  const TileLayout st = pre_swizzle_tile(*S.layout, S.model->shape);
  require_plain(st, "shared", "shared-slice");
  std::optional<Layout> sl;
  try {
    sl = slice(Layout(st), S.model->shape, in.s_reg);
  } catch (const InputError& e) {
    refuse_tma("shared-slice", e.message());
  }
  if (!sl) refuse_tma("shared-slice", "the shared layout cannot be sliced by the region");
  const std::int64_t smem_layout_offset = memory_offset(sl->tile());
  TileLayout sliced = canonicalize(TileLayout(sl->tile().shard, sl->tile().replica, {}));
  require_plain(sliced, "canonical sliced shared", "shared-canonicalize");
  Shape canon_shape;
  for (const Iter& it : sliced.shard) canon_shape.push_back(it.extent);
  try {
    const std::vector<Shape> shapes = {canon_shape, in.g_extents};
    sliced = group_many(sliced, shapes).layout;
  } catch (const InputError& e) {
    refuse_tma("group-shared", fmt::format("cannot refine the shared shape by the copy shape: {}", e.message()));
  }
  std::vector<std::pair<std::int64_t, std::size_t>> by_stride;
  for (std::size_t k = 0; k < sliced.shard.size(); ++k)
    if (sliced.shard[k].extent != 1) by_stride.emplace_back(sliced.shard[k].stride, k);
  std::stable_sort(by_stride.begin(), by_stride.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::size_t> order;
  for (const auto& [s, k] : by_stride) order.push_back(k);
  if (order.empty()) refuse_tma("shared-chain", "the copy region has no non-unit shared-memory iterator");
  if (sliced.shard[order[0]].stride != 1)
    refuse_tma("shared-chain", fmt::format("the smallest shared stride is {}, not 1", sliced.shard[order[0]].stride));
  for (std::size_t p = 1; p < order.size(); ++p) {
    const Iter& prev = sliced.shard[order[p - 1]];
    const Iter& cur = sliced.shard[order[p]];
    if (cur.stride != checked_mul(prev.stride, prev.extent))
      refuse_tma("shared-chain", fmt::format("shared iterator {} has stride {}, expected {} after extent {}: the region is "
                                         "not one contiguous run of the pre-swizzle layout",
                                         order[p], cur.stride, prev.stride * prev.extent, prev.extent));
  }
  // Global side: slice each dimension, group jointly with the shared iters and the copy dims.
  const std::vector<std::int64_t>& gshape = in.g_past ? in.g_shape_ext : G.model->shape;
  const TileLayout gt = in.g_past ? extended_global(in) : pre_swizzle_tile(*G.layout, G.model->shape);
  require_plain(gt, "global", "global-slice");
  auto gg = try_group(gt, gshape);
  if (!gg) refuse_tma("global-slice", "the global layout cannot be grouped by the buffer's shape");
  std::vector<Iter> gshard;
  OffsetMap goff = gg->layout.offset;
  for (std::size_t d = 0; d < gshape.size(); ++d) {
    std::vector<Iter> block(gg->layout.shard.begin() + static_cast<std::ptrdiff_t>(gg->seps[d]),
                            gg->layout.shard.begin() + static_cast<std::ptrdiff_t>(gg->seps[d + 1]));
    if (block.empty()) continue;  // an extent-1 dimension: group_many below restores a unit iter
    const std::int64_t dim_shape[1] = {gshape[d]};
    const std::pair<std::int64_t, std::int64_t> dim_reg[1] = {in.g_reg[d]};
    std::optional<Layout> s;
    try {
      s = slice(Layout(TileLayout(block)), dim_shape, dim_reg);
    } catch (const InputError& e) {
      refuse_tma("global-slice", fmt::format("global dimension {}: {}", d, e.message()));
    }
    if (!s) refuse_tma("global-slice", fmt::format("global dimension {} cannot be sliced", d));
    for (const Iter& it : s->tile().shard) gshard.push_back(it);
    for (const auto& e : s->tile().offset.entries()) goff.add(e.axis, e.value);
  }
  Shape smem_shape;
  for (const Iter& it : sliced.shard) smem_shape.push_back(it.extent);
  GroupedMany gj;
  try {
    const std::vector<Shape> shapes = {smem_shape, in.g_extents};
    gj = group_many(TileLayout(gshard, {}, goff), shapes);
  } catch (const InputError& e) {
    refuse_tma("group-global", fmt::format("cannot group the global layout by the shared shape and the copy shape: {}",
                                       e.message()));
  }
  const auto& smem_sep = gj.seps[0];
  const auto& copy_sep = gj.seps[1];
  std::vector<int> shard_to_smem(gj.layout.shard.size(), -1);
  for (std::size_t s = 0; s + 1 < smem_sep.size(); ++s)
    for (std::size_t k = smem_sep[s]; k < smem_sep[s + 1]; ++k) shard_to_smem[k] = static_cast<int>(s);
  std::vector<GtRec> recs(gj.layout.shard.size());
  for (std::size_t c = 0; c + 1 < copy_sep.size(); ++c) {
    const std::size_t lo = copy_sep[c], hi = copy_sep[c + 1];
    if (lo == hi) refuse_tma("copy-group", fmt::format("copy dimension {} has no global iterator", c));
    std::int64_t inner = 1;
    for (std::size_t k = lo + 1; k < hi; ++k) inner = checked_mul(inner, gj.layout.shard[k].extent);
    if (in.g_starts[c] % inner != 0)
      refuse_tma("coordinate", fmt::format("copy dimension {} starts at {}, not a multiple of the inner product {}", c,
                                       in.g_starts[c], inner));
    if (G.model->shape[c] % inner != 0)
      refuse_tma("global-shape", fmt::format("global dimension {} has extent {}, not a multiple of the inner product {}",
                                         c, G.model->shape[c], inner));
    for (std::size_t k = lo; k < hi; ++k) {
      const Iter& it = gj.layout.shard[k];
      GtRec r{it.extent, it.stride, it.extent == 1 ? -1 : shard_to_smem[k], it.extent, 0};
      if (k == lo) {
        r.global_dim = G.model->shape[c] / inner;
        r.coordinate = in.g_starts[c] / inner;
      }
      recs[k] = r;
    }
  }
  const int bits = descriptor_bits(G.model->dtype);
  if (bits == 0) refuse_tma("dtype", fmt::format("TensorMap descriptor dtype {} is not supported", G.model->dtype));
  if (bits < 8) refuse_tma("not-modelled", "packed sub-byte TensorMaps (16U4_ALIGN16B for float4_e2m1fn) are not modelled");
  const std::int64_t global_base = elements_to_bytes(memory_offset(gt), bits, "global-base", "the global view offset");
  if (global_base % 16 != 0)
    refuse_tma("global_base_alignment", fmt::format("the global view starts at byte {}, not 16-byte aligned", global_base));
  // Prefix search.
  std::optional<Spec> best;
  std::vector<Rule> last_failures;
  for (std::size_t prefix = 1; prefix <= order.size(); ++prefix) {
    std::vector<std::vector<std::size_t>> by_smem(sliced.shard.size());
    std::vector<std::size_t> detached;
    for (std::size_t k = 0; k < recs.size(); ++k) {
      if (recs[k].smem_idx < 0) detached.push_back(k);
      else by_smem[static_cast<std::size_t>(recs[k].smem_idx)].push_back(k);
    }
    std::vector<std::size_t> cuda;
    for (std::size_t s : order) cuda.insert(cuda.end(), by_smem[s].rbegin(), by_smem[s].rend());
    for (std::size_t s = 0; s < sliced.shard.size(); ++s)
      if (sliced.shard[s].extent == 1) cuda.insert(cuda.end(), by_smem[s].rbegin(), by_smem[s].rend());
    cuda.insert(cuda.end(), detached.begin(), detached.end());
    if (cuda.size() != recs.size())
      refuse_tma("descriptor-order", "not every global iterator maps to shared data or a coordinate-only dimension");
    std::vector<int> dim_of(recs.size(), -1);
    for (std::size_t d = 0; d < cuda.size(); ++d) dim_of[cuda[d]] = static_cast<int>(d);
    std::vector<bool> selected(sliced.shard.size(), false);
    for (std::size_t p = 0; p < prefix; ++p) selected[order[p]] = true;
    Spec sp;
    sp.dtype = G.model->dtype;
    sp.bits = bits;
    sp.swizzle = swz;
    for (std::size_t k : cuda) {
      const GtRec& r = recs[k];
      sp.dims.push_back(r.global_dim);
      sp.coords.push_back(r.coordinate);
      sp.box.push_back(r.smem_idx >= 0 && selected[static_cast<std::size_t>(r.smem_idx)] ? r.extent : 1);
      sp.full_strides.push_back(elements_to_bytes(r.stride, bits, "descriptor-stride", "a global stride"));
    }
    sp.inner_stride = recs[cuda[0]].stride;
    for (std::size_t p = prefix; p < order.size(); ++p) {
      const std::size_t s = order[p];
      IssueAxis ax{sliced.shard[s].extent, sliced.shard[s].stride, {}};
      std::int64_t prod = 1, inner = 1;
      std::vector<IssueCoord> local;
      for (auto it = by_smem[s].rbegin(); it != by_smem[s].rend(); ++it) {
        prod = checked_mul(prod, recs[*it].extent);
        local.push_back({dim_of[*it], inner, recs[*it].extent});
        inner = checked_mul(inner, recs[*it].extent);
      }
      if (prod != ax.extent)
        refuse_tma("issue-axis", fmt::format("shared iterator {} of extent {} maps to global extent {}", s, ax.extent, prod));
      ax.coords.assign(local.rbegin(), local.rend());
      sp.issue.push_back(std::move(ax));
    }
    // The shared pointer keeps the swizzle atom's alignment; the issue loops cover the region once.
    const std::int64_t start_bytes = elements_to_bytes(smem_layout_offset, S.elem_bits, "shared-pointer",
                                                       "the shared slice offset");
    if (start_bytes % atom_alignment_bytes(swz) != 0)
      refuse_tma("shared-pointer", fmt::format("the shared slice starts {} bytes into the buffer, not {}-byte aligned",
                                           start_bytes, atom_alignment_bytes(swz)));
    std::int64_t covered = 1;
    for (auto b : sp.box) covered = checked_mul(covered, b);
    for (const IssueAxis& a : sp.issue) {
      if (a.smem_stride != covered)
        refuse_tma("issue-coverage", fmt::format("an issue loop steps {} elements, the box covers {}", a.smem_stride, covered));
      covered = checked_mul(covered, a.extent);
    }
    std::vector<Rule> failures;
    auto repaired = repair(std::move(sp), failures);
    if (!repaired) {
      last_failures = failures;
      if (best) break;
      continue;
    }
    best = std::move(repaired);
  }
  if (!best)
    refuse_tma("prefix-search", last_failures.empty() ? std::string("no legal shared-memory prefix")
                                                  : rules_text(last_failures));
  TmaPlan p = finish(*best, in, smem_layout_offset, max_issues, "tma_auto");
  p.global_base_bytes = global_base;
  return p;
}

// ---------------------------------------------------------------------------- tma_explicit

TmaPlan plan_explicit(const Inputs& in, std::int64_t max_issues) {
  const ResolvedBuffer& S = *in.s;
  const ResolvedBuffer& G = *in.g;
  const hw::TmaSwizzle swz = tma_swizzle_mode_of(*S.layout);
  const TileLayout st = pre_swizzle_tile(*S.layout, S.model->shape);
  require_plain(st, "shared", "shared-layout");
  std::optional<Layout> sl;
  try {
    sl = slice(Layout(st), S.model->shape, in.s_reg);
  } catch (const InputError& e) {
    refuse_tma("shared-layout", e.message());
  }
  if (!sl) refuse_tma("shared-layout", "the shared layout cannot be sliced by the region");
  const std::int64_t offset = memory_offset(sl->tile());
  const TileLayout canon = canonicalize(TileLayout(sl->tile().shard, sl->tile().replica, {}));
  const bool trivial = canon.replica.empty() && canon.shard.size() == 1 && canon.shard[0].stride == 1;
  if (!trivial)
    refuse_tma("shared-layout", "the sliced shared layout is not one contiguous run (tma_explicit needs a trivial layout)");
  const std::int64_t byte_offset = elements_to_bytes(offset, S.elem_bits, "shared-layout", "the shared pointer offset");
  if (byte_offset % atom_alignment_bytes(swz) != 0)
    refuse_tma("shared-layout", fmt::format("the shared pointer offset {} bytes breaks the {}-byte swizzle alignment",
                                        byte_offset, atom_alignment_bytes(swz)));
  if (G.layout->is_compose()) refuse_tma("global-layout", "the global layout is not a TileLayout");
  const TileLayout& gl = G.layout->tile();
  require_plain(gl, "global", "global-layout");
  if (gl.shard.size() != G.model->shape.size())
    refuse_tma("global-layout", fmt::format("tensor rank {} != memory-layout rank {}", G.model->shape.size(),
                                        gl.shard.size()));
  for (std::size_t d = 0; d < gl.shard.size(); ++d)
    if (gl.shard[d].extent != G.model->shape[d])
      refuse_tma("global-layout", fmt::format("dimension {} has shape {} but layout extent {}", d, G.model->shape[d],
                                          gl.shard[d].extent));
  if (gl.shard.back().stride != 1)
    refuse_tma("global-layout", fmt::format("the innermost memory stride is {}, not 1", gl.shard.back().stride));
  const int bits = descriptor_bits(G.model->dtype);
  if (bits == 0) refuse_tma("dtype", fmt::format("TensorMap descriptor dtype {} is not supported", G.model->dtype));
  if (bits < 8) refuse_tma("not-modelled", "packed sub-byte TensorMaps (16U4_ALIGN16B for float4_e2m1fn) are not modelled");
  Spec sp;
  sp.dtype = G.model->dtype;
  sp.bits = bits;
  sp.swizzle = swz;
  for (std::size_t d = gl.shard.size(); d-- > 0;) {
    sp.dims.push_back(G.model->shape[d]);
    sp.box.push_back(in.g_extents[d]);
    sp.coords.push_back(in.g_starts[d]);
    sp.full_strides.push_back(elements_to_bytes(gl.shard[d].stride, bits, "global-layout", "a global stride"));
  }
  sp.inner_stride = 1;
  const auto failures = validate(sp);
  if (!failures.empty()) refuse_tma("main-descriptor", rules_text(failures));
  TmaPlan p = finish(sp, in, offset, max_issues, "tma_explicit");
  p.global_base_bytes = elements_to_bytes(memory_offset(gl), bits, "global-base", "the global view offset");
  if (p.global_base_bytes % 16 != 0)
    refuse_tma("global_base_alignment", fmt::format("the global view starts at byte {}, not 16-byte aligned",
                                                p.global_base_bytes));
  return p;
}

}  // namespace

TmaLowering lower_tma_copy(const KernelContext& ctx, const Region& shared, const Region& global,
                           std::int64_t max_issues) {
  TmaLowering out;
  Inputs in;
  in.s = ctx.buffer(shared.buffer);
  in.g = ctx.buffer(global.buffer);
  if (!in.s || !in.g || !in.s->layout || !in.g->layout || in.s->elem_bits <= 0 || in.g->elem_bits <= 0) {
    out.stage = "layout";
    out.error = "a buffer's layout or dtype is unusable";
    return out;
  }
  for (const auto& d : shared.dims) in.s_reg.emplace_back(d.lo, d.hi);
  for (std::size_t k = 0; k < global.dims.size(); ++k) {
    const RegionDim& d = global.dims[k];
    in.g_reg.emplace_back(d.lo, d.hi);
    in.g_starts.push_back(d.lo);
    in.g_extents.push_back(d.hi - d.lo);
    const std::int64_t extent = k < in.g->model->shape.size() ? in.g->model->shape[k] : d.hi;
    in.g_past = in.g_past || d.hi > extent;
    in.g_shape_ext.push_back(std::max(extent, d.hi));
  }
  std::string auto_why;
  try {
    out.plan = plan_auto(in, max_issues);
    return out;
  } catch (const TmaRefusal& r) {
    if (r.stage == "not-modelled" || r.stage == "issues") {
      out.stage = r.stage;
      out.error = r.why;
      return out;
    }
    out.stage = r.stage;
    auto_why = fmt::format("tma_auto stage={}: {}", r.stage, r.why);
  } catch (const InputError& e) {
    out.stage = "overflow";
    auto_why = fmt::format("tma_auto: [{}] {}", e.check_id(), e.message());
  }
  try {
    out.plan = plan_explicit(in, max_issues);
    out.stage.clear();
    return out;
  } catch (const TmaRefusal& r) {
    out.error = fmt::format("{}; tma_explicit stage={}: {}", auto_why, r.stage, r.why);
  } catch (const InputError& e) {
    out.error = fmt::format("{}; tma_explicit: [{}] {}", auto_why, e.check_id(), e.message());
  }
  return out;
}

}  // namespace tirx::kernel
