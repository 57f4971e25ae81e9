#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/checked.hpp"

#include <fmt/format.h>

namespace tirx {

namespace {

// Most bytes of the offending line shown on either side of the caret; a longer line (a 60 MB
// one-line model file) is cut to this window with "..." marks.
constexpr std::size_t kRenderWindow = 100;

// Moves a cut point off UTF-8 continuation bytes, so a window never splits a character.
std::size_t char_boundary(const std::string& s, std::size_t i, std::size_t lo, bool down) {
  while (i > lo && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) i += down ? -1 : 1;
  return i;
}

}  // namespace

std::string InputError::render() const {
  std::string out = fmt::format("error[{}]: {}\n", check_id_, message_);
  if (!text_.empty()) {
    // Show the line that holds pos (or the first line) and a caret under the offending byte.
    std::size_t p = pos_.value_or(0);
    if (p > text_.size()) p = text_.size();
    std::size_t line_begin = p == 0 ? 0 : text_.rfind('\n', p - 1);
    line_begin = (line_begin == std::string::npos || p == 0) ? 0 : line_begin + 1;
    std::size_t line_end = text_.find('\n', p);
    if (line_end == std::string::npos) line_end = text_.size();
    std::string prefix = "  ";
    std::size_t from = line_begin, to = line_end;
    if (p - from > kRenderWindow) from = char_boundary(text_, p - kRenderWindow, line_begin, false), prefix += "...";
    bool cut_end = false;
    if (to - p > kRenderWindow) to = char_boundary(text_, p + kRenderWindow, p, true), cut_end = true;
    out += prefix + text_.substr(from, to - from) + (cut_end ? "..." : "") + "\n";
    if (pos_) out += std::string(prefix.size(), ' ') + std::string(p - from, ' ') + "^\n";
  }
  if (!note_.empty()) out += fmt::format("  note: {}\n", note_);
  return out;
}

void throw_overflow(std::string_view what) {
  throw InputError("layout.well-formed", fmt::format("integer overflow in {} (values are int64)", what));
}

}  // namespace tirx
