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
}  // namespace
}  // namespace tirx
