// tirx_verify/kernel/graph.hpp — the ops of a kernel model as a producer/consumer graph.
//
// A model's "ops" list names, for each op, the buffers it reads and writes (buffer names of the
// model). Op A feeds op B when A writes a buffer B reads; that relation must be acyclic (one
// pass of a kernel's data flow: TMA load -> swizzled smem -> MMA -> TMEM accumulator ->
// tcgen05.ld -> registers). An op that reads and writes one buffer (an accumulating MMA) is an
// in-place update, not a cycle.
//
//   "ops": [{"name": "load_a", "kind": "tma.load", "inputs": ["A"],      "outputs": ["A_smem"]},
//           {"name": "mma",    "kind": "tcgen05.mma", "inputs": ["A_smem", "acc"], "outputs": ["acc"]},
//           {"name": "epi",    "kind": "tcgen05.ld",  "inputs": ["acc"],  "outputs": ["C_regs"]}]
//
//   load_a --A_smem--> mma --acc--> epi          acyclic; mma's acc -> acc is in place
//
// Only the structure is checked here (this is the minimal graph the model loader needs);
// agreement of producer and consumer layouts along an edge is kernel.agreement's job.
// Errors: InputError("model.schema") for an op that is not {"name": string, "kind": string?,
// "inputs": [string]?, "outputs": [string]?}; InputError("kernel.graph") for a duplicate op
// name, a buffer name that is not a buffer of the model, or a cycle (the message walks it, the
// JSON path $.ops[i] of its first op is the position).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tirx_verify/kernel/model.hpp"

namespace tirx::kernel {

// Reads the "ops" array. `origin` names the file in messages. Throws model.schema.
std::vector<OpModel> parse_ops(const nlohmann::json& ops, const std::string& origin);

// Throws kernel.graph (header). Uses Boost.Graph (a depth-first search for a back edge).
void check_graph(const std::vector<OpModel>& ops, const std::vector<BufferModel>& buffers, const std::string& origin);

}  // namespace tirx::kernel
