// tcgen05.ld / tcgen05.st: shape, .num, pack, the address each warp passes (docs/model-format.md).
#include <fmt/format.h>

#include "parsers.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::detail {

void parse_tcgen05_ldst(ObjectReader& o, Op& op, OpEnv& env) {
  LdStOp l;
  l.store = op.kind == "tcgen05.st";
  l.instr.shape = hw::parse_ldst_shape(o.choice("shape", {"32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2"}));
  l.instr.num = static_cast<int>(o.integer("num", 1, 128));
  l.instr.pack = o.flag("pack");
  if (auto imm = o.opt_integer("imm_cols", 0, 65535)) l.instr.imm = static_cast<int>(*imm);
  try {
    hw::validate(l.instr);
  } catch (const InputError& e) {
    o.fail("num", e.message());
  }
  if (op.warps.empty()) o.fail("warps", "is missing: tcgen05.ld/st is warp-collective; list the issuing warps");
  if (o.has("taddr") == o.has("taddr_per_warp"))
    o.fail("taddr", "give exactly one of taddr (every warp passes it) and taddr_per_warp");
  l.taddr = env.opt_address(o, "taddr", kTmemScope, true);
  if (const json* per = o.raw("taddr_per_warp")) {
    const std::string p = o.path_of("taddr_per_warp");
    if (!per->is_array() || per->size() != op.warps.size())
      o.doc().fail(p, fmt::format("must be an array with one address per warp ({} warps)", op.warps.size()));
    for (std::size_t i = 0; i < per->size(); ++i)
      l.taddr_per_warp.push_back(env.address_value((*per)[i], json_path_index(p, i), kTmemScope, true));
  }
  l.tmem = env.region(o, "tmem", kTmemScope);
  l.regs = env.region(o, "regs", kLocalScope);
  if (l.tmem.size() != l.regs.size())
    o.fail("regs", fmt::format("region '{}' has {} elements but tmem region '{}' has {}; they correspond element by "
                               "element",
                               l.regs.text, l.regs.size(), l.tmem.text, l.tmem.size()));
  (l.store ? op.reads : op.writes).push_back(l.regs.buffer);
  (l.store ? op.writes : op.reads).push_back(l.tmem.buffer);
  op.data = std::move(l);
}

}  // namespace tirx::kernel::detail
