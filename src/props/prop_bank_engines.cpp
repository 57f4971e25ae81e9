// smem.bank-engines — the three deciders of smem.bank-conflicts agree (prove/bank_engines.hpp).
//
// Half the cases are one warp-wide access (4/8/16 bytes, load or store; lane-affine patterns —
// strides, XOR-permuted lanes, pairs on one address, 128-byte rows with the 128B swizzle — and
// random ones; a full, cube or random active mask): where GF(2) applies its count equals
// hw::count_wavefronts, and Z3 finds two threads of one phase at different words of one bank
// exactly when the simulator counts excess wavefronts.
//
// The other half are a shared buffer and its access fragment: R rows of C elements (fp16 or
// fp32) with a pitch of C or C plus padding, or a 32B/64B/128B swizzle, read by 32 lanes k
// elements (one 4/8/16-byte vector) at a time, lanes over rows and chunks in either order:
// smem.bank-conflicts forced to the simulator, to z3 and (where it applies) to gf2 gives one
// verdict, gf2's witness is the simulator's, and auto's translation rule (one row group decided,
// bank_translate.hpp) reports what the simulator reports.
#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/prove/bank_engines.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::props {

namespace {

const hw::Target& sm90() {
  static const hw::Target t = hw::load_target("sm_90a");
  return t;
}

void access_case() {
  const hw::Target& t = sm90();
  hw::SmemAccess a;
  a.is_store = *rc::gen::inRange(0, 3) == 0;
  a.width_bytes = pick({4, 8, 16});
  const std::uint64_t w = static_cast<std::uint64_t>(a.width_bytes);
  a.addresses.assign(32, 0);
  const std::uint64_t base = w * static_cast<std::uint64_t>(*rc::gen::inRange(0, 64));
  const int pattern = *rc::gen::inRange(0, 6);
  const std::uint64_t stride = pick<std::uint64_t>({0, 1, 2, 4, 8, 16, 32, 3, 5, 33});
  const int flip = pick({0, 1, 3, 5, 16, 31});
  for (int i = 0; i < 32; ++i) {
    const std::uint64_t ti = static_cast<std::uint64_t>(i);
    std::uint64_t addr = base;
    switch (pattern) {
      case 0: addr += ti * w * stride; break;
      case 1: addr += w * static_cast<std::uint64_t>(i ^ flip); break;
      case 2: addr += (ti >> 1) * w * stride; break;                  // pairs t, t^1
      case 3: addr += (ti & ~std::uint64_t{2}) * w * stride; break;   // pairs t, t^2
      case 4: addr += 128 * (ti / 8) + w * ((ti % 8) ^ ((ti / 8) % 8)); break;  // rows, XOR-swizzled units
      default: addr += w * static_cast<std::uint64_t>(*rc::gen::inRange(0, 128)); break;
    }
    a.addresses[static_cast<std::size_t>(i)] = addr;
  }
  const int m = *rc::gen::inRange(0, 4);
  if (m == 1) a.active_mask = 0x5555'5555;                 // a cube (bit 0 fixed)
  if (m == 2) a.active_mask = 0x0000'FFFF;                 // a cube (bit 4 fixed)
  if (m == 3) a.active_mask = *rc::gen::inRange<std::uint32_t>(1, 0xFFFF'FFFF);
  if (m != 0 && m != 3) a.active_mask &= 0xFFFF'FFFF;
  const hw::WavefrontCount sim = hw::count_wavefronts(t, a);
  const prove::banks::PhaseModel pm = prove::banks::phase_model(t, a.width_bytes, a.is_store);
  std::vector<std::int64_t> shown(a.addresses.begin(), a.addresses.end());
  const std::string repro = fmt::format("tirx-verify sim smem --target sm_90a --access-bytes {} --addresses {} --active-mask {}{}",
                                        a.width_bytes, show_ints(shown), a.active_mask, a.is_store ? " --store" : "");
  const auto g = prove::banks::gf2_wavefronts(t, a.addresses, a.active_mask, pm);
  if (const auto* wc = std::get_if<hw::WavefrontCount>(&g)) {
    RC_TAG("access: gf2 applies");
    if (!(*wc == sim))
      fail(fmt::format("gf2 counts {} wavefronts (ideal {}), the simulator {} (ideal {})", wc->wavefronts, wc->ideal,
                       sim.wavefronts, sim.ideal),
           repro);
  } else {
    RC_TAG("access: gf2 n/a");
  }
  const prove::banks::AccessVerdict z = prove::banks::z3_access(t, a.addresses, a.active_mask, pm, prove::EngineLimits{});
  if (z.status == prove::Status::kUndecided) fail("z3 undecided: " + z.message, repro);
  if ((z.status == prove::Status::kFail) != (sim.excess() > 0))
    fail(fmt::format("z3 says {} ({}), the simulator counts {} wavefronts, ideal {}", prove::status_name(z.status), z.message,
                     sim.wavefronts, sim.ideal),
         repro);
}

void layout_case() {
  const hw::Target& t = sm90();
  const int bits = pick({16, 32});
  const std::int64_t eb = bits / 8;
  const int width = pick({4, 8, 16});
  const std::int64_t k = width / eb;
  const std::int64_t cols = pick<std::int64_t>({16, 32, 64, 128});  // elements per row
  const std::int64_t chunks = cols / k;
  const std::int64_t rows = pick<std::int64_t>({8, 16, 32, 64});
  // 32 lanes over R2 rows x C2 chunks; the rest are instructions.
  std::vector<std::int64_t> r2s;
  for (std::int64_t r2 = 1; r2 <= 32; r2 *= 2)
    if (r2 <= rows && 32 / r2 <= chunks) r2s.push_back(r2);
  if (r2s.empty()) return;  // too few vectors for a full warp
  const std::int64_t r2 = pick(r2s), c2 = 32 / r2, r1 = rows / r2, c1 = chunks / c2;
  const bool rows_low = *rc::gen::arbitrary<bool>();
  const std::int64_t sr = rows_low ? 1 : c2, sc = rows_low ? r2 : 1;
  const TileLayout frag({Iter{r1, c1 * k, Axis(AxisId::m)}, Iter{r2, sr, Axis(AxisId::laneid)}, Iter{c1, k, Axis(AxisId::m)},
                         Iter{c2, sc, Axis(AxisId::laneid)}, Iter{k, 1, Axis(AxisId::m)}});
  const std::int64_t pad = pick<std::int64_t>({0, 0, 1, 2, 4, 8, 16});
  Layout buf = TileLayout({Iter{rows, cols + pad, Axis(AxisId::m)}, Iter{cols, 1, Axis(AxisId::m)}});
  const int swz = *rc::gen::inRange(0, 4);  // 0: none, else swizzle_len 1..3 (32B/64B/128B) on 16-byte units
  if (pad == 0 && swz > 0 && bits == 16 && cols * eb >= (std::int64_t{16} << swz))
    buf = ComposeLayout(SwizzleSpec{3, swz, 3, true}, buf.tile());
  prove::CheckInput in;
  in.layout = buf;
  in.access = Layout(frag);
  in.scope = prove::Scope::kShared;
  in.elem_bits = bits;
  in.access_bytes = width;
  in.machine = prove::machine_limits(t);
  in.target = &t;
  const std::string repro = fmt::format("tirx-verify check {} --scope shared --dtype {} --target sm_90a --access {} "
                                        "--access-bytes {} --cross-check",
                                        shell_quote(print_layout(buf)), bits == 16 ? "float16" : "float32",
                                        shell_quote(print_layout(Layout(frag))), width);
  auto run = [&](prove::Engine e) {
    in.engine = e;
    return prove::find_check("smem.bank-conflicts")->run(in);
  };
  const prove::CheckResult sim = run(prove::Engine::kEnum), z3 = run(prove::Engine::kZ3), g = run(prove::Engine::kGf2);
  RC_TAG(fmt::format("layout: {}", prove::status_name(sim.status)));
  RC_TAG(g.status == prove::Status::kUndecided ? "layout: gf2 n/a" : "layout: gf2 applies");
  if (z3.status != sim.status)
    fail(fmt::format("z3 says {} ({}), the simulator {} ({})", prove::status_name(z3.status), z3.message,
                     prove::status_name(sim.status), sim.message),
         repro);
  if (g.status != prove::Status::kUndecided && (g.status != sim.status || g.witness != sim.witness))
    fail(fmt::format("gf2 says {} ({}), the simulator {} ({})", prove::status_name(g.status), g.message,
                     prove::status_name(sim.status), sim.message),
         repro);
  // auto: where the translation rule decides one row group (check_bank_conflicts.cpp), its
  // report is the whole simulation's, word for word.
  const prove::CheckResult a = run(prove::Engine::kAuto);
  if (a.engine.rfind("translation+", 0) == 0) {
    RC_TAG("layout: translated");
    if (a.status != sim.status || a.witness != sim.witness || a.message != sim.message)
      fail(fmt::format("auto ({}) says {} ({}), the simulator {} ({})", a.engine, prove::status_name(a.status), a.message,
                       prove::status_name(sim.status), sim.message),
           repro + " (without --cross-check: auto)");
  }
}

}  // namespace

Property smem_bank_engines_property() {
  return {"smem.bank-engines", "gf2, z3 and the simulator decide smem.bank-conflicts alike (accesses and layout pairs)", 120,
          [] {
            if (*rc::gen::arbitrary<bool>())
              access_case();
            else
              layout_case();
          }};
}

}  // namespace tirx::props
