// Finding and reading model files (kernel/model_files.hpp): directory walks never throw
// filesystem_error, loops and empty directories are bad input, files are read by read_input_file.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tirx_verify/kernel/model_files.hpp"
#include "tirx_verify/layout/error.hpp"

namespace tirx::kernel {
namespace {

namespace fs = std::filesystem;

constexpr const char* kModel =
    R"({"kernel": "k", "target": "sm_100a", "buffers": [{"name": "a", "scope": "local", "shape": [8], "dtype": "float32", "layout": "S[8:1]"}], "ops": []})";

class ModelFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tirx_model_files_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text = kModel) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  std::string error(const std::vector<fs::path>& paths) {
    try {
      collect_model_files(paths);
    } catch (const InputError& e) {
      EXPECT_EQ(e.check_id(), "model.syntax");
      return e.message();
    }
    ADD_FAILURE() << "no error";
    return "";
  }
  fs::path dir_;
};

TEST_F(ModelFiles, WalksSortedRecursiveAndOnlyJson) {
  write("b.json");
  write("a/c.json");
  write("a/notes.txt");
  write("a/upper.JSON");
  const auto files = collect_model_files({dir_});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0], dir_ / "a/c.json");
  EXPECT_EQ(files[1], dir_ / "b.json");
}

TEST_F(ModelFiles, AFileIsTakenAsGivenAndListedOnce) {
  const fs::path f = write("x.txt");
  EXPECT_EQ(collect_model_files({f, f}), std::vector<fs::path>{f});
}

TEST_F(ModelFiles, EmptyDirectoriesAndDirectoriesWithoutModelsAreBadInput) {
  fs::create_directories(dir_ / "empty");
  EXPECT_NE(error({dir_ / "empty"}).find("no *.json model files under"), std::string::npos);
  write("txt/readme.txt");
  EXPECT_NE(error({dir_ / "txt"}).find("no *.json model files under"), std::string::npos);
  EXPECT_NE(error({dir_ / "none"}).find("no such file or directory"), std::string::npos);
  EXPECT_NE(error({""}).find("empty path"), std::string::npos);
}

TEST_F(ModelFiles, SymlinkLoopsAreBadInputNotFilesystemErrors) {
  fs::create_directories(dir_ / "files");
  fs::create_symlink("b.json", dir_ / "files/a.json");
  fs::create_symlink("a.json", dir_ / "files/b.json");
  EXPECT_NE(error({dir_ / "files"}).find("symlink loop at"), std::string::npos);
  write("dirs/m.json");
  fs::create_directories(dir_ / "dirs/sub");
  fs::create_symlink("..", dir_ / "dirs/sub/up");
  EXPECT_NE(error({dir_ / "dirs"}).find("leads back to a directory that contains it"), std::string::npos);
  fs::create_symlink("self", dir_ / "self");
  EXPECT_NE(error({dir_ / "self"}).find("symlink loop at"), std::string::npos);
}

TEST_F(ModelFiles, DanglingLinks) {
  write("d/m.json");
  fs::create_symlink("nowhere", dir_ / "d/notes");  // not a model: skipped
  EXPECT_EQ(collect_model_files({dir_ / "d"}).size(), 1u);
  fs::create_symlink("nowhere.json", dir_ / "d/x.json");
  EXPECT_NE(error({dir_ / "d"}).find("No such file or directory"), std::string::npos);
  EXPECT_NE(error({dir_ / "d/x.json"}).find("is a symlink that points at nothing"), std::string::npos);
}

TEST_F(ModelFiles, SharedSubtreesAreWalkedOnce) {
  // d0 -> d1 -> ... -> d40 through two links each: 2^40 paths, 41 directories.
  for (int i = 0; i <= 40; ++i) fs::create_directories(dir_ / ("dag/d" + std::to_string(i)));
  for (int i = 0; i < 40; ++i)
    for (const char* l : {"l1", "l2"})
      fs::create_symlink("../d" + std::to_string(i + 1), dir_ / ("dag/d" + std::to_string(i)) / l);
  write("dag/d40/m.json");
  EXPECT_EQ(collect_model_files({dir_ / "dag/d0"}).size(), 1u);
}

TEST_F(ModelFiles, DepthIsLimited) {
  fs::path deep = "deep";
  for (int i = 0; i <= kMaxModelDirDepth; ++i) deep /= "d";
  write((deep / "m.json").string());
  EXPECT_NE(error({dir_ / "deep"}).find("levels below"), std::string::npos);
  fs::path ok = "ok";
  for (int i = 0; i < kMaxModelDirDepth; ++i) ok /= "d";
  write((ok / "m.json").string());
  EXPECT_EQ(collect_model_files({dir_ / "ok"}).size(), 1u);
}

TEST_F(ModelFiles, AFifoIsListedAndRefusedByTheLoader) {
  fs::create_directories(dir_ / "f");
  ASSERT_EQ(::mkfifo((dir_ / "f/m.json").c_str(), 0600), 0);
  const auto files = collect_model_files({dir_ / "f"});
  ASSERT_EQ(files.size(), 1u);
  try {
    load_model(files[0]);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "model.syntax");
    EXPECT_NE(e.message().find("is a FIFO, not a regular file"), std::string::npos);
  }
}

TEST_F(ModelFiles, FileNamesAndContentsMustBeUtf8) {
  write("n/ok.json");
  write("n/bad\xfe.json");
  EXPECT_NE(error({dir_ / "n"}).find("bad\\xfe.json"), std::string::npos);
  const fs::path latin1 = write("latin1.json", std::string(R"({"kernel": "caf)") + "\xe9" + R"(", "buffers": []})");
  try {
    load_model(latin1);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "model.syntax");
    EXPECT_EQ(e.pos(), 15u);
    EXPECT_NE(e.message().find("is not valid UTF-8: byte 0xe9 at byte 15"), std::string::npos) << e.message();
  }
}

TEST_F(ModelFiles, LoadSetsThePath) {
  const fs::path p = write("m.json");
  const KernelModel m = load_model(p);
  EXPECT_EQ(m.path, p);
  EXPECT_EQ(m.kernel, "k");
}

}  // namespace
}  // namespace tirx::kernel
