// gemm_async at tile level: D[m, n] += sum_k A[m, k] B[n, k] (docs/model-format.md).
#include "parsers.hpp"

namespace tirx::kernel::detail {

void parse_gemm_async(ObjectReader& o, Op& op, OpEnv& env) {
  GemmAsyncOp g;
  g.d = env.region(o, "d", kTmemScope);
  std::vector<std::string> a_scopes = kSharedScopes;
  a_scopes.push_back("tmem");
  g.a = env.region(o, "a", a_scopes);
  g.b = env.region(o, "b", kSharedScopes);
  require_kept_rank(o, "d", g.d, 2);
  require_kept_rank(o, "a", g.a, 2);
  require_kept_rank(o, "b", g.b, 2);
  g.a_km = read_operand_dims(o, "a_dims", "MK", "KM");
  g.b_kn = read_operand_dims(o, "b_dims", "NK", "KN");
  g.sfa = env.opt_region(o, "sfa", kTmemScope);
  g.sfb = env.opt_region(o, "sfb", kTmemScope);
  g.scale_vec = o.opt_choice("scale_vec", {"1X", "2X", "4X"}).value_or("");
  if (g.sfa.has_value() != g.sfb.has_value() || g.sfa.has_value() != !g.scale_vec.empty())
    o.fail("sfa", "a block-scaled gemm_async gives sfa, sfb and scale_vec together");
  g.ws = o.flag("ws");
  // TIRx's Tx.gemm_async(..., accum=False) overwrites D unless told otherwise
  // (python/tvm/tirx/script/builder/tirx.py), so the format's default is false too.
  const bool accumulate = o.opt_bool("accumulate").value_or(false);
  g.accumulate = accumulate;
  op.reads.push_back(g.a.buffer);
  op.reads.push_back(g.b.buffer);
  if (g.sfa) op.reads.push_back(g.sfa->buffer);
  if (g.sfb) op.reads.push_back(g.sfb->buffer);
  if (accumulate) op.reads.push_back(g.d.buffer);
  op.writes.push_back(g.d.buffer);
  op.data = std::move(g);
}

}  // namespace tirx::kernel::detail
