// swizzle.bijection and tma.vs_compose — the XOR swizzle, three implementations, one function.
//
// swizzle.bijection: for random legal (M, B, S, swizzle_inner) and a random aligned period
// [k P, (k+1) P) (k may be negative), SwizzleSpec::apply (the layout's) maps the period onto
// itself one to one, is an involution, and equals the spec formula and the simulator's
// hw::ComposeSwizzle (for k >= 0); every TMA/UMMA mode functor permutes its period of bytes.
//
// tma.vs_compose: a TMA tile load (hw::tma_tile_placement: the box laid out densely, each
// byte address swizzled absolutely) puts box element (e0, e1, e2) at the byte address
// ComposeLayout(M, B, S, S[(b2,b1,b0):(b1 b0, b0, 1)] + dst/elem).apply((e2,e1,e0)) * elem,
// with (M, B, S) = (log2(16 / elem), mode, 3) as TVM picks them for the four TMA modes
// (spec tirx_semantics (f)); and loading each K block of an MMA operand with its own TMA box
// fills shared memory exactly as mma_shared_layout describes.
#include <set>

#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/hw/swizzle.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/hw/tma.hpp"
#include "tirx_verify/layout/checked.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx::props {

namespace {

const hw::Target& sm100() {
  static const hw::Target t = hw::load_target("sm_100a");
  return t;
}

std::string compose_text(const SwizzleSpec& s, const std::string& tile) {
  return fmt::format("ComposeLayout({}, {}, {}, {}{})", s.per_element, s.swizzle_len, s.atom_len, tile,
                     s.swizzle_inner ? "" : ", swizzle_inner=False");
}

hw::GlobalTensor tensor_for(int elem_bytes, const std::vector<std::int64_t>& dims) {
  hw::GlobalTensor g;
  g.elem_bytes = elem_bytes;
  g.dims = dims;
  std::int64_t stride = dims[0] * elem_bytes;
  for (std::size_t i = 1; i < dims.size(); ++i) {
    g.strides_bytes.push_back(stride);
    stride *= dims[i];
  }
  g.bytes.assign(static_cast<std::size_t>(stride), 0);
  return g;
}

}  // namespace

Property swizzle_bijection_property() {
  return {"swizzle.bijection", "swizzles are involutive bijections on every aligned period; three implementations agree",
          300, [] {
            SwizzleSpec s;
            s.per_element = *rc::gen::inRange(0, 5);
            s.swizzle_len = *rc::gen::inRange(0, 4);
            s.atom_len = s.swizzle_len + *rc::gen::inRange(0, 4);
            s.swizzle_inner = !*rc::gen::arbitrary<bool>();
            const std::int64_t k = *rc::gen::inRange<std::int64_t>(-3, 4);
            const std::int64_t p = s.period(), lo = k * p;
            const std::string tile = fmt::format("S[{}:1] + {}", p, lo);
            std::set<std::int64_t> seen;
            for (std::int64_t a = lo; a < lo + p; ++a) {
              const std::int64_t y = s.apply(a);
              const std::string repro = fmt::format("tirx-verify apply {} {}", shell_quote(compose_text(s, tile)), a - lo);
              if (y < lo || y >= lo + p)
                fail(fmt::format("swizzle {} moves address {} to {}, outside its period [{}, {})", compose_text(s, "..."), a, y,
                                 lo, lo + p),
                     repro);
              if (!seen.insert(y).second)
                fail(fmt::format("swizzle {} maps two addresses of [{}, {}) to {}", compose_text(s, "..."), lo, lo + p, y),
                     repro);
              if (s.apply(y) != a)
                fail(fmt::format("swizzle {} is not an involution: {} -> {} -> {}", compose_text(s, "..."), a, y, s.apply(y)),
                     repro);
              if (y != ref_swizzle(s, a))
                fail(fmt::format("swizzle {} gives {} for address {}, the spec formula {}", compose_text(s, "..."), y, a,
                                 ref_swizzle(s, a)),
                     repro);
              if (a >= 0) {
                const hw::ComposeSwizzle h{s.per_element, s.swizzle_len, s.atom_len, s.swizzle_inner};
                if (static_cast<std::int64_t>(h.apply(static_cast<std::uint64_t>(a))) != y)
                  fail(fmt::format("layout swizzle {} gives {} for address {}, the simulator's ComposeSwizzle {}",
                                   compose_text(s, "..."), y, a, h.apply(static_cast<std::uint64_t>(a))),
                       repro);
              }
            }
            // Every TMA/UMMA mode: a bijection on its period of bytes, at a random period.
            const hw::TmaSwizzle mode = pick({hw::TmaSwizzle::kNone, hw::TmaSwizzle::k32B, hw::TmaSwizzle::k64B,
                                                          hw::TmaSwizzle::k128B, hw::TmaSwizzle::k128BAtom32B,
                                                          hw::TmaSwizzle::k128BAtom64B});
            const hw::Swizzle f = hw::tma_swizzle_functor(mode);
            const std::uint64_t base = f.period() * static_cast<std::uint64_t>(*rc::gen::inRange(0, 64));
            std::set<std::uint64_t> bytes;
            for (std::uint64_t a = base; a < base + f.period(); ++a) {
              const std::uint64_t y = f.apply(a);
              if (y < base || y >= base + f.period() || !bytes.insert(y).second || f.apply(y) != a)
                fail(fmt::format("TMA swizzle {} is not an involutive bijection of [{}, {}) at byte {} -> {}",
                                 hw::to_string(mode), base, base + f.period(), a, y),
                     "");
            }
          }};
}

Property tma_compose_property() {
  return {"tma.vs_compose",
          "a TMA-swizzled tile load places every element where ComposeLayout.apply() and mma_shared_layout say", 200, [] {
            const hw::Target& target = sm100();
            if (*rc::gen::arbitrary<bool>()) {
              // One box, any of the four TVM modes, any element size, dst 128-byte aligned only.
              const int elem = pick({2, 1, 4, 8});
              const SwizzleMode mode = pick({SwizzleMode::k128B, SwizzleMode::kNone, SwizzleMode::k32B,
                                                         SwizzleMode::k64B});
              const int mode_value = static_cast<int>(mode);
              const std::int64_t span = mode == SwizzleMode::kNone ? 16 * *rc::gen::inRange(1, 5) : (16 << mode_value);
              const std::int64_t b0 = span / elem;
              const std::int64_t b1 = *rc::gen::inRange<std::int64_t>(1, 17);
              const std::int64_t b2 = pick<std::int64_t>({1, 2, 3});
              const std::uint64_t dst = 128 * static_cast<std::uint64_t>(*rc::gen::inRange(0, 24));
              hw::TmaTileLoad load;
              load.box = {b0, b1, b2};
              load.coords = {0, 0, 0};
              load.swizzle = static_cast<hw::TmaSwizzle>(mode_value);  // none, 32B, 64B, 128B in that order
              load.smem_dst = dst;
              const auto placement = hw::tma_tile_placement(target, tensor_for(elem, {b0, b1, b2}), load);
              const SwizzleSpec spec{log2_exact(16 / elem), mode_value, 3, true};
              const std::string tile = fmt::format("S[({},{},{}):({},{},1)] + {}", b2, b1, b0, b1 * b0, b0,
                                                   static_cast<std::int64_t>(dst) / elem);
              const Layout l = ComposeLayout(spec, TileLayout({Iter{b2, b1 * b0, AxisId::m}, Iter{b1, b0, AxisId::m},
                                                               Iter{b0, 1, AxisId::m}},
                                                              {}, [&] {
                                                                OffsetMap o;
                                                                o.set(AxisId::m, static_cast<std::int64_t>(dst) / elem);
                                                                return o;
                                                              }()));
              const std::vector<std::int64_t> shape = {b2, b1, b0};
              for (const auto& p : placement) {
                const std::vector<std::int64_t> c = {p.box_coord[2], p.box_coord[1], p.box_coord[0]};
                const std::int64_t want = l.apply(c, shape).get(AxisId::m) * elem;
                if (static_cast<std::int64_t>(p.smem_address) != want)
                  fail(fmt::format("TMA {} box ({}, {}, {}) of {}-byte elements at 0x{:X}: element (e0={}, e1={}, e2={}) "
                                   "lands at byte {}, ComposeLayout says {} (element {} x {} bytes)",
                                   hw::to_string(load.swizzle), b0, b1, b2, elem, dst, c[2], c[1], c[0], p.smem_address, want,
                                   want / elem, elem),
                       fmt::format("tirx-verify apply {} {} --shape {}", shell_quote(compose_text(spec, tile)),
                                   show_ints(c, " "), show_ints(shape)));
              }
              return;
            }
            // An MMA operand (rows, K) loaded K block by K block; mma_shared_layout must agree.
            const std::string dtype = pick<std::string>({"float16", "bfloat16", "float32", "int8"});
            const SwizzleMode mode = pick({SwizzleMode::k128B, SwizzleMode::k32B, SwizzleMode::k64B});
            const int elem = DType::parse(dtype).bits / 8;
            const std::int64_t span = 16 << static_cast<int>(mode);
            const std::int64_t atom_cols = span / elem;
            const std::int64_t rows = 8 * *rc::gen::inRange<std::int64_t>(1, 9);
            const std::int64_t kblocks = *rc::gen::inRange<std::int64_t>(1, 4);
            const std::int64_t K = kblocks * atom_cols;
            const std::uint64_t base = 1024 * static_cast<std::uint64_t>(*rc::gen::inRange(0, 8));
            const std::vector<std::int64_t> shape = {rows, K};
            const Layout l = mma_shared_layout(DType::parse(dtype), mode, shape);
            const hw::GlobalTensor g = tensor_for(elem, {K, rows});
            const std::string call = fmt::format("mma_shared_layout(\"{}\", {}, ({}, {}))", dtype, static_cast<int>(mode), rows, K);
            for (std::int64_t kb = 0; kb < kblocks; ++kb) {
              hw::TmaTileLoad load;
              load.box = {atom_cols, rows};
              load.coords = {kb * atom_cols, 0};
              load.swizzle = static_cast<hw::TmaSwizzle>(static_cast<int>(mode));
              load.smem_dst = base + static_cast<std::uint64_t>(kb * rows * span);
              for (const auto& p : hw::tma_tile_placement(target, g, load)) {
                const std::int64_t r = p.box_coord[1], k = kb * atom_cols + p.box_coord[0];
                const std::int64_t want =
                    static_cast<std::int64_t>(base) + l.apply(std::vector<std::int64_t>{r, k}, shape).get(AxisId::m) * elem;
                if (static_cast<std::int64_t>(p.smem_address) != want)
                  fail(fmt::format("{} at byte 0x{:X}: element ({}, {}) is at byte {} after the TMA load of K block {}, "
                                   "the layout says {}",
                                   call, base, r, k, p.smem_address, kb, want),
                       fmt::format("tirx-verify apply {} {} {} --shape {},{}", shell_quote(call), r, k, rows, K));
              }
            }
          }};
}

}  // namespace tirx::props
