// UTF-8 validation (layout/utf8.hpp): every ill-formed form of RFC 3629 is found at its first byte,
// every well-formed one passes, and the escaped form shows exactly the bad bytes.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/utf8.hpp"

namespace tirx {
namespace {

TEST(Utf8, WellFormedTextPasses) {
  for (const std::string& s : {std::string(""), std::string("S[8:1@laneid]"), std::string("caf\xc3\xa9"),
                              std::string("\xe2\x82\xac"), std::string("\xf0\x9f\x99\x82"), std::string("\xef\xbb\xbf"),
                              std::string("\xed\x9f\xbf"), std::string("\xee\x80\x80"), std::string("\xf4\x8f\xbf\xbf"),
                              std::string("a\0b", 3)})
    EXPECT_EQ(invalid_utf8_at(s), std::nullopt) << escape_invalid_utf8(s);
}

TEST(Utf8, EveryIllFormedKindIsFoundAtItsFirstByte) {
  struct Case {
    std::string text;
    std::size_t at;
  };
  for (const Case& c : std::vector<Case>{{"ab\xff", 2},               // never a UTF-8 byte
                                         {"\x80", 0},                  // lone continuation byte
                                         {"x\xc3", 1},                 // cut short by the end
                                         {"\xc3(", 0},                 // continuation missing
                                         {"\xc0\xaf", 0},              // overlong '/'
                                         {"\xc1\xbf", 0},              // overlong
                                         {"\xe0\x80\xaf", 0},          // overlong three-byte
                                         {"\xed\xa0\x80", 0},          // UTF-16 surrogate U+D800
                                         {"\xed\xbf\xbf", 0},          // surrogate U+DFFF
                                         {"\xf0\x8f\xbf\xbf", 0},      // overlong four-byte
                                         {"\xf4\x90\x80\x80", 0},      // U+110000
                                         {"\xf5\x80\x80\x80", 0},      // past the table
                                         {"\xf8\x88\x80\x80\x80", 0},  // five-byte form
                                         {"ok\xe2\x82", 2},            // three-byte cut short
                                         {"\xc3\xa9\xff", 2}})         // after a good character
    EXPECT_EQ(invalid_utf8_at(c.text), c.at) << escape_invalid_utf8(c.text);
}

TEST(Utf8, EscapeShowsOnlyTheBadBytes) {
  EXPECT_EQ(escape_invalid_utf8("S[8:1@\xff]"), "S[8:1@\\xff]");
  EXPECT_EQ(escape_invalid_utf8("caf\xc3\xa9 \xed\xa0\x80"), "caf\xc3\xa9 \\xed\\xa0\\x80");
  EXPECT_EQ(escape_invalid_utf8("plain"), "plain");
}

TEST(Utf8, RequireNamesTheByteAndItsOffset) {
  try {
    require_utf8("8,\xfe", "cli.usage", "--shape");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "cli.usage");
    EXPECT_EQ(e.message(), "--shape is not valid UTF-8: byte 0xfe at byte 2");
    EXPECT_EQ(e.pos(), 2u);
    EXPECT_EQ(e.text(), "8,\\xfe");  // the caret lands on the backslash of \xfe
    EXPECT_EQ(invalid_utf8_at(e.render()), std::nullopt);
  }
  EXPECT_NO_THROW(require_utf8("8,16", "cli.usage", "--shape"));
}

}  // namespace
}  // namespace tirx
