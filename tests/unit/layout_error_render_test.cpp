// InputError::render (layout/error.hpp): the caret line stays short however long the input line.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/layout/error.hpp"

namespace tirx {
namespace {

TEST(ErrorRender, AShortLineIsShownWhole) {
  const InputError e("layout.syntax", "expected ']'", "S[8:1", 5);
  EXPECT_EQ(e.render(), "error[layout.syntax]: expected ']'\n  S[8:1\n       ^\n");
}

TEST(ErrorRender, ALongLineIsClippedAroundTheCaret) {
  const std::string text = std::string(50000, 'a') + "X" + std::string(50000, 'b');
  const InputError e("model.syntax", "bad", text, 50000);
  const std::string r = e.render();
  EXPECT_LT(r.size(), 600u);
  EXPECT_NE(r.find("  ..." + std::string(100, 'a') + "X" + std::string(99, 'b') + "...\n"), std::string::npos) << r;
  EXPECT_NE(r.find(std::string(5 + 100, ' ') + "^\n"), std::string::npos) << r;
}

TEST(ErrorRender, TheWindowDoesNotSplitACharacter) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "\xc3\xa9";  // two bytes each
  // The window's start, 100 bytes before the caret, falls on the second byte of a character.
  const InputError e("model.syntax", "bad", text + "zX", text.size() + 1);
  const std::string r = e.render();
  const auto line = r.substr(r.find('\n') + 1);
  EXPECT_EQ(line.rfind("  ...\xc3\xa9", 0), 0u) << line;  // starts on a whole character
}

TEST(ErrorRender, OnlyTheLineOfThePositionIsShown) {
  const InputError e("model.syntax", "bad", "line one\nline two\nline three", 14);
  EXPECT_EQ(e.render(), "error[model.syntax]: bad\n  line two\n       ^\n");
}

}  // namespace
}  // namespace tirx
