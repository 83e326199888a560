#include "tools/sweep/sweep_worker.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <stdexcept>

namespace hil::sweep {
namespace {

namespace fs = std::filesystem;

// The self-pipe: [0] read by the worker, [1] written by the signal handlers.
std::array<int, 2> g_wake_pipe{-1,
                               -1};   // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)
struct sigaction g_previous_chld {};  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

extern "C" void on_child_signal(int /*signal*/) { ChildWatch::wake(); }

/// stdout and stderr to /dev/null for a scope, then back.
class Silenced {
 public:
  Silenced() {
    std::fflush(nullptr);
    saved_out_ = dup(STDOUT_FILENO);
    saved_err_ = dup(STDERR_FILENO);
    const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
      close(null);
    }
  }
  ~Silenced() {
    std::fflush(nullptr);
    if (saved_out_ >= 0) dup2(saved_out_, STDOUT_FILENO), close(saved_out_);
    if (saved_err_ >= 0) dup2(saved_err_, STDERR_FILENO), close(saved_err_);
  }
  Silenced(const Silenced&) = delete;
  Silenced& operator=(const Silenced&) = delete;
  Silenced(Silenced&&) = delete;
  Silenced& operator=(Silenced&&) = delete;

 private:
  int saved_out_ = -1;
  int saved_err_ = -1;
};

}  // namespace

bool warm_up(const VariantRun& run, session::RunSpec spec, const fs::path& scratch,
             const std::string& duration) {
  spec.duration = duration;
  spec.record_dir = scratch.string();
  spec.quiet = true;
  int status = 1;
  {
    const Silenced quiet;
    // The harness sets SIGINT and SIGTERM back to their defaults when its run ends: the
    // caller's handlers come back with the previous dispositions
    struct sigaction old_int {};
    struct sigaction old_term {};
    sigaction(SIGINT, nullptr, &old_int);
    sigaction(SIGTERM, nullptr, &old_term);
    try {
      fs::remove_all(scratch);
      status = run(spec);
    } catch (const std::exception&) {  // the variants will say it
      status = 1;
    }
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
  }
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  return status == 0;
}

pid_t fork_variant(const VariantRun& run, const session::RunSpec& spec, const fs::path& log) {
  std::fflush(nullptr);  // nothing buffered goes out twice
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);  // its own group: a stop reaches it and whatever it starts
    // the worker's SIGCHLD pipe is not the variant's
    signal(SIGCHLD, SIG_DFL);
    for (int& fd : g_wake_pipe) {
      if (fd >= 0) close(fd);
      fd = -1;
    }
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int status = 1;
    try {
      status = run(spec);
    } catch (const std::exception& e) {  // as `hilsim run` says it
      fmt::print(stderr, "error: {}\n", e.what());
    }
    std::fflush(nullptr);
    _exit(status);
  }
  setpgid(pid, pid);  // also from here: no race with a kill(-pid) right after
  return pid;
}

ChildWatch::ChildWatch() {
  if (pipe2(g_wake_pipe.data(), O_CLOEXEC | O_NONBLOCK) != 0) {
    throw std::runtime_error("cannot make the sweep worker's pipe");
  }
  struct sigaction action {};
  action.sa_handler = on_child_signal;
  action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigemptyset(&action.sa_mask);
  sigaction(SIGCHLD, &action, &g_previous_chld);
}

ChildWatch::~ChildWatch() {
  sigaction(SIGCHLD, &g_previous_chld, nullptr);
  for (int& fd : g_wake_pipe) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
}

void ChildWatch::wait(std::chrono::steady_clock::duration at_most) {
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(at_most).count();
  pollfd p{.fd = g_wake_pipe[0], .events = POLLIN, .revents = 0};
  (void)poll(&p, 1, static_cast<int>(std::clamp<long long>(ms, 0, 1000)));
  std::array<char, 64> drain{};
  while (read(g_wake_pipe[0], drain.data(), drain.size()) > 0) {
  }
}

void ChildWatch::wake() noexcept {
  const int saved = errno;  // a handler leaves errno as it found it
  if (g_wake_pipe[1] >= 0) (void)!write(g_wake_pipe[1], "c", 1);
  errno = saved;
}

}  // namespace hil::sweep
