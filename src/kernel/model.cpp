// Loading a kernel model (model.hpp): top level, parameters and buffers; each op kind's fields
// are read by its own parser (src/kernel/ops/), the graph is checked by graph.cpp.
#include "tirx_verify/kernel/model.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "model_reader.hpp"
#include "tirx_verify/kernel/graph.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/factories.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx::kernel {

namespace {

using detail::DocumentContext;
using detail::ObjectReader;
using detail::OpEnv;
using nlohmann::json;

const std::vector<std::string> kScopes = {"shared.dyn", "shared", "tmem", "local", "global"};
// TVM's short aliases DType::parse also takes (for notation); a model names the TVM dtype.
const std::vector<std::string> kDtypeAliases = {"fp16", "bf16", "fp32", "fp8", "fp4", "tf32"};

bool is_shared(const std::string& scope) { return scope == "shared" || scope == "shared.dyn"; }
bool is_pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// A kernel, buffer or op name is printed in every report format (text tables, SARIF, JUnit XML):
// it must be non-empty and hold no control character (XML 1.0 cannot carry most of them).
template <class Reader>
void require_name(Reader& r, const char* key, const std::string& name, const char* what) {
  if (name.empty()) r.fail(key, "must not be empty");
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f)
      r.fail(key, fmt::format("the {} name holds the control character U+{:04X} at byte {}", what, c, i),
             "names appear in text, SARIF and JUnit XML reports: use printable characters");
  }
}

void read_params(ObjectReader& top, KernelModel& m) {
  const json* p = top.raw("params");
  if (!p) return;
  const std::string path = top.path_of("params");
  if (!p->is_object()) top.doc().fail(path, "must be an object of name -> {\"value\": int, \"origin\": string}");
  for (auto it = p->begin(); it != p->end(); ++it) {
    const std::string ppath = json_path_key(path, it.key());
    Param prm;
    if (it->is_number()) {
      if (!detail::is_int64(*it)) top.doc().fail(ppath, "must be an integer that fits int64");
      prm.value = it->get<std::int64_t>();
    } else {
      ObjectReader o(top.doc(), *it, ppath);
      prm.value = o.integer("value", INT64_MIN, INT64_MAX);
      prm.origin = o.opt_str("origin").value_or("");
      o.finish();
    }
    if (is_reserved_name(it.key()))
      top.doc().fail(ppath, fmt::format("'{}' is an axis, a built-in or a Python constant of the notation: as a "
                                        "parameter name it would shadow it in every layout of the model",
                                        it.key()),
                     "rename the parameter");
    m.params[it.key()] = prm;
  }
}

void read_other_params(ObjectReader& top) {
  const json* p = top.raw("other_params");
  if (!p) return;
  const std::string path = top.path_of("other_params");
  if (!p->is_object()) top.doc().fail(path, "must be an object of name -> {\"value\": ..., \"origin\": string}");
  for (auto it = p->begin(); it != p->end(); ++it) {
    ObjectReader o(top.doc(), *it, json_path_key(path, it.key()));
    if (!o.raw("value")) o.fail("value", "is missing");
    o.opt_str("origin");
    o.finish();
  }
}

void read_source(ObjectReader& top, KernelModel& m) {
  auto s = top.opt_object("source");
  if (!s) return;
  s->str_array("repos");
  s->str_array("files");
  if (auto c = s->opt_str("commit")) {
    const bool hex = c->size() == 40 && std::all_of(c->begin(), c->end(), [](char ch) {
                       return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
                     });
    if (!hex) s->fail("commit", fmt::format("'{}' is not a full 40-digit lowercase hex commit", *c));
  }
  s->opt_str("notes");
  s->finish();
  m.source = *top.raw("source");
}

// Provenance written by `tirx-verify extract` (tools/extract, docs/extract.md): informational,
// but its keys and types are checked like every other part of the file.
void read_extraction(ObjectReader& top, int format) {
  auto e = top.opt_object("extraction");
  if (!e) return;
  if (format != 2) top.fail("extraction", "is a format-2 key (written by tirx-verify extract)");
  e->opt_str("tool");
  e->opt_str("file");
  e->str_array("functions");
  e->opt_bool("complete");
  if (const json* cfg = e->raw("config")) {
    const std::string path = e->path_of("config");
    if (!cfg->is_object()) top.doc().fail(path, "must be an object of name -> {\"value\": ..., \"origin\": string}");
    for (auto it = cfg->begin(); it != cfg->end(); ++it) {
      ObjectReader o(top.doc(), *it, json_path_key(path, it.key()));
      if (!o.raw("value")) o.fail("value", "is missing");
      o.opt_str("origin");
      o.finish();
    }
  }
  if (const json* un = e->raw("unresolved")) {
    const std::string path = e->path_of("unresolved");
    if (!un->is_array()) top.doc().fail(path, "must be an array of unresolved items");
    for (std::size_t i = 0; i < un->size(); ++i) {
      ObjectReader o(top.doc(), (*un)[i], json_path_index(path, i));
      o.str("item");
      o.integer("line", 0, INT64_MAX);
      o.opt_str("name");
      o.opt_integer("defined_at", 0, INT64_MAX);
      o.str("reason");
      o.str_array("via");
      o.finish();
    }
  }
  // The representative instance the model is (docs/extract.md, "Representative instance").
  if (auto in = e->opt_object("instance")) {
    in->str("convention");
    in->integer("serial_iterations", 0, 256);
    in->opt_str("meaning");
    if (const json* bs = in->raw("bindings")) {
      const std::string path = in->path_of("bindings");
      if (!bs->is_array()) top.doc().fail(path, "must be an array of {\"what\", \"line\", \"value\"}");
      for (std::size_t i = 0; i < bs->size(); ++i) {
        ObjectReader o(top.doc(), (*bs)[i], json_path_index(path, i));
        o.str("what");
        o.integer("line", 0, INT64_MAX);
        if (!o.raw("value")) o.fail("value", "is missing");
        o.finish();
      }
    }
    in->finish();
  }
  if (const json* sl = e->raw("sampled_loops")) {
    const std::string path = e->path_of("sampled_loops");
    if (!sl->is_array()) top.doc().fail(path, "must be an array of sampled loops");
    for (std::size_t i = 0; i < sl->size(); ++i) {
      ObjectReader o(top.doc(), (*sl)[i], json_path_index(path, i));
      o.integer("line", 0, INT64_MAX);
      o.str("var");
      o.integer("iterations", 0, INT64_MAX);
      o.int_array("walked", INT64_MIN, INT64_MAX);
      o.finish();
    }
  }
  e->finish();
}

void read_corpus(ObjectReader& b, BufferModel& bm) {
  auto c = b.opt_object("corpus");
  if (!c) return;
  // Provenance written by tools/corpus/convert_corpus.py (docs/corpus-conversion.md).
  c->opt_integer("line", 0, INT64_MAX);
  c->opt_str("buffer");
  c->opt_str("constructor");
  c->opt_choice("kind", {"implied", "explicit", "unbound"});
  c->opt_str("layout_src");
  c->opt_integer("count", 0, INT64_MAX);
  c->opt_integer("n_files", 0, INT64_MAX);
  c->str_array("files");
  c->finish();
  bm.corpus = *b.raw("corpus");
}

BufferModel read_buffer(const DocumentContext& doc, const json& j, const std::string& path, int format) {
  ObjectReader b(doc, j, path);
  BufferModel bm;
  bm.path = path;
  bm.position = doc.position(path);
  bm.name = b.str("name");
  require_name(b, "name", bm.name, "buffer");
  bm.scope = b.choice("scope", kScopes);
  bm.layout = b.str("layout");
  bm.shape = b.int_array("shape", 1, INT64_MAX, format >= 2);
  if (auto dt = b.opt_str("dtype")) {
    if (std::find(kDtypeAliases.begin(), kDtypeAliases.end(), *dt) != kDtypeAliases.end() ||
        model_dtype_bits(*dt) == 0)
      b.fail("dtype", fmt::format("'{}' is not a TVM dtype", *dt),
             "use a TVM dtype name: float16, bfloat16, float32, float8_e4m3fn, float8_e8m0fnu, float4_e2m1fn, "
             "int8, uint8, int32, uint32, ... (docs/model-format.md)");
    bm.dtype = *dt;
  } else if (format >= 2) {
    b.fail("dtype", "is missing");
  }
  bm.layout_symbolic = b.opt_str("layout_symbolic").value_or("");
  bm.notes = b.opt_str("notes").value_or("");
  bm.alloc_cols = b.opt_integer("alloc_cols", 1, INT32_MAX);
  bm.alloc_elems = b.opt_integer("alloc_elems", 1, INT64_MAX);
  if (bm.alloc_cols && bm.scope != "tmem") b.fail("alloc_cols", "is only for tmem buffers");
  read_corpus(b, bm);
  if (format >= 2) {
    bm.origin = b.opt_str("origin").value_or("");
    bm.broadcast = b.flag("broadcast");
    if (auto v = b.opt_object("view_of")) {
      bm.view_of = v->str("buffer");
      if (is_shared(bm.scope)) {
        bm.view_offset_bytes = v->opt_integer("offset_bytes", 0, std::int64_t{1} << 32).value_or(0);
      } else if (bm.scope == "tmem") {
        bm.view_col = v->opt_integer("col", 0, 65535).value_or(0);
        bm.view_lane = v->opt_integer("lane", 0, 127).value_or(0);
      }
      v->finish();
    }
    bm.software_swizzle = b.flag("software_swizzle");
    if (auto p = b.opt_object("placement")) {
      if (bm.view_of) p->fail(nullptr, "a view has its base's placement; remove it or drop view_of");
      Placement pl;
      if (is_shared(bm.scope)) {
        pl.offset_bytes = p->integer("offset_bytes", 0, std::int64_t{1} << 32);
        pl.align_bytes = p->opt_integer("align_bytes", 1, std::int64_t{1} << 20);
        if (pl.align_bytes && !is_pow2(*pl.align_bytes))
          p->fail("align_bytes", fmt::format("is {}, not a power of two", *pl.align_bytes));
        if (pl.align_bytes && *pl.offset_bytes % *pl.align_bytes != 0)
          p->fail("offset_bytes", fmt::format("{} is not a multiple of align_bytes {}", *pl.offset_bytes,
                                              *pl.align_bytes),
                  "an allocator that guarantees this alignment cannot place the buffer there");
      } else if (bm.scope == "tmem") {
        pl.col = p->opt_integer("col", 0, 65535).value_or(0);
        pl.lane = p->opt_integer("lane", 0, 127).value_or(0);
      } else {
        p->fail(nullptr, fmt::format("a {} buffer has no placement (only shared and tmem buffers)", bm.scope));
      }
      p->finish();
      bm.placement = pl;
    }
    if (const json* live = b.raw("live")) {
      if (!live->is_array() || live->size() != 2 || !(*live)[0].is_string() || !(*live)[1].is_string())
        b.fail("live", "must be [first_op, last_op], two op names");
      bm.live = std::make_pair((*live)[0].get<std::string>(), (*live)[1].get<std::string>());
    }
  }
  b.finish();
  return bm;
}

void check_buffer_references(const DocumentContext& doc, KernelModel& m) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < m.buffers.size(); ++i) {
    auto [it, fresh] = index.emplace(m.buffers[i].name, i);
    if (!fresh)
      doc.fail(json_path_key(m.buffers[i].path, "name"),
               fmt::format("buffer name '{}' is used twice (first at {})", m.buffers[i].name,
                           m.buffers[it->second].path));
  }
  for (auto& b : m.buffers) {
    if (!b.view_of) continue;
    const std::string vpath = json_path_key(json_path_key(b.path, "view_of"), "buffer");
    auto it = index.find(*b.view_of);
    if (it == index.end()) doc.fail(vpath, fmt::format("names '{}', which is not a buffer of the model", *b.view_of));
    // Views of views are fine; a chain must end at a buffer that is not a view.
    std::set<std::string> seen = {b.name};
    const BufferModel* cur = &m.buffers[it->second];
    while (cur->view_of) {
      if (!seen.insert(cur->name).second) doc.fail(vpath, fmt::format("views form a cycle through '{}'", cur->name));
      cur = &m.buffers[index.at(*cur->view_of)];
    }
    if (cur->name == b.name) doc.fail(vpath, "a buffer cannot be a view of itself");
    const bool same_space = (is_shared(cur->scope) && is_shared(b.scope)) || cur->scope == b.scope;
    if (!same_space)
      doc.fail(vpath, fmt::format("a {} view of the {} buffer '{}': a view keeps its base's storage scope", b.scope,
                                  cur->scope, cur->name));
  }
}

void read_ops(ObjectReader& top, KernelModel& m, const DocumentContext& doc) {
  const json* ops = top.raw("ops");
  if (!ops) return;
  const std::string path = top.path_of("ops");
  if (!ops->is_array()) doc.fail(path, "must be an array of ops");
  OpEnv env(doc, m.buffers);
  std::map<std::string, std::string> names;
  for (std::size_t i = 0; i < ops->size(); ++i) {
    const std::string opath = json_path_index(path, i);
    ObjectReader o(doc, (*ops)[i], opath);
    Op op;
    op.path = opath;
    op.position = doc.position(opath);
    op.name = o.str("name");
    require_name(o, "name", op.name, "op");
    if (auto [it, fresh] = names.emplace(op.name, opath); !fresh)
      o.fail("name", fmt::format("op name '{}' is used twice (first at {})", op.name, it->second));
    if (m.format < 2) {
      // Format 1: structure only.
      op.kind = o.opt_str("kind").value_or("");
      for (const char* key : {"inputs", "outputs"}) {
        auto list = o.str_array(key);
        for (std::size_t k = 0; k < list.size(); ++k)
          if (!m.find_buffer(list[k]))
            doc.fail(json_path_index(o.path_of(key), k),
                     fmt::format("op '{}' {} '{}', which is not a buffer of the model", op.name,
                                 std::string_view(key) == "inputs" ? "reads" : "writes", list[k]),
                     "list every buffer an op touches under \"buffers\" (global tensors too)");
        (std::string_view(key) == "inputs" ? op.reads : op.writes) = list;
      }
      o.finish();
      m.ops.push_back(std::move(op));
      continue;
    }
    op.kind = o.choice("kind", op_kinds());
    for (auto w : o.int_array("warps", 0, 31, false)) op.warps.push_back(static_cast<int>(w));
    {
      std::set<int> seen;
      for (int w : op.warps)
        if (!seen.insert(w).second) o.fail("warps", fmt::format("warp {} is listed twice", w));
    }
    op.cta_group = static_cast<int>(o.opt_integer("cta_group", 1, 2).value_or(1));
    op.origin = o.opt_str("origin").value_or("");
    op.notes = o.opt_str("notes").value_or("");
    detail::find_op_parser(op.kind)(o, op, env);
    o.finish();
    m.ops.push_back(std::move(op));
  }
}

void check_live_ranges(const DocumentContext& doc, const KernelModel& m) {
  for (const auto& b : m.buffers) {
    if (!b.live) continue;
    const std::string lpath = json_path_key(b.path, "live");
    auto first = m.op_index(b.live->first), last = m.op_index(b.live->second);
    if (!first) doc.fail(json_path_index(lpath, 0), fmt::format("names op '{}', which is not an op of the model", b.live->first));
    if (!last) doc.fail(json_path_index(lpath, 1), fmt::format("names op '{}', which is not an op of the model", b.live->second));
    if (*first > *last)
      doc.fail(lpath, fmt::format("op '{}' comes after op '{}' in program order", b.live->first, b.live->second));
  }
}

}  // namespace

int model_dtype_bits(std::string_view dtype) {
  if (dtype.empty()) return 0;
  try {
    return DType::parse(dtype).bits;
  } catch (const InputError&) {
    return 0;
  }
}

const BufferModel* KernelModel::find_buffer(std::string_view name) const {
  for (const auto& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

const Op* KernelModel::find_op(std::string_view name) const {
  for (const auto& o : ops)
    if (o.name == name) return &o;
  return nullptr;
}

std::optional<std::size_t> KernelModel::op_index(std::string_view name) const {
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].name == name) return i;
  return std::nullopt;
}

namespace {

// Model files nest a few levels (buffers -> buffer -> corpus -> files) and use short keys; the
// position index keeps each value's JSON path, so its size grows with the nesting depth times
// the key lengths along the path. Both are refused before parsing, at the offending byte.
constexpr int kMaxNesting = 64;
constexpr std::size_t kMaxKeyBytes = 256;

void check_shape_of_text(const std::string& text, const std::string& origin) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      const std::size_t start = i;
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      std::size_t j = i + 1;
      while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r')) ++j;
      if (j < text.size() && text[j] == ':' && i - start - 1 > kMaxKeyBytes)
        throw InputError("model.schema",
                         fmt::format("{}: an object key of {} bytes, more than the {} a model key may have", origin,
                                     i - start - 1, kMaxKeyBytes),
                         text, start);
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting)
        throw InputError("model.schema",
                         fmt::format("{}: arrays and objects nest deeper than {} levels (a kernel model needs fewer "
                                     "than 10)",
                                     origin, kMaxNesting),
                         text, i);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

}  // namespace

KernelModel parse_model(const std::string& text, const std::string& origin) {
  check_shape_of_text(text, origin);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError("model.syntax", fmt::format("{}: not valid JSON ({})", origin, e.what()), text,
                     e.byte > 0 ? std::optional<std::size_t>(e.byte - 1) : std::nullopt);
  } catch (const json::exception& e) {  // e.g. out_of_range 406: a number literal beyond double
    throw InputError("model.syntax", fmt::format("{}: not valid JSON ({})", origin, e.what()));
  }
  DocumentContext doc(text, origin);
  if (const auto& dup = doc.locator().duplicate())
    doc.fail_at(dup->position, dup->path, "is a duplicate key: the object already has it",
                "JSON readers keep only one of two equal keys");
  KernelModel m;
  ObjectReader top(doc, j, "$");
  if (auto f = top.opt_integer("format", 1, 2)) m.format = static_cast<int>(*f);
  m.kernel = top.str("kernel");
  require_name(top, "kernel", m.kernel, "kernel");
  m.target = top.opt_str("target").value_or("sm_100a");
  if (m.target.empty()) top.fail("target", "must not be empty");
  m.notes = top.opt_str("notes").value_or("");
  read_source(top, m);
  read_params(top, m);
  read_other_params(top);
  read_extraction(top, m.format);
  {
    const json* bufs = top.raw("buffers");
    if (!bufs) top.fail("buffers", "is missing");
    if (!bufs->is_array()) top.fail("buffers", "must be an array of buffers");
    for (std::size_t i = 0; i < bufs->size(); ++i)
      m.buffers.push_back(read_buffer(doc, (*bufs)[i], json_path_index("$.buffers", i), m.format));
  }
  check_buffer_references(doc, m);
  read_ops(top, m, doc);
  top.finish();
  check_live_ranges(doc, m);
  check_graph(m, origin);
  return m;
}

}  // namespace tirx::kernel
