#include "io/bus/endpoint.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

namespace hil::io::bus {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

/// The directory the environment names, before creating it; `private_tmp` for the /tmp
/// fallback, which another user could have planted.
std::filesystem::path choose(bool& private_tmp) {
  private_tmp = false;
  if (std::string d = env("HILSIM_RUNTIME_DIR"); !d.empty()) return d;
  if (std::string d = env("RUNTIME_DIRECTORY"); !d.empty()) return d.substr(0, d.find(':'));
  if (std::string d = env("XDG_RUNTIME_DIR"); !d.empty()) {
    return std::filesystem::path(d) / "hilsim";
  }
  if (geteuid() == 0) return "/run/hilsim";
  private_tmp = true;
  return "/tmp/hilsim-" + std::to_string(geteuid());
}

}  // namespace

std::filesystem::path runtime_directory() {
  bool private_tmp = false;
  const std::filesystem::path dir = choose(private_tmp);
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(dir.parent_path());
    if (mkdir(dir.c_str(), 0750) != 0 && errno != EEXIST) {
      throw std::filesystem::filesystem_error("cannot create the hilsim runtime directory", dir,
                                              std::error_code(errno, std::generic_category()));
    }
  }
  if (private_tmp) {
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
      throw std::runtime_error("hilsim runtime directory " + dir.string() +
                               " is not a directory owned by uid " + std::to_string(geteuid()) +
                               "; set HILSIM_RUNTIME_DIR");
    }
  }
  return dir;
}

std::filesystem::path endpoint_for(std::string_view rig) {
  if (rig.empty() || rig.find('/') != std::string_view::npos) {
    throw std::invalid_argument("bad rig name \"" + std::string(rig) + "\" for a bus endpoint");
  }
  return runtime_directory() / (std::string(rig) + ".bus");
}

bool endpoint_accepts(const std::filesystem::path& socket_path) noexcept {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string p = socket_path.string();
  if (p.size() >= sizeof addr.sun_path) return false;
  std::memcpy(addr.sun_path, p.c_str(), p.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return false;
  // A full backlog (EAGAIN) still means a live server
  const int rc = connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  const bool alive = rc == 0 || errno == EAGAIN;
  close(fd);
  return alive;
}

std::vector<std::filesystem::path> running_endpoints() {
  std::vector<std::filesystem::path> found;
  std::filesystem::path dir;
  try {
    dir = runtime_directory();
  } catch (const std::exception&) {
    return found;
  }
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".bus" && entry.is_socket(ec) &&
        endpoint_accepts(entry.path())) {
      found.push_back(entry.path());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace hil::io::bus
