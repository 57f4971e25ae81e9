// JSON value positions by path (json_locator.hpp): a single pass over already-validated text.
#include "tirx_verify/kernel/json_locator.hpp"

#include <set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tirx::kernel {

namespace {

bool is_identifier(std::string_view k) {
  if (k.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(k[0])) return false;
  for (char c : k)
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

// The scanner: a cursor over the text that tracks line and column.
class Scanner {
 public:
  explicit Scanner(std::string_view t) : t_(t) {}
  bool done() const { return i_ >= t_.size(); }
  char peek() const { return done() ? '\0' : t_[i_]; }
  JsonPosition here() const { return {i_, line_, static_cast<int>(i_ - line_start_) + 1}; }
  void advance() {
    if (done()) return;
    if (t_[i_] == '\n') {
      ++line_;
      line_start_ = i_ + 1;
    }
    ++i_;
  }
  void skip_ws() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) advance();
  }
  // Reads a string token (cursor on the opening quote) and returns its raw text, quotes
  // included, for nlohmann to unescape.
  std::string_view raw_string() {
    const std::size_t start = i_;
    advance();
    while (!done() && peek() != '"') {
      if (peek() == '\\') advance();
      advance();
    }
    advance();
    return t_.substr(start, i_ - start);
  }
  // Skips a literal (number, true, false, null).
  void skip_literal() {
    while (!done()) {
      const char c = peek();
      if (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r') break;
      advance();
    }
  }

 private:
  std::string_view t_;
  std::size_t i_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0;
};

std::string unescape_key(std::string_view raw) {
  try {
    return nlohmann::json::parse(raw).get<std::string>();
  } catch (const nlohmann::json::exception&) {
    return std::string(raw.substr(1, raw.size() >= 2 ? raw.size() - 2 : 0));
  }
}

}  // namespace

std::string json_path_key(std::string_view base, std::string_view key) {
  if (is_identifier(key)) return fmt::format("{}.{}", base, key);
  return fmt::format("{}[{}]", base, nlohmann::json(std::string(key)).dump(-1, ' ', true));
}

std::string json_path_index(std::string_view base, std::size_t index) { return fmt::format("{}[{}]", base, index); }

JsonLocator::JsonLocator(std::string_view text) {
  Scanner s(text);
  // An explicit stack instead of recursion: nesting depth is whatever the document has.
  struct Frame {
    std::string path;
    bool is_object;
    std::size_t index = 0;
    std::set<std::string> keys = {};
  };
  std::vector<Frame> stack;
  std::string path = "$";
  // Scalars past this index of an array get no entry of their own (nearest() answers with the
  // array's position): a dense array of a million numbers would otherwise cost a million paths.
  constexpr std::size_t kIndexedScalars = 16;
  while (true) {
    s.skip_ws();
    if (s.done()) return;
    // A value starts here, at `path`.
    const char c = s.peek();
    const bool in_array = !stack.empty() && !stack.back().is_object;
    if (c == '{' || c == '[' || !in_array || stack.back().index <= kIndexedScalars)
      positions_.emplace(path, s.here());
    if (c == '{' || c == '[') {
      s.advance();
      stack.push_back({path, c == '{'});
    } else if (c == '"') {
      s.raw_string();
    } else {
      s.skip_literal();
    }
    // After a value: close containers, then find where the next value goes.
    while (true) {
      s.skip_ws();
      if (stack.empty()) return;
      Frame& f = stack.back();
      const char n = s.peek();
      if (n == '}' || n == ']') {
        s.advance();
        stack.pop_back();
        continue;
      }
      if (n == ',') {
        s.advance();
        s.skip_ws();
      }
      if (s.done()) return;
      if (f.is_object) {
        if (s.peek() == '}') continue;
        if (s.peek() != '"') return;  // not JSON after all: stop
        const JsonPosition key_pos = s.here();
        const std::string key = unescape_key(s.raw_string());
        path = json_path_key(f.path, key);
        key_positions_.emplace(path, key_pos);
        if (!f.keys.insert(key).second && !duplicate_) duplicate_ = Duplicate{path, key_pos};
        s.skip_ws();
        if (s.peek() != ':') return;
        s.advance();
      } else {
        if (s.peek() == ']') continue;
        path = json_path_index(f.path, f.index++);
      }
      break;
    }
  }
}

std::optional<JsonPosition> JsonLocator::find(std::string_view path) const {
  auto it = positions_.find(std::string(path));
  if (it == positions_.end()) return std::nullopt;
  return it->second;
}

std::optional<JsonPosition> JsonLocator::find_key(std::string_view path) const {
  auto it = key_positions_.find(std::string(path));
  if (it == key_positions_.end()) return std::nullopt;
  return it->second;
}

JsonPosition JsonLocator::nearest(std::string_view path) const {
  std::string p(path);
  while (true) {
    if (auto pos = find(p)) return *pos;
    // Drop the last component: ".key", "[i]" or "["key"]".
    if (p.size() <= 1) return {};
    std::size_t cut = p.size();
    if (p.back() == ']') {
      // Find the matching '[' (a quoted key may contain ']' but not an unescaped '"]').
      cut = p.rfind('[');
      if (p.size() > cut + 1 && p[cut + 1] == '"') {
        const std::size_t q = p.rfind("[\"");
        cut = q == std::string::npos ? cut : q;
      }
    } else {
      cut = p.rfind('.');
    }
    if (cut == std::string::npos || cut == 0) return find("$").value_or(JsonPosition{});
    p.resize(cut);
  }
}

}  // namespace tirx::kernel
