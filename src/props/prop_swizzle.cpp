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

const hw::Target& swizzle_sm100_target() {
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


// swizzle.bijection input: a layout swizzle on period k, and a TMA mode on byte period j.
struct SwizzleCase {
  SwizzleSpec spec;
  std::int64_t period_index = 0;
  hw::TmaSwizzle mode = hw::TmaSwizzle::kNone;
  std::uint64_t mode_period_index = 0;
};

void showValue(const SwizzleCase& c, std::ostream& os) {
  os << fmt::format("{} on [{}, {}); TMA {} on byte period {}", compose_text(c.spec, "..."),
                    c.period_index * c.spec.period(), (c.period_index + 1) * c.spec.period(), hw::to_string(c.mode),
                    c.mode_period_index);
}

rc::Gen<SwizzleCase> gen_swizzle_case() {
  return rc::gen::exec([] {
    SwizzleCase c;
    c.spec.per_element = *rc::gen::inRange(0, 5);
    c.spec.swizzle_len = *rc::gen::inRange(0, 4);
    c.spec.atom_len = c.spec.swizzle_len + *rc::gen::inRange(0, 4);
    c.spec.swizzle_inner = *rc::gen::inRange(0, 2) == 0;
    c.period_index = *rc::gen::inRange<std::int64_t>(-3, 4);
    c.mode = pick({hw::TmaSwizzle::k128B, hw::TmaSwizzle::kNone, hw::TmaSwizzle::k32B, hw::TmaSwizzle::k64B,
                   hw::TmaSwizzle::k128BAtom32B, hw::TmaSwizzle::k128BAtom64B});
    c.mode_period_index = static_cast<std::uint64_t>(*rc::gen::inRange(0, 64));
    return c;
  });
}

// tma.vs_compose input: one TMA box (any of the four TVM modes and element sizes), or an MMA
// operand loaded K block by K block.
struct TmaCase {
  bool mma = false;
  int elem = 2;                  // bytes
  SwizzleMode mode = SwizzleMode::k128B;
  std::int64_t b0 = 0, b1 = 0, b2 = 0;
  std::uint64_t dst = 0;         // box: shared-memory destination; mma: buffer base
  std::string dtype;             // mma
  std::int64_t rows = 0, kblocks = 0;
};

std::string tma_mode_name(SwizzleMode m) { return std::string(hw::to_string(static_cast<hw::TmaSwizzle>(static_cast<int>(m)))); }

void showValue(const TmaCase& c, std::ostream& os) {
  if (c.mma)
    os << fmt::format("mma_shared_layout(\"{}\", {}, ({}, {})) at byte {}, loaded by {} TMA {} boxes", c.dtype,
                      static_cast<int>(c.mode), c.rows, c.kblocks * ((16 << static_cast<int>(c.mode)) * 8 / (c.elem * 8)),
                      c.dst, c.kblocks, tma_mode_name(c.mode));
  else
    os << fmt::format("TMA {} box ({}, {}, {}) of {}-byte elements to byte {}", tma_mode_name(c.mode), c.b0, c.b1, c.b2,
                      c.elem, c.dst);
}

rc::Gen<TmaCase> gen_tma_case() {
  return rc::gen::exec([] {
    TmaCase c;
    c.mma = *rc::gen::arbitrary<bool>();
    if (!c.mma) {
      c.elem = pick({2, 1, 4, 8});
      c.mode = pick({SwizzleMode::k128B, SwizzleMode::kNone, SwizzleMode::k32B, SwizzleMode::k64B});
      const std::int64_t span =
          c.mode == SwizzleMode::kNone ? 16 * *rc::gen::inRange(1, 5) : (16 << static_cast<int>(c.mode));
      c.b0 = span / c.elem;
      c.b1 = *rc::gen::inRange<std::int64_t>(1, 17);
      c.b2 = pick<std::int64_t>({1, 2, 3});
      c.dst = 128 * static_cast<std::uint64_t>(*rc::gen::inRange(0, 24));
    } else {
      c.dtype = pick<std::string>({"float16", "bfloat16", "float32", "int8"});
      c.elem = DType::parse(c.dtype).bits / 8;
      c.mode = pick({SwizzleMode::k128B, SwizzleMode::k32B, SwizzleMode::k64B});
      c.rows = 8 * *rc::gen::inRange<std::int64_t>(1, 9);
      c.kblocks = *rc::gen::inRange<std::int64_t>(1, 4);
      c.dst = 1024 * static_cast<std::uint64_t>(*rc::gen::inRange(0, 8));
    }
    return c;
  });
}

}  // namespace

Property swizzle_bijection_property() {
  return {"swizzle.bijection", "swizzles are involutive bijections on every aligned period; three implementations agree",
          300, [] {
            const SwizzleCase sc = *gen_swizzle_case();
            const SwizzleSpec& s = sc.spec;
            const std::int64_t k = sc.period_index;
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
            const hw::TmaSwizzle mode = sc.mode;
            const hw::Swizzle f = hw::tma_swizzle_functor(mode);
            const std::uint64_t base = f.period() * sc.mode_period_index;
            std::set<std::uint64_t> bytes;
            for (std::uint64_t a = base; a < base + f.period(); ++a) {
              const std::uint64_t y = f.apply(a);
              if (y < base || y >= base + f.period() || !bytes.insert(y).second || f.apply(y) != a)
                fail(fmt::format("TMA swizzle {} is not an involutive bijection of [{}, {}) at byte {} -> {}",
                                 hw::to_string(mode), base, base + f.period(), a, y),
                     fmt::format("tirx-verify sim swizzle --mode {} --byte-offset {} --json", hw::to_string(mode), a));
            }
          }};
}

Property tma_compose_property() {
  return {"tma.vs_compose",
          "a TMA-swizzled tile load places every element where ComposeLayout.apply() and mma_shared_layout say", 200, [] {
            const hw::Target& target = swizzle_sm100_target();
            const TmaCase tc = *gen_tma_case();
            if (!tc.mma) {
              // One box, any of the four TVM modes, any element size, dst 128-byte aligned only.
              const int elem = tc.elem;
              const SwizzleMode mode = tc.mode;
              const int mode_value = static_cast<int>(mode);
              const std::int64_t b0 = tc.b0, b1 = tc.b1, b2 = tc.b2;
              const std::uint64_t dst = tc.dst;
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
            const std::string& dtype = tc.dtype;
            const SwizzleMode mode = tc.mode;
            const int elem = tc.elem;
            const std::int64_t span = 16 << static_cast<int>(mode);
            const std::int64_t atom_cols = span / elem;
            const std::int64_t rows = tc.rows, kblocks = tc.kblocks;
            const std::int64_t K = kblocks * atom_cols;
            const std::uint64_t base = tc.dst;
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
