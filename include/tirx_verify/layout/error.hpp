// tirx_verify/layout/error.hpp — the one exception type every module throws for bad input.
//
// Every diagnostic tirx-verify produces names a stable check id (see docs/checks.md),
// e.g. "layout.syntax" or "tmem.alloc". When the problem sits in a piece of text (a layout
// in notation, a model file field), the error also carries that text and the byte offset of
// the offending character so the CLI can print it with a caret under the spot:
//
//     error[layout.syntax]: expected ')' to close the extent tuple
//       S[(8,4:(4@laneid,1)]
//            ^
//
// Bad input never crashes or hangs: code that detects it throws InputError, the CLI maps it
// to exit code 2.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace tirx {

class InputError : public std::runtime_error {
 public:
  // check_id: stable id such as "layout.well-formed"; message: one sentence, no trailing '.'.
  // text/pos: the input the error refers to and the byte offset inside it (optional).
  // note: what to change, when that is clear (optional, may be empty).
  InputError(std::string check_id, std::string message, std::string text = {},
             std::optional<std::size_t> pos = std::nullopt, std::string note = {})
      : std::runtime_error(message),
        check_id_(std::move(check_id)),
        message_(std::move(message)),
        text_(std::move(text)),
        pos_(pos),
        note_(std::move(note)) {}

  const std::string& check_id() const { return check_id_; }
  const std::string& message() const { return message_; }
  const std::string& text() const { return text_; }
  std::optional<std::size_t> pos() const { return pos_; }
  const std::string& note() const { return note_; }

  // A copy of this error that refers to `text` at `pos` (used when an error raised deep in
  // the model is re-attributed to the notation that produced it). Keeps an existing position.
  InputError located(std::string text, std::optional<std::size_t> pos) const {
    return InputError(check_id_, message_, text_.empty() ? std::move(text) : text_,
                      pos_ ? pos_ : pos, note_);
  }

  // The clang-style rendering: "error[id]: message", the text line, a caret, the note.
  std::string render() const;

 private:
  std::string check_id_;
  std::string message_;
  std::string text_;
  std::optional<std::size_t> pos_;
  std::string note_;
};

}  // namespace tirx
