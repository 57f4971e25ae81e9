// tma.load / tma.store: cp.async.bulk.tensor with its tensor map (docs/model-format.md).
#include <fmt/format.h>

#include "parsers.hpp"

namespace tirx::kernel::detail {

void parse_tma(ObjectReader& o, Op& op, OpEnv& env) {
  TmaOp t;
  t.store = op.kind == "tma.store";
  {
    ObjectReader m = o.object("tensor_map");
    TensorMapModel& tm = t.tensor_map;
    tm.dtype = m.str("dtype");
    const int bits = model_dtype_bits(tm.dtype);
    if (bits == 0) m.fail("dtype", fmt::format("'{}' is not a TVM dtype", tm.dtype));
    if (bits % 8 != 0)
      m.fail("dtype", fmt::format("{}-bit elements: sub-byte TMA element types (16U4/16U6 packings) are not modelled",
                                  bits));
    tm.elem_bytes = bits / 8;
    // cuTensorMapEncodeTiled (cuda.h): rank 1..5, dims in [1, 2^32], strides < 2^40, box <= 256.
    tm.dims = m.int_array("dims", 1, std::int64_t{1} << 32);
    if (tm.dims.empty() || tm.dims.size() > 5) m.fail("dims", fmt::format("has rank {}; TMA takes 1 to 5", tm.dims.size()));
    const std::size_t rank = tm.dims.size();
    tm.strides_bytes = m.int_array("strides_bytes", 1, (std::int64_t{1} << 40) - 1, rank > 1);
    if (tm.strides_bytes.size() != rank - 1)
      m.fail("strides_bytes", fmt::format("has {} entries; a rank-{} map has {} (dims 1..)", tm.strides_bytes.size(),
                                          rank, rank - 1));
    tm.box = m.int_array("box", 1, 256);
    if (tm.box.size() != rank) m.fail("box", fmt::format("has {} entries; the map has rank {}", tm.box.size(), rank));
    tm.elem_strides = m.int_array("elem_strides", 1, 8, false);
    if (tm.elem_strides.empty()) tm.elem_strides.assign(rank, 1);
    if (tm.elem_strides.size() != rank)
      m.fail("elem_strides", fmt::format("has {} entries; the map has rank {}", tm.elem_strides.size(), rank));
    tm.swizzle = hw::parse_tma_swizzle(
        m.choice("swizzle", {"none", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_64B"}));
    tm.interleave = m.opt_choice("interleave", {"none", "16B", "32B"}).value_or("none");
    tm.oob_fill = m.opt_choice("oob_fill", {"none", "nan"}).value_or("none");
    m.finish();
    t.coords = o.int_array("coords", INT32_MIN, INT32_MAX);
    if (t.coords.size() != rank)
      o.fail("coords", fmt::format("has {} entries; the tensor map has rank {}", t.coords.size(), rank));
  }
  t.global = env.region(o, "global", kGlobalScope);
  t.smem = env.region(o, "smem", kSharedScopes);
  if (t.global.size() != t.smem.size())
    o.fail("smem", fmt::format("region '{}' has {} elements but global region '{}' has {}; they correspond element "
                               "by element",
                               t.smem.text, t.smem.size(), t.global.text, t.global.size()));
  t.smem_address = env.opt_address(o, "smem_address", kSharedScopes, false);
  t.multicast = o.int_array("multicast", 0, 15, false);
  (t.store ? op.reads : op.writes).push_back(t.smem.buffer);
  (t.store ? op.writes : op.reads).push_back(t.global.buffer);
  op.data = std::move(t);
}

}  // namespace tirx::kernel::detail
