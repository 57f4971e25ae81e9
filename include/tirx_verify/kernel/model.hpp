// tirx_verify/kernel/model.hpp — a kernel's buffers (and later its ops) as loaded from a model
// file under models/kernels/ (format: docs/model-format.md).
//
//   {"kernel": "...", "target": "sm_100a", "params": {"N": {"value": 4, "origin": "..."}},
//    "buffers": [{"name": "A_smem", "scope": "shared.dyn", "shape": [4, 256, 64],
//                 "dtype": "float16", "layout": "mma_shared_layout(...)", "alloc_cols": 512}],
//    "ops": []}
//
// Errors: InputError "model.syntax" (the file is not JSON; pos = byte offset), "model.schema" (a
// field is missing or has the wrong type; the message names the JSON path) or "kernel.graph"
// (the ops do not form an acyclic graph over the model's buffers, graph.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tirx::kernel {

struct Param {
  std::int64_t value = 0;
  std::string origin;
};

struct BufferModel {
  std::string name;
  std::string scope;                         // shared.dyn | shared | tmem | local | global
  std::vector<std::int64_t> shape;           // empty if unknown
  std::string dtype;
  std::string layout;                        // notation, fully concrete
  std::string layout_symbolic;               // optional
  std::optional<std::int64_t> alloc_cols;    // TMEM, 32-bit columns
  std::optional<std::int64_t> alloc_elems;   // memory allocation in elements (optional)
  std::string notes;
  nlohmann::json corpus;                     // provenance, passed through
};

// One op of the kernel graph (graph.hpp): which buffers it reads and writes.
struct OpModel {
  std::string name;
  std::string kind;                  // free text: "tma.load", "tcgen05.mma", ...
  std::vector<std::string> inputs;   // buffer names
  std::vector<std::string> outputs;  // buffer names
};

struct KernelModel {
  std::string kernel;
  std::string target = "sm_100a";
  std::filesystem::path path;
  std::map<std::string, Param> params;
  std::vector<BufferModel> buffers;
  nlohmann::json ops = nlohmann::json::array();
  std::vector<OpModel> op_list;  // `ops` parsed and checked as a graph (graph.hpp)
  nlohmann::json source;
};

// Parses one model from JSON text; `origin` names the file in error messages.
KernelModel parse_model(const std::string& text, const std::string& origin);
KernelModel load_model(const std::filesystem::path& file);
// Every *.json under each path (files are taken as they are), sorted by path.
std::vector<std::filesystem::path> collect_model_files(const std::vector<std::filesystem::path>& paths);

}  // namespace tirx::kernel
