// notation_print.cpp — Layout -> text, in the builder form or exactly as TVM prints it.
//
//   layout                                   builder                      TVM (str(layout))
//   one shard iter                           S[64:1]                      T.TileLayout(T.S[64:1])
//   shard + replica + offset on one axis     S[8:4@laneid] + R[4:1@laneid] + 1@laneid
//                                            T.TileLayout(T.S[8:4 @ Axis.laneid] + T.R[4:1 @ Axis.laneid] + 1 @ Axis.laneid)
//   offsets on several axes                  S[8:4@laneid] + 1@laneid + 64 + 2@warpid
//                                            T.TileLayout(T.S[8:4 @ Axis.laneid] + (1 @ Axis.laneid + 64 + 2 @ Axis.warpid))
//   no shard and no replica                  TileLayout.from_iters(offset={"m": 5})
//                                            T.TileLayout.from_iters(offset={"m": 5})
//   swizzle                                  ComposeLayout(3, 3, 3, S[512:1])
//                                            T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[512:1]))
//
// TVM's printer rules (src/tirx/script/printer/buffer.cc, spec section (c)): a stride on m is
// bare, any other axis is `v @ Axis.<name>`; several iters print as tuples joined by ", ";
// offsets are sorted by axis name in byte order and, when there are several, summed inside one
// pair of parentheses; `swizzle_inner=False` is printed only when false. Integers that do not
// fit int32 are int64 literals in TVM and print as T.int64(v).
//
// Both forms parse back to the same layout: parse_layout(print_layout(L, s)) == L.
#include <fmt/format.h>

#include <limits>
#include <ostream>

#include "tirx_verify/layout/notation.hpp"

namespace tirx {
namespace {

class Printer {
 public:
  explicit Printer(PrintStyle style) : tvm_(style == PrintStyle::kTvm) {}

  std::string layout(const Layout& l) const {
    if (!l.is_compose()) return tile(l.tile());
    const SwizzleSpec& s = *l.swizzle();
    std::string r = fmt::format("{}ComposeLayout({}, {}, {}, {}", prefix(), s.per_element, s.swizzle_len, s.atom_len,
                                tile(l.tile()));
    if (!s.swizzle_inner) r += ", swizzle_inner=False";
    return r + ")";
  }

 private:
  std::string prefix() const { return tvm_ ? "T." : ""; }

  std::string num(std::int64_t v) const {
    if (tvm_ && (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max()))
      return fmt::format("T.int64({})", v);
    return fmt::format("{}", v);
  }

  std::string bound(std::int64_t v, Axis a) const {
    if (a == Axis(AxisId::m)) return num(v);
    return tvm_ ? fmt::format("{} @ Axis.{}", num(v), a.name()) : fmt::format("{}@{}", num(v), a.name());
  }

  std::string iters(std::string_view head, const std::vector<Iter>& its) const {
    const char* sep = tvm_ ? ", " : ",";
    std::string ext, st;
    for (std::size_t k = 0; k < its.size(); ++k) {
      if (k) {
        ext += sep;
        st += sep;
      }
      ext += num(its[k].extent);
      st += bound(its[k].stride, its[k].axis);
    }
    if (its.size() != 1) {
      ext = "(" + ext + ")";
      st = "(" + st + ")";
    }
    return fmt::format("{}{}[{}:{}]", prefix(), head, ext, st);
  }

  std::string tile(const TileLayout& t) const {
    const auto& off = t.offset.entries();  // already sorted by axis name
    if (t.shard.empty() && t.replica.empty()) {
      std::string r = prefix() + "TileLayout.from_iters(";
      if (!off.empty()) {
        r += "offset={";
        for (std::size_t k = 0; k < off.size(); ++k)
          r += fmt::format("{}\"{}\": {}", k ? ", " : "", off[k].axis.name(), num(off[k].value));
        r += "}";
      }
      return r + ")";
    }
    std::string r;
    auto term = [&r](const std::string& s) { r += (r.empty() ? "" : " + ") + s; };
    if (!t.shard.empty()) term(iters("S", t.shard));
    if (!t.replica.empty()) term(iters("R", t.replica));
    if (tvm_ && off.size() > 1) {
      std::string sum;
      for (const auto& e : off) sum += (sum.empty() ? "" : " + ") + bound(e.value, e.axis);
      term("(" + sum + ")");
    } else {
      for (const auto& e : off) term(bound(e.value, e.axis));
    }
    return tvm_ ? "T.TileLayout(" + r + ")" : r;
  }

  bool tvm_;
};

}  // namespace

std::string print_layout(const Layout& l, PrintStyle style) { return Printer(style).layout(l); }

std::ostream& operator<<(std::ostream& os, const Layout& l) { return os << print_layout(l); }
std::ostream& operator<<(std::ostream& os, const TileLayout& l) { return os << print_layout(Layout(l)); }

}  // namespace tirx
