#include "tirx_verify/layout/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/utf8.hpp"

namespace tirx {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "regular file";
  if (S_ISDIR(mode)) return "directory";
  if (S_ISFIFO(mode)) return "FIFO";
  if (S_ISSOCK(mode)) return "socket";
  if (S_ISCHR(mode)) return "character device";
  if (S_ISBLK(mode)) return "block device";
  return "special file";
}

// Closes the descriptor on every way out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string file_kind(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  return kind_of(st.st_mode);
}

std::string read_input_file(const std::filesystem::path& path, std::string_view check_id, std::size_t max_bytes,
                            std::string_view what) {
  const std::string name = path.string();
  const std::string shown = escape_invalid_utf8(name);
  require_utf8(name, check_id, fmt::format("the name of {} '{}'", what, shown));
  if (name.empty()) throw InputError(std::string(check_id), fmt::format("empty {} name", what));
  const auto fail = [&](const std::string& why) -> InputError {
    return InputError(std::string(check_id), fmt::format("cannot read {} '{}': {}", what, shown, why));
  };
  const auto not_regular = [&](mode_t mode) -> InputError {
    const std::string kind = kind_of(mode);
    return InputError(std::string(check_id),
                      fmt::format("{} '{}' is a {}, not a regular file", what, shown, kind), {}, std::nullopt,
                      kind == "directory" ? "name a file inside it" : "only regular files are read");
  };
  const auto too_big = [&](std::size_t size) -> InputError {
    return InputError(std::string(check_id),
                      fmt::format("{} '{}' is {} bytes; the limit is {} bytes ({} MiB)", what, shown, size, max_bytes,
                                  max_bytes >> 20));
  };

  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw not_regular(st.st_mode);
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) throw too_big(static_cast<std::size_t>(st.st_size));

  Fd f;
  // O_NONBLOCK: should the path have been swapped for a FIFO since stat(), open() still returns.
  f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (f.fd < 0) throw fail(std::strerror(errno));
  if (::fstat(f.fd, &st) != 0) throw fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw not_regular(st.st_mode);

  std::string out;
  out.resize(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), max_bytes) + 1);
  std::size_t used = 0;
  while (true) {
    if (used == out.size()) {
      if (out.size() > max_bytes) throw too_big(used);  // grew past the cap while being read
      out.resize(std::min(max_bytes + 1, std::max<std::size_t>(out.size() * 2, 4096)));
    }
    const ssize_t n = ::read(f.fd, out.data() + used, out.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw fail(std::strerror(errno));
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  if (used > max_bytes) throw too_big(used);
  out.resize(used);
  return out;
}

void write_output_file(const std::filesystem::path& path, std::string_view text, std::string_view check_id,
                       std::string_view what) {
  const std::string name = path.string();
  const std::string shown = escape_invalid_utf8(name);
  require_utf8(name, check_id, fmt::format("the name of {} '{}'", what, shown));
  const auto fail = [&](const std::string& why) -> InputError {
    return InputError(std::string(check_id), fmt::format("cannot write {} '{}': {}", what, shown, why));
  };
  if (name.empty()) throw InputError(std::string(check_id), fmt::format("empty {} name", what));
  Fd f;
  f.fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
  if (f.fd < 0) throw fail(errno == ENXIO ? "a FIFO that nobody reads" : std::strerror(errno));
  // Back to blocking writes: a FIFO with a reader (or a pipe) then takes all of the text.
  if (const int flags = ::fcntl(f.fd, F_GETFL); flags >= 0) ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(f.fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw fail(std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  const int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) throw fail(std::strerror(errno));
}

}  // namespace tirx
