// tirx-verify sim ...: one hardware instruction or address function, simulated (src/hw).
#pragma once

#include <CLI/CLI.hpp>

namespace tirx::cli {
// Adds the `sim` subcommand (tcgen05.ld, tcgen05.st, smem, swizzle); see docs/sim.md.
void register_sim(CLI::App& app, int& exit_code);
}  // namespace tirx::cli
