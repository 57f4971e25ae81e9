// The cross-check issue 3 exists for: TIRx's layout factories (src/layout) against the
// machine model (src/hw), by direct sweeps, not round trips.
//
// TMEM is filled with labels (row, col) through a data-path layout (tmem_datapath_layout D,
// F sub_slab 0/1, B), the simulator executes the tcgen05.ld instructions the dispatcher
// issues for each atom family and repetition, and every thread/register must hold exactly
// the label that tcgen05_atom_layout(...).apply() assigns to (laneid, wid_in_wg, register).
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/tcgen05_dispatch.hpp"
#include "tirx_verify/hw/banks.hpp"
#include "tirx_verify/hw/tma.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx::hw {
namespace {
using test::sm100;
using test::sm90;
using test::throws_check;

const Axis kTLane = *Axis::from_name("TLane");
const Axis kTCol = *Axis::from_name("TCol");
const Axis kLane = *Axis::from_name("laneid");
const Axis kWid = *Axis::from_name("wid_in_wg");
const Axis kTid = *Axis::from_name("tid_in_wg");
const Axis kM = *Axis::from_name("m");

struct Frag {
  LdStShape shape;
  int rows;
  int cols;  // elements
  int bits;  // 16 or 32
  int epb() const { return 32 / bits; }
  int cols_per_rep() const {
    return shape == LdStShape::k32x32b ? 1 : shape == LdStShape::k16x64b ? 2 : shape == LdStShape::k16x128b ? 4 : 8;
  }
  int num() const { return cols / (cols_per_rep() * epb()); }  // .num per issue
  std::string dtype() const { return bits == 16 ? "float16" : "float32"; }
};

// A label that names the element: 32-bit (row, col) for fp32, a 16-bit index for fp16.
std::uint32_t label(const Frag& f, int r, int c) {
  if (f.bits == 32) return static_cast<std::uint32_t>(r) << 16 | static_cast<std::uint32_t>(c);
  return static_cast<std::uint32_t>(r * f.cols + c) & 0xFFFFu;
}

// Writes label(f, r, c) of every element (r, c) of a rows x f.cols TMEM buffer into the cell
// (and 16-bit half) the TMEM layout assigns it.
void fill(Tmem& tmem, const TileLayout& tl, const Frag& f, int rows) {
  const std::vector<std::int64_t> shape = {rows, f.cols};
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < f.cols; ++c) {
      Coord at = tl.apply(std::vector<std::int64_t>{r, c}, shape);
      TmemElementSlot s = tmem_element_slot(at.get(kTCol), f.bits);
      std::uint32_t mask = f.bits == 32 ? 0xFFFFFFFFu : 0xFFFFu << s.bit;
      tmem.write(static_cast<int>(at.get(kTLane)), s.col, label(f, r, c) << s.bit, mask);
    }
}

// Executes the dispatcher's issues for every warp; regs[w] = warp w's whole fragment.
std::vector<WarpRegisters> execute(Tmem& tmem, Datapath dp, int sub_slab, const Frag& f) {
  LdStInstr in{f.shape, f.num(), false, -1};
  int per_issue = regs_per_thread(in);
  std::vector<WarpRegisters> out;
  for (int w = 0; w < 4; ++w) {
    auto issues = tcgen05_ldst_plan(sm100(), dp, sub_slab, in, f.rows, TmemAddress::make(0, 0), w);
    WarpRegisters all(32, per_issue * static_cast<int>(issues.size()));
    for (const auto& is : issues) {
      WarpRegisters part = tcgen05_ld(tmem, in, is.address, w);
      for (int t = 0; t < 32; ++t)
        for (int r = 0; r < per_issue; ++r) all.set(t, is.first_reg + r, part.value(t, r), part.known(t, r));
    }
    out.push_back(std::move(all));
  }
  return out;
}

// Checks every fragment element: the register atom.apply() names holds `want(r, c)`; and the
// fragment covers every (thread, register half) exactly once. Returns the mismatch count.
template <class Want>
int compare(const std::vector<WarpRegisters>& regs, const Frag& f, Want want) {
  TileLayout atom = tcgen05_atom_layout(to_string(f.shape), f.rows, f.cols, DType::parse(f.dtype()));
  const std::vector<std::int64_t> shape = {f.rows, f.cols};
  std::map<std::tuple<int, int, int>, int> hits;
  int bad = 0;
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c) {
      Coord at = atom.apply(std::vector<std::int64_t>{r, c}, shape);
      int tid = static_cast<int>(at.get(kTid) + 32 * at.get(kWid) + at.get(kLane));
      int w = tid / 32, t = tid % 32, m = static_cast<int>(at.get(kM));
      int reg = m / f.epb(), half = m % f.epb();
      ++hits[{tid, reg, half}];
      std::uint32_t v = regs[w].value(t, reg) >> (f.bits * half);
      std::uint32_t k = regs[w].known(t, reg) >> (f.bits * half);
      std::uint32_t mask = f.bits == 32 ? 0xFFFFFFFFu : 0xFFFFu;
      if ((k & mask) != mask || (v & mask) != want(r, c)) {
        if (bad < 3)
          ADD_FAILURE() << to_string(f.shape) << " rows " << f.rows << " cols " << f.cols << " bits " << f.bits
                        << ": element (" << r << "," << c << ") -> warp " << w << " lane " << t << " reg " << reg
                        << " half " << half << " holds 0x" << std::hex << (v & mask) << " (known 0x" << (k & mask)
                        << "), expected 0x" << want(r, c);
        ++bad;
      }
    }
  const int regs_per_thread = regs[0].regs();
  EXPECT_EQ(static_cast<int>(hits.size()), 128 * regs_per_thread * f.epb()) << "fragment is not onto the registers";
  for (auto& [key, n] : hits) EXPECT_EQ(n, 1);
  return bad;
}

std::vector<Frag> sixteen_lane_frags(int rows) {
  std::vector<Frag> out;
  for (LdStShape s : {LdStShape::k16x64b, LdStShape::k16x128b, LdStShape::k16x256b})
    for (int bits : {32, 16})
      for (int num = 1; num <= max_num(s); num *= 2) {
        Frag f{s, rows, 0, bits};
        f.cols = num * f.cols_per_rep() * f.epb();  // at most 256 cells: every repetition fits
        out.push_back(f);
      }
  return out;
}

Tmem fresh() {
  Tmem t(sm100());
  t.allocator().alloc(512);
  return t;
}

TEST(CrossCheck, LayoutD128RowSixteenLaneFragmentsTakeTwoIssuesAtRows0And16) {
  int configs = 0;
  for (const Frag& f : sixteen_lane_frags(128)) {
    Tmem tmem = fresh();
    fill(tmem, tmem_datapath_layout("D", 128, f.cols), f, 128);
    for (int w = 0; w < 4; ++w) {
      auto issues = tcgen05_ldst_plan(sm100(), Datapath::D, 0, LdStInstr{f.shape, f.num(), false, -1}, 128,
                                      TmemAddress::make(0, 0), w);
      ASSERT_EQ(issues.size(), 2u);
      EXPECT_EQ(issues[0].address.lane(), 32 * w);
      EXPECT_EQ(issues[1].address.lane(), 32 * w + 16);
    }
    auto regs = execute(tmem, Datapath::D, 0, f);
    EXPECT_EQ(compare(regs, f, [&](int r, int c) { return label(f, r, c); }), 0);
    ++configs;
  }
  // 16x64b 8 + 16x128b 7 + 16x256b 6 repetitions, each for fp32 and fp16.
  EXPECT_EQ(configs, 2 * (8 + 7 + 6));
}

TEST(CrossCheck, LayoutD128RowWideFragment) {
  for (int bits : {32, 16})
    for (int num = 1; num <= 128; num *= 2) {
      Frag f{LdStShape::k32x32b, 128, num * (32 / bits), bits};
      Tmem tmem = fresh();
      fill(tmem, tmem_datapath_layout("D", 128, f.cols), f, 128);
      auto regs = execute(tmem, Datapath::D, 0, f);
      EXPECT_EQ(compare(regs, f, [&](int r, int c) { return label(f, r, c); }), 0) << num;
    }
}

TEST(CrossCheck, LayoutFFilledDirectlyBothSubSlabs) {
  for (int s : {0, 1})
    for (const Frag& f : sixteen_lane_frags(64)) {
      Tmem tmem = fresh();
      fill(tmem, tmem_datapath_layout("F", 64, f.cols, s), f, 64);
      auto regs = execute(tmem, Datapath::F, s, f);
      EXPECT_EQ(compare(regs, f, [&](int r, int c) { return label(f, r, c); }), 0) << "sub_slab " << s;
    }
}

TEST(CrossCheck, LowerAndUpperFViewsOfOneLayoutDAccumulator) {
  for (LdStShape shape : {LdStShape::k16x64b, LdStShape::k16x128b, LdStShape::k16x256b})
    for (int bits : {32, 16}) {
      Frag f128{shape, 128, 0, bits};
      f128.cols = 4 * f128.cols_per_rep() * f128.epb();  // .x4 per issue
      Frag f64 = f128;
      f64.rows = 64;
      Tmem tmem = fresh();
      fill(tmem, tmem_datapath_layout("D", 128, f128.cols), f128, 128);
      auto full = execute(tmem, Datapath::D, 0, f128);
      const int R = regs_per_thread(LdStInstr{shape, f128.num(), false, -1});
      for (int s : {0, 1}) {
        // Through the F view: fragment element (r, c) is D element (TLane, TCol) of F_s(r, c).
        TileLayout view = tmem_datapath_layout("F", 64, f64.cols, s);
        auto half = execute(tmem, Datapath::F, s, f64);
        EXPECT_EQ(compare(half, f64,
                          [&](int r, int c) {
                            Coord at = view.apply(std::vector<std::int64_t>{r, c}, std::vector<std::int64_t>{64, f64.cols});
                            return label(f128, static_cast<int>(at.get(kTLane)), static_cast<int>(at.get(kTCol)));
                          }),
                  0)
            << to_string(shape) << " sub_slab " << s;
        // The view's registers are the corresponding half of the 128-row fragment's registers.
        for (int w = 0; w < 4; ++w)
          for (int t = 0; t < 32; ++t)
            for (int r = 0; r < R; ++r) ASSERT_EQ(half[w].value(t, r), full[w].value(t, s * R + r));
      }
    }
}

TEST(CrossCheck, LayoutBReadAsTheSixtyFourRowWideImage) {
  for (int n : {2, 16, 64, 256}) {
    Frag f{LdStShape::k32x32b, 64, n, 32};
    Tmem tmem = fresh();
    fill(tmem, tmem_datapath_layout("B", 64, n), f, 64);
    LdStInstr in{LdStShape::k32x32b, n / 2, false, -1};  // .32x32b.x{N/2}
    std::vector<WarpRegisters> regs;
    for (int w = 0; w < 4; ++w) {
      auto issues = tcgen05_ldst_plan(sm100(), Datapath::B, 0, in, 64, TmemAddress::make(0, 0), w);
      ASSERT_EQ(issues.size(), 1u);
      regs.push_back(tcgen05_ld(tmem, in, issues[0].address, w));
    }
    EXPECT_EQ(compare(regs, f, [&](int r, int c) { return label(f, r, c); }), 0) << n;
  }
}

TEST(CrossCheck, InvalidSubSlabsAndIncompatiblePairsAreRejected) {
  EXPECT_TRUE(throws_check([] { tmem_datapath_layout("F", 64, 32, 2); }, "layout.well-formed"));
  EXPECT_TRUE(throws_check([] { tmem_datapath_layout("D", 128, 32, 1); }, "layout.well-formed"));
  const LdStInstr wide{LdStShape::k32x32b, 4, false, -1}, narrow{LdStShape::k16x64b, 4, false, -1};
  auto plan = [&](Datapath d, int s, const LdStInstr& in, int rows) {
    tcgen05_ldst_plan(sm100(), d, s, in, rows, TmemAddress::make(0, 0), 0);
  };
  EXPECT_TRUE(throws_check([&] { plan(Datapath::F, 2, narrow, 64); }, "tmem.datapath", {"sub_slab must be 0 or 1"}));
  EXPECT_TRUE(throws_check([&] { plan(Datapath::D, 1, narrow, 64); }, "tmem.datapath", {"only Layout F"}));
  EXPECT_TRUE(throws_check([&] { plan(Datapath::F, 0, wide, 64); }, "tmem.datapath", {"incompatible", ".32x32b"}));
  EXPECT_TRUE(throws_check([&] { plan(Datapath::F, 0, narrow, 128); }, "tmem.datapath", {"incompatible"}));
  EXPECT_TRUE(throws_check([&] { plan(Datapath::B, 0, narrow, 64); }, "tmem.datapath", {"incompatible"}));
  EXPECT_TRUE(throws_check([&] { plan(Datapath::D, 0, wide, 64); }, "tmem.datapath", {"incompatible"}));
  EXPECT_TRUE(throws_check([&] { plan(Datapath::E, 0, wide, 128); }, "tmem.datapath", {"no tcgen05.ld/st path"}));

  // Why F + .32x32b is rejected: executed anyway, the 32-lane read of each warp picks up the
  // other half-slab, and the 128-row .32x32b fragment's labels do not match the F data.
  Frag f{LdStShape::k32x32b, 128, 8, 32};
  Tmem tmem = fresh();
  fill(tmem, tmem_datapath_layout("F", 64, 8, 0), Frag{LdStShape::k32x32b, 64, 8, 32}, 64);
  auto regs = execute(tmem, Datapath::D, 0, f);  // as if it were Layout D
  int bad = 0;
  TileLayout atom = tcgen05_atom_layout("32x32b", 128, 8, DType::parse("float32"));
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 8; ++c) {
      Coord at = atom.apply(std::vector<std::int64_t>{r, c}, std::vector<std::int64_t>{128, 8});
      int tid = static_cast<int>(at.get(kTid));
      if (!regs[tid / 32].fully_known(tid % 32, static_cast<int>(at.get(kM)))) ++bad;
    }
  EXPECT_EQ(bad, 64 * 8);  // the 64 rows of lanes the F view never wrote hold unknown bits
}

TEST(CrossCheck, DefaultTmemAllocationIsLayoutD) {
  for (int cols : {1, 32, 256, 512}) {
    TileLayout def = default_tmem_layout(128, cols), d = tmem_datapath_layout("D", 128, cols);
    const std::vector<std::int64_t> shape = {128, cols};
    for (int r = 0; r < 128; ++r)
      for (int c = 0; c < cols; ++c) {
        std::vector<std::int64_t> rc = {r, c};
        ASSERT_EQ(def.apply(rc, shape), d.apply(rc, shape)) << r << "," << c;
      }
  }
}

TEST(CrossCheck, FactoryDataPathsAgreeWithTheMmaPlacement) {
  // tmem_datapath_layout (TIRx) against accumulator_cell (PTX data-path layouts, CTA 0).
  struct Case { const char* dp; int rows; int n; int sub_slab; };
  for (Case c : {Case{"D", 128, 256, 0}, Case{"F", 64, 128, 0}, Case{"F", 64, 128, 1}, Case{"B", 64, 128, 0},
                 Case{"E", 64, 256, 0}, Case{"G", 32, 128, 0}}) {
    TileLayout l = tmem_datapath_layout(c.dp, c.rows, c.n, c.sub_slab);
    Datapath d = parse_datapath(c.dp);
    for (int m = 0; m < c.rows; ++m)
      for (int n = 0; n < c.n; ++n) {
        Coord at = l.apply(std::vector<std::int64_t>{m, n}, std::vector<std::int64_t>{c.rows, c.n});
        AccumulatorCell cell = accumulator_cell(sm100(), d, c.n, m, n, TmemAddress::make(16 * c.sub_slab, 0));
        ASSERT_EQ(cell.cta, 0);
        ASSERT_EQ(at.get(kTLane), cell.lane) << c.dp << c.sub_slab << " (" << m << "," << n << ")";
        ASSERT_EQ(at.get(kTCol), cell.col) << c.dp << " (" << m << "," << n << ")";
      }
  }
}

TEST(CrossCheck, Seed128BSwizzleMmaSharedLayoutAgreesWithTheTmaLoad) {
  // mma_shared_layout(float16, 128B, (8, 64)) against the bytes a 128B TMA load writes.
  std::vector<std::int64_t> shape = {8, 64};
  Layout l = mma_shared_layout(DType::parse("float16"), SwizzleMode::k128B, shape);
  GlobalTensor g;
  g.elem_bytes = 2;
  g.dims = {64, 8};
  g.strides_bytes = {128};
  for (int i = 0; i < 512; ++i) g.bytes.push_back(static_cast<std::uint8_t>(i)), g.bytes.push_back(static_cast<std::uint8_t>(i >> 8));
  SharedMemory smem(sm90());
  tma_tile_load(sm90(), g, TmaTileLoad{{64, 8}, {0, 0}, TmaSwizzle::k128B, 0}, smem);
  std::vector<int> banks_col0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 64; ++j) {
      std::int64_t elem = l.apply(std::vector<std::int64_t>{i, j}, shape).get(kM);
      ASSERT_EQ(smem.read_u16(static_cast<std::uint64_t>(2 * elem)), i * 64 + j) << i << "," << j;
      if (j == 0) banks_col0.push_back(bank_of(sm90(), static_cast<std::uint64_t>(2 * elem)));
    }
  EXPECT_EQ(banks_col0, (std::vector<int>{0, 4, 8, 12, 16, 20, 24, 28}));
}

}  // namespace
}  // namespace tirx::hw
