// cast: element-wise conversion between register fragments (docs/model-format.md).
#include <fmt/format.h>

#include "parsers.hpp"

namespace tirx::kernel::detail {

void parse_cast(ObjectReader& o, Op& op, OpEnv& env) {
  CastOp c;
  if (op.warps.empty()) o.fail("warps", "is missing: list the warps whose threads convert their registers");
  c.dst = env.region(o, "dst", kLocalScope);
  c.src = env.region(o, "src", kLocalScope);
  if (c.src.size() != c.dst.size())
    o.fail("src", fmt::format("region '{}' has {} elements but destination '{}' has {}; a cast pairs them element by "
                              "element",
                              c.src.text, c.src.size(), c.dst.text, c.dst.size()));
  op.reads.push_back(c.src.buffer);
  op.writes.push_back(c.dst.buffer);
  op.data = std::move(c);
}

}  // namespace tirx::kernel::detail
