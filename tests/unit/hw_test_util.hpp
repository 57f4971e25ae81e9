// Helpers shared by the hw unit tests: the two targets and an "expect this check id" helper.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::hw::test {

inline const Target& sm100() {
  static const Target t = load_target("sm_100a");
  return t;
}
inline const Target& sm90() {
  static const Target t = load_target("sm_90a");
  return t;
}

// Runs f, expects an InputError with `check_id` whose message contains every fragment.
template <class F>
::testing::AssertionResult throws_check(F&& f, std::string_view check_id,
                                        std::initializer_list<std::string_view> fragments = {}) {
  try {
    f();
  } catch (const InputError& e) {
    if (e.check_id() != check_id)
      return ::testing::AssertionFailure() << "check id '" << e.check_id() << "', expected '" << check_id
                                           << "': " << e.message();
    for (auto frag : fragments)
      if (e.message().find(frag) == std::string::npos)
        return ::testing::AssertionFailure() << "message lacks '" << frag << "': " << e.message();
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no InputError thrown (expected " << check_id << ")";
}

}  // namespace tirx::hw::test
