// tcgen05.cp: a shared-memory matrix into TMEM lanes (docs/model-format.md).
#include "parsers.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::detail {

void parse_tcgen05_cp(ObjectReader& o, Op& op, OpEnv& env) {
  CpOp c;
  const std::string shape = o.str("shape");
  try {
    c.shape = hw::parse_cp_shape(shape);
  } catch (const InputError& e) {
    o.fail("shape", e.message(),
           "one of 128x256b, 128x128b, 4x256b, 32x128b.warpx4, 64x128b.warpx2::02_13, 64x128b.warpx2::01_23");
  }
  c.src_desc = env.descriptor(o, "src_desc");
  c.taddr = env.address(o, "taddr", kTmemScope, true);
  c.smem = env.region(o, "smem", kSharedScopes);
  c.tmem = env.region(o, "tmem", kTmemScope);
  op.reads.push_back(c.smem.buffer);
  op.writes.push_back(c.tmem.buffer);
  op.data = std::move(c);
}

}  // namespace tirx::kernel::detail
