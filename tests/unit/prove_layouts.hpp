// The layouts the engine tests share: corpus shapes (shared/corpus/kernel_layouts.jsonl, the
// factory outputs of shared/spec/tirx_semantics.md section (g)) and small hand-made cases, each
// with the injectivity verdict known independently (by construction / the TVM facts cited).
#pragma once

#include <string>
#include <vector>

#include "test_util.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::test {

struct ProveCase {
  std::string name;
  Layout layout;
  prove::Scope scope;
  int bits;
  bool injective;  // known answer
  bool gf2;        // power-of-two and carry-free on the storage axes (GF(2) applies)
};

inline std::vector<ProveCase> prove_cases() {
  using prove::Scope;
  return {
      // ---- shared memory: mma_shared_layout outputs (tirx_semantics.md (g) table) ----
      {"fp16 128B (8,64)", CL(3, 3, 3, TL({I(8, 64), I(64, 1)})), Scope::kShared, 16, true, true},
      {"fp16 128B (64,256)", CL(3, 3, 3, TL({I(64, 64), I(4, 4096), I(64, 1)})), Scope::kShared, 16, true, true},
      {"fp16 128B (3,64,256)", CL(3, 3, 3, TL({I(3, 16384), I(64, 64), I(4, 4096), I(64, 1)})), Scope::kShared, 16,
       true, false},
      {"fp16 64B (3,64,256)", CL(3, 2, 3, TL({I(3, 16384), I(64, 32), I(8, 2048), I(32, 1)})), Scope::kShared, 16, true,
       false},
      {"fp16 64B (64,64)", CL(3, 2, 3, TL({I(64, 32), I(2, 2048), I(32, 1)})), Scope::kShared, 16, true, true},
      {"fp16 32B (64,64)", CL(3, 1, 3, TL({I(64, 16), I(4, 1024), I(16, 1)})), Scope::kShared, 16, true, true},
      {"fp32 128B (64,256)", CL(2, 3, 3, TL({I(64, 32), I(8, 2048), I(32, 1)})), Scope::kShared, 32, true, true},
      {"uint8 128B (64,256)", CL(4, 3, 3, TL({I(64, 128), I(2, 8192), I(128, 1)})), Scope::kShared, 8, true, true},
      {"fp4 128B (3,64,256)", CL(5, 3, 3, TL({I(49152, 1)})), Scope::kShared, 4, true, false},
      {"fp16 128B ring (4,128,64)", CL(3, 3, 3, TL({I(4, 8192), I(128, 64), I(64, 1)})), Scope::kShared, 16, true,
       true},
      {"fp16 NONE (64,64)", TL({I(64, 8), I(8, 512), I(8, 1)}), Scope::kShared, 16, true, true},
      {"fp16 128B, 64-element rows", CL(3, 3, 3, TL({I(8, 64), I(32, 1)})), Scope::kShared, 16, true, true},
      {"swizzle_inner=False", CL(0, 3, 3, TL({I(64, 1)}), false), Scope::kShared, 16, true, true},
      {"swizzled view with offset", CL(3, 3, 3, TL({I(2, 64), I(64, 1)}, {}, {{"m", 128}})), Scope::kShared, 16, true,
       true},
      {"swizzled overlapping rows", CL(3, 3, 3, TL({I(8, 16), I(64, 1)})), Scope::kShared, 16, false, false},
      {"padded accumulator (64,512):(520,1)", TL({I(64, 520), I(512, 1)}), Scope::kShared, 32, true, false},
      {"sf_smem (128,16,4)", TL({I(4, 4), I(32, 16), I(4, 512), I(4, 1)}), Scope::kShared, 8, true, true},
      {"sf_smem (128,4,2)", TL({I(4, 4), I(32, 16), I(2, 2), I(2, 1)}), Scope::kShared, 8, true, true},
      {"overlapping strides (4,4):(2,1)", TL({I(4, 2), I(4, 1)}), Scope::kShared, 32, false, false},
      {"thread axis outside the shared cell", TL({I(4, 1, "laneid"), I(8, 1)}), Scope::kShared, 32, false, true},
      {"negative stride", TL({I(8, -8), I(8, 1)}, {}, {{"m", 56}}), Scope::kShared, 32, true, false},
      {"non-power-of-two dense (3,5,7)", TL({I(3, 35), I(5, 7), I(7, 1)}), Scope::kShared, 32, true, false},
      {"non-power-of-two overlap (3,5):(4,1)", TL({I(3, 4), I(5, 1)}), Scope::kShared, 32, false, false},
      {"zero-stride replica", TL({I(8, 1)}, {I(2, 0)}), Scope::kShared, 32, false, true},
      // ---- TMEM: datapath layouts, corpus views, scale factors ----
      {"Layout D (128,512)", TL({I(128, 1, "TLane"), I(512, 1, "TCol")}), Scope::kTmem, 32, true, true},
      {"Layout F (64,32)", TL({I(4, 32, "TLane"), I(16, 1, "TLane"), I(32, 1, "TCol")}), Scope::kTmem, 32, true, true},
      {"Layout F upper half-slab", TL({I(4, 32, "TLane"), I(16, 1, "TLane"), I(32, 1, "TCol")}, {}, {{"TLane", 16}}),
       Scope::kTmem, 32, true, true},
      {"Layout B (64,128)", TL({I(64, 1, "TLane"), I(2, 64, "TLane"), I(64, 1, "TCol")}), Scope::kTmem, 32, true, true},
      {"Layout G (32,128)", TL({I(32, 1, "TLane"), I(4, 32, "TLane"), I(32, 1, "TCol")}), Scope::kTmem, 32, true, true},
      {"Layout E/B group (64,2,2,128)",
       TL({I(64, 1, "TLane"), I(2, 128, "TCol"), I(2, 64, "TLane"), I(128, 1, "TCol")}), Scope::kTmem, 32, true, true},
      {"bank-batched A (2,64,256)", TL({I(2, 64, "TLane"), I(64, 1, "TLane"), I(256, 1, "TCol")}), Scope::kTmem, 16,
       true, true},
      {"replicated q_tmem (64,384) + R[2:64@TLane]", TL({I(64, 1, "TLane"), I(384, 1, "TCol")}, {I(2, 64, "TLane")}),
       Scope::kTmem, 32, true, false},
      {"replica onto own lanes R[2:32@TLane]", TL({I(64, 1, "TLane"), I(8, 1, "TCol")}, {I(2, 32, "TLane")}),
       Scope::kTmem, 32, false, false},
      {"sf_tmem (128,4,4)", TL({I(4, 4, "TCol"), I(32, 1, "TLane"), I(4, 1, "TCol")}, {I(4, 32, "TLane")}),
       Scope::kTmem, 8, true, true},
      {"sf_tmem (128,16,4)",
       TL({I(4, 4, "TCol"), I(32, 1, "TLane"), I(4, 16, "TCol"), I(4, 1, "TCol")}, {I(4, 32, "TLane")}), Scope::kTmem,
       8, true, true},
      {"sf_tmem (128,3,1)", TL({I(4, 4, "TCol"), I(32, 1, "TLane"), I(3, 16, "TCol")}, {I(4, 32, "TLane")}),
       Scope::kTmem, 8, true, false},
      {"sf_tmem sf_reuse=4 (the factory declares the broadcast)",
       TL({I(4, 4, "TCol"), I(32, 1, "TLane"), I(4, 1, "TCol"), B(4, "TCol")}, {I(4, 32, "TLane")}), Scope::kTmem,
       8, true, true},
      {"sf_tmem sf_reuse=4 written by hand (an undeclared broadcast)",
       TL({I(4, 4, "TCol"), I(32, 1, "TLane"), I(4, 1, "TCol"), I(4, 0, "TCol")}, {I(4, 32, "TLane")}), Scope::kTmem,
       8, false, true},
      {"sf_tmem pipe_depth=2",
       TL({I(2, 16, "TCol"), I(4, 4, "TCol"), I(32, 1, "TLane"), I(4, 1, "TCol")}, {I(4, 32, "TLane")}), Scope::kTmem,
       8, true, true},
      {"sf_tmem with 64 rows per sub-partition", TL({I(4, 4, "TCol"), I(64, 1, "TLane"), I(4, 1, "TCol")},
                                                    {I(4, 32, "TLane")}),
       Scope::kTmem, 8, false, false},
      {"sf_tmem column digits overlapping", TL({I(4, 2, "TCol"), I(32, 1, "TLane"), I(4, 1, "TCol")},
                                               {I(4, 32, "TLane")}),
       Scope::kTmem, 8, false, false},
      // ---- registers: fragment factories and hand-written corpus layouts ----
      {"wg_local_layout(16)", TL({I(128, 1, "tid_in_wg"), I(16, 1)}), Scope::kLocal, 32, true, true},
      {"16x64b (64,64) fp32",
       TL({I(4, 1, "wid_in_wg"), I(2, 1, "laneid"), I(8, 4, "laneid"), I(32, 1), I(2, 2, "laneid")}), Scope::kLocal,
       32, true, true},
      {"16x256b (128,32) fp32",
       TL({I(4, 1, "wid_in_wg"), I(2, 16), I(2, 2), I(8, 4, "laneid"), I(4, 4), I(4, 1, "laneid"), I(2, 1)}),
       Scope::kLocal, 32, true, true},
      {"16x128b (64,16) fp32", TL({I(4, 1, "wid_in_wg"), I(2, 1), I(8, 4, "laneid"), I(4, 2), I(4, 1, "laneid")}),
       Scope::kLocal, 32, true, true},
      {"32x32b (64,128) fp32", TL({I(64, 1, "tid_in_wg"), I(2, 64, "tid_in_wg"), I(64, 1)}), Scope::kLocal, 32, true,
       true},
      {"KDA mma.sync fragment", TL({I(8, 4, "laneid"), I(4, 1, "laneid"), I(2, 1)}), Scope::kLocal, 16, true, true},
      {"FlashMLA softmax fragment",
       TL({I(2, 1, "wid_in_wg"), I(32, 1, "laneid"), I(2, 2, "wid_in_wg"), I(32, 1)}), Scope::kLocal, 32, true, true},
      {"FlashMLA 6-level fragment",
       TL({I(8, 1, "laneid"), I(8, 1), I(2, 2, "wid_in_wg"), I(4, 8), I(2, 1, "wid_in_wg"), I(4, 8, "laneid")}),
       Scope::kLocal, 32, true, true},
      {"two rows per thread in the same slots", TL({I(2, 32, "tid_in_wg"), I(64, 1, "tid_in_wg"), I(16, 1)}),
       Scope::kLocal, 32, false, false},
      {"declared broadcast rows (broadcast(): stride 0, marked)", TL({B(2, "tid_in_wg"), I(64, 1, "tid_in_wg"), I(16, 1)}),
       Scope::kLocal, 32, true, true},
      {"undeclared broadcast rows (a stride-0 contraction)", TL({I(2, 0, "tid_in_wg"), I(64, 1, "tid_in_wg"), I(16, 1)}),
       Scope::kLocal, 32, false, true},
      {"contracting shared layout (TileLang #2632)", TL({I(2, 0), I(64, 1)}), Scope::kShared, 16, false, true},
      {"tcgen05 segment pointer in half units (tilelang #2952)", TL({I(128, 1, "tid_in_wg"), I(3, 8), I(16, 1)}),
       Scope::kLocal, 32, false, false},
      {"docs worked example", TL({I(8, 4, "laneid"), I(2, 1, "warpid"), I(4, 1, "laneid"), I(2, 1)},
                                 {I(2, 4, "warpid")}, {{"warpid", 5}}),
       Scope::kUnknown, 32, true, true},
  };
}

}  // namespace tirx::test
