// notation_parse.cpp — tokens -> syntax tree, with byte positions on every node.
//
// Grammar (a Python expression subset, Python's precedence and associativity):
//
//   expr      := additive
//   additive  := multiplicative (('+' | '-') multiplicative)*
//   multiplicative := unary (('*' | '/' | '//' | '%' | '@') unary)*     # '@' binds like '*'
//   unary     := ('-' | '+') unary | postfix
//   postfix   := atom ('.' NAME | '(' arguments ')' | '[' subscript ']')*
//   atom      := INT | STRING | NAME
//              | '(' ')' | '(' expr ')' | '(' expr ',' [expr (',' expr)* [',']] ')'
//              | '[' [expr (',' expr)* [',']] ']'
//              | '{' [expr ':' expr (',' expr ':' expr)* [',']] '}'
//   arguments := [argument (',' argument)* [',']]     argument := expr | NAME '=' expr
//   subscript := item (',' item)* [',']               item := expr [':' expr]
//
// so `4@laneid*2` is (4@laneid)*2, `-1@laneid` is (-1)@laneid, and `S[8,4,2]` indexes with
// the tuple (8,4,2). Keyword arguments must follow positional ones.
//
// Nesting: every bracket, call, subscript, unary operator and postfix step counts one level;
// nesting deeper than kMaxDepth is rejected (no input can exhaust the stack). A chain of binary
// operators (`S[8:1] + 1@laneid + 1@laneid + ...`) is flat, not nested: it builds a left spine
// that every pass over the tree walks in a loop (and ~Node frees without recursion), so chains
// of any length parse.
#include <fmt/format.h>

#include "layout/notation_internal.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::notation {
namespace {

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> toks) : text_(text), toks_(std::move(toks)) {}

  std::unique_ptr<Node> parse_all() {
    auto n = expr();
    if (peek().kind != Tok::kEnd)
      fail(peek().pos, fmt::format("unexpected {} after the end of the expression", what(peek())),
           peek().kind == Tok::kRParen || peek().kind == Tok::kRBracket ? "an unbalanced closing bracket?" : "");
    return n;
  }

 private:
  // ---- token helpers ----
  const Token& peek(std::size_t ahead = 0) const {
    const std::size_t i = std::min(idx_ + ahead, toks_.size() - 1);
    return toks_[i];
  }
  const Token& take() {
    const Token& t = toks_[idx_];
    if (idx_ + 1 < toks_.size()) ++idx_;
    return t;
  }
  bool accept(Tok k) {
    if (peek().kind != k) return false;
    take();
    return true;
  }
  std::string what(const Token& t) const {
    switch (t.kind) {
      case Tok::kInt: return fmt::format("integer {}", t.value);
      case Tok::kName: return fmt::format("name '{}'", t.text);
      case Tok::kString: return "string";
      default: return describe(t.kind);
    }
  }
  [[noreturn]] void fail(std::size_t pos, std::string msg, std::string note = {}) const {
    throw InputError("layout.syntax", std::move(msg), std::string(text_), pos, std::move(note));
  }
  const Token& expect(Tok k, std::string_view context, const Token* open = nullptr) {
    if (peek().kind != k)
      fail(peek().pos, fmt::format("expected {} {}, found {}", describe(k), context, what(peek())),
           open ? unclosed(*open) : "");
    return take();
  }

  // After an element of a bracketed sequence: ',' continues it, `closer` ends it.
  // Returns true when the sequence continues (a ',' was taken and the next token is not `closer`).
  bool next_element(Tok closer, std::string_view what_seq, const Token& open) {
    if (accept(Tok::kComma)) return peek().kind != closer;
    if (peek().kind == closer) return false;
    fail(peek().pos, fmt::format("expected ',' or {} in the {}, found {}", describe(closer), what_seq, what(peek())),
         unclosed(open));
  }
  static std::string unclosed(const Token& open) {
    return fmt::format("the {} at byte {} is not closed", describe(open.kind), open.pos);
  }

  // Depth guard: one level per bracket / operator operand / postfix step.
  struct DepthGuard {
    Parser& p;
    DepthGuard(Parser& parser, std::size_t pos) : p(parser) {
      if (++p.depth_ > kMaxDepth)
        p.fail(pos, fmt::format("expression nested too deeply (more than {} levels)", kMaxDepth));
    }
    ~DepthGuard() { --p.depth_; }
  };

  static std::unique_ptr<Node> make(NodeKind k, std::size_t pos) {
    auto n = std::make_unique<Node>();
    n->kind = k;
    n->pos = pos;
    return n;
  }

  // Left-associative chains build a left spine; the passes over the tree walk it in a loop, so
  // its length is not nesting.
  std::unique_ptr<Node> binary(std::unique_ptr<Node> lhs, const Token& op, std::unique_ptr<Node> rhs) {
    auto n = make(NodeKind::kBinary, lhs->pos);
    n->op_pos = op.pos;
    n->text = op.kind == Tok::kPlus ? "+" : op.kind == Tok::kMinus ? "-" : op.kind == Tok::kStar ? "*"
            : op.kind == Tok::kSlash ? "/" : op.kind == Tok::kFloorDiv ? "//" : op.kind == Tok::kPercent ? "%"
            : "@";
    n->kids.push_back(std::move(lhs));
    n->kids.push_back(std::move(rhs));
    return n;
  }

  // ---- grammar ----
  // Not a level of its own: the construct that contains it (bracket, call, ...) counts.
  std::unique_ptr<Node> expr() { return additive(); }

  std::unique_ptr<Node> additive() {
    auto lhs = multiplicative();
    while (peek().kind == Tok::kPlus || peek().kind == Tok::kMinus) {
      const Token op = take();
      auto rhs = multiplicative();
      lhs = binary(std::move(lhs), op, std::move(rhs));
    }
    return lhs;
  }

  std::unique_ptr<Node> multiplicative() {
    auto lhs = unary();
    while (true) {
      const Tok k = peek().kind;
      if (k != Tok::kStar && k != Tok::kSlash && k != Tok::kFloorDiv && k != Tok::kPercent && k != Tok::kAt) break;
      const Token op = take();
      auto rhs = unary();
      lhs = binary(std::move(lhs), op, std::move(rhs));
    }
    return lhs;
  }

  std::unique_ptr<Node> unary() {
    if (peek().kind == Tok::kMinus || peek().kind == Tok::kPlus) {
      DepthGuard g(*this, peek().pos);
      const Token op = take();
      auto n = make(NodeKind::kUnary, op.pos);
      n->op_pos = op.pos;
      n->text = op.kind == Tok::kMinus ? "-" : "+";
      n->kids.push_back(unary());
      return n;
    }
    return postfix();
  }

  std::unique_ptr<Node> postfix() {
    auto n = atom();
    int chain = 0;
    while (true) {
      const Tok k = peek().kind;
      if (k != Tok::kDot && k != Tok::kLParen && k != Tok::kLBracket) break;
      if (++chain + depth_ > kMaxDepth)
        fail(peek().pos, fmt::format("expression nested too deeply (more than {} levels)", kMaxDepth));
      const Token open = take();
      if (k == Tok::kDot) {
        const Token& name = expect(Tok::kName, "after '.'");
        auto a = make(NodeKind::kAttr, n->pos);
        a->op_pos = name.pos;
        a->text = name.text;
        a->kids.push_back(std::move(n));
        n = std::move(a);
      } else if (k == Tok::kLParen) {
        n = call(std::move(n), open);
      } else {
        auto ix = make(NodeKind::kIndex, n->pos);
        ix->op_pos = open.pos;
        ix->kids.push_back(std::move(n));
        ix->kids.push_back(subscript(open));
        n = std::move(ix);
      }
    }
    return n;
  }

  std::unique_ptr<Node> call(std::unique_ptr<Node> callee, const Token& open) {
    DepthGuard g(*this, open.pos);
    auto c = make(NodeKind::kCall, callee->pos);
    c->op_pos = open.pos;
    c->kids.push_back(std::move(callee));
    while (peek().kind != Tok::kRParen) {
      if (peek().kind == Tok::kName && peek(1).kind == Tok::kEquals) {
        const Token name = take();
        take();  // '='
        for (const auto& prev : c->kw_names)
          if (prev == name.text) fail(name.pos, fmt::format("keyword argument '{}' repeated", name.text));
        c->kw_names.push_back(name.text);
        c->kw_pos.push_back(name.pos);
        c->kids.push_back(expr());
      } else {
        const std::size_t at = peek().pos;
        auto arg = expr();
        if (!c->kw_names.empty()) fail(at, "positional argument follows keyword argument");
        c->kids.push_back(std::move(arg));
        ++c->num_positional;
      }
      if (!next_element(Tok::kRParen, "argument list", open)) break;
    }
    expect(Tok::kRParen, "to close the argument list", &open);
    return c;
  }

  // item := expr [':' expr]
  std::unique_ptr<Node> subscript_item() {
    auto lo = expr();
    if (peek().kind != Tok::kColon) return lo;
    const Token colon = take();
    auto s = make(NodeKind::kSlice, lo->pos);
    s->op_pos = colon.pos;
    s->kids.push_back(std::move(lo));
    if (peek().kind == Tok::kRBracket || peek().kind == Tok::kComma)
      fail(peek().pos, "expected the strides after ':'", "write S[extents:strides], e.g. S[(8,4):(4,1)]");
    s->kids.push_back(expr());
    if (peek().kind == Tok::kColon) fail(peek().pos, "a slice step (a:b:c) is not part of the notation");
    return s;
  }

  std::unique_ptr<Node> subscript(const Token& open) {
    DepthGuard g(*this, open.pos);
    if (peek().kind == Tok::kRBracket) fail(peek().pos, "empty subscript []", "write S[extents] or S[extents:strides]");
    auto first = subscript_item();
    if (peek().kind != Tok::kComma) {
      expect(Tok::kRBracket, "to close the subscript", &open);
      return first;
    }
    auto t = make(NodeKind::kTuple, first->pos);
    t->kids.push_back(std::move(first));
    while (next_element(Tok::kRBracket, "subscript", open)) t->kids.push_back(subscript_item());
    expect(Tok::kRBracket, "to close the subscript", &open);
    return t;
  }

  std::unique_ptr<Node> atom() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::kInt: {
        auto n = make(NodeKind::kInt, t.pos);
        n->value = t.value;
        take();
        return n;
      }
      case Tok::kString: {
        auto n = make(NodeKind::kString, t.pos);
        n->text = t.text;
        take();
        return n;
      }
      case Tok::kName: {
        auto n = make(NodeKind::kName, t.pos);
        n->text = t.text;
        take();
        return n;
      }
      case Tok::kLParen: return paren();
      case Tok::kLBracket: return list();
      case Tok::kLBrace: return dict();
      default: break;
    }
    std::string note;
    if (t.kind == Tok::kEnd) note = "the layout text ends too early";
    fail(t.pos, fmt::format("expected an expression, found {}", what(t)), note);
  }

  std::unique_ptr<Node> paren() {
    const Token open = take();
    DepthGuard g(*this, open.pos);
    auto tup = make(NodeKind::kTuple, open.pos);
    tup->parenthesized = true;
    if (accept(Tok::kRParen)) return tup;  // ()
    auto first = expr();
    if (accept(Tok::kRParen)) return first;  // (expr): grouping only
    tup->kids.push_back(std::move(first));
    while (next_element(Tok::kRParen, "tuple", open)) tup->kids.push_back(expr());
    expect(Tok::kRParen, "to close the tuple", &open);
    return tup;
  }

  std::unique_ptr<Node> list() {
    const Token open = take();
    DepthGuard g(*this, open.pos);
    auto l = make(NodeKind::kList, open.pos);
    while (peek().kind != Tok::kRBracket) {
      l->kids.push_back(expr());
      if (!next_element(Tok::kRBracket, "list", open)) break;
    }
    expect(Tok::kRBracket, "to close the list", &open);
    return l;
  }

  std::unique_ptr<Node> dict() {
    const Token open = take();
    DepthGuard g(*this, open.pos);
    auto d = make(NodeKind::kDict, open.pos);
    while (peek().kind != Tok::kRBrace) {
      d->kids.push_back(expr());
      expect(Tok::kColon, "between a dict key and its value");
      d->kids.push_back(expr());
      if (!next_element(Tok::kRBrace, "dict", open)) break;
    }
    expect(Tok::kRBrace, "to close the dict", &open);
    return d;
  }

  std::string_view text_;
  std::vector<Token> toks_;
  std::size_t idx_ = 0;
  int depth_ = 0;
};

}  // namespace

Node::~Node() {
  // Free a deep left spine (a long operator chain) without one stack frame per node.
  std::vector<std::unique_ptr<Node>> work;
  for (auto& k : kids)
    if (k) work.push_back(std::move(k));
  while (!work.empty()) {
    std::unique_ptr<Node> n = std::move(work.back());
    work.pop_back();
    for (auto& k : n->kids)
      if (k) work.push_back(std::move(k));
  }  // each node dies with its kids already moved out
}

std::unique_ptr<Node> parse(std::string_view text) {
  Parser p(text, lex(text));
  return p.parse_all();
}

}  // namespace tirx::notation
