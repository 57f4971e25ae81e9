// wgmma.mma_async (Hopper): shared-memory descriptors of A and B (docs/model-format.md).
#include <fmt/format.h>

#include "parsers.hpp"

namespace tirx::kernel::detail {

void parse_wgmma(ObjectReader& o, Op& op, OpEnv& env) {
  WgmmaOp w;
  w.m = o.integer("m", 64, 64);
  w.n = o.integer("n", 8, 256);
  if (w.n % 8 != 0) o.fail("n", fmt::format("is {}; wgmma N is a multiple of 8 (PTX ISA 9.1 §9.7.15.5.1)", w.n));
  w.k = o.integer("k", 1, 64);
  w.a_desc = env.descriptor(o, "a_desc", true);
  w.b_desc = env.descriptor(o, "b_desc", true);
  w.a = env.region(o, "a", kSharedScopes);
  w.b = env.region(o, "b", kSharedScopes);
  require_kept_rank(o, "a", w.a, 2);
  require_kept_rank(o, "b", w.b, 2);
  w.a_km = read_operand_dims(o, "a_dims", "MK", "KM");
  w.b_kn = read_operand_dims(o, "b_dims", "NK", "KN");
  if (auto d = env.opt_region(o, "d", kLocalScope)) op.writes.push_back(d->buffer);
  op.reads.push_back(w.a.buffer);
  op.reads.push_back(w.b.buffer);
  op.data = std::move(w);
}

}  // namespace tirx::kernel::detail
