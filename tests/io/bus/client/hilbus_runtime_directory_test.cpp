// hilbus_runtime_directory() (libhilbus.so, the C ABI) chooses the directory the C++ side
// (io/bus/endpoint.hpp) chooses, creates it as hilsim does and says why when it cannot.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "io/bus/client/hilbus.h"
#include "io/bus/endpoint.hpp"
#include "tests/io/bus/client/bus_fixture.hpp"

namespace hil::io::bus {
namespace {

/// What libhilbus answers, "" for NULL; `why` gets the reason it gave.
std::string c_directory(std::string& why) {
  char text[512] = "not touched";
  const char* dir = hilbus_runtime_directory(text, sizeof text);
  why = text;
  return dir != nullptr ? std::string(dir) : std::string();
}

// NOLINTBEGIN(concurrency-mt-unsafe): the tests set their own environment, on one thread
class SavedEnv {
 public:
  explicit SavedEnv(const char* name) : name_(name) {
    const char* v = std::getenv(name);
    had_ = v != nullptr;
    value_ = had_ ? v : "";
  }
  ~SavedEnv() {
    if (had_) {
      setenv(name_, value_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  SavedEnv(const SavedEnv&) = delete;
  SavedEnv& operator=(const SavedEnv&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string value_;
};

TEST(HilbusRuntimeDirectoryTest, FollowsTheEnvironmentAsHilsimDoes) {
  const SavedEnv xdg("XDG_RUNTIME_DIR"), systemd("RUNTIME_DIRECTORY");
  test::RuntimeDir dir;  // sets HILSIM_RUNTIME_DIR
  const std::filesystem::path& base = dir.path();
  std::string why;

  EXPECT_EQ(c_directory(why), base.string());
  EXPECT_EQ(why, "");

  unsetenv("HILSIM_RUNTIME_DIR");
  setenv("RUNTIME_DIRECTORY", ((base / "systemd").string() + ":" + (base / "b").string()).c_str(),
         1);
  EXPECT_EQ(c_directory(why), (base / "systemd").string());
  EXPECT_EQ(c_directory(why), runtime_directory().string());
  struct stat st {};
  ASSERT_EQ(stat((base / "systemd").c_str(), &st), 0) << "created";
  EXPECT_EQ(st.st_mode & 07777, 0750U);

  unsetenv("RUNTIME_DIRECTORY");
  setenv("XDG_RUNTIME_DIR", (base / "xdg").c_str(), 1);
  EXPECT_EQ(c_directory(why), (base / "xdg" / "hilsim").string());
  EXPECT_EQ(c_directory(why), runtime_directory().string());

  unsetenv("XDG_RUNTIME_DIR");
  if (geteuid() != 0) {  // as root the last resort is /run/hilsim: not for a test to create
    EXPECT_EQ(c_directory(why), "/tmp/hilsim-" + std::to_string(geteuid()));
    EXPECT_EQ(c_directory(why), runtime_directory().string());
  }
  setenv("HILSIM_RUNTIME_DIR", base.c_str(), 1);
}

TEST(HilbusRuntimeDirectoryTest, SaysWhyWhenItCannotBeCreated) {
  test::RuntimeDir dir;
  const std::filesystem::path file = dir.path() / "a-file";
  std::ofstream(file) << "not a directory";
  setenv("HILSIM_RUNTIME_DIR", (file / "hilsim").c_str(), 1);
  std::string why;
  EXPECT_EQ(c_directory(why), "") << "NULL";
  EXPECT_NE(why.find("Not a directory"), std::string::npos) << why;
  EXPECT_NE(why.find(file.string()), std::string::npos) << why;
  EXPECT_EQ(hilbus_runtime_directory(nullptr, 0), nullptr) << "why may be NULL";
  char small[8];
  EXPECT_EQ(hilbus_runtime_directory(small, sizeof small), nullptr);
  EXPECT_EQ(std::string(small).size(), sizeof small - 1) << "truncated, NUL-terminated";
}

TEST(HilbusRuntimeDirectoryTest, AnotherThreadsCallLeavesThisThreadsStringAlone) {
  test::RuntimeDir dir;
  const char* mine = hilbus_runtime_directory(nullptr, 0);
  ASSERT_NE(mine, nullptr);
  std::string theirs;
  std::thread other([&] {  // this thread waits in join(): nobody else reads the environment
    setenv("HILSIM_RUNTIME_DIR", (dir.path() / "other").c_str(), 1);
    const char* d = hilbus_runtime_directory(nullptr, 0);
    theirs = d != nullptr ? d : "NULL";
    setenv("HILSIM_RUNTIME_DIR", dir.path().c_str(), 1);
  });
  other.join();
  EXPECT_EQ(theirs, (dir.path() / "other").string());
  EXPECT_EQ(std::string(mine), dir.path().string());
}
// NOLINTEND(concurrency-mt-unsafe)

}  // namespace
}  // namespace hil::io::bus
