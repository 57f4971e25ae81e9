// The kernel graph: ops as vertices, "A writes a buffer B reads" as edges (graph.hpp).
#include "tirx_verify/kernel/graph.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {

namespace {

using nlohmann::json;

[[noreturn]] void schema_error(const std::string& origin, const std::string& path, const std::string& what) {
  throw InputError("model.schema", fmt::format("{}: {} {}", origin, path, what), {}, std::nullopt,
                   "an op is {\"name\": ..., \"kind\": ..., \"inputs\": [buffer names], \"outputs\": [buffer names]}");
}

[[noreturn]] void graph_error(const std::string& origin, const std::string& what, const std::string& note = {}) {
  throw InputError("kernel.graph", fmt::format("{}: {}", origin, what), {}, std::nullopt, note);
}

std::vector<std::string> names(const json& op, const char* key, const std::string& origin, const std::string& path) {
  std::vector<std::string> out;
  auto it = op.find(key);
  if (it == op.end() || it->is_null()) return out;
  if (!it->is_array()) schema_error(origin, fmt::format("{}.{}", path, key), "must be an array of buffer names");
  for (std::size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_string()) schema_error(origin, fmt::format("{}.{}[{}]", path, key, i), "must be a string");
    out.push_back((*it)[i].get<std::string>());
  }
  return out;
}

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

// Records the DFS tree (parent of each vertex) and the first back edge, which closes a cycle.
struct CycleFinder : boost::default_dfs_visitor {
  std::vector<Vertex>* parent;
  std::optional<std::pair<Vertex, Vertex>>* back;
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

std::vector<OpModel> parse_ops(const json& ops, const std::string& origin) {
  std::vector<OpModel> out;
  if (ops.is_null()) return out;
  if (!ops.is_array()) schema_error(origin, "$.ops", "must be an array");
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const json& op = ops[i];
    const std::string path = fmt::format("$.ops[{}]", i);
    if (!op.is_object()) schema_error(origin, path, "must be an object");
    OpModel m;
    auto name = op.find("name");
    if (name == op.end() || name->is_null()) schema_error(origin, path + ".name", "is missing");
    if (!name->is_string()) schema_error(origin, path + ".name", "must be a string");
    m.name = name->get<std::string>();
    if (auto kind = op.find("kind"); kind != op.end() && !kind->is_null()) {
      if (!kind->is_string()) schema_error(origin, path + ".kind", "must be a string");
      m.kind = kind->get<std::string>();
    }
    m.inputs = names(op, "inputs", origin, path);
    m.outputs = names(op, "outputs", origin, path);
    out.push_back(std::move(m));
  }
  return out;
}

void check_graph(const std::vector<OpModel>& ops, const std::vector<BufferModel>& buffers, const std::string& origin) {
  std::set<std::string> buffer_names;
  for (const auto& b : buffers) buffer_names.insert(b.name);
  std::map<std::string, std::size_t> op_index;
  // readers[buffer] = ops that read it
  std::map<std::string, std::vector<std::size_t>> readers;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const OpModel& op = ops[i];
    if (!op_index.emplace(op.name, i).second)
      graph_error(origin, fmt::format("$.ops[{}]: op name '{}' is used twice (first at $.ops[{}])", i, op.name,
                                      op_index[op.name]));
    for (const auto* list : {&op.inputs, &op.outputs})
      for (const auto& b : *list)
        if (!buffer_names.count(b))
          graph_error(origin, fmt::format("$.ops[{}]: op '{}' {} '{}', which is not a buffer of the model", i, op.name,
                                          list == &op.inputs ? "reads" : "writes", b),
                      "list every buffer an op touches under \"buffers\" (global tensors too)");
    for (const auto& b : op.inputs) readers[b].push_back(i);
  }
  Graph g(ops.size());
  std::map<std::pair<std::size_t, std::size_t>, std::string> via;  // edge -> buffer that carries it
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (const auto& b : ops[i].outputs)
      for (std::size_t j : readers[b]) {
        if (j == i) continue;  // read-modify-write of one buffer: an in-place update
        if (via.emplace(std::make_pair(i, j), b).second) boost::add_edge(i, j, g);
      }
  std::vector<Vertex> parent(ops.size());
  for (std::size_t v = 0; v < ops.size(); ++v) parent[v] = v;
  std::optional<std::pair<Vertex, Vertex>> back;
  CycleFinder vis;
  vis.parent = &parent;
  vis.back = &back;
  boost::depth_first_search(g, boost::visitor(vis));
  if (!back) return;
  // The cycle: back.second -> (tree edges) -> back.first -> back.second.
  std::vector<Vertex> cycle = {back->first};
  while (cycle.back() != back->second) cycle.push_back(parent[cycle.back()]);
  std::reverse(cycle.begin(), cycle.end());
  std::string walk;
  for (std::size_t k = 0; k < cycle.size(); ++k) {
    const Vertex a = cycle[k], b = cycle[(k + 1) % cycle.size()];
    walk += fmt::format("'{}' writes '{}' read by ", ops[a].name, via[{a, b}]);
  }
  walk += fmt::format("'{}'", ops[cycle.front()].name);
  graph_error(origin, fmt::format("$.ops[{}]: the ops form a cycle: {}", cycle.front(), walk),
              "a kernel model describes one pass of the data flow; split a buffer that is reused across "
              "iterations into its producer and consumer stages");
}

}  // namespace tirx::kernel
