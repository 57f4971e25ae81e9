// src/layout/notation_internal.hpp — the pieces behind parse_layout (not a public header).
//
// Reading a layout is three passes, one file each:
//
//   text --lex--> tokens --parse--> syntax tree --eval--> Layout
//   notation_lexer.cpp  notation_parse.cpp      notation_eval.cpp (+ notation_calls.cpp)
//
// The notation is a small subset of Python expressions (that is what TVM users type and what
// TVM's printer emits), so the tree is a generic expression tree and all layout meaning lives
// in the evaluator:
//
//   input                                  tree
//   S[8:4@laneid] + 1@laneid               Binary(+, Index(Name S, Slice(8, Binary(@, 4, Name laneid))),
//                                                     Binary(@, 1, Name laneid))
//   T.TileLayout(T.S[512:1])               Call(Attr(Name T, TileLayout), [Index(Attr(Name T, S), ...)])
//   L.tile(S[4:1], (4,), (8,))             Call(Attr(L, tile), [...])
//
// Every token and node carries the byte offset where it starts in the input, so any error can
// point a caret at the offending spot (InputError::pos).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tirx_verify/layout/notation.hpp"

namespace tirx::notation {

// Deepest nesting accepted: brackets, calls, subscripts, unary operators and postfix steps each
// count one level (binary operator chains are flat and do not count). Deeper input is rejected
// with a "layout.syntax" error instead of risking stack exhaustion in the recursive passes;
// the passes over deep input run on a thread with a large stack (notation_stack.cpp).
inline constexpr int kMaxDepth = 2048;

// ---------------------------------------------------------------- tokens (notation_lexer.cpp)

enum class Tok {
  kInt,       // 42, 0x2a, 1_000 (value in Token::value)
  kString,    // 'laneid' or "laneid" (contents, unescaped, in Token::text)
  kName,      // identifiers: S, laneid, tmem_datapath_layout, True, ...
  kLParen, kRParen, kLBracket, kRBracket, kLBrace, kRBrace,
  kComma, kColon, kDot, kEquals,
  kPlus, kMinus, kStar, kSlash, kFloorDiv, kPercent, kAt,
  kEnd,
};

struct Token {
  Tok kind = Tok::kEnd;
  std::size_t pos = 0;    // byte offset of the first character
  std::size_t end = 0;    // one past the last character
  std::int64_t value = 0; // kInt
  std::string text;       // kName: the name; kString: the contents
};

// Splits `text` into tokens (the last one is kEnd at text.size()). Whitespace (space, tab,
// newline, CR) is skipped. Throws InputError("layout.syntax") for a character that cannot
// start a token or an unterminated string, and InputError("layout.well-formed") for an
// integer literal outside int64. A unary '-' before a literal of magnitude 2^63 (not followed by
// a postfix) makes one kInt token of INT64_MIN at the '-': -9223372036854775808, as Python and
// the printers write it. Errors carry `text` and the byte offset.
std::vector<Token> lex(std::string_view text);

// Printable description of a token kind for messages ("')'", "a name", ...).
std::string describe(Tok kind);

// ---------------------------------------------------------------- syntax tree (notation_parse.cpp)

enum class NodeKind {
  kInt,     // value
  kString,  // text
  kName,    // text
  kTuple,   // kids = elements; `parenthesized` false for a bare `a, b` subscript list
  kList,    // kids = elements
  kDict,    // kids = key0, value0, key1, value1, ...
  kSlice,   // kids = {start, stop}   (only inside [...])
  kUnary,   // op in text ("-" or "+"), kids = {operand}
  kBinary,  // op in text ("+", "-", "*", "/", "//", "%", "@"), kids = {lhs, rhs}; op_pos
  kCall,    // kids = {callee, positional..., keyword values...}; kw_names for the keywords
  kAttr,    // kids = {object}; text = attribute name; op_pos = position of the name
  kIndex,   // kids = {object, index}
};

struct Node {
  NodeKind kind = NodeKind::kInt;
  std::size_t pos = 0;     // first byte of the construct
  std::size_t op_pos = 0;  // operator / attribute-name / keyword position where relevant
  std::int64_t value = 0;
  std::string text;
  bool parenthesized = false;
  std::size_t num_positional = 0;            // kCall
  std::vector<std::string> kw_names;          // kCall
  std::vector<std::size_t> kw_pos;            // kCall: byte offset of each keyword name
  std::vector<std::unique_ptr<Node>> kids;

  Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  ~Node();  // iterative: a long operator chain is a deep left spine
};

// Parses one complete expression (trailing input is an error). Throws InputError
// ("layout.syntax", text, pos) on any syntax error, naming what was expected.
std::unique_ptr<Node> parse(std::string_view text);

// ---------------------------------------------------------------- evaluation (notation_eval.cpp)

// Evaluates a parsed tree to a validated Layout. `text` is the original input (for error
// positions); `env` binds parameter names.
Layout evaluate_layout(const Node& root, std::string_view text, const Env& env);

// Evaluates a parsed tree that must produce an integer, or a tuple/list of integers.
std::int64_t evaluate_int(const Node& root, std::string_view text, const Env& env);
std::vector<std::int64_t> evaluate_int_list(const Node& root, std::string_view text, const Env& env);

// Levenshtein distance, for "did you mean" notes.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace tirx::notation
