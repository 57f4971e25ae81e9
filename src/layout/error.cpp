#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/checked.hpp"

#include <fmt/format.h>

namespace tirx {

std::string InputError::render() const {
  std::string out = fmt::format("error[{}]: {}\n", check_id_, message_);
  if (!text_.empty()) {
    // Show the line that holds pos (or the first line) and a caret under the offending byte.
    std::size_t p = pos_.value_or(0);
    if (p > text_.size()) p = text_.size();
    std::size_t line_begin = text_.rfind('\n', p == 0 ? 0 : p - 1);
    line_begin = (line_begin == std::string::npos || p == 0) ? 0 : line_begin + 1;
    if (p == 0) line_begin = 0;
    std::size_t line_end = text_.find('\n', p);
    if (line_end == std::string::npos) line_end = text_.size();
    out += "  " + text_.substr(line_begin, line_end - line_begin) + "\n";
    if (pos_) out += "  " + std::string(p - line_begin, ' ') + "^\n";
  }
  if (!note_.empty()) out += fmt::format("  note: {}\n", note_);
  return out;
}

void throw_overflow(std::string_view what) {
  throw InputError("layout.well-formed", fmt::format("integer overflow in {} (values are int64)", what));
}

}  // namespace tirx
