// tirx-verify extract KERNEL.py [--param NAME=VALUE ...] [-o model.json] [--allow-unresolved] [--json]
//                             [--instance cta0-first-tile|none] [--serial-iterations N]
//
// Writes a kernel model (format 2, docs/model-format.md) from a TIRx kernel's Python source.
// The extraction itself is tools/extract/extract.py (Python's own `ast` parses the kernel
// exactly; docs/extract.md says why it is Python): this command finds python3 (env
// TIRX_VERIFY_PYTHON, else python3 on PATH) and the tool (under repo_root(): env
// TIRX_VERIFY_ROOT, else the source directory), passes the arguments through and returns the
// tool's exit code: 0 complete, 2 bad input (syntax error with FILE:LINE:COL), 3 the model lists
// unresolved items. No python3, or no tool: exit 2 with a message saying so. The tool's standard
// output and error are copied to ours (the model, or with --json one JSON document).
//
// Bounded: the tool runs in its own process group and is killed (SIGKILL to the group) when it
// runs past --time-limit seconds (default 300): exit 3, `extract.time-limit`. With the
// environment variable TIRX_VERIFY_NO_SPAWN set (non-empty), nothing is spawned: exit 2,
// `extract.python` — the in-process libFuzzer target (tests/fuzz/fuzz_cli.cpp) sets it, so
// fuzzing the command line never starts a Python process per input.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "cli_common.hpp"
#include "option_checks.hpp"
#include "commands.hpp"
#include "tirx_verify/layout/error.hpp"

extern char** environ;

namespace tirx::cli {

namespace {
struct Opts {
  std::string kernel;
  std::vector<std::string> params;
  std::string output, kernel_name, function, target, commit, source_path, instance;
  std::vector<std::string> repos;
  bool allow_unresolved = false;
  bool json = false;
  double time_limit_s = 300;
  int serial_iterations = -1;  // -1: the tool's default
};

// The child ran past its time limit (killed).
struct ToolTimedOut {};

bool executable(const std::filesystem::path& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// The Python interpreter: TIRX_VERIFY_PYTHON (a path), else the first python3 on PATH.
std::string find_python() {
  if (const char* p = std::getenv("TIRX_VERIFY_PYTHON"); p && *p) {
    if (!executable(p))
      throw InputError("extract.python", fmt::format("TIRX_VERIFY_PYTHON={} is not an executable file", p));
    return p;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const auto cand = std::filesystem::path(dir) / "python3";
    if (executable(cand)) return cand.string();
  }
  throw InputError("extract.python",
                   "python3 was not found on PATH: `tirx-verify extract` runs tools/extract/extract.py with "
                   "Python 3 (standard library only); install python3 or set TIRX_VERIFY_PYTHON");
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs argv with stdout/stderr into temporary files; returns the exit status (or 2 when the
// child died of a signal, with a message).
int run_tool(const std::vector<std::string>& argv, double time_limit_s, std::string& out, std::string& err) {
  char out_tmpl[] = "/tmp/tirx_extract_out.XXXXXX";
  char err_tmpl[] = "/tmp/tirx_extract_err.XXXXXX";
  const int ofd = ::mkstemp(out_tmpl);
  const int efd = ::mkstemp(err_tmpl);
  if (ofd < 0 || efd < 0) {
    if (ofd >= 0) ::close(ofd), ::unlink(out_tmpl);
    if (efd >= 0) ::close(efd), ::unlink(err_tmpl);
    throw InputError("extract.python", fmt::format("cannot create a temporary file: {}", std::strerror(errno)));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, ofd, 1);
  posix_spawn_file_actions_adddup2(&fa, efd, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: a time-out kills the tool and its children
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0].c_str(), &fa, &attr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(ofd);
  ::close(efd);
  int status = 0;
  bool timed_out = false;
  if (rc == 0) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(time_limit_s);
    for (;;) {
      const pid_t got = ::waitpid(pid, &status, WNOHANG);
      if (got == pid || (got < 0 && errno != EINTR)) break;
      if (std::chrono::steady_clock::now() >= deadline) {
        ::kill(-pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  out = read_all(out_tmpl);
  err = read_all(err_tmpl);
  ::unlink(out_tmpl);
  ::unlink(err_tmpl);
  if (rc != 0) throw InputError("extract.python", fmt::format("cannot run {}: {}", argv[0], std::strerror(rc)));
  if (timed_out) throw ToolTimedOut{};
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  err += fmt::format("error[extract.python]: the extraction tool was killed by signal {}\n", WTERMSIG(status));
  return kBadInput;
}
}  // namespace

void register_extract(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand(
      "extract", "Write a kernel model (format 2) from a TIRx kernel's Python source (docs/extract.md)");
  cmd->add_option("kernel", o->kernel, "The kernel's Python source file")->required();
  cmd->add_option("--param", o->params,
                  "NAME=VALUE: override a name (module constant, configuration value, kernel parameter, loop "
                  "variable); repeatable")
      ->take_all();
  cmd->add_option("-o,--output", o->output, "Write the model to this file (default: standard output)");
  cmd->add_option("--kernel-name", o->kernel_name, "The model's kernel name (default: the file's stem)");
  cmd->add_option("--function", o->function, "Extract only this top-level kernel function");
  cmd->add_option("--target", o->target, "Machine description written to the model (default sm_100a)");
  cmd->add_option("--repo", o->repos, "Provenance: OWNER/NAME of the repository (repeatable)")->take_all();
  cmd->add_option("--commit", o->commit, "Provenance: the 40-digit commit the file was read at");
  cmd->add_option("--source-path", o->source_path, "Provenance: the file's path in its repository");
  cmd->add_flag("--allow-unresolved", o->allow_unresolved,
                "Exit 0 even when items are unresolved (they are still listed in the model)");
  cmd->add_flag("--json", o->json, "Errors as one JSON document on standard output");
  cmd->add_option("--instance", o->instance,
                  "The representative instance modelled: cta0-first-tile (default: CTA 0 on its first tile) or "
                  "none (CTA indices and tile-scheduler fields stay unresolved)")
      ->check(CLI::IsMember({"cta0-first-tile", "none"}));
  cmd->add_option("--serial-iterations", o->serial_iterations,
                  "Walk a T.serial loop with a fixed range for its first N iterations (default 1; 0: all)")
      ->transform(int_range(0, 256));
  cmd->add_option("--time-limit", o->time_limit_s,
                  "Seconds the extraction may run before it is stopped (exit 3, extract.time-limit)")
      ->check(CLI::Range(0.001, 86400.0));
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, o->kernel, [&] {
      if (const char* no = std::getenv("TIRX_VERIFY_NO_SPAWN"); no && *no)
        throw InputError("extract.python",
                         "extract runs tools/extract/extract.py in a Python process, and spawning processes is "
                         "disabled here (TIRX_VERIFY_NO_SPAWN is set; the in-process fuzz target sets it)");
      const std::string python = find_python();
      const auto tool = std::filesystem::path(repo_root()) / "tools" / "extract" / "extract.py";
      if (!std::filesystem::is_regular_file(tool))
        throw InputError("extract.python", fmt::format("the extraction tool {} is missing (set TIRX_VERIFY_ROOT "
                                                       "to the repository that has tools/extract)",
                                                       tool.string()));
      std::vector<std::string> argv = {python, "-I", tool.string(), o->kernel};
      for (const auto& p : o->params) argv.insert(argv.end(), {"--param", p});
      for (const auto& r : o->repos) argv.insert(argv.end(), {"--repo", r});
      auto opt = [&](const char* flag, const std::string& v) {
        if (!v.empty()) argv.insert(argv.end(), {flag, v});
      };
      opt("-o", o->output);
      opt("--kernel-name", o->kernel_name);
      opt("--function", o->function);
      opt("--target", o->target);
      opt("--commit", o->commit);
      opt("--source-path", o->source_path);
      opt("--instance", o->instance);
      if (o->serial_iterations >= 0) argv.insert(argv.end(), {"--serial-iterations", std::to_string(o->serial_iterations)});
      if (o->allow_unresolved) argv.push_back("--allow-unresolved");
      if (o->json) argv.push_back("--json");
      // the layout algebra for derived views (tools/extract/layout_text.py): this binary's `print`
      std::error_code self_ec;
      const auto self = std::filesystem::read_symlink("/proc/self/exe", self_ec);
      if (!self_ec) argv.insert(argv.end(), {"--layout-tool", self.string()});
      std::string out, err;
      int rc = 0;
      try {
        rc = run_tool(argv, o->time_limit_s, out, err);
      } catch (const ToolTimedOut&) {
        std::cerr << err;
        const std::string msg = fmt::format("the extraction ran past --time-limit {} s and was stopped; a model "
                                            "it was writing is incomplete (raise --time-limit)",
                                            o->time_limit_s);
        if (o->json)
          std::cout << nlohmann::json{{"error", {{"id", "extract.time-limit"}, {"message", msg}}},
                                      {"exit_code", static_cast<int>(kUndecided)}}
                           .dump()
                    << "\n";
        std::cerr << "error[extract.time-limit]: " << msg << "\n";
        return static_cast<int>(kUndecided);
      }
      std::cout << out << std::flush;
      std::cerr << err << std::flush;
      if (rc == kVerified || rc == kBadInput || rc == kUndecided || rc == 4) return rc;  // 4: extractor bug
      std::cerr << fmt::format("error[extract.python]: the extraction tool exited with status {}\n", rc);
      return static_cast<int>(kBadInput);
    });
  });
}

}  // namespace tirx::cli
