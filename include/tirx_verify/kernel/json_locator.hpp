// tirx_verify/kernel/json_locator.hpp — where each value of a JSON document starts, by JSON path.
//
// nlohmann-json (3.11, Debian 12) parses a document but forgets positions, and keeps the last of
// two equal keys in one object. Model files need both: a strict loader names the line and
// column of a bad value, and a duplicate key is an error, not a silent overwrite. JsonLocator
// scans a document that nlohmann already accepted (so the text is known to be valid JSON) and
// records, for every value, its JSON path and the offset of its first byte:
//
//   {"ops": [{"name": "a",          $             line 1, col 1
//             "box": [64, 128]}]}   $.ops         line 1, col 9
//                                   $.ops[0]      line 1, col 10
//                                   $.ops[0].box  line 2, col 21   $.ops[0].box[1] col 26
//
// Paths are built by json_path_key / json_path_index, the same functions the loader uses to
// name the values it reads, so a path from the loader finds its position here — except scalars
// past index 16 of an array, which are not recorded (a dense array of a million numbers would
// cost a million paths); nearest() answers for them with the array's position. Keys that
// are not identifiers are written ["key"] (JSON-escaped).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tirx::kernel {

// "$.ops" + "name" -> "$.ops.name"; a key that is not [A-Za-z_][A-Za-z0-9_]* -> $.x["a b"].
std::string json_path_key(std::string_view base, std::string_view key);
// "$.ops" + 3 -> "$.ops[3]".
std::string json_path_index(std::string_view base, std::size_t index);

struct JsonPosition {
  std::size_t offset = 0;  // byte offset of the value's first character
  int line = 1;            // 1-based
  int column = 1;          // 1-based, in bytes
};

class JsonLocator {
 public:
  // `text` must be a complete JSON document nlohmann::json::parse accepted; the scan does not
  // validate it again (on text it cannot follow it stops and records what it saw so far).
  // The text is not kept; O(size) time and one map entry per value.
  explicit JsonLocator(std::string_view text);

  // Position of the value at `path` (e.g. "$.buffers[2].layout"), if the document has one.
  std::optional<JsonPosition> find(std::string_view path) const;
  // The position of `path`, or of its nearest ancestor that exists ("$" at worst).
  JsonPosition nearest(std::string_view path) const;
  // Where the key of an object member starts (its opening quote), e.g. for "$.ops[0].kind" the
  // position of "kind"; nullopt for array elements and the root.
  std::optional<JsonPosition> find_key(std::string_view path) const;

  // The first key that occurs twice in one object, in document order: the path of the second
  // occurrence (e.g. "$.buffers[0].name") and its position.
  struct Duplicate {
    std::string path;
    JsonPosition position;
  };
  const std::optional<Duplicate>& duplicate() const { return duplicate_; }

 private:
  std::unordered_map<std::string, JsonPosition> positions_;
  std::unordered_map<std::string, JsonPosition> key_positions_;
  std::optional<Duplicate> duplicate_;
};

}  // namespace tirx::kernel
