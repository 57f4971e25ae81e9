// The readback programs (tools/readback) must stay buildable: generate the H200 (sm_90a) and
// the Blackwell (sm_100a) campaigns and compile them with nvcc. No GPU is needed; without
// nvcc or python3 the tests are skipped with a message. nvcc: $NVCC, else nvcc on PATH, else
// /usr/local/cuda/bin/nvcc.
//
// The Blackwell program has never run (no B200 here); compiling it for sm_100a is the check
// the issue asks for, and the manifest checks below pin down that it covers what it must.
#include <gtest/gtest.h>

#include "tirx_verify/layout/source_dir.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string tools_dir() { return std::string(tirx::source_dir()) + "/tools/readback"; }

bool runs_ok(const std::string& cmd) { return std::system((cmd + " > /dev/null 2>&1").c_str()) == 0; }

std::string find_nvcc() {
  if (const char* e = std::getenv("NVCC"); e && *e && fs::exists(e)) return e;
  if (runs_ok("command -v nvcc")) return "nvcc";
  if (fs::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return {};
}

// Runs cmd, returns {exit status, the last part of its output}.
std::pair<int, std::string> run(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::array<char, 4096> buf;
  while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
  int rc = pclose(p);
  if (out.size() > 4000) out = "..." + out.substr(out.size() - 4000);
  return {rc, out};
}

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("tirx_readback_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Generates a campaign into a fresh directory; returns it (empty path + GTEST_SKIP when python3 is missing).
fs::path generate(const std::string& target) {
  fs::path d = fresh_dir(target);
  auto [rc, out] = run("python3 " + tools_dir() + "/readback_gen.py --target " + target + " --out " + d.string());
  EXPECT_EQ(rc, 0) << out;
  return d;
}

// device_only: -cubin (ptxas on the device code, seconds); otherwise a full -c (host code too).
std::string compile_cmd(const std::string& nvcc, const std::string& arch, const fs::path& cu, bool device_only) {
  return nvcc + " -std=c++17 -gencode arch=compute_" + arch + ",code=sm_" + arch + (device_only ? " -cubin " : " -c ") +
         cu.string() + " -o " + (cu.parent_path() / (cu.stem().string() + (device_only ? ".cubin" : ".o"))).string();
}

TEST(ReadbackPrograms, H200ProgramsCompileForSm90a) {
  if (!runs_ok("python3 --version")) GTEST_SKIP() << "python3 not found: cannot run tools/readback/readback_gen.py";
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "nvcc not found (set NVCC): the sm_90a readback programs were not compiled";
  fs::path d = generate("sm90");
  std::map<std::string, std::future<std::pair<int, std::string>>> jobs;
  for (const char* p : {"tma_tile", "banks", "frag", "wgmma"})
    jobs[p] = std::async(std::launch::async, run, compile_cmd(nvcc, "90a", d / (std::string(p) + ".cu"), true));
  for (auto& [name, job] : jobs) {
    auto [rc, out] = job.get();
    EXPECT_EQ(rc, 0) << name << ".cu failed to compile for sm_90a:\n" << out;
  }
  fs::remove_all(d);
}

TEST(ReadbackPrograms, BlackwellProgramCompilesForSm100a) {
  if (!runs_ok("python3 --version")) GTEST_SKIP() << "python3 not found: cannot run tools/readback/readback_gen.py";
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "nvcc not found (set NVCC): the sm_100a tcgen05 readback program was not compiled";
  fs::path d = generate("sm100");
  auto [rc, out] = run(compile_cmd(nvcc, "100a", d / "tcgen05_probe.cu", false));
  EXPECT_EQ(rc, 0) << "tcgen05_probe.cu failed to compile for sm_100a:\n" << out;
  fs::remove_all(d);
}

// What the Blackwell campaign covers, read from its manifest (no nvcc needed).
TEST(ReadbackPrograms, BlackwellCampaignCoversEveryAtomAndTheSeedCase) {
  if (!runs_ok("python3 --version")) GTEST_SKIP() << "python3 not found: cannot run tools/readback/readback_gen.py";
  fs::path d = generate("sm100");
  std::ifstream in(d / "manifest_tcgen05.json");
  ASSERT_TRUE(in) << "no manifest_tcgen05.json";
  json m = json::parse(in);
  std::set<std::string> ld_shapes, st_shapes;
  std::set<std::pair<std::string, int>> seed;  // (shape, lane_off) read after the Layout D fill
  std::set<int> fills;
  int alloc = 0;
  for (const json& e : m.at("experiments")) {
    const std::string kind = e.at("kind");
    if (kind == "alloc") { ++alloc; continue; }
    fills.insert(e.at("fill").get<int>());
    (kind == "ld" ? ld_shapes : st_shapes).insert(e.at("shape").get<std::string>());
    if (kind == "ld" && e.at("fill") == 2) seed.insert({e.at("shape").get<std::string>(), e.at("lane_off").get<int>()});
  }
  const std::set<std::string> all = {"32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2"};
  EXPECT_EQ(ld_shapes, all);
  EXPECT_EQ(st_shapes, all);
  EXPECT_EQ(fills, (std::set<int>{0, 1, 2, 3, 4}));  // st, cp, mma Layout D, Layout F sub_slab 0 and 1
  for (const char* s : {"16x64b", "16x128b", "16x256b"})
    for (int lane_off : {0, 16}) EXPECT_TRUE(seed.count({s, lane_off})) << s << " at lane offset " << lane_off;
  EXPECT_EQ(alloc, 1);
  EXPECT_EQ(m.at("experiments").size(), 167u);
  fs::remove_all(d);
}

}  // namespace
