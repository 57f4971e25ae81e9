// tcgen05.alloc / tcgen05.dealloc: 32-bit TMEM columns (docs/model-format.md).
#include "parsers.hpp"

namespace tirx::kernel::detail {

void parse_tcgen05_alloc(ObjectReader& o, Op& op, OpEnv&) {
  AllocOp a;
  a.dealloc = op.kind == "tcgen05.dealloc";
  // The power-of-two rule (PTX ISA 9.1 §9.7.16.7.1) is kernel.overlap's finding, not a schema error.
  a.cols = o.integer("cols", 1, 65536);
  op.data = a;
}

}  // namespace tirx::kernel::detail
