// io/bus/client/attach_server.hpp + bus_client.hpp + endpoint.hpp: who gets which fds, the
// lease (the connection) and its refusals, detaching, the socket's lifecycle.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "io/bus/bus_image.hpp"
#include "io/bus/client/attach_protocol.hpp"
#include "io/bus/client/attach_server.hpp"
#include "io/bus/client/bus_client.hpp"
#include "io/bus/endpoint.hpp"
#include "tests/io/bus/client/bus_fixture.hpp"

namespace hil::io::bus {
namespace {

using test::ravon_bus;
using test::RuntimeDir;

std::unique_ptr<BusClient> attach(const std::filesystem::path& endpoint, const std::string& role,
                                  BusStatus& status, std::string& why,
                                  const std::string& name = "attach_test") {
  AttachOptions o;
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

int connect_raw(const std::filesystem::path& path) {
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

TEST_F(AttachTest, AReadOnlyClientSeesTheDirectoryAndReadsWhatHilsimPublished) {
  BusStatus s = BusStatus::io_error;
  auto client = attach(dir.endpoint(), "", s, why);
  ASSERT_TRUE(client) << why;
  EXPECT_EQ(s, BusStatus::ok);
  EXPECT_EQ(client->bus_name(), "ravon");
  EXPECT_EQ(client->generation(), image.generation());
  EXPECT_EQ(client->schema_hash(), image.schema().hash());
  ASSERT_EQ(client->regions().size(), 3U);
  EXPECT_EQ(client->regions()[0].name, "behaviour");
  EXPECT_EQ(client->regions()[0].timeout_ticks, 50U);
  EXPECT_EQ(client->regions()[2].direction, RegionDirection::output);
  EXPECT_EQ(client->regions()[2].channels[1].unit, "m/s");
  EXPECT_EQ(client->find_region("state"), 2);
  EXPECT_EQ(client->find_region("nope"), -1);
  std::uint32_t region = 99, index = 99;
  ASSERT_TRUE(client->find_channel("vehicle.yaw_rate", region, index));
  EXPECT_EQ(region, 2U);
  EXPECT_EQ(index, 2U);
  EXPECT_FALSE(client->find_channel("vehicle.nope", region, index));

  RegionSnapshot snap;
  EXPECT_EQ(client->read(2, snap), BusStatus::stale);
  RegionWriter hilsim(image.region(2), 0x1234);
  const double state[3] = {1.5, 2.5, -3.0};
  hilsim.publish(state, 17, monotonic_ns());
  image.heartbeat(17, 99);
  ASSERT_EQ(client->read(2, snap), BusStatus::ok);
  EXPECT_EQ(snap.head.region_seq, 1U);
  EXPECT_EQ(snap.head.tick, 17);
  EXPECT_EQ(snap.head.session_id, 0x1234U);
  EXPECT_EQ(snap.values[0], 1.5);
  EXPECT_EQ(snap.values[2], -3.0);
  EXPECT_EQ(client->owner_tick(), 17);
  EXPECT_EQ(client->owner_heartbeat_mono_ns(), 99U);
  EXPECT_EQ(client->read(7, snap), BusStatus::bad_argument);
  EXPECT_EQ(client->write(2, state, 3, 1), BusStatus::not_writer);
  EXPECT_EQ(client->write(0, state, 2, 1), BusStatus::not_writer);
  EXPECT_TRUE(eventually([&] { return server->attaches() == 1; }));
  EXPECT_EQ(server->leases_granted(), 0U);
  ASSERT_EQ(server->clients().size(), 1U);
  EXPECT_EQ(server->clients()[0].name, "attach_test");
  EXPECT_EQ(server->clients()[0].pid, getpid());
}

TEST_F(AttachTest, AWriterPublishesIntoHilsimsImageAndReadersSeeIt) {
  auto writer = attach(dir.endpoint(), "behaviour", status, why, "cosim.py");
  ASSERT_TRUE(writer) << why;
  auto reader = attach(dir.endpoint(), "", status, why);
  ASSERT_TRUE(reader) << why;
  EXPECT_TRUE(writer->writes(0));
  EXPECT_FALSE(writer->writes(1));
  EXPECT_NE(writer->session(), 0U);
  EXPECT_EQ(server->lease_holder("behaviour"), getpid());
  EXPECT_EQ(writer->writer_pid(0), static_cast<std::uint64_t>(getpid()));
  EXPECT_EQ(reader->writer_pid(0), static_cast<std::uint64_t>(getpid()));
  EXPECT_EQ(image.region(0).control().lease_epoch, 1U);

  const double v[2] = {12.0, 0.05};
  EXPECT_EQ(writer->write(0, v, 1, 5), BusStatus::bad_argument) << "n must be the value count";
  EXPECT_EQ(writer->write(1, v, 1, 5), BusStatus::not_writer);
  EXPECT_EQ(writer->write(2, v, 2, 5), BusStatus::not_writer) << "outputs are hilsim's";
  EXPECT_EQ(writer->write(0, v, 2, 5, static_cast<SlotStatus>(9)), BusStatus::bad_argument);
  ASSERT_EQ(writer->write(0, v, 2, 5), BusStatus::ok);
  ASSERT_EQ(writer->write(0, v, 2, 6, SlotStatus::safe_state), BusStatus::ok);

  RegionSnapshot seen;  // hilsim's own mapping
  ASSERT_TRUE(image.region(0).read(seen, 3).ok);
  EXPECT_EQ(seen.head.region_seq, 2U);
  EXPECT_EQ(seen.head.tick, 6);
  EXPECT_EQ(seen.head.session_id, writer->session());
  EXPECT_EQ(seen.head.status, static_cast<std::uint64_t>(SlotStatus::safe_state));
  EXPECT_EQ(seen.values[0], 12.0);
  EXPECT_EQ(seen.values[1], 0.05);
  RegionSnapshot other;  // another client's read-only mapping
  ASSERT_EQ(reader->read(0, other), BusStatus::ok);
  EXPECT_EQ(other.head.region_seq, 2U);
  EXPECT_EQ(other.values[1], 0.05);
  EXPECT_EQ(image.region(0).control().notify_word, 2U);
}

TEST_F(AttachTest, ASecondWriterForARoleGetsRoleTakenNamingTheHolder) {
  auto first = attach(dir.endpoint(), "behaviour", status, why, "cosim.py");
  ASSERT_TRUE(first) << why;
  auto second = attach(dir.endpoint(), "behaviour", status, why);
  EXPECT_FALSE(second);
  EXPECT_EQ(status, BusStatus::role_taken);
  EXPECT_EQ(why, "role \"behaviour\" is held by pid " + std::to_string(getpid()) + " (cosim.py)");
  EXPECT_TRUE(eventually([&] { return server->refusals() == 1; }));
  // Another role is still free
  auto env = attach(dir.endpoint(), "env", status, why);
  EXPECT_TRUE(env) << why;
}

TEST_F(AttachTest, DetachingFreesTheLeaseAndClearsWriterPid) {
  auto first = attach(dir.endpoint(), "behaviour", status, why);
  ASSERT_TRUE(first) << why;
  const std::uint64_t session = first->session();
  const double v[2] = {1, 2};
  ASSERT_EQ(first->write(0, v, 2, 1), BusStatus::ok);
  first.reset();
  ASSERT_TRUE(eventually([&] { return server->leases_released() == 1; }));
  EXPECT_EQ(server->lease_holder("behaviour"), 0);
  EXPECT_EQ(image.region(0).control().writer_pid, 0U);
  auto second = attach(dir.endpoint(), "behaviour", status, why);
  ASSERT_TRUE(second) << why;
  EXPECT_NE(second->session(), session) << "each attach publishes under a new session";
  EXPECT_EQ(image.region(0).control().lease_epoch, 2U);
  ASSERT_EQ(second->write(0, v, 2, 1), BusStatus::ok);
  RegionSnapshot snap;
  ASSERT_EQ(second->read(0, snap), BusStatus::ok);
  EXPECT_EQ(snap.head.region_seq, 1U) << "region_seq restarts with the session";
  EXPECT_EQ(snap.head.session_id, second->session());
}

TEST_F(AttachTest, AKilledWritersLeaseIsTakenOver) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    BusStatus s = BusStatus::io_error;
    std::string w;
    auto c = attach(dir.endpoint(), "behaviour", s, w, "doomed");
    const char byte = c ? '1' : '0';
    if (write(ready[1], &byte, 1) != 1) _exit(2);
    for (;;) pause();
  }
  close(ready[1]);
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  close(ready[0]);
  ASSERT_EQ(byte, '1');
  EXPECT_EQ(server->lease_holder("behaviour"), child);
  auto refused = attach(dir.endpoint(), "behaviour", status, why);
  EXPECT_EQ(status, BusStatus::role_taken);
  EXPECT_NE(why.find("(doomed)"), std::string::npos) << why;
  ASSERT_EQ(kill(child, SIGKILL), 0);
  std::unique_ptr<BusClient> taker;
  EXPECT_TRUE(eventually([&] {
    taker = attach(dir.endpoint(), "behaviour", status, why);
    return taker != nullptr;
  })) << why;
  EXPECT_EQ(server->lease_holder("behaviour"), getpid());
  int wstatus = 0;
  EXPECT_EQ(waitpid(child, &wstatus, 0), child);
}

TEST_F(AttachTest, AnUnknownRoleIsRefusedListingTheRoles) {
  auto c = attach(dir.endpoint(), "battery", status, why);
  EXPECT_FALSE(c);
  EXPECT_EQ(status, BusStatus::role_unknown);
  EXPECT_NE(why.find("writer roles: behaviour, env"), std::string::npos) << why;
  auto hilsim = attach(dir.endpoint(), "hilsim", status, why);
  EXPECT_EQ(status, BusStatus::role_unknown) << "nobody leases hilsim's outputs";
}

TEST_F(AttachTest, ASchemaMismatchIsRefusedNamingTheFirstDifferingChannel) {
  AttachOptions o;
  o.expect_schema_hash = image.schema().hash() ^ 1;
  auto c = BusClient::attach(dir.endpoint(), o, status, why);
  EXPECT_FALSE(c);
  EXPECT_EQ(status, BusStatus::schema);
  EXPECT_NE(why.find("the rig's bus differs"), std::string::npos) << why;

  BusSchema expected = ravon_bus();
  expected.regions[0].channels[1].unit = "deg";
  o = AttachOptions{};
  o.role = "behaviour";
  o.expect_schema = expected;
  c = BusClient::attach(dir.endpoint(), o, status, why);
  EXPECT_FALSE(c);
  EXPECT_EQ(status, BusStatus::schema);
  EXPECT_EQ(why,
            "the rig's bus differs: region \"behaviour\" channel 1: expected "
            "\"vehicle.steering.front.command\" [deg], the rig has "
            "\"vehicle.steering.front.command\" [rad]");
  EXPECT_EQ(server->lease_holder("behaviour"), 0) << "no lease on a mismatch";

  o.expect_schema = ravon_bus();  // the right one
  c = BusClient::attach(dir.endpoint(), o, status, why);
  EXPECT_TRUE(c) << why;
}

TEST_F(AttachTest, AReservedRoleIsTakenByTheMirror) {
  ASSERT_TRUE(server->reserve("env", "hilsim bus mirror"));
  EXPECT_FALSE(server->reserve("env")) << "already reserved";
  EXPECT_FALSE(server->reserve("battery")) << "unknown role";
  EXPECT_EQ(server->lease_holder("env"), getpid());
  EXPECT_EQ(image.region(1).control().writer_pid, static_cast<std::uint64_t>(getpid()));
  auto c = attach(dir.endpoint(), "env", status, why);
  EXPECT_FALSE(c);
  EXPECT_EQ(status, BusStatus::role_taken);
  EXPECT_NE(why.find("(hilsim bus mirror)"), std::string::npos) << why;
  server->unreserve("env");
  c = attach(dir.endpoint(), "env", status, why);
  EXPECT_TRUE(c) << why;
  auto held = attach(dir.endpoint(), "behaviour", status, why);
  ASSERT_TRUE(held) << why;
  EXPECT_FALSE(server->reserve("behaviour")) << "a client holds it";
}

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

TEST_F(AttachTest, TheClientSeesDetachedWhenTheServerGoesAway) {
  auto writer = attach(dir.endpoint(), "behaviour", status, why);
  ASSERT_TRUE(writer) << why;
  auto reader = attach(dir.endpoint(), "", status, why);
  ASSERT_TRUE(reader) << why;
  EXPECT_FALSE(writer->detached());
  EXPECT_FALSE(reader->detached());
  server.reset();
  EXPECT_FALSE(std::filesystem::exists(dir.endpoint())) << "the socket is unlinked";
  EXPECT_TRUE(writer->detached());
  EXPECT_TRUE(reader->detached());
  const double v[2] = {1, 2};
  EXPECT_EQ(writer->write(0, v, 2, 1), BusStatus::detached);
  EXPECT_EQ(reader->wait(2, 0, 1'000'000), BusStatus::detached);
  RegionSnapshot snap;
  EXPECT_EQ(reader->read(2, snap), BusStatus::stale) << "the mapping itself stays readable";
}

TEST_F(AttachTest, ClosingTheImageDetachesClients) {
  auto reader = attach(dir.endpoint(), "", status, why);
  ASSERT_TRUE(reader) << why;
  image.close();
  EXPECT_TRUE(reader->detached());
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

TEST(RuntimeDirectoryTest, FollowsTheEnvironmentInOrder) {
  RuntimeDir dir;  // sets HILSIM_RUNTIME_DIR
  const auto base = dir.path();
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

TEST_F(AttachTest, AnAllowListRefusesOtherUsers) {
  server.reset();
  AttachServerOptions options;
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
      std::make_unique<AttachServer>(image, dir.endpoint(), AttachServerOptions{.max_clients = 1});
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
                                          AttachServerOptions{.hello_timeout_ms = 50});
  const int fd = connect_raw(dir.endpoint());
  char byte = 0;
  timeval tv{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  EXPECT_EQ(recv(fd, &byte, 1, 0), 0) << "EOF from the server";
  close(fd);
}

TEST_F(AttachTest, WaitReturnsOnANewSnapshotAndTimesOutOtherwise) {
  auto writer = attach(dir.endpoint(), "behaviour", status, why);
  ASSERT_TRUE(writer) << why;
  auto reader = attach(dir.endpoint(), "", status, why);
  ASSERT_TRUE(reader) << why;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(reader->wait(0, 0, 20'000), BusStatus::timeout);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(20));
  std::thread publisher([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const double v[2] = {3, 4};
    EXPECT_EQ(writer->write(0, v, 2, 1), BusStatus::ok);
  });
  EXPECT_EQ(reader->wait(0, 0, 2'000'000), BusStatus::ok);
  publisher.join();
  EXPECT_EQ(reader->wait(0, 0, 0), BusStatus::ok) << "region_seq 1 differs from 0 already";
  EXPECT_EQ(reader->wait(0, 1, 1000), BusStatus::timeout);
  EXPECT_EQ(reader->wait(9, 0, 1000), BusStatus::bad_argument);
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
