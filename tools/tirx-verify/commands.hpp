// One registration function per subcommand (each in its own cmd_<name>.cpp). A subcommand
// stores its exit code in `exit_code` when it runs.
#pragma once

#include <CLI/CLI.hpp>

namespace tirx::cli {
void register_apply(CLI::App& app, int& exit_code);
void register_print(CLI::App& app, int& exit_code);
void register_check(CLI::App& app, int& exit_code);
void register_run(CLI::App& app, int& exit_code);
void register_fuzz(CLI::App& app, int& exit_code);
void register_equiv(CLI::App& app, int& exit_code);
void register_info(CLI::App& app, int& exit_code);
void register_audit(CLI::App& app, int& exit_code);
void register_extract(CLI::App& app, int& exit_code);
void register_render(CLI::App& app, int& exit_code);
}  // namespace tirx::cli
