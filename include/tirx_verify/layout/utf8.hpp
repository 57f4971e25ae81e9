// tirx_verify/layout/utf8.hpp — is a piece of text well-formed UTF-8, and where does it stop being so.
//
// Every text tirx-verify reads (command-line arguments and option values, file names, model and
// target files) must be UTF-8, because it ends up in JSON output, and JSON is Unicode. A byte
// that breaks the encoding is bad input with its byte offset, never something the JSON writer
// discovers later. Well-formed means RFC 3629:
//
//   bytes                                   code points          rejected as ill-formed
//   0xxxxxxx                                U+0000..U+007F
//   110xxxxx 10xxxxxx                       U+0080..U+07FF       C0, C1 (overlong two-byte forms)
//   1110xxxx 10xxxxxx 10xxxxxx              U+0800..U+FFFF       E0 80..9F (overlong), ED A0..BF (surrogates)
//   11110xxx 10xxxxxx 10xxxxxx 10xxxxxx     U+10000..U+10FFFF    F0 80..8F (overlong), F4 90.. and F5..FF (> U+10FFFF)
//
// A lone continuation byte (10xxxxxx) and a sequence cut short by the end of the text are
// ill-formed too. NUL (U+0000) is well-formed UTF-8; callers that cannot take it say so themselves.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tirx {

// Byte offset of the first byte of the first ill-formed sequence in `text` (the table above),
// or nullopt when all of `text` is well-formed UTF-8. Linear in the size of `text`; never throws.
std::optional<std::size_t> invalid_utf8_at(std::string_view text);

// Throws InputError(check_id, "<what> is not valid UTF-8: byte 0xNN at byte P", text, P) when
// `text` is not well-formed UTF-8 (P = invalid_utf8_at(text)); returns otherwise. `what` names the
// input for the message ("argument 3", "--shape", "model file a.json").
void require_utf8(std::string_view text, std::string_view check_id, std::string_view what);

// `text` with every byte of an ill-formed sequence written as \xNN (and nothing else changed):
// a form that can be shown in a message or JSON whatever the input was.
std::string escape_invalid_utf8(std::string_view text);

}  // namespace tirx
