// Every error the notation reports: its check id, the byte position of the offending token,
// and (where it helps) the note. No input may crash or hang the parser.
#include <gtest/gtest.h>

#include "layout_notation_test_util.hpp"

namespace tirx {
namespace {

using test::parse_error;

// Byte offset of the n-th occurrence (0-based) of `needle` in `text`.
std::size_t at(std::string_view text, std::string_view needle, int n = 0) {
  std::size_t p = text.find(needle);
  while (n-- > 0) p = text.find(needle, p + 1);
  EXPECT_NE(p, std::string_view::npos) << needle;
  return p;
}

struct ErrorCase {
  std::string text;
  std::string id;
  std::size_t pos;
  std::string message_part;  // must occur in the message
};

void expect_error(const ErrorCase& c, const Env& env = {}) {
  const InputError e = parse_error(c.text, env);
  EXPECT_EQ(e.check_id(), c.id) << c.text << "\n" << e.render();
  ASSERT_TRUE(e.pos().has_value()) << c.text;
  EXPECT_EQ(*e.pos(), c.pos) << c.text << "\n" << e.render();
  EXPECT_NE(e.message().find(c.message_part), std::string::npos) << e.message();
}

// ---------------------------------------------------------------- layout.syntax

TEST(NotationErrors, SyntaxErrorsPointAtTheOffendingToken) {
  const std::string unclosed = "S[(8,4:(4@laneid,1)]";
  expect_error({unclosed, "layout.syntax", at(unclosed, ":"), "expected ',' or ')' in the tuple, found ':'"});
  const std::string bad_char = "S[8:4$laneid]";
  expect_error({bad_char, "layout.syntax", at(bad_char, "$"), "unexpected character '$'"});
  const std::string unterminated = "S[8:'laneid]";
  expect_error({unterminated, "layout.syntax", at(unterminated, "'"), "unterminated string"});
  const std::string trailing = "S[8:1] S[4:1]";
  expect_error({trailing, "layout.syntax", at(trailing, "S", 1), "unexpected name 'S'"});
  expect_error({"S[8:1", "layout.syntax", 5, "expected ']' to close the subscript"});
  expect_error({"", "layout.syntax", 0, "expected an expression, found end of input"});
  expect_error({"   ", "layout.syntax", 3, "expected an expression"});
  const std::string no_strides = "S[8:]";
  expect_error({no_strides, "layout.syntax", at(no_strides, "]"), "expected the strides"});
  const std::string step = "S[8:1:2]";
  expect_error({step, "layout.syntax", at(step, ":", 1), "slice step"});
  const std::string kw_first = "ComposeLayout(per_element=3, 3, 3, S[512:1])";
  expect_error({kw_first, "layout.syntax", at(kw_first, "3,", 1), "positional argument follows keyword"});
  const std::string dup_kw = "SwizzleLayout(3, 3, 3, swizzle_inner=True, swizzle_inner=False)";
  expect_error({dup_kw, "layout.syntax", at(dup_kw, "swizzle_inner", 1), "repeated"});
  const std::string extra_paren = "S[8:1])";
  expect_error({extra_paren, "layout.syntax", at(extra_paren, ")"), "unexpected ')'"});
  const std::string slice_outside = "TileLayout(8:1)";
  expect_error({slice_outside, "layout.syntax", at(slice_outside, ":"), "expected ',' or ')' in the argument list"});
  const std::string s_called = "S(8, 1)";
  expect_error({s_called, "layout.syntax", 0, "S is indexed, not called"});
  const std::string nul = std::string("S[8:1]\x01", 7);
  expect_error({nul, "layout.syntax", 6, "unexpected byte 0x01"});
  const std::string bad_int = "S[8x:1]";
  expect_error({bad_int, "layout.syntax", at(bad_int, "x"), "in integer literal"});
}

TEST(NotationErrors, RenderDrawsCaretUnderTheToken) {
  const InputError e = parse_error("S[(8,4:(4@laneid,1)]");
  EXPECT_EQ(e.render(),
            "error[layout.syntax]: expected ',' or ')' in the tuple, found ':'\n"
            "  S[(8,4:(4@laneid,1)]\n"
            "        ^\n"
            "  note: the '(' at byte 2 is not closed\n");
}

// ---------------------------------------------------------------- layout.well-formed: strictness

TEST(NotationErrors, StrideListLengthMustMatchExtents) {
  const std::string shorter = "S[(8,4,2):(4@laneid,1)]";
  expect_error({shorter, "layout.well-formed", at(shorter, "(4@"), "has 3 extents but 2 strides"});
  const std::string longer = "S[(8,4):(4,2,1)]";
  expect_error({longer, "layout.well-formed", at(longer, "(4,2"), "has 2 extents but 3 strides"});
  // The classic mistake: a (stride, axis) pair not wrapped in a tuple.
  const std::string pair = "S[(8,):(4,'laneid')]";
  expect_error({pair, "layout.well-formed", at(pair, "(4,"), "has 1 extent but 2 strides"});
  const std::string replica = "S[8:1] + R[(2,2):(1@warpid,)]";
  expect_error({replica, "layout.well-formed", at(replica, "(1@"), "R[...] has 2 extents but 1 stride"});
}

TEST(NotationErrors, UnknownAxisNamesTheClosestOrAllAxes) {
  const std::string typo = "S[8:4@lanid]";
  InputError e = parse_error(typo);
  EXPECT_EQ(e.check_id(), "layout.well-formed");
  EXPECT_EQ(e.pos(), at(typo, "lanid"));
  EXPECT_EQ(e.message(), "unknown axis 'lanid'");
  EXPECT_NE(e.note().find("did you mean 'laneid'?"), std::string::npos) << e.note();

  const std::string far = "S[8:4@pid]";
  e = parse_error(far);
  EXPECT_EQ(e.pos(), at(far, "pid"));
  EXPECT_NE(e.note().find("known axes: bx, by, bz, cbx, cby, cbz, tx, warpid, laneid, wgid, tid_in_wg, wid_in_wg, "
                          "m, P, F, Bank, TCol, TLane"),
            std::string::npos)
      << e.note();

  const std::string lower = "S[8:1@tlane]";
  e = parse_error(lower);
  EXPECT_NE(e.note().find("did you mean 'TLane'?"), std::string::npos) << e.note();

  const std::string str_axis = "S[8:'lanid']";
  expect_error({str_axis, "layout.well-formed", at(str_axis, "'lanid'"), "unknown axis 'lanid'"});
  const std::string attr_axis = "T.S[8:4 @ Axis.lanid]";
  expect_error({attr_axis, "layout.well-formed", at(attr_axis, "lanid"), "unknown axis 'lanid'"});
  const std::string iter_axis = "TileLayout.from_iters([Iter(8, 1, 'tid')])";
  expect_error({iter_axis, "layout.well-formed", at(iter_axis, "'tid'"), "unknown axis 'tid'"});
  const std::string dict_axis = "TileLayout.from_iters(offset={'mm': 1})";
  expect_error({dict_axis, "layout.well-formed", at(dict_axis, "'mm'"), "unknown axis 'mm'"});
}

TEST(NotationErrors, ExtentsMustBePositive) {
  const std::string zero = "S[(8,0):(1,1)]";
  expect_error({zero, "layout.well-formed", at(zero, "0"), "extent 0 is not allowed"});
  const std::string negative = "S[-2:1]";
  expect_error({negative, "layout.well-formed", at(negative, "-2"), "extent -2 is not allowed"});
  const std::string param = "S[(N, 4):(4, 1)]";
  expect_error({param, "layout.well-formed", at(param, "N"), "extent 0 is not allowed"}, {{"N", 0}});
  const std::string replica = "S[8:1] + R[0:1@warpid]";
  expect_error({replica, "layout.well-formed", at(replica, "0:"), "extent 0"});
  const std::string iter = "TileLayout.from_iters([Iter(0, 1, 'm')])";
  expect_error({iter, "layout.well-formed", at(iter, "0,"), "extent 0"});
}

TEST(NotationErrors, OverflowIsReportedNotWrapped) {
  const std::string product = "S[(4294967296,4294967296):(1,1)]";
  expect_error({product, "layout.well-formed", at(product, "4294967296", 1), "overflow"});
  const std::string literal = "S[99999999999999999999:1]";
  expect_error({literal, "layout.well-formed", at(literal, "9"), "out of range"});
  const std::string mul = "S[8:9223372036854775807 * 2]";
  expect_error({mul, "layout.well-formed", at(mul, "*"), "overflow"});
  const std::string span = "S[(2,3):(9223372036854775807,1)]";
  const InputError e = parse_error(span);
  EXPECT_EQ(e.check_id(), "layout.well-formed");
  EXPECT_NE(e.message().find("overflow"), std::string::npos) << e.message();
  const std::string offset = "S[8:1] + 9223372036854775807 + 1";
  expect_error({offset, "layout.well-formed", at(offset, "+ 1"), "overflow"});
  const std::string rowmajor = "S[4294967296, 4294967296, 2]";
  expect_error({rowmajor, "layout.well-formed", at(rowmajor, "4294967296", 1), "overflow"});
  const std::string neg = "-(-9223372036854775807 - 1)";
  EXPECT_THROW(parse_int_expr(neg), InputError);
  const std::string divmin = "(-9223372036854775807 - 1) // -1";
  EXPECT_THROW(parse_int_expr(divmin), InputError);
  const std::string negmin = "--9223372036854775808";  // -(INT64_MIN)
  expect_error({"S[2:" + negmin + "]", "layout.well-formed", 4, "overflow"});
}

TEST(NotationErrors, UnboundParameterSuggestsParam) {
  const std::string text = "S[(N, 4):(4, 1)]";
  const InputError e = parse_error(text);
  EXPECT_EQ(e.check_id(), "layout.well-formed");
  EXPECT_EQ(e.pos(), at(text, "N"));
  EXPECT_EQ(e.message(), "unbound parameter 'N'");
  EXPECT_EQ(e.note(), "bind it with --param N=<value>");  // no axis suggestion for a one-letter name
  const InputError near = parse_error("S[lanid:1]");
  EXPECT_EQ(near.note(), "bind it with --param lanid=<value>; if an axis was meant: did you mean 'laneid'?");
  const std::string dotted = "S[(self.BLK_M, 4):(4, 1)]";
  const InputError d = parse_error(dotted);
  EXPECT_EQ(d.message(), "unbound parameter 'self.BLK_M'");
  EXPECT_EQ(d.pos(), at(dotted, "self"));
  EXPECT_NE(d.note().find("--param self.BLK_M=<value>"), std::string::npos) << d.note();
  // All unbound parameters are named at once; axes after '@', attributes and known names are not.
  const std::string many = "T.TileLayout(T.S[(SMEM_DEPTH, BLK_SFA // 128, 4, 32):(BLK_SFA, 128, 1@laneid, 4)])"
                           ".unpack(4).broadcast(K_ITERS)";
  const InputError all = parse_error(many, {{"BLK_SFA", 512}});
  EXPECT_EQ(all.message(), "unbound parameter 'SMEM_DEPTH'");
  EXPECT_EQ(all.note(), "2 unbound parameters; bind them with --param SMEM_DEPTH=<value> --param K_ITERS=<value>");
  const std::string fn = "tmem_pool.alloc((128, 512), 'float32')";
  const InputError f = parse_error(fn);
  EXPECT_EQ(f.message(), "unknown function 'tmem_pool.alloc'");
  EXPECT_EQ(f.pos(), 0u);
}

// ---------------------------------------------------------------- kinds, calls, swizzles

TEST(NotationErrors, WrongKindsAndCalls) {
  const std::string not_layout = "5@laneid";
  expect_error({not_layout, "layout.well-formed", 0, "must be a layout"});
  const std::string tl_int = "TileLayout(5)";
  expect_error({tl_int, "layout.well-formed", at(tl_int, "5"), "TileLayout() takes a spec"});
  const std::string add_layout = "S[8:1] + TileLayout(S[4:1])";
  expect_error({add_layout, "layout.well-formed", at(add_layout, "+"), "cannot add"});
  const std::string minus = "S[8:1] - 5";
  const InputError e = parse_error(minus);
  EXPECT_EQ(e.pos(), at(minus, "-"));
  EXPECT_NE(e.note().find("+ -5@laneid"), std::string::npos);
  const std::string div = "S[8:1] + 8 / 2";
  expect_error({div, "layout.well-formed", at(div, "/"), "true division"});
  const std::string div0 = "S[8:1] + 8 // 0";
  expect_error({div0, "layout.well-formed", at(div0, "//"), "division by zero"});
  const std::string mod0 = "S[8:1] + 8 % 0";
  expect_error({mod0, "layout.well-formed", at(mod0, "%"), "division by zero"});
  const std::string unknown_fn = "tmem_layout(128, 64)";
  expect_error({unknown_fn, "layout.well-formed", 0, "unknown function 'tmem_layout'"});
  const std::string unknown_kw = "ComposeLayout(3, 3, 3, S[512:1], swizzle_outer=True)";
  expect_error({unknown_kw, "layout.well-formed", at(unknown_kw, "swizzle_outer"), "unexpected keyword argument"});
  const std::string missing = "ComposeLayout(3, 3, 3)";
  expect_error({missing, "layout.well-formed", 0, "missing the argument 'tile_layout'"});
  const std::string too_many = "SwizzleLayout(3, 3, 3, True, 5)";
  expect_error({too_many, "layout.well-formed", at(too_many, "5"), "at most 4 positional"});
  const std::string stride_sum = "S[8:(1@laneid + 2)]";
  expect_error({stride_sum, "layout.well-formed", at(stride_sum, "1@"), "one value on one axis"});
  const std::string str_at = "S[8:4@'laneid']";
  expect_error({str_at, "layout.well-formed", at(str_at, "'"), "not a string"});
  const std::string index_int = "TileLayout(S[8:1])[0]";
  expect_error({index_int, "layout.well-formed", at(index_int, "[0]"), "cannot be indexed"});
  const std::string no_attr = "T.Foo(1)";
  expect_error({no_attr, "layout.well-formed", at(no_attr, "Foo"), "has no attribute 'Foo'"});
  const std::string method = "TileLayout(S[8:1]).transpose()";
  expect_error({method, "layout.well-formed", at(method, "transpose"), "no method 'transpose'"});
  const std::string int32 = "S[T.int32(4294967296):1]";
  expect_error({int32, "layout.well-formed", at(int32, "4294967296"), "does not fit in int32"});
  const std::string bool_kw = "ComposeLayout(0, 3, 3, S[64:1], swizzle_inner='no')";
  expect_error({bool_kw, "layout.well-formed", at(bool_kw, "'no'"), "must be True or False"});
}

TEST(NotationErrors, SwizzleAndComposeRules) {
  const std::string bad = "ComposeLayout(3, 3, 2, S[512:1])";
  EXPECT_EQ(parse_error(bad).check_id(), "swizzle.legal");
  EXPECT_EQ(parse_error(bad).pos(), 0u);
  const std::string neg = "SwizzleLayout(-1, 3, 3)";
  expect_error({neg, "swizzle.legal", at(neg, "-1"), "per_element = -1"});
  const std::string thread_tile = "ComposeLayout(3, 3, 3, S[8:1@laneid])";
  expect_error({thread_tile, "layout.well-formed", 0, "axis m only"});
  const std::string compose_tile = "ComposeLayout(3, 3, 3, ComposeLayout(3, 3, 3, S[512:1]))";
  expect_error({compose_tile, "layout.well-formed", at(compose_tile, "ComposeLayout", 1), "must be a TileLayout"});
}

// ---------------------------------------------------------------- robustness

TEST(NotationErrors, DeepNestingIsRejectedNotCrashing) {
  const std::string parens = std::string(100000, '(') + "1" + std::string(100000, ')');
  const InputError e = parse_error(parens);
  EXPECT_EQ(e.check_id(), "layout.syntax");
  EXPECT_NE(e.message().find("nested too deeply"), std::string::npos);
  // The 2049th '(' is the first level past the limit (each bracket is one level).
  EXPECT_EQ(*e.pos(), 2048u);
  EXPECT_EQ(parse_error(std::string(100000, '-') + "1").check_id(), "layout.syntax");
  EXPECT_EQ(parse_error(std::string(100000, '[')).check_id(), "layout.syntax");
  std::string calls = "S[8:1]";
  for (int k = 0; k < 50000; ++k) calls += ".storage()";
  EXPECT_EQ(parse_error(calls).check_id(), "layout.syntax");
  // Real nesting up to the limit works: 2048 brackets, 2048 unary minus signs.
  EXPECT_EQ(parse_int_expr(std::string(2048, '(') + "7" + std::string(2048, ')')), 7);
  EXPECT_EQ(parse_int_expr(std::string(2047, '-') + "7"), -7);
  EXPECT_EQ(parse_layout("S[" + std::string(1000, '(') + "8" + std::string(1000, ')') + ":1]"), parse_layout("S[8:1]"));
}

TEST(NotationErrors, OperatorChainsAreFlatNotNested) {
  // A chain of binary operators is not nesting: 100,000 terms parse (evaluated in a loop, the
  // tree freed without recursion).
  std::string chain = "S[8:1]";
  for (int k = 0; k < 100000; ++k) chain += " + 1@laneid";
  EXPECT_EQ(parse_layout(chain), parse_layout("S[8:1] + 100000@laneid"));
  std::string ints = "1";
  for (int k = 0; k < 100000; ++k) ints += " * 1 + 1";
  EXPECT_EQ(parse_int_expr(ints), 100001);
  // 256 terms, the length the old limit refused.
  std::string short_chain = "S[8:1]";
  for (int k = 0; k < 256; ++k) short_chain += " + 1@laneid";
  EXPECT_EQ(parse_layout(short_chain), parse_layout("S[8:1] + 256@laneid"));
  // An unbound parameter deep in a long chain is still named (the unbound-name walk is iterative).
  const InputError u = parse_error(chain + " + N");
  EXPECT_NE(u.message().find("unbound parameter 'N'"), std::string::npos);
}

TEST(NotationErrors, ArbitraryBytesNeverCrash) {
  // A deterministic sweep of short junk inputs built from the notation's own characters: each
  // either parses or throws InputError with a position inside the text.
  const std::string alphabet = "S[]():,@+-*/%.'\"=8 1laneidTR_{}0x";
  std::uint64_t state = 12345;
  for (int n = 0; n < 20000; ++n) {
    std::string s;
    const int len = 1 + static_cast<int>(state % 24);
    for (int k = 0; k < len; ++k) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      s += alphabet[(state >> 33) % alphabet.size()];
    }
    try {
      (void)parse_layout(s);
    } catch (const InputError& e) {
      ASSERT_TRUE(e.pos().has_value()) << s;
      ASSERT_LE(*e.pos(), s.size()) << s;
    }
  }
}

}  // namespace
}  // namespace tirx
