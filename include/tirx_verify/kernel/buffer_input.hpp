// tirx_verify/kernel/buffer_input.hpp — the check input of one buffer of a kernel model.
//
// What verify_buffer (verify.hpp) checks a buffer with, for anyone who needs the same view of
// it (the pictures of the HTML report, render/html.hpp): the layout parsed with the model's
// parameters, the buffer's shape, dtype, scope and allocation (a view without its own
// allocation lives in its storage root's, from its column offset), the target's machine limits.
#pragma once

#include <string>

#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::hw {
struct Target;
}  // namespace tirx::hw

namespace tirx::kernel {

// Throws InputError: the layout's layout.syntax / layout.well-formed errors, an unknown scope,
// a TMEM allocation tcgen05.alloc rejects ("tmem.alloc", located at the "alloc_cols" field).
// `target` must outlive the result (CheckInput::target points to it). `resolved`, when given,
// receives the layout printed in builder form as soon as it parses (before the later checks).
prove::CheckInput buffer_check_input(const BufferModel& b, const KernelModel& k, const hw::Target& target,
                                     const prove::EngineLimits& limits, std::string* resolved = nullptr);

}  // namespace tirx::kernel
