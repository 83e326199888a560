// The threads of a default `hilsim run` (docs/architecture.md "Threads"): the main thread
// (watching), the RT loop, the I/O thread (the console's, which also drains the text logs and
// takes applied commands; hilsim-io without a console) and the telemetry recorder — and no
// more, whatever the run records.

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/temp_dir.hpp"

extern char** environ;

namespace hil::tools {
namespace {

namespace fs = std::filesystem;

/// The names of the process's threads, sorted (/proc/PID/task/*/comm).
std::vector<std::string> thread_names(pid_t pid) {
  std::vector<std::string> names;
  std::error_code ec;
  const fs::path tasks = fs::path("/proc") / std::to_string(pid) / "task";
  for (const auto& task : fs::directory_iterator(tasks, ec)) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// The threads of `hilsim run ARGS` once its loop runs (its manifest is written then).
std::vector<std::string> threads_of_run(const std::vector<std::string>& args) {
  const config::testing::TempDir dir;
  const fs::path run = dir.path() / "run";
  std::vector<std::string> all{HILSIM_BINARY, "run", "--no-rt",  "-q",
                               "--duration",  "60s", "--record", run.string()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, HILSIM_BINARY, nullptr, nullptr, argv.data(), environ), 0);
  for (int i = 0; i < 200 && !fs::exists(run / "manifest.json"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // well into the run
  std::vector<std::string> names = thread_names(pid);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  return names;
}

TEST(HilsimThreads, ADefaultRunHasFourThreadsTheRtLoopIncluded) {
  EXPECT_EQ(threads_of_run({"--console", "0"}),
            (std::vector<std::string>{"hilsim", "hilsim-console", "hilsim-record", "hilsim-rt"}));
}

TEST(HilsimThreads, WithoutAConsoleTheIoThreadTakesItsPlace) {
  EXPECT_EQ(threads_of_run({"--console", "off"}),
            (std::vector<std::string>{"hilsim", "hilsim-io", "hilsim-record", "hilsim-rt"}));
}

}  // namespace
}  // namespace hil::tools
