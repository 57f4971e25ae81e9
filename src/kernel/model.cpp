#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/kernel/graph.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {

namespace {

using nlohmann::json;

[[noreturn]] void schema_error(const std::string& origin, const std::string& path, const std::string& what) {
  throw InputError("model.schema", fmt::format("{}: {} {}", origin, path, what), {}, std::nullopt,
                   "see docs/model-format.md for the model file format");
}

const json& require(const json& obj, const char* key, const std::string& origin, const std::string& path) {
  if (!obj.is_object()) schema_error(origin, path, "must be an object");
  auto it = obj.find(key);
  if (it == obj.end()) schema_error(origin, fmt::format("{}.{}", path, key), "is missing");
  return *it;
}

std::string get_string(const json& obj, const char* key, const std::string& origin, const std::string& path,
                       bool required = true) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) {
    if (required) schema_error(origin, fmt::format("{}.{}", path, key), "is missing");
    return {};
  }
  if (!it->is_string()) schema_error(origin, fmt::format("{}.{}", path, key), "must be a string");
  return it->get<std::string>();
}

// An integer that fits int64 (nlohmann stores 2^63 .. 2^64-1 as unsigned; get<int64_t> would wrap).
bool is_int64(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX);
  return v.is_number_integer();
}

std::optional<std::int64_t> get_int(const json& obj, const char* key, const std::string& origin,
                                    const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!is_int64(*it)) schema_error(origin, fmt::format("{}.{}", path, key), "must be an integer");
  return it->get<std::int64_t>();
}

}  // namespace

KernelModel parse_model(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError("model.syntax", fmt::format("{}: not valid JSON ({})", origin, e.what()), text,
                     e.byte > 0 ? std::optional<std::size_t>(e.byte - 1) : std::nullopt);
  } catch (const json::exception& e) {  // e.g. out_of_range 406: a number literal beyond double
    throw InputError("model.syntax", fmt::format("{}: not valid JSON ({})", origin, e.what()));
  }
  KernelModel m;
  if (!j.is_object()) schema_error(origin, "$", "must be an object");
  m.kernel = get_string(j, "kernel", origin, "$");
  m.target = get_string(j, "target", origin, "$", false);
  if (m.target.empty()) m.target = "sm_100a";
  if (auto it = j.find("source"); it != j.end()) m.source = *it;
  if (auto it = j.find("params"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) schema_error(origin, "$.params", "must be an object");
    for (auto& [name, p] : it->items()) {
      const std::string path = "$.params." + name;
      Param prm;
      if (is_int64(p)) {
        prm.value = p.get<std::int64_t>();
      } else {
        const json& v = require(p, "value", origin, path);
        if (!is_int64(v)) schema_error(origin, path + ".value", "must be an integer");
        prm.value = v.get<std::int64_t>();
        prm.origin = get_string(p, "origin", origin, path, false);
      }
      m.params[name] = prm;
    }
  }
  const json& bufs = require(j, "buffers", origin, "$");
  if (!bufs.is_array()) schema_error(origin, "$.buffers", "must be an array");
  for (std::size_t i = 0; i < bufs.size(); ++i) {
    const json& b = bufs[i];
    const std::string path = fmt::format("$.buffers[{}]", i);
    if (!b.is_object()) schema_error(origin, path, "must be an object");
    BufferModel bm;
    bm.name = get_string(b, "name", origin, path);
    bm.scope = get_string(b, "scope", origin, path);
    bm.dtype = get_string(b, "dtype", origin, path, false);
    bm.layout = get_string(b, "layout", origin, path);
    bm.layout_symbolic = get_string(b, "layout_symbolic", origin, path, false);
    bm.notes = get_string(b, "notes", origin, path, false);
    if (auto it = b.find("shape"); it != b.end() && !it->is_null()) {
      if (!it->is_array()) schema_error(origin, path + ".shape", "must be an array of integers");
      for (std::size_t d = 0; d < it->size(); ++d) {
        if (!is_int64((*it)[d]))
          schema_error(origin, fmt::format("{}.shape[{}]", path, d), "must be an integer");
        bm.shape.push_back((*it)[d].get<std::int64_t>());
      }
    }
    bm.alloc_cols = get_int(b, "alloc_cols", origin, path);
    bm.alloc_elems = get_int(b, "alloc_elems", origin, path);
    if (auto it = b.find("corpus"); it != b.end()) bm.corpus = *it;
    m.buffers.push_back(std::move(bm));
  }
  if (auto it = j.find("ops"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) schema_error(origin, "$.ops", "must be an array");
    m.ops = *it;
  }
  m.op_list = parse_ops(m.ops, origin);
  check_graph(m.op_list, m.buffers, origin);
  return m;
}

}  // namespace tirx::kernel
