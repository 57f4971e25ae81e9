// The SVG and text writers: well-formed output a parser reads back, one rect per drawn cell with
// entries, the library's escaping, the size bound, the terminal limit.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/render/svg.hpp"
#include "tirx_verify/render/text.hpp"
#include "tirx_verify/render/views.hpp"

namespace tirx::render {
namespace {

prove::CheckInput input(const std::string& text, std::vector<std::int64_t> shape, prove::Scope scope, int bits) {
  static const hw::Target t = hw::load_target("sm_100a");
  prove::CheckInput in;
  in.text = text;
  in.layout = parse_layout(text, {});
  in.shape = shape;
  in.scope = scope;
  in.elem_bits = bits;
  in.machine = prove::machine_limits(t);
  in.target = &t;
  return in;
}

std::size_t count(pugi::xml_node n, const char* name) {
  std::size_t k = 0;
  for (pugi::xml_node c : n.children()) k += std::string(c.name()) == name;
  return k;
}

TEST(RenderSvg, OneTitledRectPerFilledCellAndEscapedText) {
  auto in = input("tmem_datapath_layout(\"F\", 64, 32, sub_slab=1)", {64, 32}, prove::Scope::kTmem, 32);
  Grid g = build_view(in, RenderOptions{});
  g.title = "a < b & \"c\"";  // text the library must escape
  const std::string svg = svg_document(g);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(svg.c_str()));
  pugi::xml_node root = doc.child("svg");
  ASSERT_TRUE(root);
  EXPECT_STREQ(root.attribute("xmlns").value(), "http://www.w3.org/2000/svg");
  EXPECT_EQ(std::string(root.child("title").text().get()), "a < b & \"c\"");
  EXPECT_EQ(svg.find("a < b"), std::string::npos);  // escaped in the file
  std::size_t filled = 0;
  for (std::int64_t r = 0; r < g.drawn_rows(); ++r)
    for (std::int64_t c = 0; c < g.drawn_cols(); ++c) filled += g.drawn(r, c).entries > 0;
  EXPECT_EQ(filled, 64u * 32u);
  pugi::xml_node cells = root.child("g");
  EXPECT_EQ(count(cells, "rect"), filled);
  // Every cell's hover title names its lane and column.
  EXPECT_NE(std::string(cells.child("rect").child("title").text().get()).find("TLane 16, TCol 0"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
}

// 128 x 512 TMEM: 65536 cells drawn as 128 x 128 blocks; the file stays under the bound of
// svg.hpp (7 MB) — about 2 MB here.
TEST(RenderSvg, LargeTmemPictureIsBounded) {
  auto in = input("S[(128,512):(1@TLane,1@TCol)]", {128, 512}, prove::Scope::kTmem, 32);
  const Grid g = build_view(in, RenderOptions{});
  const std::string svg = svg_document(g);
  EXPECT_LT(svg.size(), 7u << 20);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(svg.c_str()));
  EXPECT_EQ(count(doc.child("svg").child("g"), "rect"), 128u * 128u);
}

TEST(RenderText, SmallGridIsATableAndLargeOneSaysItsSize) {
  auto in = input("S[(4,8):(8,1)]", {4, 8}, prove::Scope::kUnknown, 0);
  RenderOptions o;
  o.max_rows = kMaxTextRows;
  o.max_cols = kMaxTextWidth;
  const std::string t = render_text(build_view(in, o));
  EXPECT_NE(t.find("\n  3 | m24 m25 m26 m27 m28 m29 m30 m31\n"), std::string::npos) << t;
  auto big = input("S[(128,512):(1@TLane,1@TCol)]", {128, 512}, prove::Scope::kTmem, 32);
  try {
    render_text(build_view(big, o));
    FAIL() << "expected render.size";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "render.size");
    EXPECT_NE(e.message().find("128 x 512 cells"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace tirx::render
