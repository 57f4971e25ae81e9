// tcgen05.mma: descriptors, accumulator, block scaling (docs/model-format.md).
#include <fmt/format.h>

#include "parsers.hpp"

namespace tirx::kernel::detail {

namespace {

bool is_block_scaled(const std::string& kind) { return kind == "mxf8f6f4" || kind == "mxf4" || kind == "mxf4nvf4"; }

InstrDescriptorModel read_idesc(ObjectReader& parent) {
  ObjectReader o = parent.object("idesc");
  InstrDescriptorModel d;
  for (auto [key, field] : {std::pair{"d_dtype", &d.d_dtype}, std::pair{"a_dtype", &d.a_dtype},
                            std::pair{"b_dtype", &d.b_dtype}}) {
    *field = o.str(key);
    if (model_dtype_bits(*field) == 0) o.fail(key, fmt::format("'{}' is not a TVM dtype", *field));
  }
  d.a_mn_major = o.opt_choice("a_major", {"K", "MN"}).value_or("K") == "MN";
  d.b_mn_major = o.opt_choice("b_major", {"K", "MN"}).value_or("K") == "MN";
  d.m = o.integer("m", 1, 256);
  d.n = o.integer("n", 1, 256);
  d.sparse = o.flag("sparse");
  o.finish();
  return d;
}

}  // namespace

void parse_tcgen05_mma(ObjectReader& o, Op& op, OpEnv& env) {
  MmaOp m;
  m.mma_kind = o.choice("mma_kind", {"f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"});
  m.m = o.integer("m", 1, 256);
  m.n = o.integer("n", 1, 256);
  m.k = o.integer("k", 1, 256);
  m.d = env.address(o, "d", kTmemScope, true);
  m.d_region = env.region(o, "d_region", kTmemScope);
  require_kept_rank(o, "d_region", m.d_region, 2);
  if (o.has("a_desc") == o.has("a_tmem")) o.fail("a_desc", "give exactly one of a_desc (A in shared memory) and a_tmem");
  if (o.has("a_desc")) m.a_desc = env.descriptor(o, "a_desc");
  m.a_tmem = env.opt_address(o, "a_tmem", kTmemScope, true);
  m.b_desc = env.descriptor(o, "b_desc");
  m.a = env.opt_region(o, "a", m.a_tmem ? kTmemScope : kSharedScopes);
  m.b = env.opt_region(o, "b", kSharedScopes);
  if (m.a) require_kept_rank(o, "a", *m.a, 2);
  if (m.b) require_kept_rank(o, "b", *m.b, 2);
  m.a_km = read_operand_dims(o, "a_dims", "MK", "KM");
  m.b_kn = read_operand_dims(o, "b_dims", "NK", "KN");
  if (o.has("idesc")) m.idesc = read_idesc(o);
  m.sfa = env.opt_address(o, "sfa", kTmemScope, true);
  m.sfb = env.opt_address(o, "sfb", kTmemScope, true);
  m.sfa_region = env.opt_region(o, "sfa_region", kTmemScope);
  m.sfb_region = env.opt_region(o, "sfb_region", kTmemScope);
  m.scale_vec = o.opt_choice("scale_vec", {"1X", "2X", "4X"}).value_or("");
  m.sfa_id = static_cast<int>(o.opt_integer("sfa_id", 0, 3).value_or(0));
  m.sfb_id = static_cast<int>(o.opt_integer("sfb_id", 0, 3).value_or(0));
  m.ws = o.flag("ws");
  const bool accumulate = o.opt_bool("accumulate").value_or(true);
  if (is_block_scaled(m.mma_kind) != (m.sfa && m.sfb && !m.scale_vec.empty()))
    o.fail("mma_kind", is_block_scaled(m.mma_kind)
                           ? fmt::format("kind::{} is block-scaled: give sfa, sfb and scale_vec", m.mma_kind)
                           : fmt::format("kind::{} is not block-scaled: sfa/sfb/scale_vec belong to mxf8f6f4, mxf4 "
                                         "and mxf4nvf4",
                                         m.mma_kind));
  if (m.a) op.reads.push_back(m.a->buffer);
  if (m.b) op.reads.push_back(m.b->buffer);
  if (m.sfa_region) op.reads.push_back(m.sfa_region->buffer);
  if (m.sfb_region) op.reads.push_back(m.sfb_region->buffer);
  if (accumulate) op.reads.push_back(m.d_region.buffer);
  op.writes.push_back(m.d_region.buffer);
  op.data = std::move(m);
}

}  // namespace tirx::kernel::detail
