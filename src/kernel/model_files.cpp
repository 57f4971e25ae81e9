// Reading model files from disk (model_files.hpp: load_model, collect_model_files). Kept apart
// from parse_model so that file-system handling (what may be read, how much, directory walks) is
// one concern in one file.
#include "tirx_verify/kernel/model_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/input_file.hpp"
#include "tirx_verify/layout/utf8.hpp"

namespace tirx::kernel {

namespace {

constexpr const char* kId = "model.syntax";

std::string shown(const std::filesystem::path& p) { return escape_invalid_utf8(p.string()); }

[[noreturn]] void bad(const std::string& message, const std::string& note = {}) {
  throw InputError(kId, message, {}, std::nullopt, note);
}

using DirId = std::pair<dev_t, ino_t>;

// Walks one directory: every *.json below it goes to `out`. `ancestors` holds the directories on
// the way down from the root (a link back to one of them is a loop); `walked` every directory
// seen so far (reached again through another link: skipped, so shared subtrees cost once).
class Walker {
 public:
  explicit Walker(std::vector<std::filesystem::path>& out) : out_(out) {}

  void walk(const std::filesystem::path& dir, const struct stat& st, int depth) {
    const DirId id{st.st_dev, st.st_ino};
    if (!walked_.insert(id).second) return;
    if (depth > kMaxModelDirDepth)
      bad(fmt::format("directory '{}' lies more than {} levels below the path given to run", shown(dir),
                      kMaxModelDirDepth));
    ancestors_.insert(id);
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec), end;
    if (ec) bad(fmt::format("cannot list directory '{}': {}", shown(dir), ec.message()));
    std::vector<std::filesystem::path> entries;
    for (; it != end; it.increment(ec)) {
      if (ec) break;
      entries.push_back(it->path());
    }
    if (ec) bad(fmt::format("cannot list directory '{}': {}", shown(dir), ec.message()));
    std::sort(entries.begin(), entries.end());
    for (const auto& e : entries) visit(e, depth);
    ancestors_.erase(id);
  }

 private:
  void visit(const std::filesystem::path& p, int depth) {
    const std::string name = p.string();
    require_utf8(name, kId, fmt::format("the file name '{}'", shown(p)));
    const bool is_json = p.extension() == ".json";
    struct stat lst {}, st {};
    if (::lstat(p.c_str(), &lst) != 0) bad(fmt::format("cannot read '{}': {}", shown(p), std::strerror(errno)));
    if (::stat(p.c_str(), &st) != 0) {
      const int err = errno;
      if (err == ELOOP)
        bad(fmt::format("symlink loop at '{}' (following it leads back to itself)", shown(p)),
            "remove or repair the link");
      if (S_ISLNK(lst.st_mode) && !is_json) return;  // a dangling link to something that is not a model
      bad(fmt::format("cannot read '{}': {}", shown(p), std::strerror(err)),
          S_ISLNK(lst.st_mode) ? "the symlink points at nothing" : "");
    }
    if (S_ISDIR(st.st_mode)) {
      if (ancestors_.count({st.st_dev, st.st_ino}))
        bad(fmt::format("symlink loop at '{}': it leads back to a directory that contains it", shown(p)),
            "remove or repair the link");
      walk(p, st, depth + 1);
      return;
    }
    // Any *.json that is not a directory is a model file; load_model refuses what is not regular.
    if (is_json) out_.push_back(p);
  }

  std::vector<std::filesystem::path>& out_;
  std::set<DirId> ancestors_, walked_;
};

}  // namespace

KernelModel load_model(const std::filesystem::path& file) {
  const std::string text = read_input_file(file, kId, kMaxModelFileBytes, "model file");
  require_utf8(text, kId, fmt::format("model file '{}'", shown(file)));
  KernelModel m = parse_model(text, file.string());
  m.path = file;
  return m;
}

std::vector<std::filesystem::path> collect_model_files(const std::vector<std::filesystem::path>& paths) {
  std::vector<std::filesystem::path> out;
  for (const auto& p : paths) {
    require_utf8(p.string(), kId, fmt::format("the path '{}'", shown(p)));
    if (p.empty()) bad("empty path");
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
      const int err = errno;
      if (err == ENOENT) {
        struct stat lst {};
        if (::lstat(p.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
          bad(fmt::format("'{}' is a symlink that points at nothing", shown(p)));
        bad(fmt::format("no such file or directory: {}", shown(p)));
      }
      if (err == ELOOP) bad(fmt::format("symlink loop at '{}'", shown(p)), "remove or repair the link");
      bad(fmt::format("cannot read '{}': {}", shown(p), std::strerror(err)));
    }
    if (!S_ISDIR(st.st_mode)) {
      out.push_back(p);  // a file is taken as it is (load_model refuses what is not regular)
      continue;
    }
    const std::size_t before = out.size();
    Walker(out).walk(p, st, 0);
    if (out.size() == before)
      bad(fmt::format("no *.json model files under '{}'", shown(p)),
          "run reads every *.json file below a directory; name a model file or a directory that holds one");
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace tirx::kernel
