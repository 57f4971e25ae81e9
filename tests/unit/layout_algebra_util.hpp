// Test-only reader for the builder notation, so the algebra tests can be written with the
// spec's layouts verbatim: L("S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:4@warpid] + 5@warpid").
// Supports S[...] / R[...] terms (extents only, or extents:strides; a bare stride is on m) and
// offset terms k or k@axis. Any malformed input fails the test (ADD_FAILURE + empty layout).
// The real parser (notation.hpp) lives on another branch; this one is deliberately tiny.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tirx_verify/layout/layout.hpp"
#include "tirx_verify/layout/ops.hpp"

namespace tirx::test {

class MiniParser {
 public:
  explicit MiniParser(std::string_view s) : s_(s) {}

  bool parse(TileLayout& out) {
    do {
      skip();
      if (peek("S[")) {
        pos_ += 2;
        if (!spec(out.shard)) return false;
      } else if (peek("R[")) {
        pos_ += 2;
        if (!spec(out.replica)) return false;
      } else {
        std::int64_t v;
        Axis a;
        if (!value(v, a)) return false;
        out.offset.add(a, v);
      }
      skip();
    } while (eat('+'));
    return pos_ == s_.size();
  }

 private:
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool peek(std::string_view t) {
    skip();
    return s_.substr(pos_, t.size()) == t;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool integer(std::int64_t& v) {
    skip();
    bool neg = eat('-');
    skip();
    if (pos_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[pos_]))) return false;
    v = 0;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) v = v * 10 + (s_[pos_++] - '0');
    if (neg) v = -v;
    return true;
  }
  bool value(std::int64_t& v, Axis& a) {
    if (!integer(v)) return false;
    a = AxisId::m;
    if (eat('@')) {
      skip();
      std::size_t b = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      auto ax = Axis::from_name(s_.substr(b, pos_ - b));
      if (!ax) return false;
      a = *ax;
    }
    return true;
  }
  template <class F>
  bool list(F item) {
    if (eat('(')) {
      do {
        skip();
        if (peek(")")) break;
        if (!item()) return false;
      } while (eat(','));
      return eat(')');
    }
    return item();
  }
  bool spec(std::vector<Iter>& iters) {
    std::vector<std::int64_t> ext;
    if (!list([&] {
          std::int64_t e;
          if (!integer(e)) return false;
          ext.push_back(e);
          return true;
        }))
      return false;
    while (eat(',')) {  // S[8,4,2]
      std::int64_t e;
      if (!integer(e)) return false;
      ext.push_back(e);
    }
    std::vector<Iter> st;
    if (eat(':')) {
      if (!list([&] {
            std::int64_t v;
            Axis a;
            if (!value(v, a)) return false;
            st.push_back(Iter{0, v, a});
            return true;
          }))
        return false;
      if (st.size() != ext.size()) return false;
    } else {
      std::int64_t stride = 1;
      st.resize(ext.size());
      for (std::size_t i = ext.size(); i-- > 0;) {
        st[i] = Iter{0, stride, AxisId::m};
        stride *= ext[i];
      }
    }
    for (std::size_t i = 0; i < ext.size(); ++i) iters.push_back(Iter{ext[i], st[i].stride, st[i].axis});
    return eat(']');
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

inline TileLayout L(std::string_view text) {
  TileLayout out;
  if (!MiniParser(text).parse(out)) ADD_FAILURE() << "test notation did not parse: " << text;
  return out;
}

inline ComposeLayout C(int pe, int sl, int al, std::string_view tile, bool inner = true) {
  return ComposeLayout(SwizzleSpec{pe, sl, al, inner}, L(tile));
}

// A readable rendering for failure messages: S[(8,4):(4@laneid,1)] + R[...] + 5@warpid.
inline std::string show(const TileLayout& l) {
  auto iters = [](const std::vector<Iter>& v) {
    std::string e = "(", s = "(";
    for (std::size_t i = 0; i < v.size(); ++i) {
      e += (i ? "," : "") + std::to_string(v[i].extent);
      s += (i ? "," : "") + std::to_string(v[i].stride);
      if (v[i].axis != Axis(AxisId::m)) s += "@" + std::string(v[i].axis.name());
    }
    return e + "):" + s + ")";
  };
  std::string out = "S[" + iters(l.shard) + "]";
  if (!l.replica.empty()) out += " + R[" + iters(l.replica) + "]";
  for (const auto& e : l.offset.entries()) {
    out += " + " + std::to_string(e.value);
    if (e.axis != Axis(AxisId::m)) out += "@" + std::string(e.axis.name());
  }
  return out;
}

inline std::string show(const Layout& l) {
  if (!l.is_compose()) return show(l.tile());
  const SwizzleSpec& s = *l.swizzle();
  return "ComposeLayout(" + std::to_string(s.per_element) + "," + std::to_string(s.swizzle_len) + "," +
         std::to_string(s.atom_len) + (s.swizzle_inner ? "" : ",outer") + ", " + show(l.tile()) + ")";
}

}  // namespace tirx::test

// Structural equality with both layouts printed on failure.
#define EXPECT_LAYOUT_EQ(actual, expected)                                                        \
  do {                                                                                            \
    const ::tirx::Layout a_ = (actual), e_ = (expected);                                          \
    EXPECT_TRUE(a_ == e_) << "  actual: " << ::tirx::test::show(a_) << "\nexpected: " << ::tirx::test::show(e_); \
  } while (0)
