// io/bus/client/attach_server.hpp + endpoint.hpp: what the server refuses (a read-only fd
// mapped writable, a malformed or missing hello, other users, one client too many), the
// socket's lifecycle and where endpoints live. The lease: attach_test.cpp.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <thread>

#include "io/bus/bus_image.hpp"
#include "io/bus/client/attach_protocol.hpp"
#include "io/bus/client/attach_server.hpp"
#include "io/bus/client/bus_client.hpp"
#include "io/bus/endpoint.hpp"
#include "tests/io/bus/client/attach_fixture.hpp"

namespace hil::io::bus {
namespace {

using test::attach;
using test::AttachTest;
using test::connect_raw;
using test::eventually;
using test::ravon_bus;
using test::RuntimeDir;

TEST_F(AttachTest, ReadOnlyFdsCannotBeMappedWritableAndOnlyTheRolesSegmentIs) {
  for (const bool want_write : {false, true}) {
    const int fd = connect_raw(dir.endpoint());
    Hello hello{};
    hello.magic = kHelloMagic;
    hello.proto = kAttachProto;
    hello.want_write = want_write ? 1 : 0;
    set_field(hello.role, sizeof hello.role, want_write ? "env" : "");
    ASSERT_TRUE(send_hello(fd, hello, why)) << why;
    Welcome w{};
    std::vector<int> fds;
    ASSERT_TRUE(receive_welcome(fd, 1000, w, fds, why)) << why;
    ASSERT_EQ(w.status, AttachStatus::ok) << w.message;
    ASSERT_EQ(w.segment_count, image.segment_count() + (want_write ? 1 : 0));
    int writable = 0;
    for (std::uint32_t i = 0; i < w.segment_count; ++i) {
      const std::size_t size = image.segment(w.segments[i].index).size();
      void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fds[i], 0);
      if (w.segments[i].writable != 0) {
        ++writable;
        EXPECT_NE(p, MAP_FAILED);
        EXPECT_EQ(w.segments[i].index, 2U);  // env's IN segment
        EXPECT_STREQ(w.segments[i].role, "env");
      } else {
        EXPECT_EQ(p, MAP_FAILED) << "segment " << w.segments[i].index << " mapped writable";
        EXPECT_EQ(errno, EACCES);
      }
      if (p != MAP_FAILED) munmap(p, size);
      EXPECT_NE(ftruncate(fds[i], 0), 0) << "sealed or read-only";
      close(fds[i]);
    }
    EXPECT_EQ(writable, want_write ? 1 : 0);
    close(fd);
  }
}

TEST_F(AttachTest, AMalformedHelloIsRefused) {
  const int fd = connect_raw(dir.endpoint());
  const char junk[10] = "junkjunk";
  ASSERT_EQ(send(fd, junk, sizeof junk, 0), static_cast<ssize_t>(sizeof junk));
  Welcome w{};
  std::vector<int> fds;
  ASSERT_TRUE(receive_welcome(fd, 1000, w, fds, why)) << why;
  EXPECT_EQ(w.status, AttachStatus::bad_hello);
  EXPECT_NE(std::string(w.message).find("10 bytes"), std::string::npos) << w.message;
  EXPECT_TRUE(fds.empty());
  close(fd);
}

TEST_F(AttachTest, ASecondServerOnALivePathThrowsAndAStalePathIsReplaced) {
  BusImage other(ravon_bus());
  try {
    AttachServer second(other, dir.endpoint());
    ADD_FAILURE() << "a second server bound a live path";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "a rig named ravon is already running: " + dir.endpoint().string());
  }
  EXPECT_TRUE(endpoint_accepts(dir.endpoint())) << "the first server still answers";

  // A stale socket: bound, then its owner died without unlinking it
  const auto stale = dir.endpoint("stale");
  {
    const int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, stale.c_str(), sizeof addr.sun_path - 1);
    ASSERT_EQ(bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
    close(fd);
  }
  ASSERT_TRUE(std::filesystem::is_socket(stale));
  EXPECT_FALSE(endpoint_accepts(stale));
  AttachServer replacing(other, stale);
  EXPECT_TRUE(endpoint_accepts(stale));
  EXPECT_EQ(std::filesystem::status(stale).permissions() & std::filesystem::perms::all,
            std::filesystem::perms(0660));

  const auto file = dir.path() / "file.bus";
  std::ofstream(file) << "not a socket";
  EXPECT_THROW(AttachServer(other, file), std::runtime_error);
  EXPECT_TRUE(std::filesystem::exists(file)) << "never removes what is not a socket";
}

TEST_F(AttachTest, EndpointsLiveInTheRuntimeDirectoryAndStaleOnesAreSkipped) {
  EXPECT_EQ(runtime_directory(), dir.path());
  EXPECT_EQ(endpoint_for("ravon"), dir.endpoint());
  EXPECT_THROW((void)endpoint_for("../x"), std::invalid_argument);
  {
    const int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, dir.endpoint("dead").c_str(), sizeof addr.sun_path - 1);
    ASSERT_EQ(bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
    close(fd);
  }
  EXPECT_EQ(running_endpoints(), std::vector<std::filesystem::path>{dir.endpoint()});
  BusStatus s = BusStatus::ok;
  auto none = attach(dir.endpoint("dead"), "", s, why);
  EXPECT_EQ(s, BusStatus::no_endpoint);
  EXPECT_NE(why.find("no rig is running at"), std::string::npos) << why;
  none = attach(dir.endpoint("missing"), "", s, why);
  EXPECT_EQ(s, BusStatus::no_endpoint);
}

// NOLINTBEGIN(concurrency-mt-unsafe): the test sets its own environment, on one thread
TEST(RuntimeDirectoryTest, FollowsTheEnvironmentInOrder) {
  RuntimeDir dir;  // sets HILSIM_RUNTIME_DIR
  const std::filesystem::path& base = dir.path();
  EXPECT_EQ(runtime_directory(), base);
  unsetenv("HILSIM_RUNTIME_DIR");
  setenv("RUNTIME_DIRECTORY", (base / "systemd").c_str(), 1);
  const auto second = (base / "other").string();
  setenv("RUNTIME_DIRECTORY", ((base / "systemd").string() + ":" + second).c_str(), 1);
  EXPECT_EQ(runtime_directory(), base / "systemd");
  EXPECT_EQ(std::filesystem::status(base / "systemd").permissions() & std::filesystem::perms::all,
            std::filesystem::perms(0750));
  unsetenv("RUNTIME_DIRECTORY");
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  const std::string saved = xdg != nullptr ? xdg : "";
  setenv("XDG_RUNTIME_DIR", (base / "xdg").c_str(), 1);
  std::filesystem::create_directory(base / "xdg");
  EXPECT_EQ(runtime_directory(), base / "xdg" / "hilsim");
  if (saved.empty()) {
    unsetenv("XDG_RUNTIME_DIR");
  } else {
    setenv("XDG_RUNTIME_DIR", saved.c_str(), 1);
  }
  setenv("HILSIM_RUNTIME_DIR", base.c_str(), 1);
}
// NOLINTEND(concurrency-mt-unsafe)

TEST_F(AttachTest, AnAllowListRefusesOtherUsers) {
  server.reset();
  AttachServerSpec options;
  options.allow["behaviour"] = RoleAccess{.uids = {getuid() + 4242}, .gids = {}};
  options.allow["env"] = RoleAccess{.uids = {}, .gids = {getgid()}};
  server = std::make_unique<AttachServer>(image, dir.endpoint(), options);
  auto denied = attach(dir.endpoint(), "behaviour", status, why);
  EXPECT_FALSE(denied);
  EXPECT_EQ(status, BusStatus::not_permitted);
  EXPECT_EQ(why, "uid " + std::to_string(getuid()) + " (gid " + std::to_string(getgid()) +
                     ") may not write role \"behaviour\"");
  auto allowed = attach(dir.endpoint(), "env", status, why);
  EXPECT_TRUE(allowed) << why;
  auto reader = attach(dir.endpoint(), "", status, why);
  EXPECT_TRUE(reader) << "the allow-list is for writers; " << why;
}

TEST_F(AttachTest, TheClientCapRefusesTheExtraClient) {
  server.reset();
  server =
      std::make_unique<AttachServer>(image, dir.endpoint(), AttachServerSpec{.max_clients = 1});
  auto first = attach(dir.endpoint(), "", status, why);
  ASSERT_TRUE(first) << why;
  auto second = attach(dir.endpoint(), "", status, why);
  EXPECT_FALSE(second);
  EXPECT_EQ(status, BusStatus::io_error);
  // The refusal races the client's HELLO: it reads the reason, or finds the socket closed
  EXPECT_TRUE(why.find("maximum of 1") != std::string::npos ||
              why.find("Broken pipe") != std::string::npos ||
              why.find("reset by peer") != std::string::npos)
      << why;
  first.reset();
  EXPECT_TRUE(eventually([&] { return attach(dir.endpoint(), "", status, why) != nullptr; }));
}

TEST_F(AttachTest, ASilentConnectionIsClosedAfterTheHelloTimeout) {
  server.reset();
  server = std::make_unique<AttachServer>(image, dir.endpoint(),
                                          AttachServerSpec{.hello_timeout_ms = 50});
  const int fd = connect_raw(dir.endpoint());
  char byte = 0;
  timeval tv{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  EXPECT_EQ(recv(fd, &byte, 1, 0), 0) << "EOF from the server";
  close(fd);
}

TEST_F(AttachTest, NothingAppearsInDevShm) {
  const auto before = test::dev_shm_names();
  {
    BusImage image2(ravon_bus());
    AttachServer server2(image2, dir.endpoint("other"));
    auto w = attach(dir.endpoint("other"), "behaviour", status, why);
    ASSERT_TRUE(w) << why;
    const double v[2] = {1, 2};
    EXPECT_EQ(w->write(0, v, 2, 1), BusStatus::ok);
    EXPECT_EQ(test::dev_shm_names(), before);
  }
  EXPECT_EQ(test::dev_shm_names(), before);
}

}  // namespace
}  // namespace hil::io::bus
