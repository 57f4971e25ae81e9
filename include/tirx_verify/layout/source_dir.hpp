// tirx_verify/layout/source_dir.hpp — the source tree this build came from.
//
// Data files (models/targets, models/kernels, tests/golden) are found relative to it unless
// the environment variable TIRX_VERIFY_ROOT names another root. Defined in one generated
// translation unit so that no other object depends on the checkout path (keeps ccache hits
// across clones).
#pragma once

#include <string_view>

namespace tirx {
std::string_view source_dir();
// Where `cmake --install` puts the data files (<prefix>/share/tirx_verify): the last place
// models/targets is looked for, so an installed library or CLI works without the source tree.
std::string_view install_data_dir();
}  // namespace tirx
