// notation_lexer.cpp — layout notation text -> tokens with byte positions.
//
// The token set is the part of Python's that layouts use: integers (decimal, 0x/0o/0b, with
// '_' separators), single- or double-quoted strings, identifiers, brackets, and the operators
// + - * / // % @ . , : =. Positions are byte offsets into the input so a caret can be drawn
// under the offending character.
#include <fmt/format.h>

#include <limits>

#include "layout/notation_internal.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::notation {
namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

[[noreturn]] void syntax_error(std::string_view text, std::size_t pos, std::string msg, std::string note = {}) {
  throw InputError("layout.syntax", std::move(msg), std::string(text), pos, std::move(note));
}

// Reads an integer literal starting at text[i]; returns the index one past it. With
// `negated` (the literal is the operand of a unary '-'), a literal of magnitude 2^63 is read as
// INT64_MIN and `negated` stays true; otherwise it is set to false and the literal must fit int64.
std::size_t read_int(std::string_view text, std::size_t i, Token& tok, bool& negated) {
  const std::size_t start = i;
  int base = 10;
  if (text[i] == '0' && i + 1 < text.size()) {
    const char p = text[i + 1];
    if (p == 'x' || p == 'X') base = 16;
    if (p == 'o' || p == 'O') base = 8;
    if (p == 'b' || p == 'B') base = 2;
    if (base != 10) i += 2;
  }
  constexpr unsigned __int128 kMinMagnitude = static_cast<unsigned __int128>(std::numeric_limits<std::int64_t>::max()) + 1;
  bool overflow = false;      // past 2^63: no int64, negated or not
  bool any_digit = false;
  unsigned __int128 acc = 0;  // fits 2^63 times the base plus a digit
  const std::size_t digits_begin = i;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '_' && i > digits_begin && i + 1 < text.size() && digit_value(text[i + 1]) < base) {
      ++i;
      continue;
    }
    const int d = digit_value(c);
    if (d >= base) break;
    any_digit = true;
    if (!overflow) {
      acc = acc * static_cast<unsigned>(base) + static_cast<unsigned>(d);
      if (acc > kMinMagnitude) overflow = true;
    }
    ++i;
  }
  if (!any_digit) syntax_error(text, start, "integer literal has no digits");
  if (i < text.size() && is_ident_char(text[i]))
    syntax_error(text, i, fmt::format("unexpected character '{}' in integer literal", text[i]));
  // -9223372036854775808 is INT64_MIN as Python (so TVM) and both printers write it; only a
  // postfix ('.', call, subscript), which binds tighter than the '-', would make it 2^63 again.
  std::size_t after = i;
  while (after < text.size() && (text[after] == ' ' || text[after] == '\t' || text[after] == '\n' || text[after] == '\r'))
    ++after;
  const bool postfix = after < text.size() && (text[after] == '.' || text[after] == '(' || text[after] == '[');
  negated = negated && !overflow && acc == kMinMagnitude && !postfix;
  if (overflow || (acc == kMinMagnitude && !negated))
    throw InputError("layout.well-formed",
                     fmt::format("integer literal {} is out of range (values are int64, at most {})",
                                 text.substr(start, i - start), std::numeric_limits<std::int64_t>::max()),
                     std::string(text), start);
  tok.kind = Tok::kInt;
  tok.value = negated ? std::numeric_limits<std::int64_t>::min() : static_cast<std::int64_t>(acc);
  return i;
}

std::size_t read_string(std::string_view text, std::size_t i, Token& tok) {
  const char quote = text[i];
  const std::size_t start = i++;
  std::string out;
  while (true) {
    if (i >= text.size() || text[i] == '\n')
      syntax_error(text, start, "unterminated string literal", fmt::format("close it with {}", quote));
    const char c = text[i];
    if (c == quote) break;
    if (c == '\\') {
      if (i + 1 >= text.size()) syntax_error(text, start, "unterminated string literal");
      const char e = text[i + 1];
      switch (e) {
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        default: syntax_error(text, i, fmt::format("unsupported escape sequence '\\{}' in string", e));
      }
      i += 2;
      continue;
    }
    out += c;
    ++i;
  }
  tok.kind = Tok::kString;
  tok.text = std::move(out);
  return i + 1;
}

}  // namespace

std::string describe(Tok kind) {
  switch (kind) {
    case Tok::kInt: return "an integer";
    case Tok::kString: return "a string";
    case Tok::kName: return "a name";
    case Tok::kLParen: return "'('";
    case Tok::kRParen: return "')'";
    case Tok::kLBracket: return "'['";
    case Tok::kRBracket: return "']'";
    case Tok::kLBrace: return "'{'";
    case Tok::kRBrace: return "'}'";
    case Tok::kComma: return "','";
    case Tok::kColon: return "':'";
    case Tok::kDot: return "'.'";
    case Tok::kEquals: return "'='";
    case Tok::kPlus: return "'+'";
    case Tok::kMinus: return "'-'";
    case Tok::kStar: return "'*'";
    case Tok::kSlash: return "'/'";
    case Tok::kFloorDiv: return "'//'";
    case Tok::kPercent: return "'%'";
    case Tok::kAt: return "'@'";
    case Tok::kEnd: return "end of input";
  }
  return "?";
}

std::vector<Token> lex(std::string_view text) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (true) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
    Token tok;
    tok.pos = i;
    if (i >= text.size()) {
      tok.kind = Tok::kEnd;
      tok.end = i;
      out.push_back(std::move(tok));
      return out;
    }
    const char c = text[i];
    std::size_t next = i + 1;
    if (is_digit(c)) {
      // A '-' is unary where it does not follow an operand (Python's grammar and the parser's):
      // at the start, after an operator, an opening bracket, ',', ':' or '='.
      bool negated = false;
      if (!out.empty() && out.back().kind == Tok::kMinus) {
        const Tok before = out.size() >= 2 ? out[out.size() - 2].kind : Tok::kEnd;
        negated = !(before == Tok::kInt || before == Tok::kName || before == Tok::kString || before == Tok::kRParen ||
                    before == Tok::kRBracket || before == Tok::kRBrace);
      }
      next = read_int(text, i, tok, negated);
      if (negated) {  // the '-' and the literal are one token: INT64_MIN, at the '-'
        tok.pos = out.back().pos;
        out.pop_back();
      }
    } else if (is_ident_start(c)) {
      while (next < text.size() && is_ident_char(text[next])) ++next;
      tok.kind = Tok::kName;
      tok.text = std::string(text.substr(i, next - i));
    } else if (c == '\'' || c == '"') {
      next = read_string(text, i, tok);
    } else {
      switch (c) {
        case '(': tok.kind = Tok::kLParen; break;
        case ')': tok.kind = Tok::kRParen; break;
        case '[': tok.kind = Tok::kLBracket; break;
        case ']': tok.kind = Tok::kRBracket; break;
        case '{': tok.kind = Tok::kLBrace; break;
        case '}': tok.kind = Tok::kRBrace; break;
        case ',': tok.kind = Tok::kComma; break;
        case ':': tok.kind = Tok::kColon; break;
        case '.': tok.kind = Tok::kDot; break;
        case '=': tok.kind = Tok::kEquals; break;
        case '+': tok.kind = Tok::kPlus; break;
        case '-': tok.kind = Tok::kMinus; break;
        case '*': tok.kind = Tok::kStar; break;
        case '%': tok.kind = Tok::kPercent; break;
        case '@': tok.kind = Tok::kAt; break;
        case '/':
          if (i + 1 < text.size() && text[i + 1] == '/') {
            tok.kind = Tok::kFloorDiv;
            next = i + 2;
          } else {
            tok.kind = Tok::kSlash;
          }
          break;
        default: {
          const unsigned char u = static_cast<unsigned char>(c);
          if (u < 0x20 || u >= 0x7f)
            syntax_error(text, i, fmt::format("unexpected byte 0x{:02x}", u), "layouts are plain ASCII text");
          syntax_error(text, i, fmt::format("unexpected character '{}'", c));
        }
      }
    }
    tok.end = next;
    out.push_back(std::move(tok));
    i = next;
  }
}

}  // namespace tirx::notation
