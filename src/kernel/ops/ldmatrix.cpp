// ldmatrix / stmatrix: 8x8 b16 matrices between shared memory and a warp's registers.
#include <fmt/format.h>

#include "parsers.hpp"

namespace tirx::kernel::detail {

void parse_ldmatrix(ObjectReader& o, Op& op, OpEnv& env) {
  LdmatrixOp l;
  l.store = op.kind == "stmatrix";
  l.num = static_cast<int>(o.integer("num", 1, 4));
  if (l.num == 3) o.fail("num", "is 3; ldmatrix/stmatrix take .x1, .x2 or .x4 (PTX ISA 9.1 §9.7.9.20)");
  l.trans = o.flag("trans");
  if (op.warps.empty()) o.fail("warps", "is missing: ldmatrix/stmatrix is warp-collective; list the warps");
  l.smem = env.region(o, "smem", kSharedScopes);
  l.regs = env.region(o, "regs", kLocalScope);
  if (l.smem.size() != l.regs.size())
    o.fail("regs", fmt::format("region '{}' has {} elements but shared region '{}' has {}", l.regs.text, l.regs.size(),
                               l.smem.text, l.smem.size()));
  (l.store ? op.reads : op.writes).push_back(l.regs.buffer);
  (l.store ? op.writes : op.reads).push_back(l.smem.buffer);
  op.data = std::move(l);
}

}  // namespace tirx::kernel::detail
