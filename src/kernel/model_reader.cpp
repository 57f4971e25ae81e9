// Strict JSON reading for model files (model_reader.hpp).
#include "model_reader.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel::detail {

namespace {

std::string type_name(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_d = 0;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (!best || d < best_d) {
      best = c;
      best_d = d;
    }
  }
  if (best && best_d <= std::max<std::size_t>(2, word.size() / 3)) return best;
  return std::nullopt;
}

bool is_int64(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX);
  return v.is_number_integer();
}

DocumentContext::DocumentContext(const std::string& text, std::string origin)
    : text_(text), origin_(std::move(origin)), locator_(text) {}

void DocumentContext::fail(std::string_view path, const std::string& what, const std::string& note,
                           const char* check_id, bool at_key) const {
  fail_at(at_key ? locator_.find_key(path).value_or(position(path)) : position(path), path, what, note, check_id);
}

void DocumentContext::fail_at(JsonPosition p, std::string_view path, const std::string& what, const std::string& note,
                              const char* check_id) const {
  // The offending line alone as the error's text, so renderings stay one line long.
  std::size_t begin = text_.rfind('\n', p.offset == 0 ? 0 : p.offset - 1);
  begin = (p.offset == 0 || begin == std::string::npos) ? 0 : begin + 1;
  std::size_t end = text_.find('\n', p.offset);
  if (end == std::string::npos) end = text_.size();
  std::string line = text_.substr(begin, end - begin);
  std::optional<std::size_t> caret = p.offset - begin;
  if (line.size() > 240) {  // long lines (minified files): a window around the spot
    const std::size_t from = *caret > 80 ? *caret - 80 : 0;
    line = line.substr(from, 160);
    *caret -= from;
  }
  throw InputError(check_id, fmt::format("{}:{}:{}: {} {}", origin_, p.line, p.column, path, what), line, caret,
                   note.empty() ? "see docs/model-format.md for the model file format" : note);
}

ObjectReader::ObjectReader(const DocumentContext& doc, const json& j, std::string path)
    : doc_(doc), j_(j), path_(std::move(path)) {
  if (!j_.is_object()) doc_.fail(path_, fmt::format("must be an object, not {}", type_name(j_)));
}

const json* ObjectReader::raw(const char* key) {
  asked_.insert(key);
  auto it = j_.find(key);
  if (it == j_.end()) return nullptr;
  return &*it;
}

std::string ObjectReader::str(const char* key) {
  auto v = opt_str(key);
  if (!v) fail(key, "is missing");
  return *v;
}

std::optional<std::string> ObjectReader::opt_str(const char* key) {
  const json* v = raw(key);
  if (!v) return std::nullopt;
  if (!v->is_string()) fail(key, fmt::format("must be a string, not {}", type_name(*v)));
  return v->get<std::string>();
}

std::string ObjectReader::choice(const char* key, const std::vector<std::string>& allowed) {
  auto v = opt_choice(key, allowed);
  if (!v) fail(key, "is missing");
  return *v;
}

std::optional<std::string> ObjectReader::opt_choice(const char* key, const std::vector<std::string>& allowed) {
  auto v = opt_str(key);
  if (!v) return std::nullopt;
  if (std::find(allowed.begin(), allowed.end(), *v) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    auto near = closest(*v, allowed);
    fail(key, fmt::format("'{}' is not one of {}", *v, list), near ? fmt::format("did you mean '{}'?", *near) : "");
  }
  return v;
}

std::int64_t ObjectReader::integer(const char* key, std::int64_t lo, std::int64_t hi) {
  auto v = opt_integer(key, lo, hi);
  if (!v) fail(key, "is missing");
  return *v;
}

std::optional<std::int64_t> ObjectReader::opt_integer(const char* key, std::int64_t lo, std::int64_t hi) {
  const json* v = raw(key);
  if (!v) return std::nullopt;
  if (!is_int64(*v))
    fail(key, v->is_number_integer() || v->is_number_unsigned() ? "must be an integer that fits int64"
                                                                : fmt::format("must be an integer, not {}", type_name(*v)));
  const std::int64_t x = v->get<std::int64_t>();
  if (x < lo || x > hi) fail(key, fmt::format("is {}, outside [{}, {}]", x, lo, hi));
  return x;
}

std::optional<std::int64_t> ObjectReader::opt_int_choice(const char* key, const std::vector<std::int64_t>& allowed) {
  auto v = opt_integer(key, INT64_MIN, INT64_MAX);
  if (!v) return std::nullopt;
  if (std::find(allowed.begin(), allowed.end(), *v) == allowed.end()) {
    std::string list;
    for (auto a : allowed) list += fmt::format("{}{}", list.empty() ? "" : ", ", a);
    fail(key, fmt::format("is {}, not one of {}", *v, list));
  }
  return v;
}

std::optional<bool> ObjectReader::opt_bool(const char* key) {
  const json* v = raw(key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) fail(key, fmt::format("must be true or false, not {}", type_name(*v)));
  return v->get<bool>();
}

std::vector<std::int64_t> ObjectReader::int_array(const char* key, std::int64_t lo, std::int64_t hi, bool required) {
  std::vector<std::int64_t> out;
  const json* v = raw(key);
  if (!v) {
    if (required) fail(key, "is missing");
    return out;
  }
  if (!v->is_array()) fail(key, fmt::format("must be an array of integers, not {}", type_name(*v)));
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& e = (*v)[i];
    const std::string p = json_path_index(path_of(key), i);
    if (!is_int64(e))
      doc_.fail(p, e.is_number_integer() || e.is_number_unsigned() ? "must be an integer that fits int64"
                                                                    : fmt::format("must be an integer, not {}", type_name(e)));
    const std::int64_t x = e.get<std::int64_t>();
    if (x < lo || x > hi) doc_.fail(p, fmt::format("is {}, outside [{}, {}]", x, lo, hi));
    out.push_back(x);
  }
  return out;
}

std::vector<std::string> ObjectReader::str_array(const char* key, bool required) {
  std::vector<std::string> out;
  const json* v = raw(key);
  if (!v) {
    if (required) fail(key, "is missing");
    return out;
  }
  if (!v->is_array()) fail(key, fmt::format("must be an array of strings, not {}", type_name(*v)));
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string())
      doc_.fail(json_path_index(path_of(key), i), fmt::format("must be a string, not {}", type_name((*v)[i])));
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

ObjectReader ObjectReader::object(const char* key) {
  const json* v = raw(key);
  if (!v) fail(key, "is missing");
  return ObjectReader(doc_, *v, path_of(key));
}

std::optional<ObjectReader> ObjectReader::opt_object(const char* key) {
  const json* v = raw(key);
  if (!v) return std::nullopt;
  return ObjectReader(doc_, *v, path_of(key));
}

void ObjectReader::finish() const {
  std::vector<std::string> allowed(asked_.begin(), asked_.end());
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    if (asked_.count(it.key())) continue;
    // The keys this object may have are the ones its reader asked for; name the closest.
    auto near = closest(it.key(), allowed);
    doc_.fail(path_of(it.key()), "is not a known key here",
              near ? fmt::format("did you mean '{}'? (docs/model-format.md lists every key)", *near)
                   : "docs/model-format.md lists every key; nothing is ignored silently",
              "model.schema", true);
  }
}

const BufferModel* OpEnv::buffer(std::string_view name) const {
  for (const auto& b : buffers_)
    if (b.name == name) return &b;
  return nullptr;
}

Region OpEnv::bind(std::string_view text, const std::string& path, const std::vector<std::string>& scopes,
                   bool past_allowed) {
  Region r;
  try {
    r = parse_region(text);
  } catch (const InputError& e) {
    doc_.fail(path, e.message(), e.note());
  }
  const BufferModel* b = buffer(r.buffer);
  if (!b) {
    std::vector<std::string> names;
    for (const auto& x : buffers_) names.push_back(x.name);
    auto near = closest(r.buffer, names);
    doc_.fail(path, fmt::format("names buffer '{}', which is not a buffer of the model", r.buffer),
              near ? fmt::format("did you mean '{}'?", *near) : "list every buffer an op touches under \"buffers\"");
  }
  if (!scopes.empty() && std::find(scopes.begin(), scopes.end(), b->scope) == scopes.end()) {
    std::string list;
    for (const auto& s : scopes) list += (list.empty() ? "" : " or ") + s;
    doc_.fail(path, fmt::format("names buffer '{}' in scope {}, but this operand must be {}", b->name, b->scope, list));
  }
  try {
    bind_region(r, b->shape, past_allowed);
  } catch (const InputError& e) {
    doc_.fail(path, e.message());
  }
  return r;
}

Region OpEnv::region(ObjectReader& o, const char* key, const std::vector<std::string>& scopes, bool past_allowed) {
  auto r = opt_region(o, key, scopes, past_allowed);
  if (!r) o.fail(key, "is missing");
  return *r;
}

std::optional<Region> OpEnv::opt_region(ObjectReader& o, const char* key, const std::vector<std::string>& scopes,
                                        bool past_allowed) {
  auto text = o.opt_str(key);
  if (!text) return std::nullopt;
  return bind(*text, o.path_of(key), scopes, past_allowed);
}

std::vector<Region> OpEnv::regions(ObjectReader& o, const char* key, const std::vector<std::string>& scopes) {
  std::vector<Region> out;
  const std::vector<std::string> texts = o.str_array(key, true);
  for (std::size_t i = 0; i < texts.size(); ++i) out.push_back(bind(texts[i], json_path_index(o.path_of(key), i), scopes));
  return out;
}

AddressRef OpEnv::address_value(const json& v, const std::string& path, const std::vector<std::string>& scopes,
                                bool tmem_allowed) {
  AddressRef a;
  if (v.is_string()) {
    a.text = v.get<std::string>();
    Region r = bind(a.text, path, scopes);
    for (const auto& d : r.dims)
      if (!d.point) doc_.fail(path, fmt::format("'{}' must name one element (an index in every dimension)", a.text));
    a.element = std::move(r);
    return a;
  }
  if (tmem_allowed && v.is_object()) {
    ObjectReader t(doc_, v, path);
    TmemRef ref;
    ref.lane = t.integer("lane", 0, 127);
    ref.col = t.integer("col", 0, 65535);
    t.finish();
    a.tmem = ref;
    a.text = fmt::format("(lane {}, col {})", ref.lane, ref.col);
    return a;
  }
  doc_.fail(path, tmem_allowed ? "must be a buffer element \"NAME[i, j, ...]\" or {\"lane\": L, \"col\": C}"
                               : "must be a buffer element \"NAME[i, j, ...]\"");
}

AddressRef OpEnv::address(ObjectReader& o, const char* key, const std::vector<std::string>& scopes,
                          bool tmem_allowed, const char* offset_key) {
  auto a = opt_address(o, key, scopes, tmem_allowed, offset_key);
  if (!a) o.fail(key, "is missing");
  return *a;
}

std::optional<AddressRef> OpEnv::opt_address(ObjectReader& o, const char* key, const std::vector<std::string>& scopes,
                                             bool tmem_allowed, const char* offset_key) {
  const json* v = o.raw(key);
  if (!v) return std::nullopt;
  AddressRef a = address_value(*v, o.path_of(key), scopes, tmem_allowed);
  if (offset_key) a.offset_bytes = o.opt_integer(offset_key, 0, std::int64_t{1} << 32).value_or(0);
  return a;
}

DescriptorModel OpEnv::descriptor(ObjectReader& parent, const char* key, bool hopper) {
  ObjectReader o = parent.object(key);
  DescriptorModel d;
  d.path = o.path();
  d.start = address(o, "start", {"shared", "shared.dyn"}, false, "offset_bytes");
  d.lbo_bytes = o.integer("lbo_bytes", 0, (1 << 18) - 1);
  d.sbo_bytes = o.integer("sbo_bytes", 0, (1 << 18) - 1);
  const std::vector<std::string> modes =
      hopper ? std::vector<std::string>{"none", "32B", "64B", "128B"}
             : std::vector<std::string>{"none", "32B", "64B", "128B", "128B_ATOM_32B"};
  d.swizzle = hw::parse_tma_swizzle(o.choice("swizzle", modes));
  d.base_offset = static_cast<int>(o.opt_integer("base_offset", 0, 7).value_or(0));
  d.mn_major = o.opt_choice("major", {"K", "MN"}).value_or("K") == "MN";
  o.finish();
  return d;
}

}  // namespace tirx::kernel::detail
