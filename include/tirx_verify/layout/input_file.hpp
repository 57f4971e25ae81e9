// tirx_verify/layout/input_file.hpp — the one place tirx-verify reads (and writes) a file named by
// its user.
//
// Model files (kernel/model_files.hpp), target files (hw/target.hpp: --target-file, models/targets),
// baselines (run --baseline) and anything else a user names go through read_input_file, so the
// rules hold everywhere:
//
//   what the path names                       result
//   a regular file of at most max_bytes       its bytes (a symlink to one is followed)
//   a FIFO, socket, character/block device    InputError(check_id): "... is a FIFO, not a regular file"
//   a directory                               InputError(check_id): "... is a directory, not a regular file"
//   a regular file larger than max_bytes      InputError(check_id): "... is N bytes; the limit is M bytes"
//   nothing, a dangling link, a symlink loop  InputError(check_id): "cannot read ...: <reason>"
//   a name that is not UTF-8                  InputError(check_id) with the byte offset in the name
//
// The type is decided by stat() before the file is opened (a FIFO is never opened, so nothing
// blocks, and no device sees an open()), and checked again on the open descriptor. At most
// max_bytes + 1 bytes are ever read, so a file that grows while it is read, or a /proc file
// whose size says 0, cannot make the reader run on: past max_bytes it is the size error.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace tirx {

// Size caps (bytes). The largest model of the real corpus is 46 KB and a target description
// about 2 KB; the caps leave more than two orders of magnitude of room. They are not larger
// because parsing costs memory: nlohmann's DOM takes about 26 bytes per byte of a file of small
// values (an 8 MiB file of zeros: 210 MB), and the model loader's position index as much again
// (462 MB, measured), so 16 MiB bounds a hostile model file at about 1 GB. docs/model-format.md
// states the caps.
inline constexpr std::size_t kMaxModelFileBytes = std::size_t{16} << 20;   // 16 MiB
inline constexpr std::size_t kMaxTargetFileBytes = std::size_t{1} << 20;   // 1 MiB

// Reads the whole regular file `path` (see the table above). `check_id` is the id every error
// carries (e.g. "model.syntax", "target.file"); `what` names the file in messages ("model
// file", "target file"). Throws only InputError (and std::bad_alloc if max_bytes is beyond
// memory). Error messages show the path with ill-formed UTF-8 bytes as \xNN.
std::string read_input_file(const std::filesystem::path& path, std::string_view check_id, std::size_t max_bytes,
                            std::string_view what);

// Writes `text` to `path` (created or truncated): a report file (`run -o FILE`). The file is
// opened without blocking, so a FIFO nobody reads is an error instead of a hang; a character
// device (/dev/null, /dev/stdout) is written as asked; a directory, a missing parent directory
// or a failed write (/dev/full) is InputError(check_id, "cannot write <what> '<path>': <why>").
void write_output_file(const std::filesystem::path& path, std::string_view text, std::string_view check_id,
                       std::string_view what);

// The kind of thing `path` names after following symlinks, for messages: "regular file",
// "directory", "FIFO", "socket", "character device", "block device", or "" when stat() fails.
std::string file_kind(const std::filesystem::path& path);

}  // namespace tirx
