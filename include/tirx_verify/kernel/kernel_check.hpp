// tirx_verify/kernel/kernel_check.hpp — checks over a whole kernel: ops against the buffers they
// touch, buffers against each other.
//
// A kernel check is a unit like a layout check (prove/check.hpp): a stable id, one source file
// (src/kernel/checks/<name>.cpp), a one-line description, a witness format, a default severity,
// and one entry in the one list (src/kernel/checks/registry.cpp). It reads a KernelContext (the
// loaded model, its graph, every buffer's parsed layout and placement, the target) and answers
// per subject — each op it applies to, each buffer or buffer pair, or the kernel as a whole:
//
//   kernel.tma-layout  op load_a  fail  error  "element [0, 1, 8] of Asmem: the TMA writes byte
//                                               1168, the layout puts it at byte 1040"
//                                               witness {"element": [0, 1, 8], "tma_byte": 1168,
//                                                        "layout_byte": 1040, ...}
//                                               fix "tensor map swizzle 128B, not 64B"
//
// Severity: error = wrong data (two parts disagree on where an element is); warning = correct
// but slow or fragile (bank conflicts, register spills, reliance on behaviour PTX does not
// state); note = information.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/layout.hpp"
#include "tirx_verify/prove/check.hpp"

namespace tirx::hw {
struct Target;
}

namespace tirx::kernel {

// Severities are shared with the layout checks (prove/check.hpp).
using prove::Severity;
using prove::severity_name;

// One answer of one kernel check about one subject.
struct KernelFinding {
  std::string check;                   // check id, e.g. "kernel.tma-layout"
  prove::Status status = prove::Status::kPass;
  Severity severity = Severity::kError;  // meaningful for kFail
  std::string subject_kind;            // "op", "buffer" or "kernel"
  std::string subject;                 // op or buffer name (the kernel name for "kernel")
  std::vector<std::string> related;    // the other ops / buffers involved (the producer, the aliasing buffer)
  std::string message;
  nlohmann::json witness;              // null when there is nothing to show
  std::string fix;                     // what to change, when it is clear; may be empty
  double seconds = 0;
};

// A buffer as the kernel checks see it: its model entry, its parsed layout, and where its
// storage is.
struct ResolvedBuffer {
  const BufferModel* model = nullptr;
  std::size_t index = 0;               // into KernelModel::buffers
  std::optional<Layout> layout;        // nullopt when the layout did not parse (its own report says why)
  std::string layout_error;            // why, when it did not
  prove::Scope scope = prove::Scope::kUnknown;
  int elem_bits = 0;                   // 0 if unknown
  std::size_t root = 0;                // the buffer whose storage this is (itself unless a view)
  // Storage base of the root (docs/model-format.md "placement"), defaults when not placed:
  bool placed = false;                 // the root has an explicit placement
  std::int64_t smem_base_bytes = 0;    // shared: byte address of element offset 0
  std::int64_t smem_align_bytes = 0;   // shared: declared alignment (0 if none)
  std::int64_t tmem_col = 0;           // tmem: 32-bit column of TCol 0 from the allocation base
  std::int64_t tmem_lane = 0;          // tmem: lane of TLane 0
};

struct KernelContext {
  const KernelModel* model = nullptr;
  const KernelGraph* graph = nullptr;
  const hw::Target* target = nullptr;
  std::vector<ResolvedBuffer> buffers;  // index-aligned with model->buffers
  prove::EngineLimits limits;

  // nullptr when there is no such buffer.
  const ResolvedBuffer* buffer(std::string_view name) const;
  const Op& op(std::size_t i) const { return model->ops[i]; }
};

// Builds the context: parses every buffer's layout with the model's params (a layout that does
// not parse leaves `layout` empty), resolves view chains and placements.
KernelContext make_context(const KernelModel& m, const KernelGraph& g, const hw::Target& target,
                           const prove::EngineLimits& limits);

struct KernelCheckInfo {
  std::string_view id;
  std::string_view description;     // one line
  std::string_view witness_format;  // one line
  Severity severity = Severity::kError;  // default severity of a fail
  std::function<std::vector<KernelFinding>(const KernelContext&)> run;
};

// The registry, in report order (src/kernel/checks/registry.cpp).
const std::vector<KernelCheckInfo>& kernel_checks();
const KernelCheckInfo* find_kernel_check(std::string_view id);

// Runs every kernel check. A check that throws InputError answers one failed "kernel" finding
// with that error's id and message (never an abort); each finding gets its time.
std::vector<KernelFinding> run_kernel_checks(const KernelContext& ctx);

}  // namespace tirx::kernel
