// Target files: both load with the sizes the simulator depends on; bad files are rejected.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <vector>

#include "hw_test_util.hpp"

namespace tirx::hw {
namespace {
using test::sm100;
using test::sm90;
using test::throws_check;

TEST(Target, Sm100aSizes) {
  const Target& t = sm100();
  EXPECT_EQ(t.name, "sm_100a");
  EXPECT_EQ(t.warp_size, 32);
  EXPECT_EQ(t.warps_per_warpgroup, 4);
  EXPECT_EQ(t.warpgroup_size(), 128);
  EXPECT_EQ(t.smem_bytes_per_cta, 232448);
  EXPECT_EQ(t.banks, 32);
  EXPECT_EQ(t.bank_bytes, 4);
  EXPECT_EQ(t.wavefront_bytes(), 128);
  ASSERT_TRUE(t.tmem.has_value());
  EXPECT_EQ(t.tmem->lanes, 128);
  EXPECT_EQ(t.tmem->columns, 512);
  EXPECT_EQ(t.tmem->alloc_min_columns, 32);
  EXPECT_EQ(t.tmem->alloc_max_columns, 512);
  EXPECT_EQ(t.tmem->alloc_granularity_columns, 32);
  EXPECT_EQ(t.tmem_subpartition_lanes(), 32);
  EXPECT_TRUE(t.has_tma_swizzle("128B_ATOM_32B"));
}

TEST(Target, Sm90aHasNoTmemButTheSameSmemModel) {
  const Target& t = sm90();
  EXPECT_EQ(t.name, "sm_90a");
  EXPECT_FALSE(t.tmem.has_value());
  EXPECT_FALSE(t.has_tma_swizzle("128B_ATOM_32B"));
  EXPECT_TRUE(t.has_tma_swizzle("128B"));
  EXPECT_EQ(t.wavefront.phase_threads.at(4), 32);
  EXPECT_EQ(t.wavefront.phase_threads.at(8), 16);
  EXPECT_EQ(t.wavefront.phase_threads.at(16), 8);
  EXPECT_EQ(t.wavefront.uniform_pair_xor, (std::vector<int>{1, 2}));
  EXPECT_EQ(t.wavefront.uniform_pair_widths, (std::set<int>{8, 16}));
  EXPECT_EQ(t.wavefront.ldmatrix_phase_rows, 8);
  EXPECT_TRUE(throws_check([&] { t.require_tmem("tcgen05.ld"); }, "target.feature", {"tcgen05.ld", "sm_90a"}));
}

TEST(Target, UnknownNameAndBadFiles) {
  EXPECT_TRUE(throws_check([] { load_target("sm_42x"); }, "target.file", {"sm_42x"}));
  EXPECT_TRUE(throws_check([] { load_target("../etc/passwd"); }, "target.file", {"not a plain name"}));
  EXPECT_TRUE(throws_check([] { parse_target("{", "t.json"); }, "target.file", {"t.json", "not valid JSON"}));
  EXPECT_TRUE(throws_check([] { parse_target(R"({"name":"x"})", "t.json"); }, "target.file", {"'warp'"}));
}

TEST(Target, ValuesOutOfRangeAreRejected) {
  const char* base = R"({"name":"x","warp":{"size":32,"warps_per_warpgroup":4},
    "smem":{"bytes_per_cta":1024,"banks":BANKS,"bank_bytes":4,
            "wavefront":{"phase_threads":{"4":32,"8":PT8,"16":8},"uniform_pair_xor":[1,2],
                         "uniform_pair_widths":[8,16],"ldmatrix_phase_rows":8}},
    "tma":{"rank_max":5,"box_dim_max":256,"inner_box_bytes_multiple":16,"smem_dst_align_bytes":128,
           "swizzle_modes":["none"]},
    "tmem":null})";
  auto make = [&](std::string banks, std::string pt8) {
    std::string s = base;
    s.replace(s.find("BANKS"), 5, banks);
    s.replace(s.find("PT8"), 3, pt8);
    return s;
  };
  Target ok = parse_target(make("32", "16"));
  EXPECT_EQ(ok.wavefront.phase_threads.at(8), 16);
  EXPECT_TRUE(throws_check([&] { parse_target(make("33", "16")); }, "target.file", {"powers of two"}));
  EXPECT_TRUE(throws_check([&] { parse_target(make("32", "12")); }, "target.file", {"phase_threads[8]"}));
}

}  // namespace
}  // namespace tirx::hw
