// read_input_file (layout/input_file.hpp): only regular files, never blocking, never past the cap.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/input_file.hpp"

namespace tirx {
namespace {

namespace fs = std::filesystem;

class InputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tirx_input_file_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  // The message of the InputError reading `p` throws (with the given cap).
  std::string error(const fs::path& p, std::size_t cap = 1024) {
    try {
      read_input_file(p, "model.syntax", cap, "model file");
    } catch (const InputError& e) {
      EXPECT_EQ(e.check_id(), "model.syntax");
      return e.message();
    }
    ADD_FAILURE() << "no error reading " << p;
    return "";
  }
  fs::path dir_;
};

TEST_F(InputFile, ReadsARegularFileWhole) {
  const std::string bytes("{\"a\": 1}\n\0tail", 15);
  EXPECT_EQ(read_input_file(write("a.json", bytes), "model.syntax", 1024, "model file"), bytes);
  EXPECT_EQ(read_input_file(write("empty.json", ""), "model.syntax", 1024, "model file"), "");
}

TEST_F(InputFile, TheCapIsInclusive) {
  EXPECT_EQ(read_input_file(write("ten", "0123456789"), "model.syntax", 10, "model file").size(), 10u);
  EXPECT_NE(error(write("eleven", "0123456789a"), 10).find("is 11 bytes; the limit is 10 bytes"), std::string::npos);
}

TEST_F(InputFile, AFileWhoseSizeSaysZeroIsStillCapped) {
  // /proc files report st_size 0 and have content: the reader stops one byte past the cap.
  EXPECT_NE(error("/proc/self/status", 8).find("the limit is 8 bytes"), std::string::npos);
}

TEST_F(InputFile, NotRegularFilesAreRefusedWithoutReading) {
  const fs::path fifo = dir_ / "fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(error(fifo).find("is a FIFO, not a regular file"), std::string::npos);  // and did not block
  EXPECT_NE(error("/dev/zero").find("'/dev/zero' is a character device, not a regular file"), std::string::npos);
  EXPECT_NE(error("/dev/null").find("character device"), std::string::npos);
  EXPECT_NE(error(dir_).find("is a directory, not a regular file"), std::string::npos);
}

TEST_F(InputFile, MissingFilesLinksAndLoops) {
  EXPECT_NE(error(dir_ / "none.json").find("No such file or directory"), std::string::npos);
  fs::create_symlink("self.json", dir_ / "self.json");
  EXPECT_NE(error(dir_ / "self.json").find("Too many levels of symbolic links"), std::string::npos);
  fs::create_symlink("nowhere.json", dir_ / "dangling.json");
  EXPECT_NE(error(dir_ / "dangling.json").find("No such file or directory"), std::string::npos);
  fs::create_symlink(write("real.json", "{}"), dir_ / "link.json");
  EXPECT_EQ(read_input_file(dir_ / "link.json", "model.syntax", 1024, "model file"), "{}");
}

TEST_F(InputFile, ANameThatIsNotUtf8IsRefusedWithItsOffset) {
  const fs::path p = write("bad\xff.json", "{}");
  try {
    read_input_file(p, "target.file", 1024, "target file");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.check_id(), "target.file");
    EXPECT_EQ(e.pos(), p.string().size() - 6);
    EXPECT_NE(e.message().find("bad\\xff.json"), std::string::npos) << e.message();
  }
  EXPECT_NE(error("").find("empty model file name"), std::string::npos);
}

TEST_F(InputFile, FileKind) {
  EXPECT_EQ(file_kind(dir_), "directory");
  EXPECT_EQ(file_kind("/dev/null"), "character device");
  EXPECT_EQ(file_kind(write("r", "x")), "regular file");
  EXPECT_EQ(file_kind(dir_ / "none"), "");
}

}  // namespace
}  // namespace tirx
