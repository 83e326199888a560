#pragma once
// Shared by the tests of io/bus/client: a RAVON-like bus and a private runtime directory
// ($HILSIM_RUNTIME_DIR in a fresh temp directory, never the real /run).
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "io/bus/bus_schema.hpp"

namespace hil::io::bus::test {

inline BusSchema ravon_bus() {
  BusSchema s{.name = "ravon"};
  s.regions.push_back({.name = "behaviour",
                       .direction = RegionDirection::input,
                       .writer = "behaviour",
                       .channels = {{"vehicle.wheel.fl.speed_ref", "rad/s"},
                                    {"vehicle.steering.front.command", "rad"}},
                       .timeout_ticks = 50});
  s.regions.push_back({.name = "env",
                       .direction = RegionDirection::input,
                       .writer = "env",
                       .channels = {{"env.road.friction.fl", "-"}}});
  s.regions.push_back({.name = "state",
                       .direction = RegionDirection::output,
                       .writer = "hilsim",
                       .channels = {{"vehicle.wheel.fl.speed", "rad/s"},
                                    {"vehicle.speed", "m/s"},
                                    {"vehicle.yaw_rate", "rad/s"}}});
  return s;
}

/// A fresh directory set as $HILSIM_RUNTIME_DIR for the test's lifetime.
class RuntimeDir {
 public:
  RuntimeDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hilbus-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
    setenv("HILSIM_RUNTIME_DIR", path_.c_str(), 1);
  }
  ~RuntimeDir() {
    unsetenv("HILSIM_RUNTIME_DIR");
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  RuntimeDir(const RuntimeDir&) = delete;
  RuntimeDir& operator=(const RuntimeDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::filesystem::path endpoint(const std::string& rig = "ravon") const {
    return path_ / (rig + ".bus");
  }

 private:
  std::filesystem::path path_;
};

inline std::set<std::string> dev_shm_names() {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm")) {
    names.insert(e.path().filename().string());
  }
  return names;
}

}  // namespace hil::io::bus::test
