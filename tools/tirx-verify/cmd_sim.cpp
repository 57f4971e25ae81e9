// tirx-verify sim tcgen05.ld|tcgen05.st|smem|swizzle — the machine model from the command line.
//
//   sim tcgen05.ld --shape 16x64b --num 2 [--pack] [--imm K] --lane 32 --col 0 --warp 1 --json
//       -> {"accesses": [{"thread": t, "reg": r, "lane": l, "col": c[, "col_hi": c+1]}, ...]}
//   sim smem --access-bytes 16 --addresses a0,...,a31 [--active-mask M] [--store] --json
//       -> {"wavefronts": n, "ideal": k, "excess": n - k}
//   sim swizzle --mode 128B --byte-offset 400 --json -> {"address": 416}
//
// Every leaf takes --target NAME (default sm_100a) or --target-file PATH, and --json.
// Exit codes: 0 simulated; 1 tmem.partition violation (JSON "violation" + stderr message);
// 2 bad input ("error[<check id>]: ..." on stderr, {"error": {...}} with --json).
// The contract (spellings, JSON keys) is documented in docs/sim.md; other tools script
// against it, so keep it stable.
#include "cmd_sim.hpp"

#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "option_checks.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/hw/swizzle.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tcgen05_ldst.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::cli {

namespace {

using nlohmann::json;

struct TargetOpts {
  std::string target = "sm_100a";
  std::string target_file;
  bool json = false;
  BudgetOpts budget;
};

void add_target_opts(CLI::App* cmd, TargetOpts& o) {
  CLI::Option* target =
      cmd->add_option("--target", o.target, "Target name under models/targets (sm_90a, sm_100a)")->capture_default_str();
  cmd->add_option("--target-file", o.target_file, "Target JSON file (instead of --target)")->excludes(target);
  cmd->add_flag("--json", o.json, "Machine-readable output on stdout");
  add_budget_options(cmd, o.budget);
}

hw::Target load(const TargetOpts& o) {
  return o.target_file.empty() ? hw::load_target(o.target) : hw::load_target_file(o.target_file);
}

// --- tcgen05.ld / tcgen05.st ------------------------------------------------------------

struct LdStOpts : TargetOpts {
  std::string shape;
  int num = 0;
  bool pack = false;
  int imm = -1;
  int lane = 0;
  int col = 0;
  int warp = 0;
};

int run_ldst(const LdStOpts& o, bool is_store) {
  const hw::Target target = load(o);
  const hw::TmemGeometry& g = target.require_tmem(is_store ? "tcgen05.st" : "tcgen05.ld");
  hw::LdStInstr in{hw::parse_ldst_shape(o.shape), o.num, o.pack, o.imm};
  hw::validate(in);
  if (o.lane < 0 || o.lane >= g.lanes || o.col < 0 || o.col >= g.columns)
    throw InputError("tmem.address", fmt::format("--lane {} --col {} is outside TMEM ({} lanes x {} columns)", o.lane,
                                                 o.col, g.lanes, g.columns));
  const hw::TmemAddress base = hw::TmemAddress::make(static_cast<std::uint32_t>(o.lane), static_cast<std::uint32_t>(o.col));
  std::vector<hw::LdStAccess> acc;
  try {
    acc = hw::warp_accesses(target, in, base, o.warp, is_store);
  } catch (const InputError& e) {
    if (e.check_id() != "tmem.partition") throw;
    std::cerr << e.render();
    if (o.json) {
      hw::LaneRange ok = hw::subpartition_lanes(target, o.warp);
      json j = {{"violation", report::error_json(e)},
                {"instruction", hw::spelling(in, is_store)},
                {"warp", o.warp},
                {"address", base.raw},
                {"lanes", {o.lane, o.lane + hw::shape_lanes(in.shape) - 1}},
                {"allowed_lanes", {ok.first, ok.last}}};
      std::cout << dump_json(j, 2) << "\n";
    }
    return kViolation;
  }
  if (o.json) {
    json list = json::array();
    for (const auto& a : acc) {
      json e = {{"thread", a.thread}, {"reg", a.reg}, {"lane", a.cell.lane}, {"col", a.cell.col}};
      if (in.pack) e["col_hi"] = a.cell.col_hi;
      list.push_back(std::move(e));
    }
    json j = {{"instruction", hw::spelling(in, is_store)},
              {"target", target.name},
              {"warp", o.warp},
              {"address", base.raw},
              {"registers_per_thread", hw::regs_per_thread(in)},
              {"accesses", std::move(list)}};
    std::cout << dump_json(j, 2) << "\n";
    return kVerified;
  }
  std::cout << fmt::format("{} by warp {} at {}: {} registers per thread\n", hw::spelling(in, is_store), o.warp,
                           hw::describe(base), hw::regs_per_thread(in));
  std::cout << "thread  reg  lane  col" << (in.pack ? "  col_hi" : "") << "\n";
  for (const auto& a : acc) {
    std::cout << fmt::format("{:>6} {:>4} {:>5} {:>4}", a.thread, a.reg, a.cell.lane, a.cell.col);
    if (in.pack) std::cout << fmt::format(" {:>7}", a.cell.col_hi);
    std::cout << "\n";
  }
  return kVerified;
}

void register_ldst(CLI::App* sim, int& exit_code, bool is_store) {
  auto o = std::make_shared<LdStOpts>();
  const char* name = is_store ? "tcgen05.st" : "tcgen05.ld";
  CLI::App* cmd = sim->add_subcommand(
      name, fmt::format("(thread, register) -> TMEM (lane, column) of one warp's {} (PTX ISA 9.1 §9.7.16.8)", name));
  cmd->add_option("--shape", o->shape, "32x32b, 16x64b, 16x128b, 16x256b or 16x32bx2")->required();
  cmd->add_option("--num", o->num, "The .num repetition (1, 2, 4, ... as PTX Table 49/50 allows)")
      ->required()
      ->transform(int32_range());
  cmd->add_flag("--pack", o->pack, is_store ? ".unpack::16b" : ".pack::16b");
  cmd->add_option("--imm", o->imm, ".16x32bx2 only: immHalfSplitoff, the second half's column offset")
      ->transform(int_range(0, std::numeric_limits<std::int32_t>::max()));
  cmd->add_option("--lane", o->lane, "Lane field of taddr")->required()->transform(int32_range());
  cmd->add_option("--col", o->col, "Column field of taddr")->required()->transform(int32_range());
  cmd->add_option("--warp", o->warp, "Warp index in its warpgroup (warp_id % 4)")->required()->transform(int32_range());
  add_target_opts(cmd, *o);
  cmd->callback([o, &exit_code, is_store] { exit_code = guarded(o->json, "", [&] {
      start_budget(o->budget);
      return run_ldst(*o, is_store);
    }); });
}

// --- smem ---------------------------------------------------------------------------------

struct SmemOpts : TargetOpts {
  int access_bytes = 0;
  std::string addresses;
  std::string active_mask;
  bool store = false;
};

// --active-mask: decimal or 0x hexadecimal, one bit per thread of the warp (nothing above them).
std::uint64_t parse_mask(const std::string& text, int warp_size) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string digits = hex ? text.substr(2) : text;
  const unsigned __int128 limit = (static_cast<unsigned __int128>(1) << warp_size) - 1;
  unsigned __int128 v = 0;
  bool ok = !digits.empty();
  for (char c : digits) {
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (hex && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0) ok = false;
    if (!ok) break;
    v = v * (hex ? 16 : 10) + static_cast<unsigned>(d);
    if (v > limit) break;
  }
  if (!ok)
    throw InputError("cli.usage", fmt::format("--active-mask: '{}' is not a decimal or 0x-hexadecimal integer", text),
                     text, 0);
  if (v > limit)
    throw InputError("cli.usage",
                     fmt::format("--active-mask {} sets a bit above thread {} (a warp has {} threads)", text,
                                 warp_size - 1, warp_size),
                     text, 0);
  return static_cast<std::uint64_t>(v);
}

int run_smem(const SmemOpts& o) {
  const hw::Target target = load(o);
  hw::SmemAccess a;
  a.width_bytes = o.access_bytes;
  a.is_store = o.store;
  for (std::int64_t v : parse_int_list(o.addresses, "--addresses")) {
    if (v < 0) throw InputError("cli.usage", fmt::format("--addresses: negative address {}", v), o.addresses);
    // The whole access must lie in the CTA's shared memory (a wider-than-4-byte access too).
    if (v > target.smem_bytes_per_cta - std::max(o.access_bytes, 1))
      throw InputError("smem.access",
                       fmt::format("--addresses: a {}-byte access at byte {} is beyond shared memory ({} bytes per CTA "
                                   "on {})",
                                   o.access_bytes, v, target.smem_bytes_per_cta, target.name),
                       o.addresses);
    a.addresses.push_back(static_cast<std::uint64_t>(v));
  }
  if (!o.active_mask.empty()) a.active_mask = parse_mask(o.active_mask, target.warp_size);
  hw::WavefrontCount c = hw::count_wavefronts(target, a);
  const int phase = hw::phase_threads(target, a);
  if (o.json) {
    json j = {{"wavefronts", c.wavefronts},
              {"ideal", c.ideal},
              {"excess", c.excess()},
              {"target", target.name},
              {"phase_threads", phase}};
    std::cout << dump_json(j, 2) << "\n";
  } else {
    std::cout << fmt::format("{} wavefronts, ideal {}, excess (bank conflicts) {}  [{}: phases of {} threads]\n",
                             c.wavefronts, c.ideal, c.excess(), target.name, phase);
  }
  return kVerified;
}

void register_smem(CLI::App* sim, int& exit_code) {
  auto o = std::make_shared<SmemOpts>();
  CLI::App* cmd = sim->add_subcommand("smem", "Wavefronts of one warp-wide shared-memory access (calibrated model)");
  cmd->add_option("--access-bytes", o->access_bytes, "Bytes per thread: 4, 8 or 16")->required()->transform(int32_range());
  cmd->add_option("--addresses", o->addresses, "One byte address per thread: a0,a1,...,a31")->required();
  cmd->add_option("--active-mask", o->active_mask, "Active threads as an integer bit mask (default: all)");
  cmd->add_flag("--store", o->store, "A store (st.shared): no uniform-pair shortcut");
  add_target_opts(cmd, *o);
  cmd->callback([o, &exit_code] { exit_code = guarded(o->json, "", [&] {
      start_budget(o->budget);
      return run_smem(*o);
    }); });
}

// --- swizzle ------------------------------------------------------------------------------

struct SwizzleOpts : TargetOpts {
  std::string mode;
  std::int64_t byte_offset = 0;
};

int run_swizzle(const SwizzleOpts& o) {
  const hw::Target target = load(o);
  hw::TmaSwizzle mode = hw::parse_tma_swizzle(o.mode);
  if (!target.has_tma_swizzle(hw::to_string(mode)))
    throw InputError("swizzle.legal", fmt::format("swizzle mode {} does not exist on {}", hw::to_string(mode), target.name));
  if (o.byte_offset < 0) throw InputError("cli.usage", fmt::format("--byte-offset {} is negative", o.byte_offset));
  if (o.byte_offset >= target.smem_bytes_per_cta)
    throw InputError("cli.usage", fmt::format("--byte-offset {} is beyond shared memory ({} bytes per CTA on {})",
                                              o.byte_offset, target.smem_bytes_per_cta, target.name));
  std::uint64_t y = hw::swizzle_address(mode, static_cast<std::uint64_t>(o.byte_offset));
  if (o.json) {
    json j = {{"address", y}, {"mode", hw::to_string(mode)}, {"byte_offset", o.byte_offset}, {"target", target.name}};
    std::cout << dump_json(j, 2) << "\n";
  } else {
    hw::Swizzle s = hw::tma_swizzle_functor(mode);
    std::cout << fmt::format("{} (Swizzle<{},{},{}>): byte {} -> {}\n", hw::to_string(mode), s.b, s.m, s.s,
                             o.byte_offset, y);
  }
  return kVerified;
}

void register_swizzle(CLI::App* sim, int& exit_code) {
  auto o = std::make_shared<SwizzleOpts>();
  CLI::App* cmd = sim->add_subcommand("swizzle", "Swizzled shared-memory byte address of a TMA/UMMA swizzle mode");
  cmd->add_option("--mode", o->mode, "none, 32B, 64B, 128B, 128B_ATOM_32B (128B_ATOM_64B: unverified)")->required();
  cmd->add_option("--byte-offset", o->byte_offset, "Shared-memory byte address before swizzling")
      ->required()
      ->transform(int_range(0));  // and inside the target's shared memory (run_swizzle)
  add_target_opts(cmd, *o);
  cmd->callback([o, &exit_code] { exit_code = guarded(o->json, "", [&] {
      start_budget(o->budget);
      return run_swizzle(*o);
    }); });
}

}  // namespace

void register_sim(CLI::App& app, int& exit_code) {
  CLI::App* sim = app.add_subcommand("sim", "Simulate one instruction or address function of the machine model");
  sim->require_subcommand(1);
  register_ldst(sim, exit_code, false);
  register_ldst(sim, exit_code, true);
  register_smem(sim, exit_code);
  register_swizzle(sim, exit_code);
}

}  // namespace tirx::cli
