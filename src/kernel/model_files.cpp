// Reading model files from disk (model.hpp: load_model, collect_model_files). Kept apart from
// parse_model so that file-system handling (what may be read, how much, directory walks) is one
// concern in one file.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "tirx_verify/kernel/model.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {

KernelModel load_model(const std::filesystem::path& file) {
  std::ifstream f(file, std::ios::binary);
  if (!f) throw InputError("model.syntax", fmt::format("cannot read model file {}", file.string()));
  std::stringstream ss;
  ss << f.rdbuf();
  KernelModel m = parse_model(ss.str(), file.string());
  m.path = file;
  return m;
}

std::vector<std::filesystem::path> collect_model_files(const std::vector<std::filesystem::path>& paths) {
  std::vector<std::filesystem::path> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(e.path());
    } else if (std::filesystem::exists(p, ec)) {
      out.push_back(p);
    } else {
      throw InputError("model.syntax", fmt::format("no such file or directory: {}", p.string()));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tirx::kernel
