#include "tirx_verify/layout/utf8.hpp"

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx {

namespace {

// Length of the well-formed sequence that starts at text[i], or 0 when it is ill-formed.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;  // continuation byte, C0/C1, F5..FF
  }
  if (i + len > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return len;
}

}  // namespace

std::optional<std::size_t> invalid_utf8_at(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequence_length(text, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

void require_utf8(std::string_view text, std::string_view check_id, std::string_view what) {
  const auto at = invalid_utf8_at(text);
  if (!at) return;
  throw InputError(std::string(check_id),
                   fmt::format("{} is not valid UTF-8: byte 0x{:02x} at byte {}", what,
                               static_cast<unsigned char>(text[*at]), *at),
                   escape_invalid_utf8(text), *at,
                   "every input must be UTF-8 text (the bad byte is shown as \\xNN; the position counts bytes of "
                   "the original)");
}

std::string escape_invalid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequence_length(text, i);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace tirx
