// mma.sync: warp-level MMA with A, B, C register fragments.
#include "parsers.hpp"

namespace tirx::kernel::detail {

void parse_mma_sync(ObjectReader& o, Op& op, OpEnv& env) {
  MmaSyncOp m;
  m.shape = o.choice("shape", {"m16n8k16", "m16n8k8"});
  if (op.warps.empty()) o.fail("warps", "is missing: mma.sync is warp-collective; list the warps");
  m.a = env.region(o, "a", kLocalScope);
  m.b = env.region(o, "b", kLocalScope);
  m.c = env.region(o, "c", kLocalScope);
  op.reads = {m.a.buffer, m.b.buffer, m.c.buffer};
  op.writes = {m.c.buffer};
  op.data = std::move(m);
}

}  // namespace tirx::kernel::detail
