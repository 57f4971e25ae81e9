// copy / copy_async at tile level: the dispatch follows from the two scopes (docs/model-format.md).
#include <fmt/format.h>

#include "parsers.hpp"
#include "tirx_verify/kernel/images.hpp"

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

// past_tensor: only a TMA copy's global operand may run past its buffer (the box as the
// kernel writes it); the shared operand stays inside, and the flag must be needed.
void parse_past_tensor(ObjectReader& o, CopyOp& c, const BufferModel& db, const BufferModel& sb) {
  if (c.dispatch != "tma")
    o.fail("past_tensor", fmt::format("is a TMA box running past its tensor; dispatch '{}' has none", c.dispatch));
  const bool store = db.scope == "global";
  const Region& global = store ? c.dst : c.src;
  const Region& other = store ? c.src : c.dst;
  const BufferModel& gb = store ? db : sb;
  const BufferModel& ob = store ? sb : db;
  if (!region_inside(other, ob.shape))
    o.fail(store ? "src" : "dst", fmt::format("region '{}' runs past buffer '{}' {}: past_tensor lets only the global "
                                              "operand (the TMA box) do so",
                                              other.text, ob.name, coord_text(ob.shape)));
  if (region_inside(global, gb.shape))
    o.fail("past_tensor", fmt::format("is set but region '{}' lies inside tensor '{}' {}", global.text, gb.name,
                                      coord_text(gb.shape)),
           "drop past_tensor: it declares a box that runs past the tensor");
  c.inside = clip_region(global, gb.shape);
}

}  // namespace

void parse_copy(ObjectReader& o, Op& op, OpEnv& env) {
  CopyOp c;
  c.async = op.kind == "copy_async";
  c.past_tensor = o.flag("past_tensor");
  c.dst = env.region(o, "dst", {}, c.past_tensor);
  c.src = env.region(o, "src", {}, c.past_tensor);
  const BufferModel& db = *env.buffer(c.dst.buffer);
  const BufferModel& sb = *env.buffer(c.src.buffer);
  const std::string ds = db.scope, ss = sb.scope;
  c.dispatch = o.opt_choice("dispatch", {"tma", "tcgen05", "tcgen05.cp", "ldstmatrix", "thread"})
                   .value_or(default_dispatch(ds, ss));
  if (c.dispatch.empty())
    o.fail("dst", fmt::format("no copy dispatch moves {} -> {}", ss, ds));
  if (!dispatch_fits(c.dispatch, ds, ss))
    o.fail("dispatch", fmt::format("dispatch '{}' does not move {} -> {}", c.dispatch, ss, ds));
  if (c.past_tensor) parse_past_tensor(o, c, db, sb);
  if (c.src.size() != c.dst.size())
    o.fail("src", fmt::format("region '{}' has {} elements but destination '{}' has {}; a copy pairs them element "
                              "by element",
                              c.src.text, c.src.size(), c.dst.text, c.dst.size()));
  if (auto ab = o.opt_int_choice("access_bytes", {1, 2, 4, 8, 16, 32})) c.access_bytes = static_cast<int>(*ab);
  if (c.dispatch == "thread" && c.access_bytes == 0)
    o.fail("access_bytes", "is missing: a thread copy needs the bytes per thread per instruction");
  if (c.access_bytes != 0 && c.dispatch != "thread")
    o.fail("access_bytes", fmt::format("is the bytes per thread of a thread copy; dispatch '{}' has none", c.dispatch));
  // 32 bytes per thread: ld.global / st.global .v8.b32 (256-bit vectors, sm_100; TVM's vec_256b,
  // copy/_common.py). Shared memory has no 256-bit thread access.
  if (c.access_bytes == 32 && ds != "global" && ss != "global")
    o.fail("access_bytes", fmt::format("32 bytes per thread is a 256-bit global access (ld/st.global.v8.b32); this "
                                       "copy moves {} -> {}",
                                       ss, ds),
           "a shared or local access is at most 16 bytes per thread");
  c.row_imm = o.opt_integer("row_imm", 0, 127);
  if (c.row_imm && c.dispatch != "tcgen05")
    o.fail("row_imm", fmt::format("is the emitted tcgen05.ld/st row immediate; dispatch '{}' has none", c.dispatch));
  if (auto r = o.opt_choice("reduce", {"add", "min", "max", "inc", "dec", "and", "or", "xor"})) {
    if (c.dispatch != "tma" || ds != "global")
      o.fail("reduce", fmt::format("is a TMA reduction into global memory (cp.reduce.async.bulk.tensor); this copy "
                                   "moves {} -> {} with dispatch '{}'",
                                   ss, ds, c.dispatch));
    c.reduce = *r;
  }
  if (auto shape = o.opt_str("shape")) {
    if (c.dispatch != "tcgen05.cp")
      o.fail("shape", fmt::format("is the tcgen05.cp instruction shape; dispatch '{}' has none", c.dispatch));
    try {
      c.cp_shape = hw::parse_cp_shape(*shape);
    } catch (const InputError& e) {
      o.fail("shape", e.message(),
             "one of 128x256b, 128x128b, 4x256b, 32x128b.warpx4, 64x128b.warpx2::02_13, 64x128b.warpx2::01_23");
    }
  }
  if ((c.dispatch == "tcgen05" || c.dispatch == "ldstmatrix" || c.dispatch == "thread") && op.warps.empty())
    o.fail("warps", fmt::format("is missing: a {} copy is executed by warps; list them", c.dispatch));
  op.reads.push_back(c.src.buffer);
  op.writes.push_back(c.dst.buffer);
  op.data = std::move(c);
}

}  // namespace tirx::kernel::detail
