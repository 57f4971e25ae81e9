// kernel.tma-layout (src/kernel/checks/tma_layout.cpp), the TMA lowering of copy_async
// (src/kernel/lower_tma.cpp) and the region address helpers (src/kernel/checks/region_bits.cpp).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "../../src/kernel/checks/region_bits.hpp"
#include "kernel_check_test_util.hpp"
#include "tirx_verify/kernel/lower_tma.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {
namespace {

using test::load;
using test::the_finding;

// A 2-D TMA tile of a (rows x cols) global tensor of `dtype` into a shared buffer with
// `smem_layout`, placed at `offset`; `ops` is the op list.
std::string model(const std::string& dtype, const std::string& gshape, const std::string& glayout,
                  const std::string& sshape, const std::string& slayout, std::int64_t offset, const std::string& ops) {
  return fmt::format(R"({{"format": 2, "kernel": "k", "buffers": [
    {{"name": "G", "scope": "global", "shape": {}, "dtype": "{}", "layout": "{}"}},
    {{"name": "S", "scope": "shared.dyn", "shape": {}, "dtype": "{}", "layout": "{}",
     "placement": {{"offset_bytes": {}, "align_bytes": 128}}}}],
    "ops": {}}})",
                     gshape, dtype, glayout, sshape, dtype, slayout, offset, ops);
}

const std::string k128B = R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (128, 64)))";

std::string tma_op(const std::string& swizzle, const std::string& box, const std::string& coords) {
  return fmt::format(R"([{{"name": "load", "kind": "tma.load", "tensor_map": {{"dtype": "float16", "dims": [1024, 1024],
     "strides_bytes": [2048], "box": {}, "swizzle": "{}"}}, "coords": {}, "global": "G[0:128, 0:64]", "smem": "S"}}])",
                     box, swizzle, coords);
}

TEST(TmaLayout, PassesWhenTheTensorMapMatchesTheLayout) {
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024,
                      tma_op("128B", "[64, 128]", "[0, 0]")));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "load");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_NE(f.message.find("8192 elements"), std::string::npos) << f.message;
}

// 64B vs 128B with a 64-byte box: element (1, 0) is written at 1024 + 64 (row pitch 64,
// 64B pattern) but the 128B layout has it at 1024 + 128 ^ 16 = 1168.
TEST(TmaLayout, SwizzleMismatchNamesTheFirstElementAndTheFix) {
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024,
                      tma_op("64B", "[32, 128]", "[0, 0]")));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "load");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["kind"], "mismatch");
  EXPECT_EQ(f.witness["mismatch"]["smem_element"], (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(f.witness["mismatch"]["tma_byte"], 1024 + 64);
  EXPECT_EQ(f.witness["mismatch"]["layout_byte"], 1168);
  EXPECT_EQ(f.fix, "swizzle 128B (not 64B), box [64, 128] (not [32, 128])");
  EXPECT_EQ(f.related, (std::vector<std::string>{"G", "S"}));
}

TEST(TmaLayout, MisalignedBaseReportsThePhase) {
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024 + 640,
                      tma_op("128B", "[64, 128]", "[0, 0]")));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "load");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_NE(f.message.find("S starts at byte 1664, 5 lines past a 1024-byte boundary: the 128B pattern is shifted by "
                           "5 (base offset 5)"),
            std::string::npos)
      << f.message;
  EXPECT_EQ(f.fix, "place S at a multiple of 1024 bytes (e.g. byte 2048)");
  // Row 0 at phase 5: chunk 0 of byte 1664 (line 13) goes to chunk 13 % 8 = 5 -> byte 1664 + 80.
  EXPECT_EQ(f.witness["mismatch"]["tma_byte"], 1664 + 80);
  EXPECT_EQ(f.witness["mismatch"]["layout_byte"], 1664);
}

TEST(TmaLayout, BoxOutsideTheRegionsAndUncoveredElements) {
  auto big = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024,
                        tma_op("128B", "[64, 192]", "[0, 0]")));
  KernelFinding f = the_finding(*big, "kernel.tma-layout", "load");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["kind"], "outside");
  EXPECT_EQ(f.witness["outside"]["tensor_coords"], (std::vector<std::int64_t>{0, 128}));
  EXPECT_EQ(f.witness["outside_elements"], 64 * 64);
  EXPECT_EQ(f.fix, "box [64, 128] (not [64, 192])");
  auto small = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024,
                          tma_op("128B", "[64, 100]", "[0, 0]")));
  f = the_finding(*small, "kernel.tma-layout", "load");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["kind"], "uncovered");
  EXPECT_EQ(f.witness["uncovered"]["smem_element"], (std::vector<std::int64_t>{100, 0}));
  EXPECT_EQ(f.witness["uncovered"]["count"], 28 * 64);
}

TEST(TmaLayout, HardwareRulesAreFailsNamingTheRule) {
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024,
                      tma_op("128B", "[64, 128]", "[4, 0]")));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "load");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["rule"], "tma.box");
  EXPECT_NE(f.message.find("inner start coordinate 4"), std::string::npos) << f.message;
}

// A uint16 tensor map over uint8 buffers: each TMA element is two buffer elements.
TEST(TmaLayout, WiderTensorMapElementsArePieces) {
  const std::string ops = R"([{"name": "load", "kind": "tma.load", "tensor_map": {"dtype": "uint16", "dims": [64, 64],
     "strides_bytes": [128], "box": [64, 32], "swizzle": "none"}, "coords": [0, 0], "global": "G[0:32, :]", "smem": "S"}])";
  auto l = load(model("uint8", "[64, 128]", "S[(64,128):(128,1)]", "[32, 128]", "S[(32,128):(128,1)]", 0, ops));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "load");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_NE(f.message.find("each uint16 element of the tensor map is 2 uint8 elements"), std::string::npos) << f.message;
}

// float4_e2m1fn buffers moved as uint8 (two elements per byte); a box one byte short leaves
// the last column pair uncovered.
TEST(TmaLayout, SubByteElementsAreComparedInBits) {
  const std::string slayout = R"(mma_shared_layout(\"float4_e2m1fn\", SwizzleMode.SWIZZLE_128B_ATOM, (64, 256)))";
  auto ops = [](int box0) {
    return fmt::format(R"([{{"name": "load", "kind": "tma.load", "tensor_map": {{"dtype": "uint8", "dims": [128, 64],
     "strides_bytes": [128], "box": [{}, 64], "swizzle": "128B"}}, "coords": [0, 0], "global": "G", "smem": "S"}}])",
                       box0);
  };
  auto ok = load(model("float4_e2m1fn", "[64, 256]", "S[(64,256):(256,1)]", "[64, 256]", slayout, 0, ops(128)));
  EXPECT_EQ(the_finding(*ok, "kernel.tma-layout", "load").status, prove::Status::kPass);
  auto bad = load(model("float4_e2m1fn", "[64, 256]", "S[(64,256):(256,1)]", "[64, 256]", slayout, 0, ops(112)));
  const KernelFinding f = the_finding(*bad, "kernel.tma-layout", "load");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["kind"], "uncovered");
  EXPECT_EQ(f.witness["uncovered"]["smem_element"], (std::vector<std::int64_t>{0, 224}));
}

// ---------------------------------------------------------------- lowering (TVM's planners)

std::string copy_model(const std::string& gshape, const std::string& glayout, const std::string& sshape,
                       const std::string& slayout, const std::string& dst, const std::string& src) {
  return fmt::format(R"({{"format": 2, "kernel": "k", "buffers": [
    {{"name": "G", "scope": "global", "shape": {}, "dtype": "float16", "layout": "{}"}},
    {{"name": "S", "scope": "shared.dyn", "shape": {}, "dtype": "float16", "layout": "{}",
     "placement": {{"offset_bytes": 0, "align_bytes": 1024}}}}],
    "ops": [{{"name": "copy", "kind": "copy_async", "dst": "{}", "src": "{}", "dispatch": "tma"}}]}})",
                     gshape, glayout, sshape, slayout, dst, src);
}

TmaPlan plan_of(const test::Loaded& l) {
  const auto& c = std::get<CopyOp>(l.model.ops[0].data);
  const bool load_dir = l.ctx.buffer(c.dst.buffer)->scope == prove::Scope::kShared;
  const TmaLowering low = lower_tma_copy(l.ctx, load_dir ? c.dst : c.src, load_dir ? c.src : c.dst);
  EXPECT_TRUE(low.plan) << low.stage << ": " << low.error;
  return low.plan.value_or(TmaPlan{});
}

// .tile::gather4 (PTX ISA §5.5.3.4): a one-row box at four row coordinates; the rows land as
// four consecutive box rows. `rows` are the model's global row regions, in instruction order.
std::string gather4_op(const std::string& swizzle, const std::string& box, const std::string& rows,
                       const std::string& global, const std::string& kind = "tma.load",
                       const std::string& dims = "[1024, 1024]", const std::string& smem = "S[0:4, :]") {
  return fmt::format(R"([{{"name": "gather", "kind": "{}", "tensor_map": {{"dtype": "float16", "dims": {},
     "strides_bytes": [2048], "box": {}, "swizzle": "{}"}}, "coords": [0], "gather4": {}, "global": {},
     "smem": "{}"}}])",
                     kind, dims, box, swizzle, rows, global, smem);
}

// The model is refused with model.schema, naming op 0 and `what`.
const std::string k128B8 = R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (8, 64)))";
const std::string kRows = R"(["G[5, 0:64]", "G[17, 0:64]", "G[2, 0:64]", "G[900, 0:64]"])";

TEST(TmaLayout, Gather4PassesRowByRow) {
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[8, 64]", k128B8, 1024,
                      gather4_op("128B", "[64, 1]", "[5, 17, 2, 900]", kRows)));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "gather");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_NE(f.message.find("gather4 rows [5, 17, 2, 900] of 64 elements"), std::string::npos) << f.message;
}

// Without the swizzle, row 1 (tensor row 17) lands at 1024 + 128; the 128B layout has S[1, 0]
// at 1024 + 128 ^ 16 = 1168.
TEST(TmaLayout, Gather4SwizzleMismatchNamesTheGatheredRow) {
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[8, 64]", k128B8, 1024,
                      gather4_op("none", "[64, 1]", "[5, 17, 2, 900]", kRows)));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "gather");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["kind"], "mismatch");
  EXPECT_EQ(f.witness["mismatch"]["smem_element"], (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(f.witness["mismatch"]["global_element"], (std::vector<std::int64_t>{17, 0}));
  EXPECT_EQ(f.witness["mismatch"]["tma_byte"], 1024 + 128);
  EXPECT_EQ(f.witness["mismatch"]["layout_byte"], 1168);
  EXPECT_EQ(f.witness["gather4"], (std::vector<std::int64_t>{5, 17, 2, 900}));
  EXPECT_EQ(f.fix, "tensor map swizzle 128B (not none) to match the layout of S");
}

// The model's rows in another order than the instruction's: box row 0 reads tensor row 5,
// which is not in the first row region (G[17, ...]).
TEST(TmaLayout, Gather4RowsInAnotherOrderAreOutside) {
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[8, 64]", k128B8, 1024,
                      gather4_op("128B", "[64, 1]", "[17, 5, 2, 900]", kRows)));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "gather");
  ASSERT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["kind"], "outside");
  EXPECT_EQ(f.witness["outside"]["tensor_coords"], (std::vector<std::int64_t>{0, 17}));
}

// 64-byte rows under the 128B swizzle: a tile box pads each row to 128 bytes; for gather4 that
// is not documented, so the check does not decide.
TEST(TmaLayout, Gather4RowsNarrowerThanTheSwizzleSpanAreUndecided) {
  const std::string rows = R"(["G[5, 0:32]", "G[17, 0:32]", "G[2, 0:32]", "G[900, 0:32]"])";
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[8, 64]", k128B8, 1024,
                      gather4_op("128B", "[32, 1]", "[5, 17, 2, 900]", rows, "tma.load", "[1024, 1024]", "S[0:2, :]")));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "gather");
  EXPECT_EQ(f.status, prove::Status::kUndecided) << f.message;
  EXPECT_NE(f.message.find("gather4 rows of 64 bytes under the 128B swizzle (span 128 bytes)"), std::string::npos)
      << f.message;
}

TEST(TmaLayout, Gather4ModelErrorsNameTheOp) {
  auto bad = [&](const std::string& ops, const std::string& what) {
    test::expect_model_error(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[8, 64]", k128B8, 1024, ops), what);
  };
  bad(gather4_op("128B", "[64, 4]", "[5, 17, 2, 900]", kRows), "box[1] to be 1");
  bad(gather4_op("128B", "[64, 1]", "[5, 17, 2]", kRows), "has 3 entries; .tile::gather4 takes four row coordinates");
  bad(gather4_op("128B", "[64, 1]", "[5, 17, 2, 900]", R"(["G[5, 0:64]", "G[17, 0:64]"])"), "has 2 regions");
  bad(gather4_op("128B", "[64, 1]", "[5, 17, 2, 900]", kRows, "tma.store"), "is a load form");
}

// A load box wholly outside the tensor (columns 1024.. of a 1024-column tensor) reads no global
// memory: its model omits `global`, and the check passes it with nothing to compare.
std::string outside_op(const std::string& coords, const std::string& kind = "tma.load") {
  return fmt::format(R"([{{"name": "fill", "kind": "{}", "tensor_map": {{"dtype": "float16", "dims": [1024, 1024],
     "strides_bytes": [2048], "box": [64, 128], "swizzle": "128B"}}, "coords": {}, "smem": "S"}}])",
                     kind, coords);
}

TEST(TmaLayout, ABoxWhollyOutsideTheTensorFillsAndReadsNothing) {
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024,
                      outside_op("[1024, 0]")));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "fill");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_NE(f.message.find("lies wholly outside the tensor's dims [1024, 1024]: the TMA fills its 8192 elements "
                           "with zeros and reads no global memory"),
            std::string::npos)
      << f.message;
  EXPECT_EQ(l->model.ops.at(0).reads, std::vector<std::string>{});
  EXPECT_EQ(l->model.ops.at(0).writes, std::vector<std::string>{"S"});
}

// The fill is still an instruction the hardware must accept, into exactly the box's bytes.
TEST(TmaLayout, AFillObeysTheTmaRulesAndNamesTheWholeBox) {
  const std::string half = R"([{"name": "fill", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [1024, 1024],
     "strides_bytes": [2048], "box": [64, 128], "swizzle": "128B"}, "coords": [1024, 0], "smem": "S[0:64, :]"}])";
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024, half));
  KernelFinding f = the_finding(*l, "kernel.tma-layout", "fill");
  EXPECT_EQ(f.status, prove::Status::kFail);
  EXPECT_NE(f.message.find("has 4096 16-bit elements, but the box [64, 128] the TMA fills has 131072 bits"),
            std::string::npos)
      << f.message;
  const std::string odd = R"([{"name": "fill", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [1024, 1024],
     "strides_bytes": [2004], "box": [64, 128], "swizzle": "128B"}, "coords": [1024, 0], "smem": "S"}])";
  auto l2 = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024, odd));
  f = the_finding(*l2, "kernel.tma-layout", "fill");
  EXPECT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["rule"], "tma.box") << f.message;
  EXPECT_NE(f.message.find("must be a multiple of 16"), std::string::npos) << f.message;
}

TEST(TmaLayout, AnOmittedGlobalIsRefusedUnlessTheBoxIsWhollyOutside) {
  auto bad = [&](const std::string& ops, const std::string& what) {
    test::expect_model_error(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024, ops), what);
  };
  // one column of the box inside (960 + 64 = 1024 ends at the edge: columns 960..1023 are inside)
  bad(outside_op("[960, 0]"), "the box at coords [960, 0] has elements inside the tensor's dims [1024, 1024]");
  // a store always names its global region; a gather4 load its four rows
  bad(outside_op("[1024, 0]", "tma.store"), "is missing; a tma.store writes global memory");
  std::string rows_missing = gather4_op("128B", "[64, 1]", "[5, 17, 2, 900]", kRows);
  const std::size_t from = rows_missing.find("\"global\"");
  rows_missing.erase(from, rows_missing.find("\"smem\"") - from);
  test::expect_model_error(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[8, 64]", k128B8, 1024, rows_missing),
                     "is missing; a gather4 load names four global regions, one per row coordinate");
}

// CUtensorMapFloatOOBfill: the NaN fill exists for floating-point element types only.
TEST(TmaLayout, NanFillOnAnIntegerMapIsRefused) {
  auto with_fill = [](const std::string& dtype) {
    return fmt::format(R"([{{"name": "fill", "kind": "tma.load", "tensor_map": {{"dtype": "{}", "dims": [1024, 1024],
     "strides_bytes": [2048], "box": [64, 128], "swizzle": "128B", "oob_fill": "nan"}}, "coords": [1024, 0], "smem": "S"}}])",
                       dtype);
  };
  test::expect_model_error(model("int16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024, with_fill("int16")),
                     "is 'nan' but the map's dtype 'int16' is an integer type");
  auto l = load(model("float16", "[1024, 1024]", "S[(1024,1024):(1024,1)]", "[128, 64]", k128B, 1024,
                      with_fill("float16")));
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "fill");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
}

// A map whose globalAddress is N bytes into its buffer (`handle_add_byte_offset(G.data, 256)`):
// the right half of each 512-byte row of a [64, 256] float16 tensor, seen as a [64, 128]-column
// map. Box element (r, e) is global byte 256 + 512 r + 2 e, element G[r, 128 + e].
TEST(TmaLayout, ABaseOffsetMovesTheMapIntoItsBuffer) {
  auto half = [](const std::string& base) {
    return fmt::format(R"([{{"name": "right", "kind": "tma.load", "tensor_map": {{"dtype": "float16", "dims": [128, 64],
     "strides_bytes": [512], "box": [64, 64], "swizzle": "128B"{}}}, "coords": [0, 0], "global": "G[0:64, 128:192]",
     "smem": "S"}}])",
                       base);
  };
  const std::string s64 = R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (64, 64)))";
  auto l = load(model("float16", "[64, 256]", "S[(64,256):(256,1)]", "[64, 64]", s64, 1024,
                      half(R"(, "base_offset_bytes": 256)")));
  KernelFinding f = the_finding(*l, "kernel.tma-layout", "right");
  EXPECT_EQ(f.status, prove::Status::kPass) << f.message;
  EXPECT_NE(f.message.find("base 256 bytes into the buffer"), std::string::npos) << f.message;
  // Without the offset the box reads columns 0..63, which the op does not declare.
  auto l0 = load(model("float16", "[64, 256]", "S[(64,256):(256,1)]", "[64, 64]", s64, 1024, half("")));
  f = the_finding(*l0, "kernel.tma-layout", "right");
  ASSERT_EQ(f.status, prove::Status::kFail) << f.message;
  EXPECT_EQ(f.witness["kind"], "outside");
  EXPECT_EQ(f.witness["outside"]["global_byte"], 0);
  // cuTensorMapEncodeTiled: globalAddress 16-byte aligned.
  test::expect_model_error(model("float16", "[64, 256]", "S[(64,256):(256,1)]", "[64, 64]", s64, 1024,
                           half(R"(, "base_offset_bytes": 264)")),
                     "is 264: the map's base address must be 16-byte aligned");
}

TEST(LowerTma, OneBoxForAnAtomWideTile) {
  auto l = load(copy_model("[1024, 1024]", "S[(1024,1024):(1024,1)]", "[2, 128, 64]",
                           R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (2, 128, 64)))", "S[1, :, :]",
                           "G[128:256, 64:128]"));
  const TmaPlan p = plan_of(*l);
  EXPECT_EQ(p.planner, "tma_auto");
  EXPECT_EQ(p.dims, (std::vector<std::int64_t>{1024, 1024}));
  EXPECT_EQ(p.strides_bytes, (std::vector<std::int64_t>{2048}));
  EXPECT_EQ(p.box, (std::vector<std::int64_t>{64, 128}));
  EXPECT_EQ(p.swizzle, hw::TmaSwizzle::k128B);
  ASSERT_EQ(p.issues.size(), 1u);
  EXPECT_EQ(p.issues[0].coords, (std::vector<std::int64_t>{64, 128}));
  EXPECT_EQ(p.issues[0].smem_byte, 16384);
  EXPECT_EQ(the_finding(*l, "kernel.tma-layout", "copy").status, prove::Status::kPass);
}

// A 128-column fp16 tile under 128B: the box walks (64-column chunk, row, chunk) — the 3-D map
// with strides [256, 128] of the H200 readback h200_tma_nd.json case 0.
TEST(LowerTma, WideSwizzledTileGivesTheThreeDimensionalMap) {
  auto l = load(copy_model("[64, 128]", "S[(64,128):(128,1)]", "[64, 128]",
                           R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (64, 128)))", "S", "G"));
  const TmaPlan p = plan_of(*l);
  EXPECT_EQ(p.dims, (std::vector<std::int64_t>{64, 64, 2}));
  EXPECT_EQ(p.strides_bytes, (std::vector<std::int64_t>{256, 128}));
  EXPECT_EQ(p.box, (std::vector<std::int64_t>{64, 64, 2}));
  EXPECT_EQ(p.issues.size(), 1u);
  EXPECT_EQ(the_finding(*l, "kernel.tma-layout", "copy").status, prove::Status::kPass);
}

// FA4's Q load: (16 rows, 8 heads, 128 d) of a (1, 1024, 32, 128) tensor into a 128B tile.
TEST(LowerTma, FourDimensionalAttentionLoad) {
  auto l = load(copy_model("[1, 1024, 32, 128]", "S[(1,1024,32,128):(4194304,4096,128,1)]", "[2, 16, 8, 128]",
                           R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (2, 128, 128)))",
                           "S[0, :, :, :]", "G[0, 0:16, 0:8, :]"));
  const TmaPlan p = plan_of(*l);
  EXPECT_EQ(p.dims, (std::vector<std::int64_t>{64, 32, 1024, 2}));
  EXPECT_EQ(p.strides_bytes, (std::vector<std::int64_t>{256, 8192, 128}));
  EXPECT_EQ(p.box, (std::vector<std::int64_t>{64, 8, 16, 2}));
  EXPECT_EQ(the_finding(*l, "kernel.tma-layout", "copy").status, prove::Status::kPass);
}

// 512 rows exceed a box dimension: the largest legal prefix is one row, issued 512 times.
TEST(LowerTma, IssueLoopsWhenTheBoxCannotHoldTheTile) {
  auto l = load(copy_model("[512, 64]", "S[(512,64):(64,1)]", "[512, 64]",
                           R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (512, 64)))", "S", "G"));
  const TmaPlan p = plan_of(*l);
  EXPECT_EQ(p.box, (std::vector<std::int64_t>{64, 1}));
  ASSERT_EQ(p.issues.size(), 512u);
  EXPECT_EQ(p.issues[3].coords, (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ(p.issues[3].smem_byte, 3 * 128);
  EXPECT_EQ(the_finding(*l, "kernel.tma-layout", "copy").status, prove::Status::kPass);
}

TEST(LowerTma, RefusalsNameTheStage) {
  auto l = load(copy_model("[128, 64]", "S[(128,64):(64,1)]", "[128, 64]",
                           R"(mma_shared_layout(\"float16\", SwizzleMode.SWIZZLE_128B_ATOM, (128, 64)))", "S[:, 0:32]",
                           "G[:, 0:32]"));
  const auto& c = std::get<CopyOp>(l->model.ops[0].data);
  const TmaLowering low = lower_tma_copy(l->ctx, c.dst, c.src);
  EXPECT_FALSE(low.plan);
  EXPECT_EQ(low.stage, "shared-chain");
  EXPECT_NE(low.error.find("tma_explicit stage=shared-layout"), std::string::npos) << low.error;
  const KernelFinding f = the_finding(*l, "kernel.tma-layout", "copy");
  EXPECT_EQ(f.status, prove::Status::kFail);
  EXPECT_EQ(f.witness["stage"], "shared-chain");
}

// ---------------------------------------------------------------- region addresses

// The nested-stride decoder and the sorted fallback agree with a brute-force search.
TEST(RegionBits, InverseFindsEveryElementAndNothingElse) {
  for (const char* layout : {"S[(6,10):(16,1)]", "S[(6,10):(1,6)]", "S[(2,3,10):(100,10,1)] + 7",
                             "ComposeLayout(1, 1, 3, S[(6,16):(16,1)])"}) {
    SCOPED_TRACE(layout);
    const bool compose = std::string(layout).find("Compose") != std::string::npos;
    auto l = load(fmt::format(R"({{"format": 2, "kernel": "k", "buffers": [
      {{"name": "B", "scope": "global", "shape": [{}], "dtype": "float16", "layout": "{}"}}]}})",
                              compose ? "6, 16" : "6, 10",
                              layout));
    const ResolvedBuffer& b = *l->ctx.buffer("B");
    Region r = parse_region(compose ? "B[1:5, 2:14]" : "B[1:5, 2:9]");
    bind_region(r, b.model->shape);
    const checks::RegionBits rb = checks::region_bits(b, r, 1 << 20);
    ASSERT_TRUE(rb.ok()) << rb.why_not;
    const checks::BitIndex idx(rb);
    for (std::int64_t bit = -32; bit < 16 * 400; ++bit) {
      std::optional<std::int64_t> want;
      for (std::size_t i = 0; i < rb.bits.size(); ++i)
        if (bit >= rb.bits[i] && bit < rb.bits[i] + 16) want = static_cast<std::int64_t>(i);
      const auto got = idx.find(bit);
      ASSERT_EQ(got.has_value(), want.has_value()) << "bit " << bit;
      if (got) {
        ASSERT_EQ(got->index, *want) << "bit " << bit;
        ASSERT_EQ(got->bit_off, bit - rb.bits[static_cast<std::size_t>(*want)]);
      }
    }
  }
}

}  // namespace
}  // namespace tirx::kernel
