// copy / copy_async at tile level: the dispatch follows from the two scopes (docs/model-format.md).
#include <fmt/format.h>

#include "parsers.hpp"

namespace tirx::kernel::detail {

namespace {

bool shared(const std::string& s) { return s == "shared" || s == "shared.dyn"; }

// The dispatch TIRx picks for a pair of scopes, or "" when the pair has none.
std::string default_dispatch(const std::string& dst, const std::string& src) {
  if ((dst == "global" && shared(src)) || (shared(dst) && src == "global")) return "tma";
  if ((dst == "tmem" && src == "local") || (dst == "local" && src == "tmem")) return "tcgen05";
  if (dst == "tmem" && shared(src)) return "tcgen05.cp";
  if ((dst == "local" && (shared(src) || src == "global")) || ((shared(dst) || dst == "global") && src == "local"))
    return "thread";
  return "";
}

bool dispatch_fits(const std::string& d, const std::string& dst, const std::string& src) {
  if (d == "tma") return default_dispatch(dst, src) == "tma";
  if (d == "tcgen05") return default_dispatch(dst, src) == "tcgen05";
  if (d == "tcgen05.cp") return default_dispatch(dst, src) == "tcgen05.cp";
  if (d == "ldstmatrix") return (dst == "local" && shared(src)) || (shared(dst) && src == "local");
  if (d == "thread") return default_dispatch(dst, src) == "thread";
  return false;
}

}  // namespace

void parse_copy(ObjectReader& o, Op& op, OpEnv& env) {
  CopyOp c;
  c.async = op.kind == "copy_async";
  c.dst = env.region(o, "dst", {});
  c.src = env.region(o, "src", {});
  const std::string ds = env.buffer(c.dst.buffer)->scope, ss = env.buffer(c.src.buffer)->scope;
  c.dispatch = o.opt_choice("dispatch", {"tma", "tcgen05", "tcgen05.cp", "ldstmatrix", "thread"})
                   .value_or(default_dispatch(ds, ss));
  if (c.dispatch.empty())
    o.fail("dst", fmt::format("no copy dispatch moves {} -> {}", ss, ds));
  if (!dispatch_fits(c.dispatch, ds, ss))
    o.fail("dispatch", fmt::format("dispatch '{}' does not move {} -> {}", c.dispatch, ss, ds));
  if (c.src.size() != c.dst.size())
    o.fail("src", fmt::format("region '{}' has {} elements but destination '{}' has {}; a copy pairs them element "
                              "by element",
                              c.src.text, c.src.size(), c.dst.text, c.dst.size()));
  if (auto ab = o.opt_int_choice("access_bytes", {1, 2, 4, 8, 16})) c.access_bytes = static_cast<int>(*ab);
  if (c.dispatch == "thread" && c.access_bytes == 0)
    o.fail("access_bytes", "is missing: a thread copy needs the bytes per thread per instruction");
  if ((c.dispatch == "tcgen05" || c.dispatch == "ldstmatrix" || c.dispatch == "thread") && op.warps.empty())
    o.fail("warps", fmt::format("is missing: a {} copy is executed by warps; list them", c.dispatch));
  op.reads.push_back(c.src.buffer);
  op.writes.push_back(c.dst.buffer);
  op.data = std::move(c);
}

}  // namespace tirx::kernel::detail
