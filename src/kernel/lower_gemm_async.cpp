// The tcgen05.mma instructions of a tile-level gemm_async, as TVM's dispatcher derives them
// (lower_tcgen05.hpp; TVM gemm_async/tcgen05.py: _choose_mma_tile, the packed Layout-E
// inference, the D / A-in-TMEM address arithmetic; cpp/descriptors.py for the kind).
#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/images.hpp"
#include "tirx_verify/kernel/lower_tcgen05.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {

namespace {

[[noreturn]] void reject_gemm(const std::string& why) {
  throw InputError("kernel.lowering", "TVM's tcgen05 gemm_async dispatcher has no plan: " + why);
}

bool is_fp8(const std::string& d) { return d.rfind("float8_e4m3", 0) == 0 || d.rfind("float8_e5m2", 0) == 0; }

const ResolvedBuffer& gemm_buffer_of(const KernelContext& ctx, const Region& r) {
  const ResolvedBuffer* b = ctx.buffer(r.buffer);
  if (!b) throw InputError("model.schema", fmt::format("no buffer '{}'", r.buffer));
  return *b;
}

TmemCell first_cell(const ResolvedBuffer& b, const Region& r) {
  const auto cells = tmem_images(b, r.coord(0));
  return cells.front();
}

}  // namespace

std::string tcgen05_mma_kind(const std::string& a, const std::string& b, const std::string& sf) {
  auto fail = [&]() -> std::string {
    reject_gemm(fmt::format("no tcgen05.mma kind takes A {}, B {}{}", a, b, sf.empty() ? "" : ", scale factors " + sf));
  };
  if (sf.empty()) {
    if ((a == "float16" || a == "bfloat16") && (b == "float16" || b == "bfloat16")) return "f16";
    if (a == "float32" && b == "float32") return "tf32";  // fp32 storage with tf32 semantics (is_AB_tf32)
    if (is_fp8(a) && is_fp8(b)) return "f8f6f4";
    if ((a == "int8" || a == "uint8") && (b == "int8" || b == "uint8")) return "i8";
    return fail();
  }
  if (is_fp8(a) && is_fp8(b) && sf == "float8_e8m0fnu") return "mxf8f6f4";
  if (a == "float4_e2m1fn" && b == "float4_e2m1fn") {
    if (sf == "float8_e8m0fnu") return "mxf4";
    if (sf == "float8_e4m3fn") return "mxf4nvf4";
  }
  return fail();
}

hw::ScaleVec tcgen05_scale_vec(const std::string& kind, const std::string& sf) {
  if (kind == "mxf8f6f4" && sf == "float8_e8m0fnu") return hw::ScaleVec::k1X;
  if ((kind == "mxf4" || kind == "mxf4nvf4") && sf == "float8_e8m0fnu") return hw::ScaleVec::k2X;
  if (kind == "mxf4nvf4" && sf == "float8_e4m3fn") return hw::ScaleVec::k4X;
  reject_gemm(fmt::format("no scale vector for kind::{} with {} scale factors", kind, sf));
}

GemmAsyncPlan lower_gemm_async(const KernelContext& ctx, ImageCache& cache, const Op& op, const GemmAsyncOp& g) {
  const hw::Target& target = *ctx.target;
  const ResolvedBuffer& d = gemm_buffer_of(ctx, g.d);
  const ResolvedBuffer& a = gemm_buffer_of(ctx, g.a);
  const ResolvedBuffer& b = gemm_buffer_of(ctx, g.b);
  GemmAsyncPlan p;
  p.kind = tcgen05_mma_kind(a.model->dtype, b.model->dtype, g.sfa ? gemm_buffer_of(ctx, *g.sfa).model->dtype : "");
  p.cta_group = op.cta_group;
  if (d.model->dtype != "float32") reject_gemm(fmt::format("C must be float32, '{}' is {}", d.model->name, d.model->dtype));
  const auto dk = g.d.kept_shape(), ak = g.a.kept_shape(), bk = g.b.kept_shape();
  p.m = dk[0];
  p.n = dk[1];
  const std::int64_t a_m = g.a_km ? ak[1] : ak[0];
  p.k = g.a_km ? ak[0] : ak[1];
  const std::int64_t b_n = g.b_kn ? bk[1] : bk[0], b_k = g.b_kn ? bk[0] : bk[1];
  if (a_m != p.m) reject_gemm(fmt::format("A has M = {}, C {}", a_m, p.m));
  if (b_k != p.k) reject_gemm(fmt::format("A has K = {}, B {}", p.k, b_k));
  if (b_n * p.cta_group != p.n)
    reject_gemm(fmt::format("B has N = {} per CTA, x cta_group {} is not C's N = {}", b_n, p.cta_group, p.n));
  p.mma_k = hw::mma_kind_k(p.kind);
  if (p.k % p.mma_k != 0) reject_gemm(fmt::format("K = {} is not a multiple of kind::{}'s K = {}", p.k, p.kind, p.mma_k));
  const std::int64_t m_total = p.m * p.cta_group;
  for (int cand : p.cta_group == 1 ? std::vector<int>{128, 64} : std::vector<int>{256, 128})
    if (m_total % cand == 0) {
      p.m_desc = cand;
      break;
    }
  if (!p.m_desc) reject_gemm(fmt::format("M = {} x cta_group {} is no multiple of an instruction M", p.m, p.cta_group));
  p.m_mma = p.m_desc / p.cta_group;
  const int n_min = p.cta_group == 1 ? 8 : 16;
  if (p.n <= 256 && p.n % n_min == 0) {
    p.n_mma = static_cast<int>(p.n);
  } else {
    for (int cand = 256; cand >= n_min; cand -= n_min)
      if (p.n % cand == 0) {
        p.n_mma = cand;
        break;
      }
    if (!p.n_mma) reject_gemm(fmt::format("no instruction N <= 256 (a multiple of {}) divides N = {}", n_min, p.n));
  }
  if (a.scope == prove::Scope::kTmem && g.a_km) reject_gemm("A in TMEM cannot be transposed");
  // The packed Layout-E fold (M, 2, N/2):(1@TLane, 64@TLane, 1@TCol) of a cta_group 1, M 64
  // accumulator is the .ws data path; TVM infers .ws from it.
  p.ws = g.ws;
  const TmemCell d0 = first_cell(d, g.d);
  if (!p.ws && p.cta_group == 1 && p.m == 64 && p.n % 2 == 0 && p.n <= 256) {
    bool packed = true;
    const std::int64_t half = p.n / 2, fold = target.tmem->lanes / 2;
    const TmemImageTable& tt = cache.tmem(d);
    const std::vector<std::int64_t>& flats = cache.flats(d, g.d);
    for (std::size_t i = 0; i < flats.size() && packed; ++i) {
      const std::int64_t m = static_cast<std::int64_t>(i) / p.n, n = static_cast<std::int64_t>(i) % p.n;
      const TmemCell want{d0.lane + m + fold * (n / half), d0.col + n % half, 0};
      const auto imgs = tt.of(flats[i]);
      packed = std::find(imgs.begin(), imgs.end(), want) != imgs.end();
    }
    if (packed) p.ws = p.ws_inferred = true;
  }
  try {
    p.datapath = hw::mma_datapath(p.m_desc, p.cta_group, p.ws);
  } catch (const InputError& e) {
    reject_gemm(e.message());
  }
  p.n_phys = p.datapath == hw::Datapath::B || p.datapath == hw::Datapath::E ? p.n_mma / 2
             : p.datapath == hw::Datapath::G                                 ? p.n_mma / 4
                                                                             : p.n_mma;
  std::optional<TmemCell> a0;
  if (a.scope == prove::Scope::kTmem) a0 = first_cell(a, g.a);
  const std::int64_t m_tiles = p.m / p.m_mma, n_tiles = p.n / p.n_mma, k_iters = p.k / p.mma_k;
  if (checked_mul(checked_mul(m_tiles, n_tiles), k_iters) > 4096)
    reject_gemm(fmt::format("{} x {} x {} instructions exceed the 4096 a check follows", m_tiles, n_tiles, k_iters));
  for (int mi = 0; mi < m_tiles; ++mi)
    for (int ni = 0; ni < n_tiles; ++ni)
      for (int ki = 0; ki < k_iters; ++ki) {
        MmaTile t;
        t.mi = mi;
        t.ni = ni;
        t.ki = ki;
        t.d = {d0.lane + (m_tiles == 1 ? 0 : mi * p.m_mma), d0.col + ni * p.n_phys};
        if (a0) t.a = TmemRef{a0->lane + (m_tiles == 1 ? 0 : mi * p.m_mma), a0->col + ki * p.mma_k * a.elem_bits / 32};
        p.tiles.push_back(t);
      }
  p.path = fmt::format("tcgen05.mma{}.cta_group::{}.kind::{} M={} N={} (Layout {}{}), {} x {} x {} instructions",
                       p.ws ? ".ws" : "", p.cta_group, p.kind, p.m_desc, p.n_mma, hw::to_char(p.datapath),
                       p.ws_inferred ? ", .ws inferred from d's packed layout" : "", m_tiles, n_tiles, k_iters);
  return p;
}

}  // namespace tirx::kernel
