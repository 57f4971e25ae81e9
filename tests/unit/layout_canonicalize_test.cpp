// canonicalize(), get_scope() and verify_well_formed(): spec (b) and (e), facts from TVM
// tests/python/tirx/test_layout.py (test_normalize_tile_layout, test_normalize_compose_layout,
// test_normalize_trainium_layout, test_verify_well_formed).
#include <gtest/gtest.h>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {

using test::C;
using test::L;

Layout canon(std::string_view text, bool cuda = false) {
  return Layout(canonicalize(L(text), CanonicalizeOptions{cuda}));
}

struct Case {
  const char* input;
  const char* expected;
};

// test_normalize_tile_layout case1..case11, case15, case_no_norm, case_both_data_device*,
// unit_layout_case1; test_normalize_trainium_layout case1..3.
TEST(Canonicalize, TvmNormalizeTileLayoutCases) {
  const Case cases[] = {
      {"S[(8,8,8,4,2):(512,64,8,2,1)]", "S[4096:1]"},                                   // case1
      {"S[(8,8,1,8,4,2):(512,64,160,8,2,1)]", "S[4096:1]"},                             // case2
      {"S[(8,8,8,4,1,1):(512,64,8,2,1,1)]", "S[2048:2]"},                               // case3
      {"S[(8,8,1,1,1,4,1,1):(512,64,1,1,1,2,1,1)]", "S[(64,4):(64,2)]"},                // case4
      {"S[(2,3,6):(18,6,1)]", "S[36:1]"},                                               // case5
      {"S[(8,2,3,6):(6,18,6,1)]", "S[(8,36):(6,1)]"},                                   // case6
      {"S[(8,2,3,6):(6,24,6,1)]", "S[(8,2,18):(6,24,1)]"},                              // case7
      {"S[(8,2,4,2,3,6):(2,1,4,24,6,1)]", "S[(16,4,2,18):(1,4,24,1)]"},                 // case8
      {"S[(3,4,5,2):(20,5,1,60)]", "S[(60,2):(1,60)]"},                                 // case9
      {"S[(18,8,2,4,2,3,6):(4,2,1,4,24,6,1)]", "S[(18,16,4,2,18):(4,1,4,24,1)]"},       // case10
      {"S[(3,4,5,2,3,4):(20,5,1,60,20,5)]", "S[(60,24):(1,5)]"},                        // case11
      {"S[(32,3,4,5,2,3,4):(1@laneid,20,5,1,60,20,5)]", "S[(32,60,24):(1@laneid,1,5)]"},  // case15
      {"S[(8,8,8,4,2):(16,4@laneid,2,1@laneid,1)]", "S[(8,8,8,4,2):(16,4@laneid,2,1@laneid,1)]"},  // no_norm
      {"S[(8,8,8,1,4,2,1):(16,4@laneid,2,1,1@laneid,1,1)]", "S[(8,8,8,4,2):(16,4@laneid,2,1@laneid,1)]"},
      {"S[(8,8,8,1,4,2,1):(16,4@laneid,2,1,1@laneid,1,4@laneid)]",
       "S[(8,8,8,4,2):(16,4@laneid,2,1@laneid,1)]"},                                     // device2
      {"S[(8,8,8,1,1,2,1):(16,4@laneid,2,1,4@laneid,1,1)] + 0@laneid", "S[(8,8,16):(16,4@laneid,1)]"},
      {"S[(8,4,8,8,16):(4@laneid,1@laneid,4,2,4)]", "S[(32,8,8,16):(1@laneid,4,2,4)]"},  // device4
      {"S[(8,4,8,16):(4@laneid,1@laneid,2,4)]", "S[(32,8,16):(1@laneid,2,4)]"},          // device6
      {"S[(8,4,8):(4@laneid,1@laneid,8)]", "S[(32,8):(1@laneid,8)]"},                    // device7
      {"S[(8,4,8):(4@laneid,1@laneid,4)]", "S[(32,8):(1@laneid,4)]"},                    // device8
      {"S[(8,4):(4@laneid,1@laneid)]", "S[32:1@laneid]"},                                // device9
      {"S[(8,4,4,8,8,8):(4@laneid,1@laneid,4,8,8,8)]", "S[(32,4,8,8,8):(1@laneid,4,8,8,8)]"},  // device12
      {"S[(8,4,4,8,8,8):(4@laneid,1@laneid,16,2,8,8)]", "S[(32,32,8,8):(1@laneid,2,8,8)]"},    // device13
      {"S[(8,4,4,8,8,4,4,16,8):(4@laneid,1@laneid,16,2,8,2,16,1,4)]",
       "S[(32,32,32,64,8):(1@laneid,2,2,1,4)]"},                                         // device14
      {"S[(1,1,1,1,1):(1,1,1,1,1)]", "S[1:1]"},                                          // unit_layout_case1
      {"S[(8,8):(8@P,1@F)]", "S[(8,8):(8@P,1@F)]"},                                      // trainium case1
      {"S[(8,1,8):(8@F,1@P,1@F)]", "S[64:1@F]"},                                         // trainium case2
      {"S[(8,8,8):(8@F,1@P,1@F)]", "S[(8,8,8):(8@F,1@P,1@F)]"},                          // trainium case3
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_LAYOUT_EQ(canon(c.input), Layout(L(c.expected)));
  }
}

// test_normalize_tile_layout case_fuse_axis (under `with Target("cuda")`) and spec (e).
TEST(Canonicalize, CudaTargetFusesThreadAxes) {
  const Case cases[] = {
      {"S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]", "S[(2,8,2,4):(64@tx,4@tx,32@tx,1@tx)]"},
      {"S[(2,2,8,4):(2@warpid,1@warpid,4@laneid,1@laneid)]", "S[128:1@tx]"},
      {"S[(2,2,8,2,2,4):(2@wgid,2@wid_in_wg,4@laneid,1@wgid,1@wid_in_wg,1@laneid)]",
       "S[(2,2,8,2,2,4):(256@tx,64@tx,4@tx,128@tx,32@tx,1@tx)]"},
      {"S[(2,8,2,4):(2@wid_in_wg,4@laneid,1@wid_in_wg,1@laneid)]",
       "S[(2,8,2,4):(64@tid_in_wg,4@tid_in_wg,32@tid_in_wg,1@tid_in_wg)]"},
      {"S[(2,2,4,32):(2@wgid,1@wgid,32@tid_in_wg,1@tid_in_wg)]", "S[512:1@tx]"},
      // spec (a): the worked example, replica and offset fused too.
      {"S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
       "S[(8,2,4,2):(4@tx,32@tx,1@tx,1)] + R[2:128@tx] + 160@tx"},
      // thread-only scopes that have no fuser stay as they are
      {"S[(8,4,2):(4@laneid,1@laneid,1)]", "S[(32,2):(1@laneid,1)]"},
      {"S[(4,32):(32@tid_in_wg,1@tid_in_wg)]", "S[128:1@tid_in_wg]"},
      // (warp, cta): wid_in_wg -> warpid and wgid -> warpid x4 (TVM writes wgid here; see
      // docs/semantics-differences.md), which then fuse into one warpid iter.
      {"S[(2,4):(1@wgid,1@wid_in_wg)]", "S[8:1@warpid]"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_LAYOUT_EQ(canon(c.input, /*cuda=*/true), Layout(L(c.expected)));
  }
  // Without the target the same layouts keep their axes (only unit/zero/contiguous steps).
  EXPECT_LAYOUT_EQ(canon("S[(2,2,8,4):(2@warpid,1@warpid,4@laneid,1@laneid)]"),
                   Layout(L("S[(4,32):(1@warpid,1@laneid)]")));
}

TEST(Canonicalize, CudaFusionAddsOffsetsThatLandOnOneAxis) {
  // warpid 1 and laneid 3 both become tx: 32*1 + 3 (TVM keeps only one of the two).
  EXPECT_LAYOUT_EQ(canon("S[(2,32):(1@warpid,1@laneid)] + 1@warpid + 3@laneid", true),
                   Layout(L("S[64:1@tx] + 35@tx")));
}

// case_sort_replicate_exclude_iters: replica order does not matter after canonicalize.
TEST(Canonicalize, ReplicaOrderIsNormalised) {
  EXPECT_LAYOUT_EQ(canon("S[1:1] + R[(8,4):(4@laneid,1@laneid)] + 2@warpid"),
                   canon("S[1:1] + R[(4,8):(1@laneid,4@laneid)] + 2@warpid"));
  // Replica iters are never dropped or fused, even with extent 1.
  const TileLayout c = canonicalize(L("S[4:1] + R[(1,2):(3@laneid,1@laneid)]"));
  ASSERT_EQ(c.replica.size(), 2u);
  EXPECT_EQ(c.replica[0], (Iter{2, 1, AxisId::laneid}));
  EXPECT_EQ(c.replica[1], (Iter{1, 3, AxisId::laneid}));
}

TEST(Canonicalize, EmptyShardAndAllUnitShard) {
  // case_empty_shard_canonicalize: a replica-only layout canonicalizes to itself.
  EXPECT_LAYOUT_EQ(canon("R[32:1@laneid]"), Layout(L("R[32:1@laneid]")));
  // All-unit shard keeps one (1,1) iter on the axis of the first iter.
  EXPECT_LAYOUT_EQ(canon("S[(1,1):(7@TLane,3@TCol)]"), Layout(L("S[1:1@TLane]")));
  // Adjacent stride-0 iters on one axis fuse (0 * e == 0).
  EXPECT_LAYOUT_EQ(canon("S[(4,2,3):(1,0,0)]"), Layout(L("S[(4,6):(1,0)]")));
  // Iters on different axes never fuse, and offsets stay (only zero ones go).
  EXPECT_LAYOUT_EQ(canon("S[(8,4):(4@TLane,1@TCol)] + 0@TCol + 3@TLane"),
                   Layout(L("S[(8,4):(4@TLane,1@TCol)] + 3@TLane")));
}

// test_normalize_compose_layout case1/case2: the tile is canonicalized, the swizzle kept.
TEST(Canonicalize, ComposeLayoutKeepsSwizzle) {
  EXPECT_LAYOUT_EQ(canonicalize(Layout(C(3, 3, 3, "S[(8,64):(64,1)]"))), Layout(C(3, 3, 3, "S[512:1]")));
  const Layout c2 = Layout(C(3, 3, 3, "S[(64,4,64):(64,4096,1)]"));
  EXPECT_LAYOUT_EQ(canonicalize(c2), c2);
  const Layout outer = Layout(C(0, 3, 3, "S[(8,8):(8,1)]", /*inner=*/false));
  EXPECT_LAYOUT_EQ(canonicalize(outer), Layout(C(0, 3, 3, "S[64:1]", false)));
}

TEST(Canonicalize, RejectsInvalidInput) {
  EXPECT_THROW(canonicalize(L("S[(0,4):(4,1)]")), InputError);  // zero extent
  try {
    // case: wgid + laneid is a disconnected scope chain even without a target (TVM raises too)
    canonicalize(L("S[(2,8,2,4,2):(2@wgid,4@laneid,1@wgid,1@laneid,1)]"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "layout.well-formed");
    EXPECT_NE(e.message().find("disconnected scope chain"), std::string::npos) << e.message();
  }
}

// ---------------- get_scope / verify_well_formed (test_verify_well_formed, spec (b)) --------

std::optional<ScopePair> scope(std::string_view text) { return get_scope(L(text)); }

TEST(Scope, SpecTable) {
  using S = ScopeKind;
  EXPECT_EQ(scope("S[(8,4,2):(4@laneid,1@laneid,1)]"), (ScopePair{S::kThread, S::kWarp}));
  EXPECT_EQ(scope("S[8:4@laneid] + R[4:1@laneid]"), (ScopePair{S::kThread, S::kWarp}));
  EXPECT_EQ(scope("S[(2,8,2,4,2):(2@warpid,4@laneid,1@warpid,1@laneid,1)]"), (ScopePair{S::kThread, S::kCta}));
  EXPECT_EQ(scope("S[(2,8,2,4,2):(2@wid_in_wg,4@laneid,1@wid_in_wg,1@laneid,1)]"),
            (ScopePair{S::kThread, S::kWarpgroup}));
  EXPECT_EQ(scope("S[(2,2,8,2,2,4):(2@wgid,2@wid_in_wg,4@laneid,1@wgid,1@wid_in_wg,1@laneid)]"),
            (ScopePair{S::kThread, S::kCta}));
  EXPECT_EQ(scope("S[(2,2,4,32):(2@wgid,1@wgid,32@tid_in_wg,1@tid_in_wg)]"), (ScopePair{S::kThread, S::kCta}));
  EXPECT_EQ(scope("S[(2,4):(1@wgid,1@wid_in_wg)]"), (ScopePair{S::kWarp, S::kCta}));
  EXPECT_EQ(scope("S[4:1@cbx]"), (ScopePair{S::kCta, S::kCluster}));
  // No thread axis in the shard: no scope, even with thread axes in replica/offset.
  EXPECT_EQ(scope("S[1:1] + R[(8,4):(4@laneid,1@laneid)] + 2@warpid"), std::nullopt);
  EXPECT_EQ(scope("S[(128,64):(1@TLane,1@TCol)]"), std::nullopt);
  // Replica and offset axes still take part once the shard has a thread axis.
  EXPECT_EQ(scope("S[32:1@laneid] + R[2:1@warpid]"), (ScopePair{S::kThread, S::kCta}));
}

void expect_scope_error(std::string_view text, std::string_view what) {
  SCOPED_TRACE(text);
  try {
    (void)get_scope(L(text));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "layout.well-formed");
    EXPECT_NE(e.message().find(what), std::string::npos) << e.message();
  }
}

TEST(Scope, IllFormedChains) {
  expect_scope_error("S[(2,8,2,4,2):(2@wgid,4@laneid,1@wgid,1@laneid,1)]", "disconnected scope chain");
  expect_scope_error("S[(4,32):(1@laneid,1@tid_in_wg)]", "conflicting scopes for thread");
  expect_scope_error("S[(4,32):(1@tx,1@laneid)]", "conflicting scopes");
  // bx (cta -> "thread") with tx (thread -> cta): TVM's walk never ends; we report a cycle.
  expect_scope_error("S[(4,32):(1@bx,1@tx)]", "cyclic scope chain");
}

TEST(Scope, VerifyWellFormed) {
  EXPECT_TRUE(verify_well_formed(Layout(L("S[8:4@laneid] + R[4:1@laneid]"))));
  EXPECT_TRUE(verify_well_formed(Layout(L("S[(2,8,2,4,2):(2@warpid,4@laneid,1@warpid,1@laneid,1)]"))));
  EXPECT_TRUE(verify_well_formed(Layout(C(3, 3, 3, "S[512:1]"))));
  // test_normalize_tile_layout case_fuse_axis: the inputs and expected outputs are well formed
  for (const char* l : {"S[(2,2,8,2,2,4):(2@wgid,2@wid_in_wg,4@laneid,1@wgid,1@wid_in_wg,1@laneid)]",
                        "S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]",
                        "S[(2,2,8,4):(2@warpid,1@warpid,4@laneid,1@laneid)]",
                        "S[(2,2,4,32):(2@wgid,1@wgid,32@tid_in_wg,1@tid_in_wg)]", "S[512:1@tx]",
                        "S[(2,8,2,4):(64@tid_in_wg,4@tid_in_wg,32@tid_in_wg,1@tid_in_wg)]"})
    EXPECT_TRUE(verify_well_formed(Layout(L(l)))) << l;
  EXPECT_THROW(verify_well_formed(Layout(L("S[(2,8,2,4,2):(2@wgid,4@laneid,1@wgid,1@laneid,1)]"))), InputError);
  EXPECT_THROW(verify_well_formed(Layout(C(3, 3, 2, "S[512:1]"))), InputError);  // S < B
}

}  // namespace
}  // namespace tirx
