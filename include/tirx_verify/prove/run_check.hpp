// tirx_verify/prove/run_check.hpp — running one registered check the way run_all runs each.
#pragma once

#include <string_view>

#include "tirx_verify/prove/check.hpp"

namespace tirx::prove {

// The result of check `id` (registry id, e.g. "layout.equivalent") on `in`, with run_all's
// handling: InputError -> kFail naming the error's id; BudgetExceeded, std::bad_alloc and
// std::length_error -> kUndecided naming the budget; the check's default severity on a fail;
// `seconds` measured. Throws InputError("cli.usage") for an id that is not registered or has no
// run function.
CheckResult run_check(std::string_view id, const CheckInput& in);

}  // namespace tirx::prove
