// RegionSweep (src/kernel/region_sweep.cpp) against images.hpp's element_images, element by
// element and replica by replica, on layouts of the corpus' shapes: row-major, swizzled
// (ComposeLayout), with replicas, with a stride-0 broadcast, with point indices and odd steps.
#include <gtest/gtest.h>

#include <string>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/images.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/kernel/region_sweep.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {
namespace {

struct Fixture {
  KernelModel m;
  KernelGraph g;
  KernelContext ctx;
};

std::unique_ptr<Fixture> load(const std::string& buffers) {
  static const hw::Target target = hw::load_target("sm_100a");
  auto f = std::make_unique<Fixture>();
  f->m = parse_model(R"({"format": 2, "kernel": "k", "buffers": [)" + buffers + "]}", "m.json");
  f->g = build_graph(f->m);
  f->ctx = make_context(f->m, f->g, target, {});
  return f;
}

Region bound(const KernelModel& m, const std::string& text) {
  Region r = parse_region(text);
  bind_region(r, m.find_buffer(r.buffer)->shape);
  return r;
}

// Every image the sweep gives equals element_images' image of the same element and replica.
void expect_same_images(const KernelContext& ctx, const std::string& region_text) {
  const Region r = bound(*ctx.model, region_text);
  const ResolvedBuffer& b = *ctx.buffer(r.buffer);
  RegionSweep sw(b, r);
  ASSERT_EQ(sw.size(), r.size());
  std::int64_t visits = 0;
  sw.for_each([&](std::int64_t i, std::int64_t rep, const Coord& c) {
    const auto want = element_images(b, r.coord(i));
    ASSERT_LT(rep, static_cast<std::int64_t>(want.size()));
    EXPECT_EQ(c, want[static_cast<std::size_t>(rep)]) << region_text << " element " << coord_text(r.coord(i))
                                                        << " replica " << rep << ": " << c.to_string() << " vs "
                                                        << want[static_cast<std::size_t>(rep)].to_string();
    ++visits;
  });
  EXPECT_EQ(visits, sw.points());
  EXPECT_EQ(sw.points(), r.size() * sw.replicas());
}

TEST(RegionSweep, MatchesElementImagesOnCorpusShapes) {
  auto f = load(R"J(
    {"name": "Asmem", "scope": "shared.dyn", "shape": [2, 128, 64], "dtype": "float16",
     "layout": "mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (2, 128, 64))"},
    {"name": "acc", "scope": "tmem", "shape": [128, 256], "dtype": "float32", "layout": "S[(128,256):(1@TLane,1@TCol)]"},
    {"name": "sf", "scope": "tmem", "shape": [128, 16], "dtype": "float8_e8m0fnu",
     "layout": "sf_tmem_layout(128, 4, 1, sf_reuse=4)"},
    {"name": "frag", "scope": "local", "shape": [128, 32], "dtype": "float32",
     "layout": "tcgen05_atom_layout(\"16x256b\", (128, 32), \"float32\")"},
    {"name": "rep", "scope": "local", "shape": [32, 4], "dtype": "float32",
     "layout": "S[(32,4):(1@laneid,1)] + R[2:1@wid_in_wg] + 3"},
    {"name": "odd", "scope": "shared.dyn", "shape": [6, 10], "dtype": "uint32", "layout": "S[(6,10):(11,1)]"})J");
  for (const char* r : {"Asmem", "Asmem[1, :, 16:32]", "Asmem[0, 5, :]", "Asmem[:, 127, 63]", "acc[:, 240:256]",
                        "acc[3:7, 1:255]", "sf", "sf[:, 3]", "frag", "frag[64:128, 8:16]", "rep", "rep[5:7, :]",
                        "odd[1:5, 3:9]", "odd[:, 9]"})
    expect_same_images(f->ctx, r);
}

TEST(RegionSweep, VisitsReplicasInOrderAndStopsEarly) {
  auto f = load(R"({"name": "rep", "scope": "local", "shape": [32, 4], "dtype": "float32",
                    "layout": "S[(32,4):(1@laneid,1)] + R[2:1@wid_in_wg]"})");
  const Region r = bound(f->m, "rep[1, 2]");
  RegionSweep sw(*f->ctx.buffer("rep"), r);
  EXPECT_EQ(sw.replicas(), 2);
  std::vector<std::int64_t> wid;
  sw.for_each([&](std::int64_t, std::int64_t, const Coord& c) { wid.push_back(c.get(AxisId::wid_in_wg)); });
  EXPECT_EQ(wid, (std::vector<std::int64_t>{0, 1}));
  int calls = 0;
  RegionSweep all(*f->ctx.buffer("rep"), bound(f->m, "rep"));
  all.for_each([&](std::int64_t, std::int64_t, const Coord&) { return ++calls < 5; });
  EXPECT_EQ(calls, 5);
}

TEST(RegionSweep, RefusesABufferWhoseShapeIsNotTheLayoutsSize) {
  auto f = load(R"({"name": "x", "scope": "shared", "shape": [4, 8], "dtype": "float16", "layout": "S[16:1]"})");
  try {
    RegionSweep sw(*f->ctx.buffer("x"), bound(f->m, "x"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "kernel.layout");
    EXPECT_NE(e.message().find("has 32 elements (shape [4, 8]) but its layout has 16"), std::string::npos)
        << e.message();
  }
}

}  // namespace
}  // namespace tirx::kernel
