// tirx_verify/report/source_location.hpp — the kernel source line a buffer or op came from.
//
// Every buffer and op of a model may carry an `origin` (docs/model-format.md): free text that,
// by the convention `tirx-verify extract` and the corpus converter follow, starts with the
// kernel file and line it was read from:
//
//   origin                                               file                                  lines
//   "fp16_bf16_gemm.py:289 pool.alloc_tcgen05_mma_AB(...)" fp16_bf16_gemm.py                     289
//   "flashmla/sparse_decode_head64.py:558-560 k_rope = ..."  flashmla/sparse_decode_head64.py  558-560
//   "BLK_M = 128 in tirx_kernels/basic/..."                (none: no leading FILE.py:LINE)
//
// The file is then made a path in the kernel's repository where the model's `source.files`
// names one that ends in it ("flashmla/x.py" -> "tirx_kernels/flashmla/x.py"); otherwise it
// is kept as written. SARIF results point there (sarif.hpp), the model position becoming a
// related location.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace tirx::report {

struct SourceLine {
  std::string file;  // as written in the origin, or the source.files entry that ends in it
  int line = 0;      // 1-based first line
  int end_line = 0;  // last line of a "L1-L2" range; == line for one line
};

// Parses the leading "FILE.py:LINE" or "FILE.py:L1-L2" of an origin (lines are 1..10^9, L2 >=
// L1). The file is the longest entry of `source`'s "files" array (or its base name) that the
// origin starts with before ":LINE", so a name with spaces or ':' ("my kernel.py",
// "k.py:99 x.py") is taken whole; else the text before the first ':' when it has no spaces and
// ends in ".py". `source` is the model's `source` object (may be null): its "files" array
// also resolves a shortened file name as above.
// Never throws; nullopt when the origin does not start that way.
std::optional<SourceLine> source_line_of(const std::string& origin, const nlohmann::json& source);

}  // namespace tirx::report
