// tma.load / tma.store: cp.async.bulk.tensor with its tensor map (docs/model-format.md).
#include <fmt/format.h>

#include "tirx_verify/kernel/images.hpp"

#include "parsers.hpp"

namespace tirx::kernel::detail {

namespace {

// TVM's floating-point element types: floatN, bfloat16, float8_*/float4_* and their aliases
// fp16/bf16/fp32/fp8/fp4 (src/layout/dtype.cpp's names); everything else (intN, uintN, bool) is not.
bool is_float_dtype(std::string_view dtype) {
  return dtype.starts_with("float") || dtype.starts_with("bfloat") || dtype.starts_with("fp") || dtype == "bf16";
}

}  // namespace

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
    // The map's globalAddress as a byte offset into the `global` buffer's storage (a kernel's
    // `handle_add_byte_offset(buf.data, N)`). cuTensorMapEncodeTiled (cuda.h) requires
    // globalAddress to be 16-byte aligned, 32-byte aligned under CU_TENSOR_MAP_INTERLEAVE_32B.
    tm.base_offset_bytes = m.opt_integer("base_offset_bytes", 0, (std::int64_t{1} << 40) - 1).value_or(0);
    const std::int64_t base_align = tm.interleave == "32B" ? 32 : 16;
    if (tm.base_offset_bytes % base_align != 0)
      m.fail("base_offset_bytes",
             fmt::format("is {}: the map's base address must be {}-byte aligned (cuTensorMapEncodeTiled's "
                         "globalAddress{})",
                         tm.base_offset_bytes, base_align, base_align == 32 ? " under interleave 32B" : ""));
    // CUtensorMapFloatOOBfill (cuda.h, cuTensorMapEncodeTiled): the NaN fill is a floating-point
    // mode; the driver refuses it for the integer element types (UINT8..INT64).
    if (tm.oob_fill == "nan" && !is_float_dtype(tm.dtype))
      m.fail("oob_fill", fmt::format("is 'nan' but the map's dtype '{}' is an integer type; cuTensorMapEncodeTiled "
                                     "takes the NaN fill for floating-point element types only",
                                     tm.dtype));
    m.finish();
    t.coords = o.int_array("coords", INT32_MIN, INT32_MAX);
    t.gather4 = o.int_array("gather4", INT32_MIN, INT32_MAX, false);
    if (o.has("gather4") && t.gather4.size() != 4)
      o.fail("gather4", fmt::format("has {} entries; .tile::gather4 takes four row coordinates", t.gather4.size()));
    if (t.is_gather4()) {
      // PTX ISA 9.1 §5.5.3.4 (Tile::scatter4 and Tile::gather4 modes): 2-D tensors only; the
      // instruction takes one column coordinate and four row coordinates; the bounding box's
      // size in dimension 1 must be one. §9.7.9.25: gather4 is a load form (scatter4 the store).
      if (t.store) o.fail("gather4", "is a load form (.tile::gather4); the store form .tile::scatter4 is not modelled");
      if (rank != 2)
        o.fail("gather4", fmt::format("needs a 2-D tensor map (PTX ISA §5.5.3.4); this one has rank {}", rank));
      if (tm.box[1] != 1)
        o.fail("gather4", fmt::format("needs the map's box[1] to be 1 (PTX ISA §5.5.3.4: the bounding box's size in "
                                      "dimension 1 must be one; the four rows come from the row coordinates); this "
                                      "box is {}",
                                      coord_text(tm.box)));
      if (t.coords.size() != 1)
        o.fail("coords", fmt::format("has {} entries; with gather4 it is the column coordinate alone (the rows are "
                                     "in gather4)",
                                     t.coords.size()));
    } else if (t.coords.size() != rank) {
      o.fail("coords", fmt::format("has {} entries; the tensor map has rank {}", t.coords.size(), rank));
    }
  }
  t.smem = env.region(o, "smem", kSharedScopes);
  if (!o.has("global") && (t.is_gather4() || t.store))
    o.fail("global", t.store ? "is missing; a tma.store writes global memory and names the region it writes (only a "
                               "tma.load whose box lies wholly outside the tensor omits it)"
                             : "is missing; a gather4 load names four global regions, one per row coordinate (only a "
                               "plain tma.load whose box lies wholly outside the tensor omits it)");
  if (t.is_gather4()) {
    t.global_rows = env.regions(o, "global", kGlobalScope);
    if (t.global_rows.size() != 4)
      o.fail("global", fmt::format("has {} regions; a gather4 load names four, one per row coordinate",
                                   t.global_rows.size()));
    std::int64_t total = 0;
    for (const Region& r : t.global_rows) {
      if (r.buffer != t.global_rows[0].buffer)
        o.fail("global", fmt::format("names '{}' and '{}'; the four rows come from one tensor map", r.buffer,
                                     t.global_rows[0].buffer));
      total += r.size();
    }
    t.global = t.global_rows[0];
    if (total != t.smem.size())
      o.fail("smem", fmt::format("region '{}' has {} elements but the four global rows have {}; they correspond "
                                 "element by element",
                                 t.smem.text, t.smem.size(), total));
  } else if (!o.has("global") && !t.store) {
    // A box wholly outside the tensor (some dimension starts at or past its extent, or ends at or
    // before 0) reads no global memory: the TMA fills all of it (zeros, or NaN under oob_fill nan:
    // cuTensorMapEncodeTiled's oobFill; PTX ISA 9.1 §5.5 Tensors, out-of-bound access of the
    // bounding box). Its model has no `global`, and `smem` names the filled box. A box with any
    // element inside must name it.
    const TensorMapModel& tm = t.tensor_map;
    bool outside = false;
    for (std::size_t d = 0; d < t.coords.size() && d < tm.dims.size(); ++d)
      outside = outside || t.coords[d] >= tm.dims[d] || t.coords[d] + tm.box[d] <= 0;
    if (!outside)
      o.fail("global", fmt::format("is missing; the box at coords {} has elements inside the tensor's dims {} (only a "
                                   "tma.load whose box lies wholly outside them reads no global memory and omits it)",
                                   coord_text(t.coords), coord_text(tm.dims)));
  } else {
    t.global = env.region(o, "global", kGlobalScope);
    if (t.global.size() != t.smem.size())
      o.fail("smem", fmt::format("region '{}' has {} elements but global region '{}' has {}; they correspond "
                                 "element by element",
                                 t.smem.text, t.smem.size(), t.global.text, t.global.size()));
  }
  t.smem_address = env.opt_address(o, "smem_address", kSharedScopes, false);
  t.multicast = o.int_array("multicast", 0, 15, false);
  (t.store ? op.reads : op.writes).push_back(t.smem.buffer);
  if (!t.global.buffer.empty()) (t.store ? op.writes : op.reads).push_back(t.global.buffer);
  op.data = std::move(t);
}

}  // namespace tirx::kernel::detail
