// tirx_verify/kernel/model_files.hpp — finding and reading kernel model files on disk.
//
// parse_model (model.hpp) turns text into a KernelModel; this header is about the file system
// around it: which paths a `run` visits, and how a file is read (layout/input_file.hpp: only
// regular files, at most kMaxModelFileBytes = 16 MiB, UTF-8 checked before JSON parsing).
//
//   run a.json               a.json, whatever its extension, read as a model file
//   run DIR                  every *.json under DIR, recursively, sorted by path; symlinks are
//                            followed, a directory reached twice is walked once
//   run DIR  (no *.json)     InputError("model.syntax"): "no *.json model files under DIR"
//   symlink loop             InputError("model.syntax") naming the link (a link that points at
//                            itself, or a directory link back to one of its ancestors)
//   x.json that is a FIFO    listed; load_model then rejects it (not a regular file)
//
// Nothing here throws std::filesystem::filesystem_error: every file-system failure becomes an
// InputError with id "model.syntax" and the path (ill-formed UTF-8 bytes shown as \xNN).
//
// (model.hpp declares the same two functions without this documentation; this is the header
// to include.)
#pragma once

#include <filesystem>
#include <vector>

#include "tirx_verify/kernel/model.hpp"

namespace tirx::kernel {

// Most directory levels a walk descends below one of its roots.
inline constexpr int kMaxModelDirDepth = 64;

// Reads `file` (read_input_file with check id "model.syntax", at most kMaxModelFileBytes),
// requires its bytes to be UTF-8 (model.syntax with the byte offset), then parse_model(text,
// file). Sets the result's path. Throws InputError: model.syntax, model.schema, kernel.graph.
KernelModel load_model(const std::filesystem::path& file);

// The model files of `paths` (see the table above): a path naming a file is taken as it is, a
// directory contributes every *.json under it and must contribute at least one. Sorted by path,
// each path once. Throws InputError("model.syntax") for a path that does not exist, a name that
// is not UTF-8, a symlink loop, a dangling *.json link, a directory that cannot be listed or
// lies deeper than kMaxModelDirDepth levels, or a directory without *.json files.
std::vector<std::filesystem::path> collect_model_files(const std::vector<std::filesystem::path>& paths);

}  // namespace tirx::kernel
