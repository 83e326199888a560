// io/bus/client/attach_server.hpp + bus_client.hpp: who gets which fds, the lease (the
// connection) and its refusals, detaching. Access control, the socket's lifecycle and bad
// clients: attach_access_test.cpp.
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
using test::eventually;
using test::ravon_bus;

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
  std::uint32_t region = 99;
  std::uint32_t index = 99;
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
  AttachSpec o;
  o.expect_schema_hash = image.schema().hash() ^ 1;
  auto c = BusClient::attach(dir.endpoint(), o, status, why);
  EXPECT_FALSE(c);
  EXPECT_EQ(status, BusStatus::schema);
  EXPECT_NE(why.find("the rig's bus differs"), std::string::npos) << why;

  BusSchema expected = ravon_bus();
  expected.regions[0].channels[1].unit = "deg";
  o = AttachSpec{};
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

}  // namespace
}  // namespace hil::io::bus
