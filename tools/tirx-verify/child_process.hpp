// Running a helper program (the Python extractor of `tirx-verify extract`) under limits, so that
// it can never outlive, outgrow or outwait the command that started it.
//
//   what                     how
//   time                     the child runs in its own process group; past `time_limit_s` the
//                            whole group gets SIGKILL (result: timed_out)
//   memory                   RLIMIT_AS of the child is set to `memory_mb` MB before exec (only
//                            ever lowered), so an allocation past it fails inside the child
//                            (Python: MemoryError) instead of exhausting the machine
//   our own death            PR_SET_PDEATHSIG(SIGKILL) in the child (Linux): when this process
//                            dies, even by SIGKILL, the kernel kills the child
//   SIGTERM/SIGINT/SIGHUP    received by this process while the child runs: passed on to the
//                            child's process group, then SIGKILL after 2 s (result:
//                            interrupted_by names the signal)
//   temporary files          the child's stdout/stderr go to files unlinked as soon as they are
//                            opened: nothing is left in /tmp whatever happens to either process
//   output size              at most `max_out_bytes` of stdout and `max_err_bytes` of stderr are
//                            read back; `out_truncated` / `err_truncated` say when there was more
//
// POSIX (fork/exec); not thread-safe against other fork users (one command per process).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tirx::cli {

struct ChildLimits {
  double time_limit_s = 300;       // wall seconds, > 0
  std::int64_t memory_mb = 4096;   // RLIMIT_AS of the child, MB; <= 0: not set
  std::size_t max_out_bytes = std::size_t{64} << 20;
  std::size_t max_err_bytes = std::size_t{1} << 20;
};

struct ChildResult {
  bool started = false;        // false: fork/exec failed (start_error says why)
  std::string start_error;
  bool exited = false;         // exited normally with exit_code
  int exit_code = -1;
  int term_signal = 0;         // killed by this signal (0: not killed)
  bool timed_out = false;      // killed by us at the time limit
  int interrupted_by = 0;      // a signal this process received and passed on (0: none)
  std::string out, err;        // the child's stdout / stderr (possibly truncated)
  bool out_truncated = false, err_truncated = false;
};

// Runs argv[0] (a path, not searched on PATH) with argv and the current environment under
// `limits`. Never throws for the child's behaviour; throws std::runtime_error only when no
// temporary file can be created.
ChildResult run_child(const std::vector<std::string>& argv, const ChildLimits& limits);

// "SIGKILL" for 9, "signal 42" for a number without a name.
std::string signal_name(int sig);

}  // namespace tirx::cli
