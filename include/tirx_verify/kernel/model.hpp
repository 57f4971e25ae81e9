// tirx_verify/kernel/model.hpp — a kernel's buffers and ops as loaded from a model file under
// models/kernels/ (format: docs/model-format.md, schema docs/model-format.schema.json).
//
//   {"format": 2, "kernel": "...", "target": "sm_100a",
//    "buffers": [{"name": "Asmem", "scope": "shared.dyn", "shape": [4, 128, 64], "dtype": "float16",
//                 "layout": "mma_shared_layout(...)", "placement": {"offset_bytes": 1024}}],
//    "ops": [{"name": "load_a", "kind": "tma.load", ...}]}
//
// Loading is strict: an unknown key, a wrong type, an out-of-range integer, an unknown dtype,
// scope, op kind or instruction shape, a duplicate key / buffer name / op name, a region or
// view that names no buffer: InputError "model.schema" whose message starts with
// "FILE:LINE:COL: $.json.path" and whose text/pos is that line with a caret. Other errors:
// "model.syntax" (not JSON; pos = byte offset) and "kernel.graph" (graph.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tirx_verify/kernel/json_locator.hpp"
#include "tirx_verify/kernel/ops.hpp"

namespace tirx::kernel {

struct Param {
  std::int64_t value = 0;
  std::string origin;
};

// Where a buffer's storage starts (docs/model-format.md "placement").
struct Placement {
  std::optional<std::int64_t> offset_bytes;  // shared: byte address in the CTA's shared window
  std::optional<std::int64_t> align_bytes;   // shared: alignment the allocator guarantees
  std::int64_t col = 0;                      // tmem: 32-bit column of TCol 0, from the allocation base
  std::int64_t lane = 0;                     // tmem: lane of TLane 0
};

struct BufferModel {
  std::string name;
  std::string scope;                         // shared.dyn | shared | tmem | local | global
  std::vector<std::int64_t> shape;           // empty if unknown (format 1 only)
  std::string dtype;                         // empty if unknown (format 1 only)
  std::string layout;                        // notation, fully concrete
  std::string layout_symbolic;               // optional, informational
  std::optional<std::int64_t> alloc_cols;    // TMEM, 32-bit columns
  std::optional<std::int64_t> alloc_elems;   // memory allocation in elements (optional)
  std::optional<std::string> view_of;        // base buffer whose storage this view reinterprets
  // Where the view starts inside its base (view_of.offset_bytes / .col / .lane): shared bytes
  // from the base's first byte; TMEM 32-bit columns and lanes from the base's TCol 0 / TLane 0.
  std::int64_t view_offset_bytes = 0;
  std::int64_t view_col = 0;
  std::int64_t view_lane = 0;
  bool software_swizzle = false;             // the layout's XOR swizzle is thread address arithmetic
  std::optional<Placement> placement;
  bool broadcast = false;                    // declared read-only broadcast view
  std::optional<std::pair<std::string, std::string>> live;  // first and last op using the storage
  std::string origin;
  std::string notes;
  nlohmann::json corpus;                     // provenance, passed through
  std::string path;                          // JSON path ("$.buffers[2]")
  JsonPosition position;                     // where its object starts in the file
};

struct KernelModel {
  int format = 1;
  std::string kernel;
  std::string target = "sm_100a";
  std::filesystem::path path;
  std::map<std::string, Param> params;
  std::vector<BufferModel> buffers;
  std::vector<Op> ops;             // in program order
  nlohmann::json source;
  std::string notes;

  // nullptr when there is no such buffer / op.
  const BufferModel* find_buffer(std::string_view name) const;
  const Op* find_op(std::string_view name) const;
  std::optional<std::size_t> op_index(std::string_view name) const;
};

// Parses one model from JSON text; `origin` names the file in error messages.
KernelModel parse_model(const std::string& text, const std::string& origin);
KernelModel load_model(const std::filesystem::path& file);
// Every *.json under each path (files are taken as they are), sorted by path.
std::vector<std::filesystem::path> collect_model_files(const std::vector<std::filesystem::path>& paths);

// The dtypes a model may name (TVM spellings), with their bits; 0 when unknown.
int model_dtype_bits(std::string_view dtype);

}  // namespace tirx::kernel
