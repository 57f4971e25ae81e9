// tcgen05_atom_layout / wg_local_layout: facts from TVM
// tests/python/tirx/operator/tile_primitive/cuda/copy_async/test_tcgen05_ldst.py
// (test_tcgen05_atom_layout_apply_matches_decompose_fp32, ..._32x32b_datapath_B_mapping,
// test_datapath_B_layout_factories_reject_invalid_inputs, test_alloc_tcgen05_frag_wrapper_compiles),
// tests/python/tirx/test_layout.py (test_wg_local_layout_helper), the spec (g) table, and a
// sweep of every legal (shape, .num, dtype, rows) against the PTX ISA 9.1 §9.7.16.2.3 thread /
// register -> (lane, column) formulas, written out independently below.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"

namespace tirx {
namespace {

using test::L;

const DType kF32 = DType::parse("float32");
const DType kF16 = DType::parse("float16");
const DType kBF16 = DType::parse("bfloat16");

TileLayout atom(const char* shape, std::int64_t rows, std::int64_t cols, const DType& dt) {
  return tcgen05_atom_layout(shape, rows, cols, dt);
}

TEST(Tcgen05Atom, SpecTableRawCanonicalCuda) {
  struct Case {
    const char* shape;
    std::int64_t rows, cols;
    const DType* dt;
    const char *raw, *canonical, *cuda;
  };
  const Case cases[] = {
      {"32x32b", 128, 32, &kF32, "S[(128,32):(1@tid_in_wg,1)]", "S[(128,32):(1@tid_in_wg,1)]",
       "S[(128,32):(1@tid_in_wg,1)]"},
      {"32x32b", 128, 8, &kF16, "S[(128,8):(1@tid_in_wg,1)]", "S[(128,8):(1@tid_in_wg,1)]",
       "S[(128,8):(1@tid_in_wg,1)]"},
      {"32x32b", 64, 128, &kF32, "S[(64,2,64):(1@tid_in_wg,64@tid_in_wg,1)]",
       "S[(64,2,64):(1@tid_in_wg,64@tid_in_wg,1)]", "S[(64,2,64):(1@tid_in_wg,64@tid_in_wg,1)]"},
      {"16x64b", 64, 2, &kF32, "S[(4,2,8,1,2):(1@wid_in_wg,1@laneid,4@laneid,1,2@laneid)]",
       "S[(4,2,16):(1@wid_in_wg,1@laneid,2@laneid)]", "S[(4,2,16):(32@tid_in_wg,1@tid_in_wg,2@tid_in_wg)]"},
      {"16x64b", 64, 64, &kF32, "S[(4,2,8,32,2):(1@wid_in_wg,1@laneid,4@laneid,1,2@laneid)]",
       "S[(4,2,8,32,2):(1@wid_in_wg,1@laneid,4@laneid,1,2@laneid)]",
       "S[(4,2,8,32,2):(32@tid_in_wg,1@tid_in_wg,4@tid_in_wg,1,2@tid_in_wg)]"},
      {"16x64b", 128, 8, &kF32, "S[(4,2,2,8,4,2):(1@wid_in_wg,4,1@laneid,4@laneid,1,2@laneid)]",
       "S[(4,2,2,8,4,2):(1@wid_in_wg,4,1@laneid,4@laneid,1,2@laneid)]",
       "S[(4,2,2,8,4,2):(32@tid_in_wg,4,1@tid_in_wg,4@tid_in_wg,1,2@tid_in_wg)]"},
      {"16x64b", 64, 8, &kF16, "S[(4,2,8,2,2,2):(1@wid_in_wg,1@laneid,4@laneid,2,2@laneid,1)]",
       "S[(4,2,8,2,2,2):(1@wid_in_wg,1@laneid,4@laneid,2,2@laneid,1)]",
       "S[(4,2,8,2,2,2):(32@tid_in_wg,1@tid_in_wg,4@tid_in_wg,2,2@tid_in_wg,1)]"},
      {"16x128b", 64, 16, &kF32, "S[(4,2,8,4,4):(1@wid_in_wg,1,4@laneid,2,1@laneid)]",
       "S[(4,2,8,4,4):(1@wid_in_wg,1,4@laneid,2,1@laneid)]",
       "S[(4,2,8,4,4):(32@tid_in_wg,1,4@tid_in_wg,2,1@tid_in_wg)]"},
      {"16x128b", 128, 4, &kF32, "S[(4,2,2,8,1,4):(1@wid_in_wg,2,1,4@laneid,2,1@laneid)]",
       "S[(4,4,32):(1@wid_in_wg,1,1@laneid)]", "S[(4,4,32):(32@tid_in_wg,1,1@tid_in_wg)]"},
      {"16x128b", 64, 256, &kBF16, "S[(4,2,8,32,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]",
       "S[(4,2,8,32,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]",
       "S[(4,2,8,32,4,2):(32@tid_in_wg,2,4@tid_in_wg,4,1@tid_in_wg,1)]"},
      {"16x256b", 64, 32, &kF32, "S[(4,2,8,4,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]",
       "S[(4,2,8,4,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]",
       "S[(4,2,8,4,4,2):(32@tid_in_wg,2,4@tid_in_wg,4,1@tid_in_wg,1)]"},
      {"16x256b", 128, 8, &kF32, "S[(4,2,2,8,1,4,2):(1@wid_in_wg,4,2,4@laneid,4,1@laneid,1)]",
       "S[(4,4,32,2):(1@wid_in_wg,2,1@laneid,1)]", "S[(4,4,32,2):(32@tid_in_wg,2,1@tid_in_wg,1)]"},
      {"16x256b", 128, 32, &kF32, "S[(4,2,2,8,4,4,2):(1@wid_in_wg,16,2,4@laneid,4,1@laneid,1)]",
       "S[(4,2,2,8,4,4,2):(1@wid_in_wg,16,2,4@laneid,4,1@laneid,1)]",
       "S[(4,2,2,8,4,4,2):(32@tid_in_wg,16,2,4@tid_in_wg,4,1@tid_in_wg,1)]"},
      {"16x256b", 64, 64, &kF16, "S[(4,2,8,4,4,2,2):(1@wid_in_wg,4,4@laneid,8,1@laneid,2,1)]",
       "S[(4,2,8,4,4,4):(1@wid_in_wg,4,4@laneid,8,1@laneid,1)]",
       "S[(4,2,8,4,4,4):(32@tid_in_wg,4,4@tid_in_wg,8,1@tid_in_wg,1)]"},
      // test_tcgen05_atom_layout_apply_matches_decompose_fp32 (derived values)
      {"16x128b", 64, 4, &kF32, "S[(4,2,8,1,4):(1@wid_in_wg,1,4@laneid,2,1@laneid)]", nullptr, nullptr},
      {"16x256b", 64, 8, &kF32, "S[(4,2,8,1,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]", nullptr, nullptr},
      {"16x128b", 64, 8, &kF32, "S[(4,2,8,2,4):(1@wid_in_wg,1,4@laneid,2,1@laneid)]", nullptr, nullptr},
      {"16x64b", 64, 8, &kF32, "S[(4,2,8,4,2):(1@wid_in_wg,1@laneid,4@laneid,1,2@laneid)]", nullptr, nullptr},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.shape) + " " + std::to_string(c.rows) + "x" + std::to_string(c.cols) + " " + c.dt->name);
    const TileLayout raw = atom(c.shape, c.rows, c.cols, *c.dt);
    EXPECT_LAYOUT_EQ(Layout(raw), Layout(L(c.raw)));
    if (c.canonical) EXPECT_LAYOUT_EQ(Layout(canonicalize(raw)), Layout(L(c.canonical)));
    if (c.cuda) EXPECT_LAYOUT_EQ(Layout(canonicalize(raw, {true})), Layout(L(c.cuda)));
  }
  // spec (g): 16x256b fp32 (64,8) and 16x128b fp16 (64,8) are the identical layout
  EXPECT_EQ(atom("16x256b", 64, 8, kF32), atom("16x128b", 64, 8, kF16));
}

struct Pt {
  std::int64_t laneid, wid, m;
};
Pt frag(const TileLayout& l, std::int64_t r, std::int64_t c, std::int64_t cols) {
  const std::int64_t co[] = {r, c}, sh[] = {l.size() / cols, cols};
  const Coord p = l.apply(co, sh);
  return {p.get(AxisId::laneid), p.get(AxisId::wid_in_wg), p.get(AxisId::m)};
}

TEST(Tcgen05Atom, TvmApplyFacts) {
  // test_tcgen05_atom_layout_apply_matches_decompose_fp32[2-*] (thread = 32w + lane, reg = m)
  const TileLayout a128 = atom("16x128b", 64, 8, kF32);
  EXPECT_EQ(std::make_tuple(frag(a128, 17, 1, 8).laneid, frag(a128, 17, 1, 8).wid, frag(a128, 17, 1, 8).m),
            std::make_tuple(5, 1, 0));
  EXPECT_EQ(std::make_tuple(frag(a128, 63, 3, 8).laneid, frag(a128, 63, 3, 8).wid, frag(a128, 63, 3, 8).m),
            std::make_tuple(31, 3, 1));
  const TileLayout a256 = atom("16x256b", 64, 16, kF32);
  EXPECT_EQ(std::make_tuple(frag(a256, 17, 2, 16).laneid, frag(a256, 17, 2, 16).wid, frag(a256, 17, 2, 16).m),
            std::make_tuple(5, 1, 0));
  EXPECT_EQ(std::make_tuple(frag(a256, 1, 3, 16).laneid, frag(a256, 1, 3, 16).wid, frag(a256, 1, 3, 16).m),
            std::make_tuple(5, 0, 1));
  EXPECT_EQ(std::make_tuple(frag(a256, 0, 0, 16).laneid, frag(a256, 0, 0, 16).wid, frag(a256, 0, 0, 16).m),
            std::make_tuple(0, 0, 0));
  const TileLayout a64 = atom("16x64b", 64, 4, kF32);
  EXPECT_EQ(std::make_tuple(frag(a64, 25, 0, 4).laneid, frag(a64, 25, 0, 4).wid, frag(a64, 25, 0, 4).m),
            std::make_tuple(5, 1, 0));
  EXPECT_EQ(std::make_tuple(frag(a64, 0, 0, 4).laneid, frag(a64, 0, 0, 4).wid, frag(a64, 0, 0, 4).m),
            std::make_tuple(0, 0, 0));
  EXPECT_EQ(std::make_tuple(frag(a64, 63, 3, 4).laneid, frag(a64, 63, 3, 4).wid, frag(a64, 63, 3, 4).m),
            std::make_tuple(31, 3, 1));
  // test_tcgen05_atom_layout_32x32b_datapath_B_mapping
  const TileLayout b = atom("32x32b", 64, 128, kF32);
  const std::int64_t c1[] = {31, 64}, c0[] = {0, 0}, sh[] = {64, 128};
  EXPECT_EQ(b.apply(c1, sh).get(AxisId::tid_in_wg), 95);
  EXPECT_EQ(b.apply(c1, sh).get(AxisId::m), 0);
  EXPECT_EQ(b.apply(c0, sh).get(AxisId::tid_in_wg), 0);
  EXPECT_EQ(b.apply(c0, sh).get(AxisId::m), 0);
}

TEST(Tcgen05Atom, RegistersPerThread) {
  // per-thread registers = span(m)/epb; test_alloc_tcgen05_frag_wrapper_compiles: (128,64) 32x32b
  // -> .x64 (64 regs), (64,64) 16x64b -> .x32 (32 regs), (64,64) 16x128b -> .x16 (32 regs);
  // spec (g): 16x256b fp32 rep 4 M=128 -> 32 registers.
  EXPECT_EQ(atom("32x32b", 128, 64, kF32).span(AxisId::m), 64);
  EXPECT_EQ(atom("16x64b", 64, 64, kF32).span(AxisId::m), 32);
  EXPECT_EQ(atom("16x128b", 64, 64, kF32).span(AxisId::m), 32);
  EXPECT_EQ(atom("16x256b", 128, 32, kF32).span(AxisId::m), 32);
  EXPECT_EQ(atom("16x256b", 128, 64, kF16).span(AxisId::m) / 2, 32);
  // test_copy_tmem2reg_async (docs): fp16 (128,8) -> .32x32b.x4, 4 registers per thread
  EXPECT_EQ(atom("32x32b", 128, 8, kF16).span(AxisId::m) / 2, 4);
  // test_datapath_B_codegen: 32x32b (64,64) fp32 -> one .32x32b.x32, N/2 = 32 registers
  EXPECT_EQ(atom("32x32b", 64, 64, kF32).span(AxisId::m), 32);
}

// test_tcgen05_16xnb_sub_slab_view_read[16x64b-8 / 16x128b-4 / 16x256b-4]: reading the lower
// (sub_slab 0) or upper (sub_slab 1) 64-row Layout F view of a Layout D accumulator gives the
// same thread the first or second half of the registers of the M=128 fragment.
TEST(Tcgen05Atom, SubSlabViewsReadTheHalvesOfTheM128Fragment) {
  const std::tuple<const char*, std::int64_t, std::int64_t> cases[] = {
      {"16x64b", 16, 8}, {"16x128b", 16, 8}, {"16x256b", 32, 16}};  // shape, cols, registers per issue
  for (auto [shape, cols, regs] : cases)
    for (const DType* dt : {&kF32, &kF16}) {
      const std::int64_t epb = 32 / dt->bits, c = cols * epb;
      SCOPED_TRACE(std::string(shape) + " " + dt->name);
      const TileLayout full = atom(shape, 128, c, *dt), half = atom(shape, 64, c, *dt);
      const TileLayout d = tmem_datapath_layout("D", 128, c);
      for (int s : {0, 1}) {
        const TileLayout f = tmem_datapath_layout("F", 64, c, s);
        for (std::int64_t r = 0; r < 64; ++r)
          for (std::int64_t col = 0; col < c; ++col) {
            const Coord cell = f.apply(r * c + col);  // where the 64-row view puts (r, col)
            const std::int64_t row_d = cell.get(AxisId::TLane), col_d = cell.get(AxisId::TCol);
            ASSERT_EQ(d.apply(row_d * c + col_d).get(AxisId::TLane), row_d);  // Layout D is the identity
            const Coord a = full.apply(row_d * c + col_d), b = half.apply(r * c + col);
            ASSERT_EQ(a.get(AxisId::laneid), b.get(AxisId::laneid));
            ASSERT_EQ(a.get(AxisId::wid_in_wg), b.get(AxisId::wid_in_wg));
            ASSERT_EQ(a.get(AxisId::m), s * regs * epb + b.get(AxisId::m)) << "sub_slab " << s;
          }
      }
    }
}

// ---- the sweep: every legal configuration against spec (g)'s closed forms and, through the
// TMEM accumulator layout (D for 128 rows, F for 64), against the PTX formulas ----

// PTX ISA 9.1 §9.7.16.2.3: thread t (laneid) and register r of one warp -> (lane inside the
// warp's block, 32-bit column), base lane/column 0.
std::pair<std::int64_t, std::int64_t> ptx_lane_col(std::string_view shape, std::int64_t t, std::int64_t r) {
  if (shape == "32x32b") return {t, r};
  if (shape == "16x64b") return {(t >> 2) + 8 * (t & 1), 2 * r + ((t >> 1) & 1)};
  if (shape == "16x128b") return {(t >> 2) + 8 * (r & 1), (t & 3) + 4 * (r >> 1)};
  return {(t >> 2) + 8 * ((r >> 1) & 1), 2 * (t & 3) + (r & 1) + 8 * (r >> 2)};  // 16x256b
}
std::int64_t regs_per_issue(std::string_view shape, std::int64_t num) {
  if (shape == "16x128b") return 2 * num;
  if (shape == "16x256b") return 4 * num;
  return num;
}

TEST(Tcgen05Atom, EveryLegalConfigMatchesPtxMapping) {
  const std::pair<const char*, std::int64_t> shapes[] = {{"32x32b", 1}, {"16x64b", 2}, {"16x128b", 4}, {"16x256b", 8}};
  int configs = 0;
  for (auto [shape, per_rep] : shapes) {
    const std::int64_t max_num = std::string_view(shape) == "16x128b" ? 64 : std::string_view(shape) == "16x256b" ? 32 : 128;
    for (std::int64_t num = 1; num <= max_num; num *= 2)
      for (const DType* dt : {&kF32, &kF16})
        for (std::int64_t rows : {64, 128}) {
          const bool is32 = std::string_view(shape) == "32x32b";
          if (is32 && rows == 64) continue;  // the Layout B image has its own test
          const std::int64_t epb = 32 / dt->bits;
          const std::int64_t cols = per_rep * num * epb;
          SCOPED_TRACE(std::string(shape) + ".x" + std::to_string(num) + " " + dt->name + " rows " + std::to_string(rows));
          const TileLayout l = atom(shape, rows, cols, *dt);
          // TMEM side: the accumulator layout the fragment is read from.
          const TileLayout tmem = rows == 128 ? default_tmem_layout(128, cols) : tmem_datapath_layout("F", 64, cols);
          const std::int64_t R = regs_per_issue(shape, num);
          const std::int64_t slots = l.span(AxisId::m);  // register slots (elements) per thread
          std::vector<bool> used(static_cast<std::size_t>(128 * slots), false);
          std::int64_t hits = 0;
          for (std::int64_t row = 0; row < rows; ++row)
            for (std::int64_t col = 0; col < cols; ++col) {
              const Coord p = l.apply(row * cols + col);
              std::int64_t t, w;
              if (is32) {
                t = p.get(AxisId::tid_in_wg) % 32;
                w = p.get(AxisId::tid_in_wg) / 32;
              } else {
                t = p.get(AxisId::laneid);
                w = p.get(AxisId::wid_in_wg);
              }
              const std::int64_t m = p.get(AxisId::m);
              ASSERT_TRUE(t >= 0 && t < 32 && w >= 0 && w < 4 && m >= 0 && m < slots) << row << "," << col;
              const auto slot = static_cast<std::size_t>((32 * w + t) * slots + m);
              ASSERT_FALSE(used[slot]) << "two elements in one register slot";
              used[slot] = true;
              ++hits;
              // 16-bit: two elements per 32-bit register, the even column in the low half.
              const std::int64_t reg = m / epb;
              ASSERT_EQ(m % epb, col % epb) << row << "," << col;
              // M=128 .16x*b: registers [R, 2R) come from the second issue at lane row 16.
              const std::int64_t issue = is32 ? 0 : reg / R, r = is32 ? reg : reg % R;
              ASSERT_LT(issue, rows == 128 && !is32 ? 2 : 1);
              const auto [lane_in_block, col32] = ptx_lane_col(shape, t, r);
              // The warp may only touch its own 32-lane sub-partition; .16x*b issues start at
              // lane 0 (and 16 for the second M=128 issue) of that partition.
              const std::int64_t lane = 32 * w + 16 * issue + lane_in_block;
              // spec (g)'s closed forms, from (thread, register) back to the element
              const std::int64_t base_row = is32 ? 0 : (rows == 128 ? 32 * w + 16 * issue : 16 * w);
              std::int64_t row_exp = 0, col32_exp = 0;
              if (is32) {
                row_exp = 32 * w + t;
                col32_exp = reg;
              } else if (std::string_view(shape) == "16x64b") {
                row_exp = base_row + (t >> 2) + 8 * (t & 1);
                col32_exp = ((t >> 1) & 1) + 2 * r;
              } else if (std::string_view(shape) == "16x128b") {
                row_exp = base_row + t / 4 + 8 * (r % 2);
                col32_exp = t % 4 + 4 * (r / 2);
              } else {
                row_exp = base_row + t / 4 + 8 * ((r / 2) % 2);
                col32_exp = r % 2 + 2 * (t % 4) + 8 * (r / 4);
              }
              ASSERT_EQ(row, row_exp) << "col " << col;
              ASSERT_EQ(col, col32_exp * epb + m % epb) << "row " << row;
              const Coord tm = tmem.apply(row * cols + col);
              ASSERT_EQ(tm.get(AxisId::TLane), lane) << "row " << row << " col " << col;
              ASSERT_EQ(tm.get(AxisId::TCol) / epb, col32) << "row " << row << " col " << col;
            }
          EXPECT_EQ(hits, rows * cols);
          EXPECT_EQ(rows * cols, 128 * slots);  // every register slot of the warpgroup is used
          ++configs;
        }
  }
  EXPECT_EQ(configs, 8 * 2 + (8 + 7 + 6) * 2 * 2);  // 32x32b: 8 nums x 2 dtypes; 16x*b: x2 rows
}

TEST(Tcgen05Atom, LayoutBImageMatchesDatapathB) {
  // 32x32b (64, N) fp32: thread tid reads TMEM lane tid, register r = column r; with Layout B
  // the element (row, col) is at lane row + 64*(col / (N/2)), column col % (N/2).
  for (std::int64_t N = 2; N <= 256; N *= 2) {
    const TileLayout l = atom("32x32b", 64, N, kF32);
    const TileLayout b = tmem_datapath_layout("B", 64, N);
    for (std::int64_t row = 0; row < 64; ++row)
      for (std::int64_t col = 0; col < N; ++col) {
        const Coord p = l.apply(row * N + col), q = b.apply(row * N + col);
        ASSERT_EQ(p.get(AxisId::tid_in_wg), q.get(AxisId::TLane));
        ASSERT_EQ(p.get(AxisId::m), q.get(AxisId::TCol));
      }
  }
}

TEST(Tcgen05Atom, RejectsIllegalArguments) {
  auto expect_error = [](auto&& fn, std::string_view what) {
    try {
      fn();
      ADD_FAILURE() << "expected an error mentioning " << what;
    } catch (const InputError& e) {
      EXPECT_EQ(e.check_id(), "layout.well-formed");
      EXPECT_NE(e.message().find(what), std::string::npos) << e.message();
    }
  };
  // test_datapath_B_layout_factories_reject_invalid_inputs
  expect_error([] { atom("32x32b", 64, 6, kF32); }, "PTX Table 49");
  expect_error([] { atom("32x32b", 64, 32, kF16); }, "fp32-only");
  expect_error([] { atom("32x32b", 64, 7, kF32); }, "even N");
  // .num outside Table 49: 16x256b stops at x32, 16x128b at x64, 32x32b/16x64b at x128; 3 is not a power of two
  expect_error([] { atom("16x256b", 64, 8 * 64, kF32); }, "PTX Table 49");
  expect_error([] { atom("16x128b", 64, 4 * 128, kF32); }, "PTX Table 49");
  expect_error([] { atom("16x64b", 64, 2 * 256, kF32); }, "PTX Table 49");
  expect_error([] { atom("32x32b", 128, 256, kF32); }, "PTX Table 49");
  expect_error([] { atom("16x64b", 64, 6, kF32); }, "PTX Table 49");
  expect_error([] { atom("16x64b", 64, 6, kF16); }, "not a multiple of 4");
  expect_error([] { atom("16x32bx2", 64, 8, kF32); }, "unknown instruction shape");
  expect_error([] { atom("16x64b", 64, 8, DType::parse("uint8")); }, "16 or 32 bits");
  expect_error([] { atom("16x64b", 32, 8, kF32); }, "expects rows 64 or 128");
  expect_error([] { atom("16x64b", 64, 0, kF32); }, "cols must be >= 1");
}

TEST(WgLocal, TvmFacts) {
  // test_wg_local_layout_helper
  EXPECT_LAYOUT_EQ(Layout(canonicalize(wg_local_layout(16))), Layout(canonicalize(L("S[(128,16):(1@tid_in_wg,1)]"))));
  EXPECT_LAYOUT_EQ(Layout(wg_local_layout(16)), Layout(L("S[(128,16):(1@tid_in_wg,1)]")));
  EXPECT_LAYOUT_EQ(Layout(wg_local_layout(8, 64)), Layout(L("S[(64,8):(1@tid_in_wg,1)]")));
  // The 32x32b atom of 128 rows is wg_local_layout.
  EXPECT_EQ(wg_local_layout(32), atom("32x32b", 128, 32, kF32));
  EXPECT_THROW(wg_local_layout(0), InputError);
}

}  // namespace
}  // namespace tirx
