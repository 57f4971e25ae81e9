// Strict reading of model-file JSON (internal to src/kernel): every object is read through an
// ObjectReader that knows its JSON path, takes each key at most once with its type and range,
// and refuses keys nobody took (finish()). Errors are InputError("model.schema") with
// "FILE:LINE:COL: PATH what" and the offending line with a caret (JsonLocator).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tirx_verify/kernel/json_locator.hpp"
#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/kernel/region.hpp"

namespace tirx::kernel::detail {

using nlohmann::json;

// The document being read: its text (for positions) and name.
class DocumentContext {
 public:
  DocumentContext(const std::string& text, std::string origin);
  const std::string& origin() const { return origin_; }
  JsonPosition position(std::string_view path) const { return locator_.nearest(path); }
  const JsonLocator& locator() const { return locator_; }
  // Throws model.schema at `path` (or its nearest ancestor in the file).
  // at_key: point at the member's key rather than its value (unknown and duplicate keys).
  [[noreturn]] void fail(std::string_view path, const std::string& what, const std::string& note = {},
                         const char* check_id = "model.schema", bool at_key = false) const;
  // The same at an explicit position.
  [[noreturn]] void fail_at(JsonPosition p, std::string_view path, const std::string& what, const std::string& note,
                            const char* check_id = "model.schema") const;

 private:
  const std::string& text_;
  std::string origin_;
  JsonLocator locator_;
};

class ObjectReader {
 public:
  // Throws model.schema unless `j` is an object.
  ObjectReader(const DocumentContext& doc, const json& j, std::string path);

  const std::string& path() const { return path_; }
  std::string path_of(std::string_view key) const { return json_path_key(path_, key); }
  const DocumentContext& doc() const { return doc_; }
  bool has(const char* key) const { return j_.contains(key); }
  // Declares `key` as allowed without reading it (pass-through provenance fields).
  void allow(const char* key) { asked_.insert(key); }

  // The raw value (marks the key as read); nullptr when absent.
  const json* raw(const char* key);
  std::string str(const char* key);  // required string
  std::optional<std::string> opt_str(const char* key);
  // A string from a fixed set (message lists the set).
  std::string choice(const char* key, const std::vector<std::string>& allowed);
  std::optional<std::string> opt_choice(const char* key, const std::vector<std::string>& allowed);
  std::int64_t integer(const char* key, std::int64_t lo, std::int64_t hi);
  std::optional<std::int64_t> opt_integer(const char* key, std::int64_t lo, std::int64_t hi);
  // An integer from a fixed set (message lists the set).
  std::optional<std::int64_t> opt_int_choice(const char* key, const std::vector<std::int64_t>& allowed);
  std::optional<bool> opt_bool(const char* key);
  bool flag(const char* key) { return opt_bool(key).value_or(false); }
  std::vector<std::int64_t> int_array(const char* key, std::int64_t lo, std::int64_t hi, bool required = true);
  std::vector<std::string> str_array(const char* key, bool required = false);
  ObjectReader object(const char* key);
  std::optional<ObjectReader> opt_object(const char* key);

  // Refuses every key not read, naming it, the allowed keys and the closest one.
  void finish() const;
  [[noreturn]] void fail(const char* key, const std::string& what, const std::string& note = {}) const {
    doc_.fail(key ? path_of(key) : path_, what, note);
  }

 private:
  const DocumentContext& doc_;
  const json& j_;
  std::string path_;
  std::set<std::string> asked_;  // every key a reader asked for: the keys this object may have
};

// Integers that fit int64 (nlohmann stores 2^63..2^64-1 as unsigned; floats are not integers).
bool is_int64(const json& v);

// The buffers of the model being read, for the op parsers: region and address binding.
class OpEnv {
 public:
  OpEnv(const DocumentContext& doc, const std::vector<BufferModel>& buffers) : doc_(doc), buffers_(buffers) {}
  const DocumentContext& doc() const { return doc_; }
  // Reads `key` as a region (required) of a buffer in one of `scopes` (empty: any scope) and
  // binds it to the buffer's shape. Throws model.schema at the key for an unknown buffer, a
  // scope not in the list, or bounds outside the shape (`past_allowed`: upper bounds past the
  // shape are accepted, bind_region's rule for a TMA box past its tensor).
  Region region(ObjectReader& o, const char* key, const std::vector<std::string>& scopes, bool past_allowed = false);
  std::optional<Region> opt_region(ObjectReader& o, const char* key, const std::vector<std::string>& scopes,
                                   bool past_allowed = false);
  // Reads `key` as an array of regions (each as region()).
  std::vector<Region> regions(ObjectReader& o, const char* key, const std::vector<std::string>& scopes);
  // Reads `key` as an address: a point region string (every dimension an index) of a buffer in
  // `scopes`, or (tmem_allowed) an object {"lane", "col"}. `offset_key`, when given, is read
  // from `o` beside it as AddressRef::offset_bytes.
  AddressRef address(ObjectReader& o, const char* key, const std::vector<std::string>& scopes, bool tmem_allowed,
                     const char* offset_key = nullptr);
  std::optional<AddressRef> opt_address(ObjectReader& o, const char* key, const std::vector<std::string>& scopes,
                                        bool tmem_allowed, const char* offset_key = nullptr);
  AddressRef address_value(const json& v, const std::string& path, const std::vector<std::string>& scopes,
                           bool tmem_allowed);
  // A shared-memory matrix descriptor object (docs/model-format.md, tcgen05.mma a_desc).
  DescriptorModel descriptor(ObjectReader& o, const char* key, bool hopper = false);
  const BufferModel* buffer(std::string_view name) const;

 private:
  Region bind(std::string_view text, const std::string& path, const std::vector<std::string>& scopes,
             bool past_allowed = false);
  const DocumentContext& doc_;
  const std::vector<BufferModel>& buffers_;
};

// Parses the kind-specific fields of one op (src/kernel/ops/*.cpp) into `op.data` and fills
// op.reads / op.writes. Throws model.schema. The common keys (name, kind, warps, cta_group,
// origin, notes) are read by the caller before.
using OpParser = void (*)(ObjectReader& o, Op& op, OpEnv& env);
// nullptr for an unknown kind.
OpParser find_op_parser(std::string_view kind);

// "did you mean" helper: the candidate closest to `word` by edit distance, if close enough.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace tirx::kernel::detail
