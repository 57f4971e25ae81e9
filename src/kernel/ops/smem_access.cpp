// smem.access: plain per-thread ld.shared / st.shared of access_bytes each.
#include <fmt/format.h>

#include "parsers.hpp"

namespace tirx::kernel::detail {

void parse_smem_access(ObjectReader& o, Op& op, OpEnv& env) {
  SmemAccessOp s;
  s.store = o.choice("direction", {"load", "store"}) == "store";
  auto ab = o.opt_int_choice("access_bytes", {1, 2, 4, 8, 16});
  if (!ab) o.fail("access_bytes", "is missing");
  s.access_bytes = static_cast<int>(*ab);
  if (op.warps.empty()) o.fail("warps", "is missing: list the warps that execute the access");
  s.smem = env.region(o, "smem", kSharedScopes);
  s.regs = env.region(o, "regs", kLocalScope);
  if (s.smem.size() != s.regs.size())
    o.fail("regs", fmt::format("region '{}' has {} elements but shared region '{}' has {}", s.regs.text, s.regs.size(),
                               s.smem.text, s.smem.size()));
  (s.store ? op.reads : op.writes).push_back(s.regs.buffer);
  (s.store ? op.writes : op.reads).push_back(s.smem.buffer);
  op.data = std::move(s);
}

}  // namespace tirx::kernel::detail
