#pragma once
// What the attach tests share: a client attaching to an endpoint, polling, a raw connection, and
// the fixture with a RAVON bus image served at a fresh runtime directory.

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "io/bus/bus_image.hpp"
#include "io/bus/client/attach_server.hpp"
#include "io/bus/client/bus_client.hpp"
#include "tests/io/bus/client/bus_fixture.hpp"

namespace hil::io::bus::test {

inline std::unique_ptr<BusClient> attach(const std::filesystem::path& endpoint,
                                         const std::string& role, BusStatus& status,
                                         std::string& why,
                                         const std::string& name = "attach_test") {
  AttachSpec o;
  o.role = role;
  o.client_name = name;
  return BusClient::attach(endpoint, o, status, why);
}

/// Polls `done` every 100 µs for up to `limit`; true when it held.
template <class F>
bool eventually(F done, std::chrono::milliseconds limit = std::chrono::milliseconds(2000)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return done();
}

inline int connect_raw(const std::filesystem::path& path) {
  const int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  EXPECT_EQ(connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  return fd;
}

class AttachTest : public ::testing::Test {
 protected:
  RuntimeDir dir;
  BusImage image{ravon_bus()};
  std::unique_ptr<AttachServer> server = std::make_unique<AttachServer>(image, dir.endpoint());
  BusStatus status = BusStatus::io_error;
  std::string why;
};

}  // namespace hil::io::bus::test
