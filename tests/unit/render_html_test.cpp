// The HTML report page: well-formed (read back as XML), self-contained (no script, no external
// reference), one section per kernel, the known injectivity finding of paged_mqa_logits_fp4 with
// its witness and its picture inline.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/kernel/verify.hpp"
#include "tirx_verify/layout/source_dir.hpp"
#include "tirx_verify/render/html.hpp"
#include "tirx_verify/report/report.hpp"

namespace tirx::render {
namespace {

std::size_t count_nodes(pugi::xml_node n, const char* name) {
  std::size_t k = std::string(n.name()) == name;
  for (pugi::xml_node c : n.children()) k += count_nodes(c, name);
  return k;
}

TEST(RenderHtml, ReportPageHoldsEachKernelAndDrawsTheBufferFinding) {
  const std::string root(source_dir());
  std::vector<kernel::KernelModel> models = {kernel::load_model(root + "/models/kernels/paged_mqa_logits_fp4.json"),
                                             kernel::load_model(root + "/tests/kernel/example_gemm.json")};
  std::vector<kernel::KernelReport> reports;
  for (const auto& m : models) reports.push_back(kernel::verify_kernel(m));
  const auto items = report::collect_items(reports);
  const auto summary = report::summarize(reports, items);
  const std::string page = html_report(reports, items, summary);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("http://"), page.find("http://www.w3.org/2000/svg"));  // only the SVG namespace
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(page.c_str(), pugi::parse_default | pugi::parse_doctype));
  pugi::xml_node body = doc.child("html").child("body");
  ASSERT_TRUE(body);
  EXPECT_EQ(count_nodes(body, "section"), models.size());
  // Each failed buffer item with a layout check result has exactly one picture.
  std::size_t buffer_fails = 0;
  for (const auto& it : items)
    if (it.subject_kind == "buffer" && it.status == prove::Status::kFail) ++buffer_fails;
  ASSERT_GE(buffer_fails, 1u);
  EXPECT_EQ(count_nodes(body, "svg"), buffer_fails);
  const pugi::xpath_node finding = body.select_node("//div[h4[contains(., 'layout.injective') and contains(., 'sfkv_tmem')]]");
  ASSERT_TRUE(finding);
  EXPECT_TRUE(finding.node().select_node(".//svg"));
  EXPECT_NE(std::string(finding.node().select_node(".//pre").node().text().get()).find("\"cell\""), std::string::npos);
}

}  // namespace
}  // namespace tirx::render
