#include "child_process.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

extern char** environ;

namespace tirx::cli {

namespace {

constexpr int kForwarded[] = {SIGTERM, SIGINT, SIGHUP};

volatile std::sig_atomic_t g_signal = 0;  // the last forwarded signal received
volatile std::sig_atomic_t g_child_group = 0;  // the child's process group (0: none running)

extern "C" void forward_signal(int sig) {
  g_signal = sig;
  const pid_t g = static_cast<pid_t>(g_child_group);
  if (g > 0) ::kill(-g, sig);  // async-signal-safe
}

// A temporary file already unlinked: only the descriptor names it.
int anonymous_temp_file() {
  char tmpl[] = "/tmp/tirx_extract.XXXXXX";
  const int fd = ::mkstemp(tmpl);
  if (fd < 0) throw std::runtime_error(fmt::format("cannot create a temporary file: {}", std::strerror(errno)));
  ::unlink(tmpl);
  return fd;
}

// At most `cap` bytes of the file behind fd from its start; `truncated` when there were more.
std::string read_back(int fd, std::size_t cap, bool& truncated) {
  std::string s;
  truncated = false;
  if (::lseek(fd, 0, SEEK_SET) < 0) return s;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const std::size_t room = cap - s.size();
    if (static_cast<std::size_t>(n) > room) {
      s.append(buf, room);
      truncated = true;
      break;
    }
    s.append(buf, static_cast<std::size_t>(n));
  }
  return s;
}

}  // namespace

std::string signal_name(int sig) {
  switch (sig) {
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    case SIGABRT: return "SIGABRT";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGPIPE: return "SIGPIPE";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGQUIT: return "SIGQUIT";
    default: return fmt::format("signal {}", sig);
  }
}

ChildResult run_child(const std::vector<std::string>& argv, const ChildLimits& limits) {
  ChildResult r;
  const int ofd = anonymous_temp_file();
  int efd = -1;
  try {
    efd = anonymous_temp_file();
  } catch (...) {
    ::close(ofd);
    throw;
  }
  const int nullfd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int errpipe[2] = {-1, -1};  // exec failure: the child writes errno here (closed on exec)
  if (::pipe2(errpipe, O_CLOEXEC) != 0) errpipe[0] = errpipe[1] = -1;

  // Everything the child needs, prepared before fork (only async-signal-safe calls after it).
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  const rlim_t want_as = limits.memory_mb > 0 ? static_cast<rlim_t>(limits.memory_mb) << 20 : 0;
  const pid_t parent = ::getpid();

  struct sigaction act{}, saved[3]{};
  act.sa_handler = forward_signal;
  sigemptyset(&act.sa_mask);
  sigset_t block, old_mask;
  sigemptyset(&block);
  for (int s : kForwarded) sigaddset(&block, s);
  g_signal = 0;
  ::sigprocmask(SIG_BLOCK, &block, &old_mask);  // no forwarded signal between fork and g_child_group
  for (int i = 0; i < 3; ++i) ::sigaction(kForwarded[i], &act, &saved[i]);

  const pid_t pid = ::fork();
  if (pid == 0) {
    struct sigaction dfl{};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int s : kForwarded) ::sigaction(s, &dfl, nullptr);
    ::sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    ::setpgid(0, 0);
#ifdef __linux__
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
#endif
    rlimit as{};
    if (want_as > 0 && ::getrlimit(RLIMIT_AS, &as) == 0 && (as.rlim_cur == RLIM_INFINITY || as.rlim_cur > want_as)) {
      as.rlim_cur = want_as;
      if (as.rlim_max != RLIM_INFINITY && as.rlim_max < want_as) as.rlim_cur = as.rlim_max;
      ::setrlimit(RLIMIT_AS, &as);
    }
    rlimit core{0, 0};
    ::setrlimit(RLIMIT_CORE, &core);
    if (nullfd >= 0) ::dup2(nullfd, 0);
    ::dup2(ofd, 1);
    ::dup2(efd, 2);
    ::execve(cargv[0], cargv.data(), environ);
    const int e = errno;
    if (errpipe[1] >= 0) {
      ssize_t ignored = ::write(errpipe[1], &e, sizeof e);
      (void)ignored;
    }
    ::_exit(127);
  }
  if (pid > 0) {
    ::setpgid(pid, pid);  // also here: whichever of the two runs first
    g_child_group = pid;
  }
  ::sigprocmask(SIG_SETMASK, &old_mask, nullptr);  // a signal pending since the block arrives now
  if (errpipe[1] >= 0) ::close(errpipe[1]);
  if (nullfd >= 0) ::close(nullfd);

  if (pid < 0) {
    r.start_error = fmt::format("fork failed: {}", std::strerror(errno));
  } else {
    int exec_errno = 0;
    if (errpipe[0] >= 0) {
      ssize_t n;
      while ((n = ::read(errpipe[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
      }
      if (n != static_cast<ssize_t>(sizeof exec_errno)) exec_errno = 0;
    }
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::duration<double>(limits.time_limit_s);
    clock::time_point grace_end{};
    bool killed = false;
    for (;;) {
      siginfo_t info{};
      const int w = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0 || info.si_pid == pid) break;  // exited (still a zombie: its group id is not reused)
      const auto now = clock::now();
      if (g_signal != 0 && r.interrupted_by == 0) {
        r.interrupted_by = g_signal;  // the handler has passed it on already
        grace_end = now + std::chrono::seconds(2);
      }
      if (!killed && ((r.interrupted_by != 0 && now >= grace_end) || now >= deadline)) {
        ::kill(-pid, SIGKILL);
        killed = true;
        if (r.interrupted_by == 0) r.timed_out = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(-pid, SIGKILL);  // whatever the child left running in its group
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_child_group = 0;
    if (g_signal != 0 && r.interrupted_by == 0) r.interrupted_by = g_signal;
    if (exec_errno != 0) {
      r.start_error = fmt::format("cannot run {}: {}", argv[0], std::strerror(exec_errno));
    } else {
      r.started = true;
      if (WIFEXITED(status)) {
        r.exited = true;
        r.exit_code = WEXITSTATUS(status);
      } else if (WIFSIGNALED(status)) {
        r.term_signal = WTERMSIG(status);
      }
    }
  }
  for (int i = 0; i < 3; ++i) ::sigaction(kForwarded[i], &saved[i], nullptr);
  if (errpipe[0] >= 0) ::close(errpipe[0]);
  r.out = read_back(ofd, limits.max_out_bytes, r.out_truncated);
  r.err = read_back(efd, limits.max_err_bytes, r.err_truncated);
  ::close(ofd);
  ::close(efd);
  return r;
}

}  // namespace tirx::cli
