// The kernel source line of an origin string (source_location.hpp).
#include "tirx_verify/report/source_location.hpp"

#include <cctype>
#include <cstdint>

namespace tirx::report {

namespace {

constexpr std::int64_t kMaxLine = 1000000000;

// Digits at s[at..]: the value (at most kMaxLine) and advances `at`; nullopt when none or too large.
std::optional<int> read_line(const std::string& s, std::size_t& at) {
  std::int64_t v = 0;
  const std::size_t start = at;
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) {
    v = v * 10 + (s[at] - '0');
    if (v > kMaxLine) return std::nullopt;
    ++at;
  }
  if (at == start || v < 1) return std::nullopt;
  return static_cast<int>(v);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The longest source.files entry (or its base name) that `origin` starts with, followed by
// ":" and a digit: file names holding spaces or ':' ("my kernel.py", "k.py:99 x.py") are matched
// as a whole. Returns the length of the file part (0: none).
std::size_t named_file_prefix(const std::string& origin, const nlohmann::json& source) {
  std::size_t best = 0;
  if (!source.is_object()) return 0;
  const auto files = source.find("files");
  if (files == source.end() || !files->is_array()) return 0;
  for (const auto& f : *files) {
    if (!f.is_string()) continue;
    const std::string p = f.get<std::string>();
    const std::size_t slash = p.rfind('/');
    for (const std::string& cand : {p, slash == std::string::npos ? p : p.substr(slash + 1)}) {
      const std::size_t n = cand.size();
      if (n > best && ends_with(cand, ".py") && origin.size() > n + 1 && origin.compare(0, n, cand) == 0 &&
          origin[n] == ':' && std::isdigit(static_cast<unsigned char>(origin[n + 1])))
        best = n;
    }
  }
  return best;
}

}  // namespace

std::optional<SourceLine> source_line_of(const std::string& origin, const nlohmann::json& source) {
  std::size_t colon = named_file_prefix(origin, source);
  if (colon == 0) {
    colon = origin.find(':');
    if (colon == std::string::npos || colon < 4) return std::nullopt;
    for (std::size_t i = 0; i < colon; ++i)
      if (std::isspace(static_cast<unsigned char>(origin[i]))) return std::nullopt;
  }
  const std::string file = origin.substr(0, colon);
  if (!ends_with(file, ".py")) return std::nullopt;
  std::size_t at = colon + 1;
  const auto first = read_line(origin, at);
  if (!first) return std::nullopt;
  int last = *first;
  if (at < origin.size() && origin[at] == '-') {
    std::size_t at2 = at + 1;
    const auto second = read_line(origin, at2);
    if (second && *second >= *first) {
      last = *second;
      at = at2;
    }
  }
  if (at < origin.size() && !std::isspace(static_cast<unsigned char>(origin[at])) && origin[at] != ',' &&
      origin[at] != ';' && origin[at] != ')')
    return std::nullopt;
  SourceLine out{file, *first, last};
  if (source.is_object()) {
    const auto files = source.find("files");
    if (files != source.end() && files->is_array()) {
      for (const auto& f : *files) {
        if (!f.is_string()) continue;
        const std::string p = f.get<std::string>();
        if (p == file) break;
        if (ends_with(p, "/" + file)) {
          out.file = p;
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace tirx::report
