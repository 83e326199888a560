#pragma once
// The rest-bus tests' fixture (rest_bus_test.cpp): hilsim's body bus of
// tests/tools/restbus/vehicle.dbc and a peer on the same virtual bus that keeps every frame it
// receives, with the DBC codec to read them independently of the bus.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/mapping/bus_plan.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "tests/io/can/mapping/rest_bus_fixture.hpp"

namespace hil::io::can::rest_bus_testing {

using Ticks = std::vector<std::int64_t>;

struct Seen {
  std::int64_t tick = 0;
  CanFrame frame;
};

/// hilsim's body bus and a peer on the same virtual bus.
class RestBusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const CanBusSpec spec = body_spec(link_);
    planned_ = spec;
    std::vector<MappingProblem> problems;
    plan_bus(planned_, problems);
    ASSERT_TRUE(problems.empty()) << fields_of(problems);
    bus_ = CanBus::create(spec, table_, kPeriod, 0, problems);
    ASSERT_NE(bus_, nullptr) << fields_of(problems);
    table_.freeze();
    peer_ = open_transport("virtual:" + link_);
    db_ = &planned_.database;
  }

  /// Ticks [from, to): `before(tick)`, then the bus's read and write phases; the peer keeps
  /// what arrives.
  void run(std::int64_t from, std::int64_t to,
           const std::function<void(std::int64_t)>& before = nullptr) {
    std::vector<TimedFrame> got(256);
    for (std::int64_t tick = from; tick < to; ++tick) {
      if (before) before(tick);
      bus_->read(tick, table_);
      bus_->write(tick, table_);
      for (;;) {
        const std::size_t n = peer_->receive(got, tick);
        for (std::size_t i = 0; i < n; ++i) seen_.push_back({tick, got[i].frame});
        if (n < got.size()) break;
      }
    }
  }

  [[nodiscard]] const dbc::Message* message_of(const CanFrame& f) const {
    return db_->find_message(f.id, f.extended());
  }

  /// The frames of `message` the peer received, in order.
  [[nodiscard]] std::vector<Seen> frames_of(const std::string& message) const {
    std::vector<Seen> out;
    for (const Seen& s : seen_) {
      const dbc::Message* m = message_of(s.frame);
      if (m != nullptr && m->name == message) out.push_back(s);
    }
    return out;
  }

  [[nodiscard]] Ticks ticks_of(const std::string& message) const {
    Ticks out;
    for (const Seen& s : frames_of(message)) out.push_back(s.tick);
    return out;
  }

  /// The physical values of `frame` as `message` (the DBC codec, independently of the bus).
  [[nodiscard]] std::vector<dbc::SignalValue> decode(const std::string& message,
                                                     const CanFrame& frame) const {
    const dbc::CompiledMessage m = dbc::compile(*db_->find_message(message));
    std::vector<dbc::SignalValue> v(m.signals.size());
    (void)dbc::decode_message(m, frame.payload(), v);
    return v;
  }

  [[nodiscard]] double value(const std::string& message, const CanFrame& frame,
                             const std::string& signal) const {
    const dbc::Message* m = db_->find_message(message);
    for (std::size_t k = 0; k < m->signals.size(); ++k) {
      if (m->signals[k].name == signal) return decode(message, frame)[k].physical;
    }
    ADD_FAILURE() << message << " has no " << signal;
    return 0.0;
  }

  [[nodiscard]] rt::ChannelId channel(const std::string& name) const {
    return table_.resolve(name);
  }

  std::string link_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  CanBusSpec planned_;  // what plan_bus makes of the spec: the profiles the peer checks with
  const dbc::Database* db_ = nullptr;
  rt::ChannelTable table_;
  std::unique_ptr<CanBus> bus_;
  std::unique_ptr<Transport> peer_;
  std::vector<Seen> seen_;
};

}  // namespace hil::io::can::rest_bus_testing
