// tirx-verify extract KERNEL.py [--param NAME=VALUE ...] [-o model.json] [--allow-unresolved] [--json]
//                             [--instance cta0-first-tile|none] [--serial-iterations N]
//                             [--time-limit S] [--memory-limit MB]
//
// Writes a kernel model (format 2, docs/model-format.md) from a TIRx kernel's Python source.
// The extraction itself is tools/extract/extract.py (Python's own `ast` parses the kernel
// exactly; docs/extract.md says why it is Python): this command finds python3 (env
// TIRX_VERIFY_PYTHON, else python3 on PATH) and the tool (under repo_root(): env
// TIRX_VERIFY_ROOT, else the source directory). It validates every option itself (each value
// is passed as --opt=VALUE, the kernel after "--"), runs the tool under limits
// (child_process.hpp) and never trusts its answer: the tool always answers in JSON, and
//
//   the tool's answer                          ours
//   a model ("format": 2), exit 0 or 3         the model passes the model reader (parse_model,
//                                              as `run` loads it) and is written to -o / stdout;
//                                              exit 0 complete, 3 unresolved items listed.
//                                              Rejected by the reader: exit 2 extract.model at
//                                              the rejected item's origin FILE:LINE
//   an error document, exit 2/3/4              passed on (stdout with --json); the same code
//   a model over 16 MiB (run's file limit)     exit 3 extract.model-size, nothing written
//   killed at --time-limit (default 300 s)     exit 3 extract.time-limit
//   killed by SIGKILL/SIGABRT/SIGSEGV/SIGBUS   exit 3 extract.memory-limit (RLIMIT_AS of the
//                                              child is --memory-limit MB, default as the other
//                                              subcommands: min(4096, half of physical memory);
//                                              not in address-sanitizer builds)
//   SIGTERM/SIGINT/SIGHUP sent to us           passed on to the tool's process group: exit 3
//                                              extract.interrupted
//   anything else (no JSON, not a model, a     exit 4 extract.internal saying what was wrong;
//   model with exit 1, nothing at all)         never exit 0 without a model written
//
// -o is checked before the tool runs (not a directory, its directory exists, not the kernel
// file itself) and written by this command (a write error such as ENOSPC: exit 2
// extract.output). --target must name a known target file (target.file). Errors are
// "error[ID]: message" on stderr, and with --json one {"error": {id, message[, line]},
// "exit_code"} document on stdout.
//
// With the environment variable TIRX_VERIFY_NO_SPAWN set (non-empty), nothing is spawned: exit 2,
// `extract.python` — the in-process libFuzzer target (tests/fuzz/fuzz_cli.cpp) sets it, so
// fuzzing the command line never starts a Python process per input.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "child_process.hpp"
#include "cli_budget.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/input_file.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define TIRX_EXTRACT_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TIRX_EXTRACT_UNDER_ASAN 1
#endif
#endif

namespace tirx::cli {

namespace {
// An address-sanitizer build runs itself as the layout tool under the Python child
// (--layout-tool): its shadow memory reserves terabytes of address space, so no RLIMIT_AS can
// be set there (as cli_budget's backstop, not in sanitizer builds).
#ifdef TIRX_EXTRACT_UNDER_ASAN
constexpr bool kChildMemoryLimit = false;
#else
constexpr bool kChildMemoryLimit = true;
#endif

struct ExtractOpts {
  std::string kernel;
  std::vector<std::string> params;
  std::string output, kernel_name, function, target, commit, source_path, instance;
  std::vector<std::string> repos;
  bool allow_unresolved = false;
  bool json = false;
  double time_limit_s = 300;
  std::int64_t memory_limit_mb = Budget::default_memory_mb();
  int serial_iterations = -1;  // -1: the tool's default
};

constexpr double kMaxExtractSeconds = 86400.0;

// An answer of this command other than a model: check id, message, exit code, optional line of
// the kernel file.
struct ExtractError {
  std::string id, message;
  int code = kBadInput;
  std::optional<long> line = std::nullopt;
};

void emit(bool json, const ExtractError& e) {
  std::cerr << "error[" << e.id << "]: " << e.message << "\n";
  if (json) {
    nlohmann::json doc = {{"error", {{"id", e.id}, {"message", e.message}}}, {"exit_code", e.code}};
    if (e.line) doc["error"]["line"] = *e.line;
    std::cout << dump_json(doc) << "\n";
  }
}

bool executable(const std::filesystem::path& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// The Python interpreter: TIRX_VERIFY_PYTHON (a path), else the first python3 on PATH.
std::string find_python() {
  if (const char* p = std::getenv("TIRX_VERIFY_PYTHON"); p && *p) {
    if (!executable(p))
      throw ExtractError{"extract.python", fmt::format("TIRX_VERIFY_PYTHON={} is not an executable file", p)};
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
  throw ExtractError{"extract.python",
                     "python3 was not found on PATH: `tirx-verify extract` runs tools/extract/extract.py with "
                     "Python 3 (standard library only); install python3 or set TIRX_VERIFY_PYTHON"};
}

// NAME=VALUE with NAME a (dotted) identifier and a non-empty VALUE; each NAME once.
void check_params(const std::vector<std::string>& params) {
  std::map<std::string, std::string> seen;
  for (const auto& p : params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos)
      throw ExtractError{"cli.usage", fmt::format("--param '{}': expected NAME=VALUE", p)};
    std::string name = p.substr(0, eq), value = p.substr(eq + 1);
    auto trim = [](std::string& s) {
      const auto a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
      s = a == std::string::npos ? "" : s.substr(a, b - a + 1);
    };
    trim(name);
    trim(value);
    bool ok = !name.empty();
    bool start = true;
    for (unsigned char c : name) {
      if (c == '.') {
        ok = ok && !start;
        start = true;
        continue;
      }
      const bool alpha = std::isalpha(c) || c == '_' || c >= 0x80;
      ok = ok && (alpha || (!start && std::isdigit(c)));
      start = false;
    }
    ok = ok && !start;
    if (!ok) throw ExtractError{"cli.usage", fmt::format("--param '{}': '{}' is not a Python name", p, name)};
    if (value.empty()) throw ExtractError{"cli.usage", fmt::format("--param '{}': empty value", p)};
    if (auto it = seen.find(name); it != seen.end())
      throw ExtractError{"extract.param", fmt::format("--param {} is given twice ('{}' and '{}'); give each name once",
                                                      name, it->second, p)};
    seen[name] = p;
  }
}

// -o PATH before anything runs: not a directory, its directory exists, not the kernel file.
void check_output_path(const std::string& out, const std::string& kernel) {
  struct stat so{};
  if (::stat(out.c_str(), &so) == 0) {
    if (S_ISDIR(so.st_mode)) throw ExtractError{"extract.output", fmt::format("-o {}: is a directory", out)};
    struct stat sk{};
    if (::stat(kernel.c_str(), &sk) == 0 && sk.st_dev == so.st_dev && sk.st_ino == so.st_ino)
      throw ExtractError{"extract.output",
                         fmt::format("-o {}: is the kernel file {} itself (the model would overwrite the source)", out,
                                     kernel)};
    return;
  }
  if (errno != ENOENT) throw ExtractError{"extract.output", fmt::format("-o {}: {}", out, std::strerror(errno))};
  auto parent = std::filesystem::path(out).parent_path();
  if (parent.empty()) parent = ".";
  struct stat sp{};
  if (::stat(parent.c_str(), &sp) != 0 || !S_ISDIR(sp.st_mode))
    throw ExtractError{"extract.output", fmt::format("-o {}: the directory {} does not exist", out, parent.string())};
}

void write_output(const std::string& out, const std::string& text) {
  const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd < 0) throw ExtractError{"extract.output", fmt::format("-o {}: cannot write: {}", out, std::strerror(errno))};
  const int fl = ::fcntl(fd, F_GETFL);
  if (fl >= 0) ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);  // O_NONBLOCK only so that a FIFO never blocks open
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = n < 0 ? errno : EIO;
      ::close(fd);
      throw ExtractError{"extract.output", fmt::format("-o {}: writing the model failed: {}", out, std::strerror(e))};
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0)
    throw ExtractError{"extract.output", fmt::format("-o {}: writing the model failed: {}", out, std::strerror(errno))};
}

// The model reader's rejection of the extracted model, pointed at the item's origin (its line in
// the kernel file).
ExtractError model_rejection(const InputError& e, const nlohmann::json& model, const std::vector<std::string>& params) {
  std::string msg = e.message();
  static const std::regex prefix(R"(^extracted model:\d+:\d+: )");
  msg = std::regex_replace(msg, prefix, "");
  if (msg.size() > 600) msg = msg.substr(0, 600) + "...";
  ExtractError out{"extract.model", "", kBadInput};
  std::smatch m;
  static const std::regex ptr(R"(\$\.(ops|buffers)\[(\d+)\])");
  std::string where = "the extracted model";
  if (std::regex_search(msg, m, ptr)) {
    const auto& list = model[m[1].str()];
    const std::size_t i = std::stoul(m[2].str());
    if (list.is_array() && i < list.size() && list[i].is_object()) {
      const auto& item = list[i];
      const std::string name = item.contains("name") && item["name"].is_string() ? item["name"].get<std::string>() : "";
      const std::string origin =
          item.contains("origin") && item["origin"].is_string() ? item["origin"].get<std::string>() : "";
      std::smatch om;
      static const std::regex file_line(R"(^(.*?):(\d+)(?: |$))");
      if (std::regex_search(origin, om, file_line)) {
        where = fmt::format("{}:{}: the extracted {} '{}'", om[1].str(), om[2].str(),
                            m[1].str() == "ops" ? "op" : "buffer", name);
        out.line = std::stol(om[2].str());
      }
    }
  }
  out.message = fmt::format("{} breaks a rule of the model format, so `tirx-verify run` would reject the model: {}",
                            where, msg);
  if (!params.empty())
    out.message += fmt::format(" (the --param values given may be the cause: {})", fmt::join(params, ", "));
  return out;
}

// The tool's answer turned into ours: a model written (0 or 3), or an error document.
int finish(const ExtractOpts& o, const ChildResult& cr) {
  if (cr.interrupted_by != 0)
    throw ExtractError{"extract.interrupted",
                       fmt::format("tirx-verify received {} and passed it on to the extraction, which was stopped; no "
                                   "model was written",
                                   signal_name(cr.interrupted_by)),
                       kUndecided};
  if (cr.timed_out)
    throw ExtractError{"extract.time-limit",
                       fmt::format("the extraction ran past --time-limit {} s and was stopped; no model was written "
                                   "(raise --time-limit)",
                                   o.time_limit_s),
                       kUndecided};
  if (!cr.exited) {
    const int s = cr.term_signal;
    if (s == SIGKILL || s == SIGABRT || s == SIGSEGV || s == SIGBUS)
      throw ExtractError{"extract.memory-limit",
                         fmt::format("the extraction was killed by {}; the likely cause is the memory limit "
                                     "(--memory-limit {} MB, or the machine's memory); no model was written",
                                     signal_name(s), o.memory_limit_mb),
                         kUndecided};
    if (s == SIGXCPU)
      throw ExtractError{"extract.time-limit",
                         fmt::format("the extraction was killed by SIGXCPU (a CPU-time limit of the environment); no "
                                     "model was written"),
                         kUndecided};
    throw ExtractError{"extract.killed",
                       fmt::format("the extraction was killed by {} (sent from outside tirx-verify); no model was "
                                   "written",
                                   signal_name(s)),
                       kUndecided};
  }
  const int rc = cr.exit_code;
  const bool memory_error = cr.err.find("MemoryError") != std::string::npos;
  if (cr.out_truncated)
    throw ExtractError{"extract.model",
                       fmt::format("the extraction wrote more than {} MiB; a model file may be at most {} MiB",
                                   ChildLimits{}.max_out_bytes >> 20, kMaxModelFileBytes >> 20)};
  nlohmann::json doc;
  std::string bad;
  if (cr.out.empty()) {
    bad = "wrote nothing on standard output";
  } else {
    try {
      doc = nlohmann::json::parse(cr.out);
    } catch (const nlohmann::json::exception&) {
      bad = "wrote something that is not one JSON document";
    }
  }
  if (!bad.empty() && memory_error)
    throw ExtractError{"extract.memory-limit",
                       fmt::format("the extraction ran out of memory (--memory-limit {} MB; Python's MemoryError, "
                                   "exit status {}); no model was written",
                                   o.memory_limit_mb, rc),
                       kUndecided};
  if (bad.empty() && doc.is_object() && doc.contains("error") && doc["error"].is_object()) {
    const auto& err = doc["error"];
    const int code = rc == kBadInput || rc == kUndecided || rc == 4 ? rc : 4;
    if (code != rc || !err.contains("id") || !err["id"].is_string())
      bad = fmt::format("reported an error with exit status {}", rc);
    else {
      if (o.json) std::cout << dump_json(doc) << "\n";  // the tool's own error document (its stderr has the text)
      return code;
    }
  }
  if (bad.empty() && !(doc.is_object() && doc.contains("format") && doc["format"] == 2))
    bad = "wrote a JSON document that is not a kernel model (no \"format\": 2)";
  if (bad.empty() && rc != kVerified && rc != kUndecided)
    bad = fmt::format("wrote a model but exited with status {}", rc);
  if (!bad.empty())
    throw ExtractError{"extract.internal",
                       fmt::format("the extraction tool {} (exit status {}); no model was written. This is a bug of "
                                   "the extractor (or TIRX_VERIFY_PYTHON is not Python 3): please report it with the "
                                   "kernel file",
                                   bad, rc),
                       4};
  if (cr.out.size() > kMaxModelFileBytes)  // `run` reads at most that much of a model file
    throw ExtractError{"extract.model-size",
                       fmt::format("the extracted model is {} bytes, more than the {} MiB a model file may be "
                                   "(`tirx-verify run` would refuse it); no model was written",
                                   cr.out.size(), kMaxModelFileBytes >> 20),
                       kUndecided};
  try {
    (void)kernel::parse_model(cr.out, "extracted model");
  } catch (const InputError& e) {
    throw model_rejection(e, doc, o.params);
  }
  if (o.output.empty())
    std::cout << cr.out << std::flush;
  else
    write_output(o.output, cr.out);
  return rc;
}

int extract_main(const ExtractOpts& o) {
  if (!std::isfinite(o.time_limit_s) || o.time_limit_s <= 0 || o.time_limit_s > kMaxExtractSeconds)
    throw ExtractError{"cli.usage", fmt::format("--time-limit {} is outside (0, {:.0f}] seconds", o.time_limit_s,
                                                kMaxExtractSeconds)};
  check_params(o.params);
  if (!o.commit.empty() && (o.commit.size() != 40 || o.commit.find_first_not_of("0123456789abcdef") != std::string::npos))
    throw ExtractError{"cli.usage", fmt::format("--commit '{}': not a full 40-digit lowercase hex commit", o.commit)};
  try {
    (void)hw::find_target_file(o.target.empty() ? "sm_100a" : o.target);
  } catch (const InputError& e) {
    throw ExtractError{e.check_id(), fmt::format("--target: {}", e.message())};
  }
  if (!o.output.empty()) check_output_path(o.output, o.kernel);
  if (const char* no = std::getenv("TIRX_VERIFY_NO_SPAWN"); no && *no)
    throw ExtractError{"extract.python",
                       "extract runs tools/extract/extract.py in a Python process, and spawning processes is "
                       "disabled here (TIRX_VERIFY_NO_SPAWN is set; the in-process fuzz target sets it)"};
  const std::string python = find_python();
  const auto tool = std::filesystem::path(repo_root()) / "tools" / "extract" / "extract.py";
  if (!std::filesystem::is_regular_file(tool))
    throw ExtractError{"extract.python", fmt::format("the extraction tool {} is missing (set TIRX_VERIFY_ROOT to the "
                                                     "repository that has tools/extract)",
                                                     tool.string())};
  // Every value as --opt=VALUE and the kernel after "--": a value that starts with '-' stays a
  // value. The tool always answers in JSON; what reaches our stdout is decided in finish().
  std::vector<std::string> argv = {python, "-I", tool.string(), "--json"};
  for (const auto& p : o.params) argv.push_back("--param=" + p);
  for (const auto& r : o.repos) argv.push_back("--repo=" + r);
  auto opt = [&](const char* flag, const std::string& v) {
    if (!v.empty()) argv.push_back(std::string(flag) + "=" + v);
  };
  opt("--kernel-name", o.kernel_name);
  opt("--function", o.function);
  opt("--target", o.target);
  opt("--commit", o.commit);
  opt("--source-path", o.source_path);
  opt("--instance", o.instance);
  if (o.serial_iterations >= 0) argv.push_back("--serial-iterations=" + std::to_string(o.serial_iterations));
  if (o.allow_unresolved) argv.push_back("--allow-unresolved");
  // the layout algebra for derived views (tools/extract/layout_text.py): this binary's `print`
  std::error_code self_ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", self_ec);
  if (!self_ec) argv.push_back("--layout-tool=" + self.string());
  if (kChildMemoryLimit)  // for its messages (RLIMIT_AS is set here, before exec)
    argv.push_back("--memory-limit=" + std::to_string(o.memory_limit_mb));
  argv.insert(argv.end(), {"--", o.kernel});
  ChildLimits limits;
  limits.time_limit_s = o.time_limit_s;
  limits.memory_mb = kChildMemoryLimit ? o.memory_limit_mb : 0;
  ChildResult cr;
  try {
    cr = run_child(argv, limits);
  } catch (const std::runtime_error& e) {
    throw ExtractError{"extract.python", e.what()};
  }
  if (!cr.started) throw ExtractError{"extract.python", cr.start_error};
  std::cerr << cr.err;
  if (cr.err_truncated) std::cerr << "\n(the extraction's messages were cut at 1 MiB)\n";
  std::cerr << std::flush;
  return finish(o, cr);
}
}  // namespace

void register_extract(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ExtractOpts>();
  CLI::App* cmd = app.add_subcommand(
      "extract", "Write a kernel model (format 2) from a TIRx kernel's Python source (docs/extract.md)");
  cmd->add_option("kernel", o->kernel, "The kernel's Python source file")->required();
  cmd->add_option("--param", o->params,
                  "NAME=VALUE: override a name (module constant, configuration value, kernel parameter, loop "
                  "variable); repeatable, each NAME once, and NAME must be read by the extraction")
      ->take_all();
  cmd->add_option("-o,--output", o->output, "Write the model to this file (default: standard output)");
  cmd->add_option("--kernel-name", o->kernel_name, "The model's kernel name (default: the file's stem)");
  cmd->add_option("--function", o->function, "Extract only this top-level kernel function, or this tile-task class (a class with a run method)");
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
                  "Seconds the extraction may run before it is stopped (default 300; exit 3, extract.time-limit)");
  cmd->add_option("--memory-limit", o->memory_limit_mb,
                  fmt::format("Memory (address space) of the extraction process, MB (default min(4096, half of "
                              "physical memory) = {} here); past it exit 3, extract.memory-limit",
                              Budget::default_memory_mb()))
      ->transform(int_range(kMinMemoryMb, kMaxMemoryMb));
  cmd->callback([o, &exit_code] {
    exit_code = guarded(o->json, "", [&] {
      try {
        return extract_main(*o);
      } catch (const ExtractError& e) {
        emit(o->json, e);
        return e.code;
      }
    });
  });
}

}  // namespace tirx::cli

#undef TIRX_EXTRACT_UNDER_ASAN  // unity builds: not defined in the files after this one
