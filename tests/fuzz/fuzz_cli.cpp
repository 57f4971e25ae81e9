// libFuzzer target: the whole command line (tirx::cli::run_cli, tools/tirx-verify/run_cli.hpp),
// in-process, on argument vectors built from the fuzz input.
//
//   input bytes --split at NUL--> argv (at most 24 arguments) --run_cli--> exit code, out, err
//
// A finding is anything run_cli's contract (run_cli.hpp) rules out: a crash, an abort, a
// sanitizer report, a leak, a hang (-timeout), an exit code other than 0..3 (4 is an internal
// error: an exception that escaped a subcommand), exit 2 without a diagnostic naming a check id,
// or, with --json among the options, output that is not exactly one JSON document.
//
// What the harness keeps out, because it is slow by design rather than wrong:
//   * child processes: TIRX_VERIFY_NO_SPAWN=1 makes `extract` answer exit 2 (extract.python)
//     instead of running tools/extract/extract.py in python3;
//   * absolute paths and "..": the input runs in an empty scratch directory, so `run DIR` and
//     --target-file see only what the input names there (nothing), never the machine's files;
//   * more than 4 MB of output (a layout listing millions of elements): the run stops there;
//   * a --memory-limit above 512 MB: one allocation past 1 GB is a finding (-malloc_limit_mb=1024),
//     so such an input's legal work could be reported as an OOM.
// Every subcommand that computes gets a small budget, --time-limit 1 --memory-limit 256, and
// check and equiv small engine limits (--z3-timeout-ms 20; check and run --max-points 10000), each
// unless the input sets it itself: a run past its budget must answer undecided, so a hang
// (-timeout) is a finding, a budget nobody enforced.
//
// Built by -DTIRX_BUILD_FUZZ=ON with clang; compiled with replay_main.cpp into fuzz_cli_replay,
// which ctest runs over tests/fuzz/seeds/cli and tests/fuzz/regressions/cli.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "run_cli.hpp"
#include "tirx_verify/layout/source_dir.hpp"
#include "tirx_verify/layout/utf8.hpp"

namespace {

// Thrown by the capped output buffer; not a std::exception, so nothing in run_cli takes it for a
// failure of its own.
struct OutputCapReached {};

// Collects output up to a cap, then stops the run.
class CappedBuf : public std::stringbuf {
 public:
  explicit CappedBuf(std::size_t cap) : cap_(cap) {}

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    count(static_cast<std::size_t>(n));
    return std::stringbuf::xsputn(s, n);
  }
  int_type overflow(int_type c) override {
    count(1);
    return std::stringbuf::overflow(c);
  }

 private:
  void count(std::size_t n) {
    written_ += n;
    if (written_ > cap_) throw OutputCapReached{};
  }
  std::size_t cap_;
  std::size_t written_ = 0;
};

constexpr std::size_t kMaxArgs = 24;
constexpr std::size_t kOutputCap = std::size_t{4} << 20;
constexpr long kMaxInputMemoryMb = 512;

// An empty scratch directory that each input runs in; the working directory is restored after
// each run, since libFuzzer and replay_main read their inputs by relative paths.
const std::filesystem::path& scratch_directory() {
  static const std::filesystem::path dir = [] {
    // Targets (models/targets) come from the source tree, unless TIRX_VERIFY_ROOT already names
    // a root (a campaign on a machine where this build's source path does not exist); everything
    // relative from the scratch.
    setenv("TIRX_VERIFY_ROOT", std::string(tirx::source_dir()).c_str(), 0);
    // `extract` would start a Python process per input (cmd_extract.cpp): refuse it in-process.
    setenv("TIRX_VERIFY_NO_SPAWN", "1", 1);
    static char tmpl[] = "/tmp/fuzz_cli.XXXXXX";
    if (!mkdtemp(tmpl)) std::abort();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(tmpl, ec);
    });
    return std::filesystem::path(tmpl);
  }();
  return dir;
}

class InScratch {
 public:
  InScratch() : saved_(std::filesystem::current_path()) { std::filesystem::current_path(scratch_directory()); }
  // Back to where we were, and the scratch emptied: what one input wrote (run -o FILE) is not
  // there for the next.
  ~InScratch() {
    std::error_code ec;
    std::filesystem::current_path(saved_, ec);
    for (const auto& e : std::filesystem::directory_iterator(scratch_directory(), ec))
      std::filesystem::remove_all(e.path(), ec);
  }

 private:
  std::filesystem::path saved_;
};

bool has(const std::vector<std::string>& args, const std::string& a) {
  return std::find(args.begin(), args.end(), a) != args.end();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      if (args.size() == kMaxArgs) return 0;
      args.emplace_back();
    } else {
      args.back().push_back(static_cast<char>(data[i]));
    }
  }
  if (args.size() == 1 && args[0].empty()) args.clear();
  for (const auto& a : args)
    if (a.rfind('/', 0) == 0 || a.find("..") != std::string::npos || a.find("=/") != std::string::npos) return 0;
  // An input may set its own --memory-limit, but not past what this process may spend on one
  // input: scripts/fuzz.sh and tests/fuzz/farm.sh run this target with -malloc_limit_mb=1024 (one
  // allocation past 1 GB is a finding: no input's budget allows it) and -rss_limit_mb=4096. Work
  // the input's own budget allows is no bug when it passes those limits (seen: fuzz --cases
  // 100000000 --memory-limit 5784 reserves 2.4 GB, inside its budget, and was reported as an OOM).
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string v;
    if (args[i] == "--memory-limit" && i + 1 < args.size()) v = args[i + 1];
    else if (args[i].rfind("--memory-limit=", 0) == 0) v = args[i].substr(15);
    else continue;
    // As leniently as any parser might read it ("+5784", " 5784", "5784.5").
    errno = 0;
    char* end = nullptr;
    const long long mb = std::strtoll(v.c_str(), &end, 10);
    if (end != v.c_str() && (errno == ERANGE || mb > kMaxInputMemoryMb)) return 0;
  }
  // A small budget and small engine limits where the input does not set its own, right after
  // the subcommand (sim: after its leaf), so they are options of that subcommand.
  static const std::vector<std::string> kCommands = {"check", "equiv", "run", "apply", "print", "fuzz", "render"};
  static const std::vector<std::string> kSimLeaves = {"tcgen05.ld", "tcgen05.st", "smem", "swizzle"};
  std::size_t at = 0;
  if (!args.empty() && std::find(kCommands.begin(), kCommands.end(), args[0]) != kCommands.end()) at = 1;
  if (args.size() >= 2 && args[0] == "sim" && std::find(kSimLeaves.begin(), kSimLeaves.end(), args[1]) != kSimLeaves.end())
    at = 2;
  if (at) {
    std::vector<std::string> extra;
    if (!has(args, "--time-limit")) extra.insert(extra.end(), {"--time-limit", "1"});
    if (!has(args, "--memory-limit")) extra.insert(extra.end(), {"--memory-limit", "256"});
    if ((args[0] == "check" || args[0] == "equiv") && !has(args, "--z3-timeout-ms"))
      extra.insert(extra.end(), {"--z3-timeout-ms", "20"});
    if ((args[0] == "check" || args[0] == "run" || args[0] == "render") && !has(args, "--max-points"))
      extra.insert(extra.end(), {"--max-points", "10000"});
    args.insert(args.begin() + static_cast<std::ptrdiff_t>(at), extra.begin(), extra.end());
  }

  bool json = false, to_file = false;
  for (const auto& a : args) {
    if (a == "--") break;
    if (a == "--json" || a.rfind("--json=", 0) == 0) json = true;
    if (a == "-o" || a == "--output" || a.rfind("--output=", 0) == 0) to_file = true;
  }

  CappedBuf out_buf(kOutputCap), err_buf(kOutputCap);
  std::ostream out(&out_buf), err(&err_buf);
  out.exceptions(std::ios::badbit);
  err.exceptions(std::ios::badbit);
  std::cout.exceptions(std::ios::badbit);
  std::cerr.exceptions(std::ios::badbit);
  int rc = -1;
  bool capped = false;
  try {
    const InScratch in_scratch;
    rc = tirx::cli::run_cli(args, out, err);
  } catch (const OutputCapReached&) {
    capped = true;
  }
  std::cout.clear();
  std::cerr.clear();
  std::cout.exceptions(std::ios::goodbit);
  std::cerr.exceptions(std::ios::goodbit);
  if (capped) return 0;

  const std::string o = out_buf.str(), e = err_buf.str();
  std::string shown;
  for (const auto& a : args) shown += "[" + a + "] ";
  FUZZ_CHECK(rc >= 0 && rc <= 3, "exit code %d (stderr: %.300s) for %s", rc, e.c_str(), shown.c_str());
  if (rc == 2)
    FUZZ_CHECK(e.find("error[") != std::string::npos || o.find("layout.well-formed") != std::string::npos,
               "exit 2 without a diagnostic (stderr: %.300s) for %s", e.c_str(), shown.c_str());
  FUZZ_CHECK(!tirx::invalid_utf8_at(o) && !tirx::invalid_utf8_at(e), "output that is not UTF-8 (%.300s | %.300s) for %s",
             o.c_str(), e.c_str(), shown.c_str());
  if (json && !(to_file && o.empty())) {  // -o FILE: the document went to the file
    const bool valid = nlohmann::json::accept(o);
    FUZZ_CHECK(valid, "--json output is not one JSON document (%.300s) for %s", o.c_str(), shown.c_str());
  }
  return 0;
}
