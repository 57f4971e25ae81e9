// The lexer (tokens with byte positions) and the parser's tree shape (Python precedence).
#include <gtest/gtest.h>

#include "../../src/layout/notation_internal.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::notation {
namespace {

TEST(NotationLexer, TokensCarryBytePositions) {
  const std::vector<Token> t = lex("S[(8, 4):(4 @ Axis.laneid, 'm')] // 0x10");
  const std::vector<std::pair<Tok, std::size_t>> want = {
      {Tok::kName, 0},   {Tok::kLBracket, 1}, {Tok::kLParen, 2}, {Tok::kInt, 3},     {Tok::kComma, 4},
      {Tok::kInt, 6},    {Tok::kRParen, 7},   {Tok::kColon, 8},  {Tok::kLParen, 9},  {Tok::kInt, 10},
      {Tok::kAt, 12},    {Tok::kName, 14},    {Tok::kDot, 18},   {Tok::kName, 19},   {Tok::kComma, 25},
      {Tok::kString, 27}, {Tok::kRParen, 30}, {Tok::kRBracket, 31}, {Tok::kFloorDiv, 33}, {Tok::kInt, 36},
      {Tok::kEnd, 40}};
  ASSERT_EQ(t.size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(t[k].kind, want[k].first) << k;
    EXPECT_EQ(t[k].pos, want[k].second) << k;
  }
  EXPECT_EQ(t[13].text, "laneid");
  EXPECT_EQ(t[15].text, "m");
  EXPECT_EQ(t[15].end, 30u);
  EXPECT_EQ(t[19].value, 16);
}

TEST(NotationLexer, Literals) {
  EXPECT_EQ(lex("9223372036854775807")[0].value, INT64_MAX);
  EXPECT_EQ(lex("0b1010_1010")[0].value, 170);
  EXPECT_EQ(lex("0o17")[0].value, 15);
  EXPECT_EQ(lex("\"a\\\"b\"")[0].text, "a\"b");
  try {
    lex("  9223372036854775808");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "layout.well-formed");
    EXPECT_EQ(e.pos(), 2u);
  }
  EXPECT_THROW(lex("0x"), InputError);
  // -9223372036854775808: a unary '-' (not after an operand) and a literal of magnitude 2^63 are
  // one kInt token, INT64_MIN at the '-'; anywhere else 2^63 is out of range as before.
  for (const char* text : {"-9223372036854775808", "-0x8000000000000000", "- 9223372036854775808"}) {
    const std::vector<Token> t = lex(text);
    ASSERT_EQ(t.size(), 2u) << text;
    EXPECT_EQ(t[0].kind, Tok::kInt) << text;
    EXPECT_EQ(t[0].value, INT64_MIN) << text;
    EXPECT_EQ(t[0].pos, 0u) << text;
  }
  const std::vector<Token> inner = lex("S[2:(4,-9223372036854775808)] + --9223372036854775808");
  EXPECT_EQ(inner[7].kind, Tok::kInt);
  EXPECT_EQ(inner[7].value, INT64_MIN);
  EXPECT_EQ(inner[7].pos, 7u);
  EXPECT_EQ(inner[11].kind, Tok::kMinus);  // the outer '-' stays: -(INT64_MIN) overflows later
  EXPECT_EQ(inner[12].value, INT64_MIN);
  for (const char* text : {"1 -9223372036854775808", "x -9223372036854775808", "(1) -9223372036854775808",
                           "-9223372036854775808.bit_length", "-9223372036854775808(1)", "-9223372036854775808[0]",
                           "-9223372036854775809", "+9223372036854775808", "9223372036854775808"}) {
    try {
      lex(text);
      ADD_FAILURE() << "no error for " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.check_id(), "layout.well-formed") << text;
      EXPECT_NE(e.message().find("out of range"), std::string::npos) << text << ": " << e.message();
    }
  }
  EXPECT_THROW(lex("'abc"), InputError);
  EXPECT_THROW(lex("'a\\qb'"), InputError);
}

// Renders a tree as a fully parenthesised string.
std::string show(const Node& n) {
  auto kids = [&](std::string_view sep) {
    std::string r;
    for (std::size_t k = 0; k < n.kids.size(); ++k) r += (k ? std::string(sep) : "") + show(*n.kids[k]);
    return r;
  };
  switch (n.kind) {
    case NodeKind::kInt: return std::to_string(n.value);
    case NodeKind::kString: return "'" + n.text + "'";
    case NodeKind::kName: return n.text;
    case NodeKind::kTuple: return "(" + kids(",") + (n.kids.size() == 1 ? ",)" : ")");
    case NodeKind::kList: return "[" + kids(",") + "]";
    case NodeKind::kDict: return "{" + kids(";") + "}";
    case NodeKind::kSlice: return show(*n.kids[0]) + ":" + show(*n.kids[1]);
    case NodeKind::kUnary: return "(" + n.text + show(*n.kids[0]) + ")";
    case NodeKind::kBinary: return "(" + show(*n.kids[0]) + n.text + show(*n.kids[1]) + ")";
    case NodeKind::kAttr: return show(*n.kids[0]) + "." + n.text;
    case NodeKind::kIndex: return show(*n.kids[0]) + "[" + show(*n.kids[1]) + "]";
    case NodeKind::kCall: {
      std::string r = show(*n.kids[0]) + "(";
      for (std::size_t k = 1; k < n.kids.size(); ++k) {
        if (k > 1) r += ",";
        if (k > n.num_positional) r += n.kw_names[k - 1 - n.num_positional] + "=";
        r += show(*n.kids[k]);
      }
      return r + ")";
    }
  }
  return "?";
}

TEST(NotationParser, PythonPrecedence) {
  EXPECT_EQ(show(*parse("S[8:4@laneid] + 1@laneid + 64")), "((S[8:(4@laneid)]+(1@laneid))+64)");
  EXPECT_EQ(show(*parse("-1@laneid")), "((-1)@laneid)");
  EXPECT_EQ(show(*parse("2*4@laneid")), "((2*4)@laneid)");
  EXPECT_EQ(show(*parse("B_H // 2 @ tid_in_wg")), "((B_H//2)@tid_in_wg)");
  EXPECT_EQ(show(*parse("a - b - c")), "((a-b)-c)");
  EXPECT_EQ(show(*parse("-x.y")), "(-x.y)");
  EXPECT_EQ(show(*parse("S[8,4,2]")), "S[(8,4,2)]");
  EXPECT_EQ(show(*parse("S[period,]")), "S[(period,)]");
  EXPECT_EQ(show(*parse("S[(8,):((4,'laneid'),)]")), "S[(8,):((4,'laneid'),)]");
  EXPECT_EQ(show(*parse("(1)")), "1");
  EXPECT_EQ(show(*parse("()")), "()");
  EXPECT_EQ(show(*parse("T.TileLayout.from_iters(offset={\"m\": 5},)")), "T.TileLayout.from_iters(offset={'m';5})");
  EXPECT_EQ(show(*parse("L.tile(o, (2,1), [8,8]).canonicalize()")), "L.tile(o,(2,1),[8,8]).canonicalize()");
}

TEST(NotationParser, NodePositions) {
  const std::string text = "S[8:1] + tmem_datapath_layout('F', 64, 32, sub_slab=1)";
  auto tree = parse(text);
  ASSERT_EQ(tree->kind, NodeKind::kBinary);
  EXPECT_EQ(tree->op_pos, text.find('+'));
  const Node& call = *tree->kids[1];
  EXPECT_EQ(call.pos, text.find("tmem"));
  EXPECT_EQ(call.op_pos, text.find('('));
  ASSERT_EQ(call.kw_pos.size(), 1u);
  EXPECT_EQ(call.kw_pos[0], text.find("sub_slab"));
  EXPECT_EQ(call.kids[2]->pos, text.find("64"));
}

}  // namespace
}  // namespace tirx::notation
