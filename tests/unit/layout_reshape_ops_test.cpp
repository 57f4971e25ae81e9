// storage / unpack / pack / broadcast / permute_dims / permute_by_groups: TVM
// tests/python/tirx/test_layout.py (test_storage, test_unpack, test_pack, test_permute_by_groups)
// and spec (e) "Other Python utilities".
#include <gtest/gtest.h>

#include "layout_algebra_util.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx {
namespace {

using test::C;
using test::L;

TEST(Storage, DropsThreadAxes) {
  EXPECT_LAYOUT_EQ(storage(Layout(L("S[(8,8):(8,1)]"))), Layout(L("S[(8,8):(8,1)]")));          // case1
  EXPECT_LAYOUT_EQ(storage(Layout(L("S[(8,4,2):(4@laneid,1@laneid,1)]"))), Layout(L("S[2:1]")));  // case2
  EXPECT_LAYOUT_EQ(storage(Layout(C(3, 3, 3, "S[512:1]"))), Layout(C(3, 3, 3, "S[512:1]")));      // case3
  EXPECT_LAYOUT_EQ(storage(Layout(L("S[(4,32,2):(1@warpid,1@laneid,1)] + R[2:4@warpid] + R[3:5] + 1@laneid + 7"))),
                   Layout(L("S[2:1] + R[3:5] + 7")));
  EXPECT_LAYOUT_EQ(storage(Layout(L("S[(128,64):(1@TLane,1@TCol)]"))), Layout(L("S[(128,64):(1@TLane,1@TCol)]")));
}

TEST(Unpack, TvmCases) {
  EXPECT_LAYOUT_EQ(canonicalize(unpack(Layout(L("S[(8,8):(8,1)]")), 2)), Layout(canonicalize(L("S[(8,16):(16,1)]"))));
  EXPECT_LAYOUT_EQ(unpack(Layout(L("S[(8,8):(8,1)]")), 2), Layout(L("S[(8,8,2):(16,2,1)]")));
  EXPECT_LAYOUT_EQ(canonicalize(unpack(Layout(C(3, 3, 3, "S[512:1]")), 2)), Layout(C(4, 3, 3, "S[1024:1]")));
  EXPECT_LAYOUT_EQ(canonicalize(unpack(Layout(C(3, 3, 3, "S[(8,64):(64,1)]")), 2)),
                   canonicalize(Layout(C(4, 3, 3, "S[(8,128):(128,1)]"))));
  // replica and offset are left as they are (as TVM)
  EXPECT_LAYOUT_EQ(unpack(Layout(L("S[4:1@laneid] + R[2:4] + 3")), 4), Layout(L("S[(4,4):(4@laneid,1)] + R[2:4] + 3")));
  EXPECT_THROW(unpack(Layout(C(3, 3, 3, "S[512:1]")), 3), InputError);  // compose: power of two
  EXPECT_THROW(unpack(Layout(L("S[4:1]")), 0), InputError);
}

TEST(Pack, TvmCases) {
  EXPECT_LAYOUT_EQ(canonicalize(pack(Layout(L("S[(8,16):(16,1)]")), 2)), Layout(L("S[64:1]")));
  EXPECT_LAYOUT_EQ(pack(Layout(L("S[(8,16):(16,1)]")), 2), Layout(L("S[(8,8):(8,1)]")));
  EXPECT_LAYOUT_EQ(canonicalize(pack(Layout(C(4, 3, 3, "S[1024:1]")), 2)), Layout(C(3, 3, 3, "S[512:1]")));
  EXPECT_LAYOUT_EQ(canonicalize(pack(Layout(C(4, 3, 3, "S[(8,128):(128,1)]")), 2)), Layout(C(3, 3, 3, "S[512:1]")));
  // pack inverts unpack
  const Layout l = Layout(L("S[(4,8):(1@laneid,3)] + R[2:1@warpid]"));
  EXPECT_LAYOUT_EQ(pack(unpack(l, 4), 4), Layout(L("S[(4,8,1):(1@laneid,3,1)] + R[2:1@warpid]")));
}

TEST(Pack, Rejects) {
  EXPECT_THROW(pack(Layout(L("S[(8,16):(16,2)]")), 2), InputError);       // innermost stride not 1
  EXPECT_THROW(pack(Layout(L("S[(8,15):(16,1)]")), 2), InputError);       // extent not divisible
  EXPECT_THROW(pack(Layout(L("S[(8,16):(16,1@laneid)]")), 2), InputError);  // thread axis
  EXPECT_THROW(pack(Layout(L("S[(8,16):(15,1)]")), 2), InputError);       // TVM floors 15/2 silently
  EXPECT_THROW(pack(Layout(C(0, 3, 3, "S[64:1]")), 2), InputError);       // per_element < log2 n
  EXPECT_THROW(pack(Layout(C(3, 3, 3, "S[(8,64):(64,1)]")), 6), InputError);  // not a power of two
  EXPECT_THROW(pack(Layout(L("R[2:1@laneid]")), 2), InputError);          // no shard
}

TEST(Broadcast, InsertsStrideZeroIter) {
  const Layout l = Layout(L("S[(4,32):(4,1)]"));
  EXPECT_LAYOUT_EQ(broadcast(l, 4), Layout(L("S[(4,32,4):(4,1,0)]")));
  EXPECT_LAYOUT_EQ(broadcast(l, 4, 0), Layout(L("S[(4,4,32):(0,4,1)]")));
  EXPECT_LAYOUT_EQ(broadcast(l, 4, -2), Layout(L("S[(4,4,32):(4,0,1)]")));
  EXPECT_LAYOUT_EQ(broadcast(l, 2, 2, AxisId::TCol), Layout(L("S[(4,32,2):(4,1,0@TCol)]")));
  EXPECT_LAYOUT_EQ(broadcast(Layout(C(3, 3, 3, "S[512:1]")), 2), Layout(C(3, 3, 3, "S[(512,2):(1,0)]")));
  EXPECT_THROW(broadcast(l, 4, 3), InputError);
  EXPECT_THROW(broadcast(l, 4, -4), InputError);
  EXPECT_THROW(broadcast(l, 0), InputError);
}

TEST(Permute, DimsAndGroups) {
  const TileLayout g = L("S[(8,8,8,8):(512,8,64,1)] + 3");
  const int swap[] = {2, 3, 0, 1};
  EXPECT_LAYOUT_EQ(Layout(permute_dims(g, swap)), Layout(L("S[(8,8,8,8):(64,1,512,8)] + 3")));
  // test_permute_by_groups: swapping the two groups of seps [0,2,4] == permute_dims([2,3,0,1])
  const std::size_t seps[] = {0, 2, 4};
  const int gswap[] = {1, 0}, gid[] = {0, 1}, gbad[] = {0, 0};
  EXPECT_LAYOUT_EQ(Layout(permute_by_groups(g, seps, gswap)), Layout(permute_dims(g, swap)));
  EXPECT_LAYOUT_EQ(Layout(permute_by_groups(g, seps, gid)), Layout(g));
  EXPECT_THROW(permute_by_groups(g, seps, gbad), InputError);  // case_invalid_perm
  const int short_perm[] = {0, 1, 2}, dup[] = {0, 1, 1, 2};
  EXPECT_THROW(permute_dims(g, short_perm), InputError);
  EXPECT_THROW(permute_dims(g, dup), InputError);  // TVM only checks the length
  const std::size_t bad_seps[] = {0, 3, 2, 4};
  EXPECT_THROW(permute_by_groups(g, bad_seps, std::span<const int>(gswap)), InputError);
}

}  // namespace
}  // namespace tirx
