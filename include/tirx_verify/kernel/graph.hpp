// tirx_verify/kernel/graph.hpp — a kernel model as a Boost.Graph: buffers and ops are vertices,
// reads and writes are edges, a view has an edge to the buffer whose storage it reinterprets.
//
//   A --read--> load_a --write--> Asmem --read--> mma --write--> acc --read--> epi_ld --write--> frag
//                                                  ^                ^
//                                                  |  (read-modify-write: acc is read and written)
//   P_view --view--> S_acc        (FA4: P aliases S's TMEM columns)
//
// The kernel checks walk these edges: which ops write a buffer (kernel.coverage), which op
// produced the data an op consumes (the producer/consumer pairs of kernel.tma-layout,
// kernel.tmem-datapath), which buffers share storage (kernel.overlap).
//
// Format 2 ops are in program order, so data flows from an earlier writer to a later reader
// and the graph has no cycle by construction. Format 1 ops have no order: their op-to-op
// relation ("A writes a buffer B reads") must be acyclic, else InputError("kernel.graph") whose
// message walks the cycle and starts with "FILE:LINE:COL: $.ops[i]".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "tirx_verify/kernel/model.hpp"

namespace tirx::kernel {

enum class EdgeKind { kRead, kWrite, kView };

struct KernelGraph {
  struct VertexProps {
    bool is_op = false;
    std::size_t index = 0;  // into KernelModel::ops or ::buffers
  };
  struct EdgeProps {
    EdgeKind kind = EdgeKind::kRead;
  };
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, VertexProps, EdgeProps>;
  using Vertex = Graph::vertex_descriptor;

  Graph g;
  std::size_t num_ops = 0;
  // Vertex of op i is i; of buffer j is num_ops + j.
  Vertex op_vertex(std::size_t i) const { return i; }
  Vertex buffer_vertex(std::size_t j) const { return num_ops + j; }

  // Ops that write buffer j (directly, not through a view), in program order.
  std::vector<std::size_t> writers(std::size_t j) const;
  // Ops that read buffer j, in program order.
  std::vector<std::size_t> readers(std::size_t j) const;
  // The buffer at the end of j's view chain (j itself when it is not a view).
  std::size_t storage_root(std::size_t j) const;
  // Every buffer whose storage root is `root` (root included), in model order.
  std::vector<std::size_t> views_of(std::size_t root) const;
  // For a reader op `i` of buffer j: the last earlier op that wrote j or any buffer sharing its
  // storage root; -1 (as SIZE_MAX) when none.
  std::size_t producer(std::size_t i, std::size_t j) const;

  const KernelModel* model = nullptr;
};

// Builds the graph of a loaded model (every name already resolved by the loader).
KernelGraph build_graph(const KernelModel& m);

// Throws kernel.graph (header) for a cycle among format-1 ops. `origin` names the file.
void check_graph(const KernelModel& m, const std::string& origin);

}  // namespace tirx::kernel
