// layout.equivalent and prove::equivalent: the algebra's rewrites are proved to keep the map
// (canonicalize on every engine-test layout, TVM's canonicalize facts), factory outputs are
// proved equal to the layouts they are documented to be, and differences come with the first
// differing element and both image sets.
#include <gtest/gtest.h>

#include "prove_layouts.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/layout/ops.hpp"
#include "tirx_verify/prove/equivalent.hpp"

namespace tirx::prove {
namespace {
using namespace tirx::test;

EquivalenceOptions with(Engine e, bool cross = false) {
  EquivalenceOptions o;
  o.engine = e;
  o.cross_check = cross;
  return o;
}

TEST(Equivalent, CanonicalizeKeepsTheMapOfEveryTestLayout) {
  for (const auto& c : prove_cases()) {
    const Layout canon = canonicalize(c.layout);
    const CheckResult r = equivalent(c.layout, canon, std::nullopt, with(Engine::kAuto, /*cross=*/true));
    EXPECT_EQ(r.status, Status::kPass) << c.name << ": " << r.message;
    EXPECT_NE(r.engine.find("enum"), std::string::npos) << c.name;
    EXPECT_NE(r.engine.find("z3"), std::string::npos) << c.name;
  }
}

TEST(Equivalent, TvmCanonicalizeFacts) {
  // tirx_semantics.md (e), test_normalize_tile_layout: input -> canonical.
  const std::vector<std::pair<std::string, std::string>> facts = {
      {"S[(8,8,8,4,2):(512,64,8,2,1)]", "S[4096:1]"},
      {"S[(8,8,1,8,4,2):(512,64,160,8,2,1)]", "S[4096:1]"},
      {"S[(8,8,8,4,1,1):(512,64,8,2,1,1)]", "S[2048:2]"},
      {"S[(8,2,3,6):(6,24,6,1)]", "S[(8,2,18):(6,24,1)]"},
      {"S[(8,2,4,2,3,6):(2,1,4,24,6,1)]", "S[(16,4,2,18):(1,4,24,1)]"},
      {"S[(3,4,5,2):(20,5,1,60)]", "S[(60,2):(1,60)]"},
      {"S[(8,4,8):(4@laneid,1@laneid,4)]", "S[(32,8):(1@laneid,4)]"},
      {"S[(8,8,8,1,1,2,1):(16,4@laneid,2,1,4@laneid,1,1)] + 0@laneid", "S[(8,8,16):(16,4@laneid,1)]"},
  };
  for (const auto& [in, out] : facts)
    for (Engine e : {Engine::kEnum, Engine::kZ3}) {
      const CheckResult r = equivalent(parse_layout(in), parse_layout(out), std::nullopt, with(e));
      EXPECT_EQ(r.status, Status::kPass) << in << " vs " << out << " (" << engine_name(e) << "): " << r.message;
    }
}

TEST(Equivalent, DefaultTmemAllocationIsLayoutD) {
  // TMEM pool default for 128 rows = Layout D (tirx_semantics.md (g), _default_tmem_layout).
  for (std::int64_t cols : {32, 256, 512}) {
    const CheckResult r = equivalent(default_tmem_layout(128, cols), tmem_datapath_layout("D", 128, cols), std::nullopt,
                                     with(Engine::kAuto, true));
    EXPECT_EQ(r.status, Status::kPass) << r.message;
    EXPECT_EQ(r.engine, "gf2+enum+z3");
  }
  // For 64 rows the default is the identity on lanes, which is NOT Layout F: row 16 is lane 16 in
  // the default but lane 32 in F (lanes 32*(r/16) + r%16).
  const std::vector<std::int64_t> shape{64, 32};
  const CheckResult f = equivalent(default_tmem_layout(64, 32), tmem_datapath_layout("F", 64, 32), shape);
  ASSERT_EQ(f.status, Status::kFail);
  EXPECT_EQ(f.witness["element"]["logical"], nlohmann::json({16, 0}));
  EXPECT_EQ(f.witness["a"], nlohmann::json::parse(R"([{"TCol": 0, "TLane": 16}])"));
  EXPECT_EQ(f.witness["b"], nlohmann::json::parse(R"([{"TCol": 0, "TLane": 32}])"));
  EXPECT_EQ(f.witness["first"], true);
}

TEST(Equivalent, MmaSharedLayoutIsTheDocumentedCanonicalLayout) {
  // (dtype, mode, shape) -> the table of tirx_semantics.md (g), proved as maps, not compared as text.
  const std::vector<std::int64_t> s64_256{64, 256}, s3{3, 64, 256}, s64{64, 64};
  const DType f16 = DType::parse("float16"), f32 = DType::parse("float32"), u8 = DType::parse("uint8");
  struct Row {
    Layout got, want;
  };
  const std::vector<Row> rows = {
      {mma_shared_layout(f16, SwizzleMode::k128B, s64_256), CL(3, 3, 3, TL({I(64, 64), I(4, 4096), I(64, 1)}))},
      {mma_shared_layout(f16, SwizzleMode::k128B, s3),
       CL(3, 3, 3, TL({I(3, 16384), I(64, 64), I(4, 4096), I(64, 1)}))},
      {mma_shared_layout(f16, SwizzleMode::k64B, s64), CL(3, 2, 3, TL({I(64, 32), I(2, 2048), I(32, 1)}))},
      {mma_shared_layout(f16, SwizzleMode::k32B, s64), CL(3, 1, 3, TL({I(64, 16), I(4, 1024), I(16, 1)}))},
      {mma_shared_layout(f16, SwizzleMode::kNone, s64), TL({I(64, 8), I(8, 512), I(8, 1)})},
      {mma_shared_layout(f32, SwizzleMode::k128B, s64_256), CL(2, 3, 3, TL({I(64, 32), I(8, 2048), I(32, 1)}))},
      {mma_shared_layout(u8, SwizzleMode::k128B, s64_256), CL(4, 3, 3, TL({I(64, 128), I(2, 8192), I(128, 1)}))},
  };
  for (const Row& r : rows) {
    const CheckResult res = equivalent(r.got, r.want, std::nullopt, with(Engine::kAuto, true));
    EXPECT_EQ(res.status, Status::kPass) << print_layout(r.got) << ": " << res.message;
  }
  // A 64B layout is not the 128B one.
  const CheckResult bad = equivalent(mma_shared_layout(f16, SwizzleMode::k64B, s64),
                                     mma_shared_layout(f16, SwizzleMode::k128B, s64), s64);
  ASSERT_EQ(bad.status, Status::kFail);
  EXPECT_EQ(bad.witness["first"], true);
}

TEST(Equivalent, ThreadAxisFusionChangesTheAxes) {
  // Under a CUDA target, canonicalize fuses laneid into tx: a different map onto named axes.
  const Layout l = parse_layout("S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]");
  CanonicalizeOptions cuda;
  cuda.cuda_target = true;
  const CheckResult r = equivalent(l, canonicalize(l, cuda));
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["element"]["flat"], 1);  // element 0 is all zeros on every axis either way
  EXPECT_EQ(equivalent(l, canonicalize(l)).status, Status::kPass);
}

TEST(Equivalent, EnginesAgreeOnDifferences) {
  // Pairs that differ somewhere past element 0; every engine finds the same first element.
  struct Pair {
    Layout a, b;
    std::int64_t first;
  };
  const std::vector<Pair> pairs = {
      {CL(3, 3, 3, TL({I(512, 1)})), CL(3, 2, 3, TL({I(512, 1)})), 256},
      {TL({I(2, 30), I(30, 1)}), TL({I(2, 31), I(30, 1)}), 30},
      {TL({I(64, 1, "TLane"), I(32, 1, "TCol")}), tmem_datapath_layout("F", 64, 32), 16 * 32},
      {TL({I(8, 1, "TCol")}, {I(2, 32, "TLane")}), TL({I(8, 1, "TCol")}, {I(2, 32, "TLane")}, {{"TCol", 0}}), -1},
      {TL({I(4, 8), I(8, 1)}), TL({I(4, 8), I(8, 1)}, {I(1, 3)}), -1},
  };
  for (const Pair& p : pairs)
    for (Engine e : {Engine::kEnum, Engine::kGf2, Engine::kZ3}) {
      const CheckResult r = equivalent(p.a, p.b, std::nullopt, with(e));
      if (r.status == Status::kUndecided) {
        EXPECT_EQ(e, Engine::kGf2) << r.message;
        continue;
      }
      if (p.first < 0) {
        EXPECT_EQ(r.status, Status::kPass) << engine_name(e) << ": " << r.message;
      } else {
        ASSERT_EQ(r.status, Status::kFail) << engine_name(e);
        EXPECT_EQ(r.witness["element"]["flat"], p.first) << engine_name(e);
      }
    }
}

TEST(Equivalent, SizesAndShapes) {
  const CheckResult r = equivalent(TL({I(64, 1)}), TL({I(32, 1)}));
  ASSERT_EQ(r.status, Status::kFail);
  EXPECT_EQ(r.witness["size_a"], 64);
  EXPECT_EQ(r.witness["size_b"], 32);
  const std::vector<std::int64_t> wrong{4, 4};
  EXPECT_THROW(equivalent(TL({I(64, 1)}), TL({I(64, 1)}), wrong), InputError);
  // Without a second layout the registered check does not apply.
  CheckInput in;
  in.layout = TL({I(8, 1)});
  EXPECT_EQ(find_check("layout.equivalent")->run(in).status, Status::kNotApplicable);
}

}  // namespace
}  // namespace tirx::prove
