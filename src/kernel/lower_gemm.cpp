// Tile-level gemm_async -> tcgen05.mma instructions with TVM's shared-memory descriptors
// (lower_gemm.hpp). Planning only: kernel.mma-descriptor checks the addresses.
#include "tirx_verify/kernel/lower_gemm.hpp"

#include <fmt/format.h>

#include "tirx_verify/kernel/images.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::kernel {

namespace {

struct Refusal {
  std::string why;
  bool not_modelled = false;
};
[[noreturn]] void refuse(std::string why, bool not_modelled = false) { throw Refusal{std::move(why), not_modelled}; }

// TVM SwizzleMode of a layout (get_swizzle_mode_from_layout): 0..3.
int swizzle_mode_of(const Layout& l) {
  const SwizzleSpec* s = l.swizzle();
  if (!s || s->swizzle_len == 0) return 0;
  if (!s->swizzle_inner) refuse("the operand layout swizzles with swizzle_inner=False, which no descriptor implements");
  if (s->swizzle_len > 3) refuse(fmt::format("swizzle_len {} names no descriptor swizzle mode", s->swizzle_len));
  return s->swizzle_len;
}

hw::TmaSwizzle hw_mode(int mode) {
  switch (mode) {
    case 1: return hw::TmaSwizzle::k32B;
    case 2: return hw::TmaSwizzle::k64B;
    case 3: return hw::TmaSwizzle::k128B;
    default: return hw::TmaSwizzle::kNone;
  }
}

int swizzle_row_bytes(int mode) { return 16 << mode; }  // 32B / 64B / 128B

struct Canonical {
  int mode = 0;
  std::int64_t ldo16 = 0, sdo16 = 0;  // 16-byte units
  bool mn_major = false;
};

// The two non-unit extents of a region (TVM _mat_dim_vals / shape_2d).
std::vector<std::int64_t> matrix_dims(const std::vector<std::int64_t>& extents, const char* what) {
  std::vector<std::int64_t> v;
  for (auto e : extents)
    if (e != 1) v.push_back(e);
  if (v.size() != 2) refuse(fmt::format("{} region has {} non-unit dimensions, not 2", what, v.size()));
  return v;
}

// compute_canonical_params (header): swizzle mode, LBO, SBO (16-byte units), major-ness.
Canonical canonical_params(const ResolvedBuffer& buf, const Region& region, bool transposed, const char* what) {
  const Layout& l = *buf.layout;
  const auto& shape = buf.model->shape;
  const int bits = buf.elem_bits;
  if (bits <= 0 || 128 % bits != 0) refuse(fmt::format("{} has {}-bit elements", what, bits));
  const std::int64_t e16 = 128 / bits;
  const int phys = swizzle_mode_of(l);
  std::vector<std::pair<std::int64_t, std::int64_t>> desc_region;
  for (const auto& d : region.dims) desc_region.emplace_back(d.lo, d.hi);
  const std::size_t cax = desc_region.size() - 1;
  if (phys != 0) {
    const std::int64_t atom_inner = swizzle_row_bytes(phys) * 8 / bits;
    const std::int64_t contig = desc_region[cax].second - desc_region[cax].first;
    const std::int64_t rounded = (contig + atom_inner - 1) / atom_inner * atom_inner;
    if (rounded != contig) {
      if (desc_region[cax].first % e16 != 0)
        refuse(fmt::format("{}: contiguous-axis slice start {} is not 16-byte aligned ({} elements)", what,
                           desc_region[cax].first, e16));
      desc_region[cax] = {0, rounded};
    }
  }
  std::optional<Layout> sl;
  try {
    sl = slice(l, shape, desc_region);
  } catch (const InputError& e) {
    refuse(fmt::format("{}: the layout cannot be sliced by the (atom-rounded) region: {}", what, e.message()));
  }
  if (!sl) refuse(fmt::format("{}: the layout cannot be sliced by the (atom-rounded) region", what));
  std::vector<std::int64_t> ext;
  for (const auto& [lo, hi] : desc_region) ext.push_back(hi - lo);
  const std::vector<std::int64_t> shape_2d = matrix_dims(ext, what);
  if (phys == 0) {
    if (sl->is_compose()) refuse(fmt::format("{}: no-swizzle descriptors require a plain TileLayout", what));
    auto gr = try_group(canonicalize(sl->tile()), shape_2d);
    if (!gr) refuse(fmt::format("{}: the no-swizzle layout cannot be grouped by {}", what, coord_text(shape_2d)));
    const auto& sh = gr->layout.shard;
    if (sh.size() >= 3) {
      const Iter &d0 = sh[sh.size() - 3], &d1 = sh[sh.size() - 2], &d2 = sh[sh.size() - 1];
      const bool packed = d0.extent == shape_2d[0] && d0.stride == e16 && d1.extent * d2.extent == shape_2d[1] &&
                          d1.stride == shape_2d[0] * e16 && d2.extent == e16 && d2.stride == 1;
      if (packed) {
        if (e16 != 8)
          refuse(fmt::format("{}: no-swizzle packed-16B descriptors are only supported for 16-bit dtypes", what));
        return {0, shape_2d[0], 8, transposed};
      }
    }
    if (sh.size() < 2) refuse(fmt::format("{}: the no-swizzle layout has fewer than two iterators", what));
    const Iter &d0 = sh[sh.size() - 2], &d1 = sh[sh.size() - 1];
    if (!(d0.stride == 1 && d1.stride == shape_2d[0]))
      refuse(fmt::format("{}: no-swizzle descriptors need the penultimate matrix dimension contiguous or 16-byte "
                         "packed",
                         what));
    if (shape_2d[0] != 8 * e16)
      refuse(fmt::format("{}: no-swizzle column-major views need a contiguous dimension of exactly 128 bytes ({} "
                         "elements), not {}",
                         what, 8 * e16, shape_2d[0]));
    return {0, d1.stride, 8, transposed};
  }
  const int pe = log2_exact(e16);
  for (const int mode : {3, 2, 1}) {
    const std::int64_t period = std::int64_t{1} << (pe + mode + 3);
    const SwizzleSpec spec{pe, mode, 3, true};
    const Layout atom(ComposeLayout(spec, TileLayout({Iter{period, 1, AxisId::m}})));
    const std::vector<std::int64_t> base_shape = {8, swizzle_row_bytes(mode) * 8 / bits};
    const std::vector<std::int64_t> swapped = {base_shape[1], base_shape[0]};
    const Layout mn_atom(
        ComposeLayout(spec, TileLayout({Iter{swapped[0], 1, AxisId::m}, Iter{swapped[1], swapped[0], AxisId::m}})));
    struct Cand {
      bool mn;
      const Layout* atom;
      const std::vector<std::int64_t>* shape;
    };
    const std::vector<Cand> cands = transposed ? std::vector<Cand>{{false, &mn_atom, &swapped}, {true, &atom, &base_shape}}
                                               : std::vector<Cand>{{false, &atom, &base_shape}, {true, &mn_atom, &swapped}};
    for (const Cand& c : cands) {
      if (shape_2d[0] % (*c.shape)[0] || shape_2d[1] % (*c.shape)[1]) continue;
      const std::int64_t atom_size = (*c.shape)[0] * (*c.shape)[1];
      std::optional<TileLayout> tiler;
      try {
        tiler = is_tile_inner(*c.atom, *sl, shape_2d, *c.shape);
      } catch (const InputError&) {
        tiler.reset();
      }
      if (!tiler) continue;
      const std::vector<std::int64_t> tiler_shape = {shape_2d[0] / (*c.shape)[0], shape_2d[1] / (*c.shape)[1]};
      // Each tiler dimension must be one iter (TVM's group keeps a unit iter for an extent-1
      // dimension, ours drops it: an empty block of extent 1 is TVM's unit iter, offset 0).
      auto tg = try_group(canonicalize(*tiler), tiler_shape);
      if (!tg) continue;
      std::int64_t offs[2] = {0, 0};
      bool one_iter = true;
      for (std::size_t d = 0; d < 2; ++d) {
        const std::size_t n_it = tg->seps[d + 1] - tg->seps[d];
        if (tiler_shape[d] == 1 && n_it == 0) continue;
        if (n_it != 1) {
          one_iter = false;
          break;
        }
        const Iter& it = tg->layout.shard[tg->seps[d]];
        offs[d] = it.extent == 1 ? 0 : checked_mul(it.stride, atom_size) / e16;
      }
      if (!one_iter) continue;
      std::int64_t ldo = offs[1], sdo = offs[0];
      if (c.mn != transposed) std::swap(ldo, sdo);
      return {mode, ldo, sdo, c.mn};
    }
  }
  refuse(fmt::format("{}: no MMA shared-memory descriptor matches region shape {} of {} (the layout swizzles {}; the "
                     "region's layout does not tile that atom)",
                     what, coord_text(shape_2d), buf.model->dtype, hw::to_string(hw_mode(phys))));
}

// The pre-swizzle element address of region element `linear` (row-major over the region's
// extents) in the sliced layout: TVM's slice_tile.apply(linear)["m"]. Sliced once per operand.
class SlicedTile {
 public:
  SlicedTile(const ResolvedBuffer& buf, const Region& region) {
    std::vector<std::pair<std::int64_t, std::int64_t>> reg;
    for (const auto& d : region.dims) reg.emplace_back(d.lo, d.hi);
    auto sl = slice(*buf.layout, buf.model->shape, reg);
    if (!sl) refuse(fmt::format("the layout of {} cannot be sliced by {}", buf.model->name, region.text));
    identity_ = sl->is_compose() && sl->as_compose().is_swizzle_only();
    tile_ = sl->tile();
  }
  std::int64_t m(std::int64_t linear) const { return identity_ ? linear : tile_.apply(linear).get(AxisId::m); }

 private:
  TileLayout tile_;
  bool identity_ = false;
};

// The part of a view's m offset TIRx keeps in the buffer's elem_offset rather than in its
// layout (_buffer_view._rebuild_view: an offset that is a whole number of swizzle periods, or
// any offset without a swizzle). The model writes a view's whole offset into its layout; TVM's
// descriptor start, ptr_to(0) + the slice's pre-swizzle m, counts the elem_offset part once in
// ptr_to only, so it is taken out of m here. A non-commuting offset is taken as all layout.
std::int64_t elem_offset_part(const Layout& l) {
  const std::int64_t off = l.tile().offset.get(AxisId::m);
  const SwizzleSpec* s = l.swizzle();
  if (!s || s->swizzle_len == 0) return off;
  return floor_mod(off, s->period()) == 0 ? off : 0;
}

int mma_k_of(const std::string& dtype) {
  if (dtype == "float4_e2m1fn") return 64;
  if (dtype == "float8_e4m3fn" || dtype == "float8_e5m2" || dtype == "float8_e4m3") return 32;
  if (dtype == "float32") return 8;  // tf32
  return 16;
}

GemmPlan plan(const KernelContext& ctx, const GemmAsyncOp& g, int cta_group, std::int64_t max_instrs) {
  const ResolvedBuffer* C = ctx.buffer(g.d.buffer);
  const ResolvedBuffer* A = ctx.buffer(g.a.buffer);
  const ResolvedBuffer* B = ctx.buffer(g.b.buffer);
  for (const ResolvedBuffer* b : {C, A, B})
    if (!b->layout) refuse(fmt::format("the layout of {} did not parse", b->model->name), true);
  const bool a_tmem = A->scope == prove::Scope::kTmem;
  if (cta_group != 1 && cta_group != 2) refuse(fmt::format("cta_group {} is not 1 or 2", cta_group));
  if (C->model->dtype != "float32") refuse(fmt::format("the accumulator is {}, TVM's tcgen05 gemm needs float32",
                                                       C->model->dtype));
  const std::string& at = A->model->dtype;
  const std::string& bt = B->model->dtype;
  if (at != bt) refuse(fmt::format("A is {} and B is {}: TVM's tcgen05 gemm needs one MMA dtype", at, bt));
  const bool block_scaled = g.sfa.has_value();
  static const std::vector<std::string> kDense = {"float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "float32"};
  static const std::vector<std::string> kScaled = {"float4_e2m1fn", "float8_e4m3fn"};
  const auto& allowed = block_scaled ? kScaled : kDense;
  if (std::find(allowed.begin(), allowed.end(), at) == allowed.end())
    refuse(fmt::format("A/B dtype {} is not a {} tcgen05 gemm dtype", at, block_scaled ? "block-scaled" : "dense"));
  std::vector<std::int64_t> c_ext;
  for (const auto& d : g.d.dims) c_ext.push_back(d.hi - d.lo);
  while (c_ext.size() > 2 && c_ext.front() == 1) c_ext.erase(c_ext.begin());
  if (c_ext.size() != 2) refuse("the batched C[2, M, N] (.ws Layout E) form is not modelled", true);
  const std::int64_t M = c_ext[0], N = c_ext[1];
  std::vector<std::int64_t> a_ext, b_ext;
  for (const auto& d : g.a.dims) a_ext.push_back(d.hi - d.lo);
  for (const auto& d : g.b.dims) b_ext.push_back(d.hi - d.lo);
  if (a_tmem && a_ext.size() == 3 && a_ext[0] == 2) refuse("the batched A[2, M, K] form is not modelled", true);
  const auto ad = matrix_dims(a_ext, "A"), bd = matrix_dims(b_ext, "B");
  const int mma_k = mma_k_of(at);
  const std::int64_t K = g.a_km ? ad[0] : ad[1];
  const std::int64_t a_m = g.a_km ? ad[1] : ad[0];
  const std::int64_t b_k = g.b_kn ? bd[0] : bd[1];
  const std::int64_t b_n = g.b_kn ? bd[1] : bd[0];
  // _choose_mma_tile
  const std::int64_t m_total = M * cta_group;
  std::int64_t m_desc = 0;
  for (std::int64_t v : cta_group == 1 ? std::vector<std::int64_t>{128, 64} : std::vector<std::int64_t>{256, 128})
    if (m_total % v == 0) {
      m_desc = v;
      break;
    }
  if (!m_desc) refuse(fmt::format("M = {} (x cta_group {}) is not divisible by a descriptor M", M, cta_group));
  const std::int64_t m_mma = m_desc / cta_group;
  const std::int64_t n_min = cta_group == 1 ? 8 : 16;
  std::int64_t n_mma = 0;
  if (N <= 256 && N % n_min == 0) n_mma = N;
  else
    for (std::int64_t n = 256; n >= n_min; n -= n_min)
      if (N % n == 0) {
        n_mma = n;
        break;
      }
  if (!n_mma) refuse(fmt::format("no instruction N <= 256 divides N = {} (multiples of {})", N, n_min));
  if (K % mma_k != 0) refuse(fmt::format("K = {} is not a multiple of the instruction's K = {}", K, mma_k));
  if (a_m != M) refuse(fmt::format("A has {} rows, D has M = {}", a_m, M));
  if (b_k != K) refuse(fmt::format("A has K = {}, B has K = {}", K, b_k));
  if (b_n * cta_group != N)
    refuse(fmt::format("B has {} rows x cta_group {} != N = {}", b_n, cta_group, N));
  const std::int64_t m_tiles = M / m_mma, n_tiles = N / n_mma, k_iters = K / mma_k;
  const std::int64_t n_per_cta = n_mma / cta_group;
  if (checked_mul(checked_mul(m_tiles, n_tiles), k_iters) > max_instrs)
    refuse(fmt::format("the plan has more than {} instructions", max_instrs), true);
  std::optional<Canonical> ca;
  if (!a_tmem) ca = canonical_params(*A, g.a, g.a_km, "A");
  const Canonical cb = canonical_params(*B, g.b, g.b_kn, "B");
  if (at == "float32" && ((ca && ca->mn_major) || cb.mn_major))
    refuse("a tf32 operand matched an MN-major layout, which PTX allows only with the 128B-32B-atomicity swizzle");
  auto base_of = [&](const ResolvedBuffer& b) {
    return smem_byte_images(b, std::vector<std::int64_t>(b.model->shape.size(), 0)).front();
  };
  const std::int64_t a_base = ca ? base_of(*A) : 0, b_base = base_of(*B);
  std::optional<SlicedTile> a_tile;
  if (ca) a_tile.emplace(*A, g.a);
  const SlicedTile b_tile(*B, g.b);
  auto desc_at = [&](const ResolvedBuffer& b, const Canonical& c, std::int64_t m_pre) {
    hw::SmemDescriptor d;
    const std::int64_t e16 = 128 / b.elem_bits;
    m_pre = checked_sub(m_pre, elem_offset_part(*b.layout));
    const std::int64_t start = checked_add(&b == A ? a_base : b_base, checked_mul(floor_div(m_pre, e16), 16));
    if (start < 0 || start >= (1 << 18)) refuse(fmt::format("descriptor start address {} is outside [0, 2^18)", start));
    d.start_address = static_cast<std::uint32_t>(start);
    d.lbo = static_cast<std::uint32_t>(checked_mul(c.ldo16, 16));
    d.sbo = static_cast<std::uint32_t>(checked_mul(c.sdo16, 16));
    d.swizzle = hw_mode(c.mode);
    d.base_offset = 0;
    d.variant = hw::DescriptorVariant::kBlackwell;
    return d;
  };
  GemmPlan p;
  p.m_mma = m_mma;
  p.n_mma = n_mma;
  p.k = mma_k;
  p.cta_group = cta_group;
  for (std::int64_t mi = 0; mi < m_tiles; ++mi)
    for (std::int64_t ni = 0; ni < n_tiles; ++ni)
      for (std::int64_t ki = 0; ki < k_iters; ++ki) {
        GemmPlan::Instr in;
        in.mi = static_cast<int>(mi);
        in.ni = static_cast<int>(ni);
        in.ki = static_cast<int>(ki);
        if (ca) {
          const std::int64_t lin = g.a_km ? ki * mma_k * a_ext.back() + mi * m_mma : mi * m_mma * a_ext.back() + ki * mma_k;
          in.a = GemmPlan::OperandDesc{mi * m_mma, ki * mma_k, m_mma, desc_at(*A, *ca, a_tile->m(lin)),
                                       ca->mn_major};
        }
        const std::int64_t lin =
            g.b_kn ? ki * mma_k * b_ext.back() + ni * n_per_cta : ni * n_per_cta * b_ext.back() + ki * mma_k;
        in.b = GemmPlan::OperandDesc{ni * n_per_cta, ki * mma_k, n_per_cta, desc_at(*B, cb, b_tile.m(lin)),
                                     cb.mn_major};
        p.instrs.push_back(std::move(in));
      }
  auto dtext = [](const Canonical& c) {
    return fmt::format("{} {}-major LBO {} SBO {}", hw::to_string(hw_mode(c.mode)), c.mn_major ? "MN" : "K",
                       c.ldo16 * 16, c.sdo16 * 16);
  };
  p.summary = fmt::format("{} x tcgen05.mma {}x{}x{}{}; A {}; B {}", p.instrs.size(), m_mma * cta_group, n_mma,
                          mma_k, cta_group == 2 ? " .cta_group::2" : "", ca ? dtext(*ca) : std::string("in TMEM"),
                          dtext(cb));
  return p;
}

}  // namespace

GemmLowering lower_gemm_async(const KernelContext& ctx, const GemmAsyncOp& g, int cta_group, std::int64_t max_instrs) {
  GemmLowering out;
  try {
    out.plan = plan(ctx, g, cta_group, max_instrs);
  } catch (const Refusal& r) {
    out.error = r.why;
    out.not_modelled = r.not_modelled;
  } catch (const InputError& e) {
    out.error = fmt::format("[{}] {}", e.check_id(), e.message());
  }
  return out;
}

}  // namespace tirx::kernel
