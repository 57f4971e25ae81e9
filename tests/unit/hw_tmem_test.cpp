// TMEM: address encoding, allocation rules (tmem.alloc), the warp sub-partition rule
// (tmem.partition), element packing. PTX ISA 9.1 §9.7.16.1, §9.7.16.7.1, §9.7.16.8.1.
#include <gtest/gtest.h>

#include "hw_test_util.hpp"
#include "tirx_verify/hw/tmem.hpp"

namespace tirx::hw {
namespace {
using test::sm100;
using test::sm90;
using test::throws_check;

TEST(TmemAddress, LaneHighColumnLow) {
  EXPECT_EQ(TmemAddress::make(16, 32).raw, 0x00100020u);
  EXPECT_EQ(TmemAddress::make(96, 31).raw, 0x0060001Fu);
  TmemAddress a{0x00500007u};
  EXPECT_EQ(a.lane(), 80);
  EXPECT_EQ(a.col(), 7);
  EXPECT_EQ(TmemAddress::make(0, 0).offset(16, 8).raw, 0x00100008u);
  EXPECT_EQ(describe(TmemAddress::make(16, 32)), "0x00100020 (lane 16, column 32)");
}

TEST(TmemAlloc, ColumnCountMustBePowerOfTwoIn32To512) {
  for (int bad : {0, 16, 31, 48, 96, 1024, -32}) {
    TmemAllocator a(sm100());
    EXPECT_TRUE(throws_check([&] { a.alloc(bad); }, "tmem.alloc", {"power of two in [32, 512]"})) << bad;
  }
  for (int good : {32, 64, 128, 256, 512}) {
    TmemAllocator a(sm100());
    EXPECT_EQ(a.alloc(good), 0) << good;
  }
}

TEST(TmemAlloc, SizesMustNotIncreaseAndColumnsAreFirstFit) {
  TmemAllocator a(sm100());
  EXPECT_EQ(a.alloc(128), 0);
  EXPECT_EQ(a.alloc(64), 128);
  EXPECT_TRUE(throws_check([&] { a.alloc(256); }, "tmem.alloc", {"256", "after an allocation of 64"}));
  EXPECT_EQ(a.alloc(64), 192);
  a.dealloc(0, 0, 128);
  // Non-increasing applies to execution order, not to what is live: 32 <= 64.
  EXPECT_EQ(a.alloc(32), 0);
  EXPECT_TRUE(throws_check([&] { a.alloc(64); }, "tmem.alloc", {"must not increase"}));
}

TEST(TmemAlloc, CannotExceedCapacity) {
  TmemAllocator a(sm100());
  EXPECT_EQ(a.alloc(256), 0);
  EXPECT_EQ(a.alloc(256), 256);
  EXPECT_TRUE(throws_check([&] { a.alloc(32); }, "tmem.alloc", {"512 of 512 columns are allocated"}));
}

TEST(TmemAlloc, DeallocMustMatchAnAllocation) {
  TmemAllocator a(sm100());
  EXPECT_EQ(a.alloc(128), 0);
  EXPECT_TRUE(throws_check([&] { a.dealloc(0, 0, 64); }, "tmem.alloc", {"the allocation there has 128 columns"}));
  EXPECT_TRUE(throws_check([&] { a.dealloc(0, 32, 32); }, "tmem.alloc", {"no live allocation starts there"}));
  EXPECT_TRUE(throws_check([&] { a.dealloc(16, 0, 128); }, "tmem.alloc", {"lane field 16"}));
  EXPECT_TRUE(throws_check([&] { a.check_all_freed(); }, "tmem.alloc", {"still live", "column 0 (128 columns)"}));
  a.dealloc(0, 0, 128);
  EXPECT_NO_THROW(a.check_all_freed());
  EXPECT_TRUE(throws_check([&] { a.dealloc(0, 0, 128); }, "tmem.alloc", {"no live allocation"}));
}

TEST(TmemAlloc, RelinquishForbidsLaterAllocations) {
  TmemAllocator a(sm100());
  EXPECT_EQ(a.alloc(64), 0);
  a.relinquish();
  EXPECT_TRUE(throws_check([&] { a.alloc(32); }, "tmem.alloc", {"relinquish_alloc_permit"}));
  a.dealloc(0, 0, 64);  // freeing is still allowed
  EXPECT_TRUE(a.live().empty());
}

TEST(TmemAlloc, NoTmemOnHopper) {
  EXPECT_TRUE(throws_check([] { TmemAllocator a(sm90()); }, "target.feature", {"sm_90a"}));
  EXPECT_TRUE(throws_check([] { Tmem t(sm90()); }, "target.feature"));
}

TEST(TmemPartition, EachWarpOwnsThirtyTwoLanes) {
  for (int w = 0; w < 4; ++w) {
    LaneRange r = subpartition_lanes(sm100(), w);
    EXPECT_EQ(r.first, 32 * w);
    EXPECT_EQ(r.last, 32 * w + 31);
  }
  EXPECT_TRUE(throws_check([] { subpartition_lanes(sm100(), 4); }, "tmem.address", {"warp index 4"}));
}

TEST(TmemPartition, ViolationNamesWarpAddressAndAllowedLanes) {
  // Warp 1 touching lanes 0..31.
  EXPECT_TRUE(throws_check([] { check_partition(sm100(), "tcgen05.ld", 1, TmemAddress::make(0, 8), 0, 32); },
                           "tmem.partition",
                           {"warp 1", "0x00000008 (lane 0, column 8)", "lanes 0..31", "lanes 32..63 only"}));
  // A 16-lane access at lane 49 of warp 1 spills into lane 64.
  EXPECT_TRUE(throws_check([] { check_partition(sm100(), "x", 1, TmemAddress::make(49, 0), 49, 16); }, "tmem.partition",
                           {"lanes 49..64"}));
  EXPECT_NO_THROW(check_partition(sm100(), "x", 1, TmemAddress::make(48, 0), 48, 16));
  EXPECT_NO_THROW(check_partition(sm100(), "x", 3, TmemAddress::make(96, 0), 96, 32));
}

TEST(TmemElementSlot, PackingOfSixteenAndEightBitElements) {
  TmemElementSlot s = tmem_element_slot(7, 16);
  EXPECT_EQ(s.col, 3);
  EXPECT_EQ(s.bit, 16);
  s = tmem_element_slot(6, 16);
  EXPECT_EQ(s.col, 3);
  EXPECT_EQ(s.bit, 0);
  s = tmem_element_slot(21, 8);  // scale factor s = 21: column 5, byte 1
  EXPECT_EQ(s.col, 5);
  EXPECT_EQ(s.bit, 8);
  s = tmem_element_slot(9, 32);
  EXPECT_EQ(s.col, 9);
  EXPECT_EQ(s.bit, 0);
  EXPECT_TRUE(throws_check([] { tmem_element_slot(0, 4); }, "tmem.address"));
}

TEST(TmemCells, UnallocatedAndOutOfRangeAccessesAreErrors) {
  Tmem t(sm100());
  EXPECT_TRUE(throws_check([&] { t.read(0, 0, "tcgen05.ld"); }, "tmem.alloc", {"column 0", "not allocated"}));
  t.allocator().alloc(32);
  EXPECT_EQ(t.read(5, 31).known, 0u);  // fresh TMEM is undefined
  t.write(5, 31, 0xDEADBEEF);
  EXPECT_EQ(t.read(5, 31).value, 0xDEADBEEFu);
  EXPECT_EQ(t.read(5, 31).known, 0xFFFFFFFFu);
  t.store(5, 31, TmemCell{0x1234, 0xFFFF}, 0xFFFFFFFFu);
  EXPECT_EQ(t.read(5, 31).value, 0x1234u);
  EXPECT_EQ(t.read(5, 31).known, 0x0000FFFFu);
  EXPECT_TRUE(throws_check([&] { t.read(128, 0); }, "tmem.address", {"lane 128"}));
  EXPECT_TRUE(throws_check([&] { t.read(0, 32); }, "tmem.alloc"));
}

}  // namespace
}  // namespace tirx::hw
