// The kernel graph (graph.hpp): buffers and ops as vertices, reads/writes/views as edges.
#include "tirx_verify/kernel/graph.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include <boost/graph/depth_first_search.hpp>
#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {

namespace {

std::size_t buffer_index(const KernelModel& m, const std::string& name) {
  for (std::size_t j = 0; j < m.buffers.size(); ++j)
    if (m.buffers[j].name == name) return j;
  throw InputError("kernel.graph", fmt::format("'{}' is not a buffer of the model", name));
}

using OpGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using OpVertex = boost::graph_traits<OpGraph>::vertex_descriptor;

// Records the DFS tree (parent of each vertex) and the first back edge, which closes a cycle.
struct CycleFinder : boost::default_dfs_visitor {
  std::vector<OpVertex>* parent;
  std::optional<std::pair<OpVertex, OpVertex>>* back;
  template <class E, class G>
  void tree_edge(E e, const G& g) const {
    (*parent)[boost::target(e, g)] = boost::source(e, g);
  }
  template <class E, class G>
  void back_edge(E e, const G& g) const {
    if (!*back) *back = std::make_pair(boost::source(e, g), boost::target(e, g));
  }
};

}  // namespace

KernelGraph build_graph(const KernelModel& m) {
  KernelGraph kg;
  kg.model = &m;
  kg.num_ops = m.ops.size();
  kg.g = KernelGraph::Graph(m.ops.size() + m.buffers.size());
  for (std::size_t i = 0; i < m.ops.size(); ++i) kg.g[kg.op_vertex(i)] = {true, i};
  for (std::size_t j = 0; j < m.buffers.size(); ++j) kg.g[kg.buffer_vertex(j)] = {false, j};
  for (std::size_t i = 0; i < m.ops.size(); ++i) {
    for (const auto& b : m.ops[i].reads)
      boost::add_edge(kg.buffer_vertex(buffer_index(m, b)), kg.op_vertex(i), {EdgeKind::kRead}, kg.g);
    for (const auto& b : m.ops[i].writes)
      boost::add_edge(kg.op_vertex(i), kg.buffer_vertex(buffer_index(m, b)), {EdgeKind::kWrite}, kg.g);
  }
  for (std::size_t j = 0; j < m.buffers.size(); ++j)
    if (m.buffers[j].view_of)
      boost::add_edge(kg.buffer_vertex(j), kg.buffer_vertex(buffer_index(m, *m.buffers[j].view_of)), {EdgeKind::kView},
                      kg.g);
  return kg;
}

std::vector<std::size_t> KernelGraph::writers(std::size_t j) const {
  std::vector<std::size_t> out;
  for (auto [e, end] = boost::in_edges(buffer_vertex(j), g); e != end; ++e)
    if (g[*e].kind == EdgeKind::kWrite) out.push_back(g[boost::source(*e, g)].index);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::size_t> KernelGraph::readers(std::size_t j) const {
  std::vector<std::size_t> out;
  for (auto [e, end] = boost::out_edges(buffer_vertex(j), g); e != end; ++e)
    if (g[*e].kind == EdgeKind::kRead) out.push_back(g[boost::target(*e, g)].index);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::size_t KernelGraph::storage_root(std::size_t j) const {
  // The loader refused view cycles, so the chain ends.
  while (true) {
    bool moved = false;
    for (auto [e, end] = boost::out_edges(buffer_vertex(j), g); e != end; ++e)
      if (g[*e].kind == EdgeKind::kView) {
        j = g[boost::target(*e, g)].index;
        moved = true;
        break;
      }
    if (!moved) return j;
  }
}

std::vector<std::size_t> KernelGraph::views_of(std::size_t root) const {
  std::vector<std::size_t> out;
  for (std::size_t j = 0; j < boost::num_vertices(g) - num_ops; ++j)
    if (storage_root(j) == root) out.push_back(j);
  return out;
}

std::size_t KernelGraph::producer(std::size_t i, std::size_t j) const {
  const std::size_t root = storage_root(j);
  std::size_t best = std::numeric_limits<std::size_t>::max();
  for (std::size_t v : views_of(root))
    for (std::size_t w : writers(v))
      if (w < i && (best == std::numeric_limits<std::size_t>::max() || w > best)) best = w;
  return best;
}

void check_graph(const KernelModel& m, const std::string& origin) {
  if (m.format >= 2) return;  // program order: acyclic by construction (header)
  const auto& ops = m.ops;
  std::map<std::string, std::vector<std::size_t>> readers;
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (const auto& b : ops[i].reads) readers[b].push_back(i);
  OpGraph g(ops.size());
  std::map<std::pair<std::size_t, std::size_t>, std::string> via;  // edge -> buffer that carries it
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (const auto& b : ops[i].writes)
      for (std::size_t j : readers[b]) {
        if (j == i) continue;  // read-modify-write of one buffer: an in-place update
        if (via.emplace(std::make_pair(i, j), b).second) boost::add_edge(i, j, g);
      }
  std::vector<OpVertex> parent(ops.size());
  for (std::size_t v = 0; v < ops.size(); ++v) parent[v] = v;
  std::optional<std::pair<OpVertex, OpVertex>> back;
  CycleFinder vis;
  vis.parent = &parent;
  vis.back = &back;
  boost::depth_first_search(g, boost::visitor(vis));
  if (!back) return;
  // The cycle: back.second -> (tree edges) -> back.first -> back.second.
  std::vector<OpVertex> cycle = {back->first};
  while (cycle.back() != back->second) cycle.push_back(parent[cycle.back()]);
  std::reverse(cycle.begin(), cycle.end());
  std::string walk;
  for (std::size_t k = 0; k < cycle.size(); ++k) {
    const OpVertex a = cycle[k], b = cycle[(k + 1) % cycle.size()];
    walk += fmt::format("'{}' writes '{}' read by ", ops[a].name, via[{a, b}]);
  }
  walk += fmt::format("'{}'", ops[cycle.front()].name);
  const Op& first = ops[cycle.front()];
  throw InputError("kernel.graph",
                   fmt::format("{}:{}:{}: {}: the ops form a cycle: {}", origin, first.position.line,
                               first.position.column, first.path, walk),
                   {}, std::nullopt,
                   "a kernel model describes one pass of the data flow; split a buffer that is reused across "
                   "iterations into its producer and consumer stages (or use format 2, where ops are in program "
                   "order)");
}

}  // namespace tirx::kernel
