#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/source_dir.hpp"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/input_file.hpp"
#include "tirx_verify/layout/utf8.hpp"

namespace tirx::hw {

namespace {

using nlohmann::json;

[[noreturn]] void bad(std::string_view origin, const std::string& msg) {
  throw InputError("target.file", fmt::format("{}: {}", origin, msg));
}

const json& field(const json& obj, std::string_view origin, const char* path, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) bad(origin, fmt::format("missing field '{}{}'", path, key));
  return obj.at(key);
}

std::int64_t int_field(const json& obj, std::string_view origin, const char* path, const char* key,
                       std::int64_t lo, std::int64_t hi) {
  const json& v = field(obj, origin, path, key);
  if (!v.is_number_integer()) bad(origin, fmt::format("field '{}{}' must be an integer", path, key));
  std::int64_t x = v.get<std::int64_t>();
  if (x < lo || x > hi) bad(origin, fmt::format("field '{}{}' = {} is outside [{}, {}]", path, key, x, lo, hi));
  return x;
}

bool pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

int Target::tmem_subpartition_lanes() const {
  const TmemGeometry& g = require_tmem("TMEM sub-partitions");
  return g.lanes / warps_per_warpgroup;
}

const TmemGeometry& Target::require_tmem(std::string_view what) const {
  if (!tmem) {
    throw InputError("target.feature",
                     fmt::format("{} needs tensor memory, which target {} does not have", what, name),
                     {}, std::nullopt, "use a Blackwell target such as sm_100a");
  }
  return *tmem;
}

bool Target::has_tma_swizzle(std::string_view mode) const {
  for (const auto& m : tma_swizzle_modes)
    if (m == mode) return true;
  return false;
}

Target parse_target(std::string_view json_text, std::string_view origin) {
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range 406 for a number beyond double
    bad(origin, fmt::format("not valid JSON ({})", e.what()));
  }
  if (!j.is_object()) bad(origin, "the top level must be an object");
  Target t;
  const json& name = field(j, origin, "", "name");
  if (!name.is_string()) bad(origin, "field 'name' must be a string");
  t.name = name.get<std::string>();

  const json& warp = field(j, origin, "", "warp");
  t.warp_size = static_cast<int>(int_field(warp, origin, "warp.", "size", 1, 64));
  t.warps_per_warpgroup = static_cast<int>(int_field(warp, origin, "warp.", "warps_per_warpgroup", 1, 64));
  // Optional (0 = not checked): older target files and minimal test targets omit them.
  if (warp.contains("max_threads_per_cta"))
    t.max_threads_per_cta = static_cast<int>(int_field(warp, origin, "warp.", "max_threads_per_cta", 1, 1 << 16));
  if (warp.contains("max_registers_per_thread"))
    t.max_registers_per_thread =
        static_cast<int>(int_field(warp, origin, "warp.", "max_registers_per_thread", 1, 1 << 16));

  const json& smem = field(j, origin, "", "smem");
  t.smem_bytes_per_cta = int_field(smem, origin, "smem.", "bytes_per_cta", 1, std::int64_t{1} << 32);
  t.banks = static_cast<int>(int_field(smem, origin, "smem.", "banks", 1, 1024));
  t.bank_bytes = static_cast<int>(int_field(smem, origin, "smem.", "bank_bytes", 1, 64));
  if (!pow2(t.banks) || !pow2(t.bank_bytes)) bad(origin, "smem.banks and smem.bank_bytes must be powers of two");

  const json& wf = field(smem, origin, "smem.", "wavefront");
  const json& pt = field(wf, origin, "smem.wavefront.", "phase_threads");
  if (!pt.is_object()) bad(origin, "smem.wavefront.phase_threads must be an object {\"width\": threads}");
  for (const auto& [k, v] : pt.items()) {
    int width = 0;
    try {
      width = std::stoi(k);
    } catch (...) {
      bad(origin, fmt::format("smem.wavefront.phase_threads key '{}' is not an access width", k));
    }
    if (width != 4 && width != 8 && width != 16)
      bad(origin, fmt::format("smem.wavefront.phase_threads key '{}' must be 4, 8 or 16", k));
    if (!v.is_number_integer() || v.get<int>() < 1 || v.get<int>() > t.warp_size || t.warp_size % v.get<int>() != 0)
      bad(origin, fmt::format("smem.wavefront.phase_threads[{}] must divide the warp size", k));
    t.wavefront.phase_threads[width] = v.get<int>();
  }
  for (int w : {4, 8, 16})
    if (!t.wavefront.phase_threads.count(w))
      bad(origin, fmt::format("smem.wavefront.phase_threads lacks access width {}", w));
  const json& px = field(wf, origin, "smem.wavefront.", "uniform_pair_xor");
  const json& pw = field(wf, origin, "smem.wavefront.", "uniform_pair_widths");
  if (!px.is_array() || !pw.is_array())
    bad(origin, "smem.wavefront.uniform_pair_xor and uniform_pair_widths must be arrays of integers");
  for (const auto& v : px) {
    if (!v.is_number_integer() || v.get<int>() < 1 || v.get<int>() >= t.warp_size)
      bad(origin, "smem.wavefront.uniform_pair_xor entries must be in [1, warp size)");
    t.wavefront.uniform_pair_xor.push_back(v.get<int>());
  }
  for (const auto& v : pw) {
    if (!v.is_number_integer() || !t.wavefront.phase_threads.count(v.get<int>()))
      bad(origin, "smem.wavefront.uniform_pair_widths entries must be access widths (4, 8, 16)");
    t.wavefront.uniform_pair_widths.insert(v.get<int>());
  }
  t.wavefront.ldmatrix_phase_rows =
      static_cast<int>(int_field(wf, origin, "smem.wavefront.", "ldmatrix_phase_rows", 1, t.warp_size));
  if (wf.contains("calibration") && wf.at("calibration").is_string())
    t.wavefront.calibration = wf.at("calibration").get<std::string>();

  const json& tma = field(j, origin, "", "tma");
  t.tma_rank_max = static_cast<int>(int_field(tma, origin, "tma.", "rank_max", 1, 16));
  t.tma_box_dim_max = static_cast<int>(int_field(tma, origin, "tma.", "box_dim_max", 1, 1 << 16));
  t.tma_inner_box_bytes_multiple = static_cast<int>(int_field(tma, origin, "tma.", "inner_box_bytes_multiple", 1, 1024));
  t.tma_smem_dst_align_bytes = static_cast<int>(int_field(tma, origin, "tma.", "smem_dst_align_bytes", 1, 1 << 16));
  const json& modes = field(tma, origin, "tma.", "swizzle_modes");
  if (!modes.is_array()) bad(origin, "tma.swizzle_modes must be an array of strings");
  for (const auto& m : modes) {
    if (!m.is_string()) bad(origin, "tma.swizzle_modes must be an array of strings");
    t.tma_swizzle_modes.push_back(m.get<std::string>());
  }

  const json& tm = field(j, origin, "", "tmem");
  if (!tm.is_null()) {
    TmemGeometry g;
    g.lanes = static_cast<int>(int_field(tm, origin, "tmem.", "lanes", 1, 1 << 15));
    g.columns = static_cast<int>(int_field(tm, origin, "tmem.", "columns", 1, 1 << 16));
    g.cell_bits = static_cast<int>(int_field(tm, origin, "tmem.", "cell_bits", 32, 32));
    g.alloc_min_columns = static_cast<int>(int_field(tm, origin, "tmem.", "alloc_min_columns", 1, g.columns));
    g.alloc_max_columns = static_cast<int>(int_field(tm, origin, "tmem.", "alloc_max_columns", g.alloc_min_columns, g.columns));
    g.alloc_granularity_columns =
        static_cast<int>(int_field(tm, origin, "tmem.", "alloc_granularity_columns", 1, g.columns));
    if (g.lanes % t.warps_per_warpgroup != 0) bad(origin, "tmem.lanes must be a multiple of warp.warps_per_warpgroup");
    if (!pow2(g.alloc_min_columns) || !pow2(g.alloc_max_columns) || !pow2(g.alloc_granularity_columns))
      bad(origin, "tmem allocation sizes must be powers of two");
    t.tmem = g;
  }
  return t;
}

Target load_target_file(const std::string& path) {
  const std::string text = read_input_file(path, "target.file", kMaxTargetFileBytes, "target file");
  require_utf8(text, "target.file", fmt::format("target file '{}'", path));
  return parse_target(text, path);
}

std::string find_target_file(std::string_view name) {
  if (name.empty()) throw InputError("target.file", "empty target name");
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok)
      throw InputError("target.file", fmt::format("target name '{}' is not a plain name", name), {}, std::nullopt,
                       "use --target-file PATH for a file outside models/targets");
  }
  std::vector<std::filesystem::path> roots;
  if (const char* env = std::getenv("TIRX_VERIFY_ROOT"); env && *env) roots.emplace_back(env);
  roots.emplace_back(std::string(source_dir()));
  {  // an installed CLI: <prefix>/bin/tirx-verify -> <prefix>/share/tirx_verify, wherever the prefix moved
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) roots.push_back(exe.parent_path().parent_path() / "share" / "tirx_verify");
  }
  roots.emplace_back(std::string(install_data_dir()));
  std::string tried;
  for (const auto& root : roots) {
    auto p = root / "models" / "targets" / (std::string(name) + ".json");
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p.string();
    tried += (tried.empty() ? "" : ", ") + p.string();
  }
  throw InputError("target.file", fmt::format("unknown target '{}' (looked for {})", name, tried.empty() ? "nothing" : tried),
                   {}, std::nullopt, "known targets: sm_90a, sm_100a; or set TIRX_VERIFY_ROOT");
}

Target load_target(std::string_view name) { return load_target_file(find_target_file(name)); }

}  // namespace tirx::hw
