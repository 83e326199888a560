// Rest-bus simulation on a virtual bus (io/can/mapping/can_bus + bus_plan): hilsim plays every
// node of tests/tools/restbus/vehicle.dbc but the device under test, EPS, and a peer on the
// same bus sees each simulated message go out as the DBC says — when (send type, cycle, start
// delay, gap, repetitions), with which values (GenSigStartValue, then the channels) and with
// its AUTOSAR E2E protection; EPS's frames are checked (E2E status channel and counters); a
// node can be silenced. What plan_bus refuses: bus_plan_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/e2e/check.hpp"
#include "io/can/mapping/bus_plan.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/mapping/e2e_attributes.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "tests/io/can/mapping/rest_bus_fixture.hpp"
#include "tests/io/can/mapping/rest_bus_peer_fixture.hpp"

namespace hil::io::can {
namespace {

using namespace rest_bus_testing;  // NOLINT(google-build-using-namespace): the fixture's helpers

/// The messages that no write makes go out: NoMsgSendType, and if-active messages whose
/// signals start at their GenSigInactiveValue.
constexpr std::array<std::string_view, 4> kSilentAtStart{"GW_Wakeup", "SAS_Calib", "BCM_Horn",
                                                         "HVAC_Defrost"};

bool of_nobody_or_dut(const dbc::Message& m) {
  return m.sender == "EPS" || m.sender == "Vector__XXX";
}

TEST_F(RestBusTest, EveryMessageOfASimulatedNodeGoesOutAndNothingElse) {
  run(0, 2000);

  std::set<std::string> arrived;
  for (const Seen& s : seen_) {
    const dbc::Message* m = message_of(s.frame);
    ASSERT_NE(m, nullptr) << "id 0x" << std::hex << s.frame.id;
    arrived.insert(m->name);
    // As the DBC says on the wire: 11/29-bit id, classic or FD, bit-rate switch, length.
    const dbc::CompiledMessage c = dbc::compile(*m);
    EXPECT_EQ(s.frame.extended(), m->extended) << m->name;
    EXPECT_EQ(s.frame.fd(), m->fd) << m->name;
    EXPECT_EQ(s.frame.brs(), m->brs) << m->name;
    EXPECT_EQ(s.frame.length, c.frame_length) << m->name;
  }
  std::set<std::string> expected;
  for (const dbc::Message& m : db_->messages) {
    if (!of_nobody_or_dut(m) && std::ranges::find(kSilentAtStart, m.name) == kSilentAtStart.end())
      expected.insert(m.name);
  }
  EXPECT_EQ(expected.size(), 45U);  // 55 messages: 4 of EPS, 2 of nobody, 4 silent
  EXPECT_EQ(arrived, expected);
  for (const std::string_view silent : kSilentAtStart) {
    EXPECT_EQ(ticks_of(std::string(silent)), Ticks{}) << silent;
  }
  for (const dbc::Message& m : db_->messages) {
    if (of_nobody_or_dut(m)) {
      EXPECT_EQ(ticks_of(m.name), Ticks{}) << m.name;
    }
  }
  EXPECT_EQ(bus_->tx_counters(0).drops.load(), 0U);
  EXPECT_EQ(table_.get(channel("can.body.tx_dropped")), 0.0);
}

TEST_F(RestBusTest, CyclicMessagesKeepTheirCycleFromTheirStartDelay) {
  run(0, 2000);

  // The oracle reads the DBC itself: Vector's cyclic send types, GenMsgCycleTime and
  // GenMsgStartDelayTime (each message's value, else the file's default).
  const std::set<std::string> cyclic_types{"Cyclic", "CyclicAndSpontaneous",
                                           "CyclicAndSpontaneousWithDelay"};
  std::size_t checked = 0;
  for (const dbc::Message& m : db_->messages) {
    if (of_nobody_or_dut(m)) continue;
    const std::string type = db_->text_attribute(m.attributes, "GenMsgSendType").value_or("");
    const double cycle = db_->number_attribute(m.attributes, "GenMsgCycleTime").value_or(0.0);
    const double start = db_->number_attribute(m.attributes, "GenMsgStartDelayTime").value_or(0);
    if (!cyclic_types.contains(type) || cycle <= 0.0) continue;
    Ticks expected;
    for (auto t = static_cast<std::int64_t>(start); t < 2000;
         t += static_cast<std::int64_t>(cycle)) {
      expected.push_back(t);
    }
    EXPECT_EQ(ticks_of(m.name), expected) << m.name << " (" << type << ", " << cycle << " ms)";
    ++checked;
  }
  EXPECT_EQ(checked, 37U);

  // If active from the start (a signal's start value is not its inactive value): every cycle.
  EXPECT_EQ(ticks_of("IPC_ChimeRequest"), (Ticks{0, 500, 1000, 1500}));
  Ticks every_100;
  for (std::int64_t t = 0; t < 2000; t += 100) every_100.push_back(t);
  EXPECT_EQ(ticks_of("VCU_ChargeRequest"), every_100);
  // On change: once at the start (the start values are a change), with the repetitions.
  for (const char* once : {"ESP_Event", "ACU_Occupancy", "TCU_ShiftEvent", "HVAC_Blower"}) {
    EXPECT_EQ(ticks_of(once), Ticks{0}) << once;
  }
  EXPECT_EQ(ticks_of("BCM_Wiper"), (Ticks{0, 20, 40, 60}));  // 3 repetitions, 20 ms fast cycle
  EXPECT_EQ(ticks_of("IPC_Settings"), (Ticks{0, 50, 100}));  // 2 repetitions, 50 ms
}

TEST_F(RestBusTest, FirstFramesCarryTheStartValues) {
  run(0, 1000);

  std::size_t checked = 0;
  for (const dbc::Message& m : db_->messages) {
    const std::vector<Seen> frames = frames_of(m.name);
    if (frames.empty()) continue;
    const std::vector<dbc::SignalValue> v = decode(m.name, frames.front().frame);
    for (std::size_t k = 0; k < m.signals.size(); ++k) {
      const dbc::Signal& s = m.signals[k];
      // The E2E header's fields are the profile's (checked in E2eProtected… below).
      if (s.name.find("_CRC") != std::string::npos ||
          s.name.find("_Counter") != std::string::npos ||
          s.name.find("DataIDNibble") != std::string::npos) {
        continue;
      }
      const double raw = db_->number_attribute(s.attributes, "GenSigStartValue").value_or(0.0);
      const double expected = raw * s.factor + s.offset;
      EXPECT_NEAR(v[k].physical, expected, 1e-9 * std::max(1.0, std::abs(expected)))
          << m.name << "." << s.name;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 148U);  // every signal of the 45 messages but E2E headers
  // A few by hand: 160 · 0.0625 km/h, −250 · 0.01 deg/s, 65 − 40 °C, 1700000000 s.
  EXPECT_EQ(value("ABS_WheelSpeeds", frames_of("ABS_WheelSpeeds").front().frame, "ABS_WS_FL"),
            10.0);
  EXPECT_NEAR(value("ESP_YawRate", frames_of("ESP_YawRate").front().frame, "ESP_YawRate"), -2.5,
              1e-12);
  EXPECT_EQ(
      value("ABS_BrakePressure", frames_of("ABS_BrakePressure").front().frame, "ABS_BP_FluidTemp"),
      25.0);
  EXPECT_EQ(value("GW_Time", frames_of("GW_Time").front().frame, "GW_Seconds"), 1700000000.0);
}

TEST_F(RestBusTest, E2eProtectedMessagesPassTheCheckAtThePeer) {
  run(0, 2000);

  std::set<e2e::Profile> profiles;
  std::size_t protected_messages = 0;
  for (const TxMessageSpec& tx : planned_.tx) {
    if (!tx.e2e) continue;
    ++protected_messages;
    profiles.insert(tx.e2e->profile);
    const std::vector<Seen> frames = frames_of(tx.message);
    ASSERT_GT(frames.size(), 1U) << tx.message;
    e2e::CheckState state;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const std::span<const std::uint8_t> payload = frames[i].frame.payload();
      const e2e::Status status = e2e::check(*tx.e2e, state, payload);
      const std::uint32_t counter = e2e::read_counter(*tx.e2e, payload);
      if (i == 0) {  // P01/P02's first frame is INITIAL (a wrong sequence by R4.2's mapping)
        EXPECT_EQ(counter, e2e::initial_counter(*tx.e2e)) << tx.message;
        EXPECT_NE(status, e2e::Status::error) << tx.message;
        continue;
      }
      ASSERT_EQ(status, e2e::Status::ok)
          << tx.message << " frame " << i << " at tick " << frames[i].tick;
      EXPECT_EQ(counter, e2e::next_counter(
                             *tx.e2e, e2e::read_counter(*tx.e2e, frames[i - 1].frame.payload())))
          << tx.message << " frame " << i;
      EXPECT_EQ(state.status, e2e::ProfileStatus::ok) << tx.message << " frame " << i;
    }
  }
  // 6 from the DBC's E2E_* attributes, 6 from the rig's e2e blocks; every profile.
  EXPECT_EQ(protected_messages, 12U);
  EXPECT_EQ(profiles,
            (std::set<e2e::Profile>{e2e::Profile::p01, e2e::Profile::p02, e2e::Profile::p05,
                                    e2e::Profile::p11, e2e::Profile::p22}));
}

TEST_F(RestBusTest, WritingAFreeSignalSendsAsTheSendTypeSays) {
  const rt::ChannelId horn = channel("can.body.bcm_horn.bcm_horn_active");
  const rt::ChannelId event = channel("can.body.esp_event.esp_event_code");
  const rt::ChannelId wiper = channel("can.body.bcm_wiper.bcm_wiper_mode");
  const rt::ChannelId shift = channel("can.body.tcu_shift_event.tcu_shift_to");
  const rt::ChannelId wakeup = channel("can.body.gw_wakeup.gw_wakeup_reason");
  const rt::ChannelId mode = channel("can.body.tcu_status.tcu_mode");
  const rt::ChannelId charge_mode = channel("can.body.vcu_charge_request.vcu_charge_mode");
  const rt::ChannelId charge_current = channel("can.body.vcu_charge_request.vcu_charge_current");
  EXPECT_EQ(table_.spec(horn).direction, rt::Direction::input);
  EXPECT_EQ(table_.get(channel("can.body.abs_wheel_speeds.abs_ws_fl")), 10.0);  // start value
  EXPECT_FALSE(table_.find("can.body.abs_wheel_speeds.abs_ws_crc"));            // the E2E header's

  run(0, 1000, [&](std::int64_t tick) {
    if (tick == 300) table_.set(horn, 1.0);   // CyclicIfActive: at once, then every 100 ms
    if (tick == 650) table_.set(horn, 0.0);   // … until inactive again
    if (tick == 250) table_.set(event, 9.0);  // Spontaneous: once
    if (tick == 300) table_.set(wiper, 4.0);  // SpontaneousWithRepetition: 1 + 3, 20 ms apart
    if (tick == 30) table_.set(shift, 3.0);   // SpontaneousWithDelay: 50 ms after the last
    if (tick == 200) table_.set(shift, 5.0);
    if (tick == 400) table_.set(wakeup, 7.0);  // NoMsgSendType: only a change sends it
    if (tick == 105) table_.set(mode, 2.0);    // CyclicAndSpontaneousWithDelay: gap 20 ms
    if (tick == 250) {  // CyclicIfActiveAndSpontaneousWD: the change to inactive goes out …
      table_.set(charge_mode, 0.0);
      table_.set(charge_current, 0.0);
    }
    if (tick == 500) table_.set(charge_mode, 1.0);  // … and active again: at once, every 100 ms
  });

  EXPECT_EQ(ticks_of("BCM_Horn"), (Ticks{300, 400, 500, 600}));
  for (const Seen& s : frames_of("BCM_Horn")) {
    EXPECT_EQ(value("BCM_Horn", s.frame, "BCM_HornActive"), 1.0);
  }
  EXPECT_EQ(ticks_of("ESP_Event"), (Ticks{0, 250}));
  EXPECT_EQ(value("ESP_Event", frames_of("ESP_Event")[1].frame, "ESP_EventCode"), 9.0);
  EXPECT_EQ(ticks_of("BCM_Wiper"), (Ticks{0, 20, 40, 60, 300, 320, 340, 360}));
  EXPECT_EQ(value("BCM_Wiper", frames_of("BCM_Wiper")[7].frame, "BCM_WiperMode"), 4.0);
  EXPECT_EQ(ticks_of("TCU_ShiftEvent"), (Ticks{0, 50, 200}));
  EXPECT_EQ(value("TCU_ShiftEvent", frames_of("TCU_ShiftEvent")[1].frame, "TCU_ShiftTo"), 3.0);
  EXPECT_EQ(ticks_of("GW_Wakeup"), (Ticks{400}));
  EXPECT_EQ(value("GW_Wakeup", frames_of("GW_Wakeup")[0].frame, "GW_WakeupReason"), 7.0);
  EXPECT_EQ(ticks_of("TCU_Status"), (Ticks{0, 100, 120, 200, 300, 400, 500, 600, 700, 800, 900}));
  EXPECT_EQ(value("TCU_Status", frames_of("TCU_Status")[2].frame, "TCU_Mode"), 2.0);
  EXPECT_EQ(ticks_of("VCU_ChargeRequest"), (Ticks{0, 100, 200, 250, 500, 600, 700, 800, 900}));
  EXPECT_EQ(
      value("VCU_ChargeRequest", frames_of("VCU_ChargeRequest")[3].frame, "VCU_ChargeCurrent"),
      0.0);
}

TEST_F(RestBusTest, TheDeviceUnderTestsFramesAreChecked) {
  const dbc::Message& eps = *db_->find_message("EPS_Status");
  std::string problem;
  std::optional<e2e::ProfileSpec> p01 = e2e_from_attributes(*db_, eps, problem);
  ASSERT_TRUE(p01.has_value()) << problem;
  EXPECT_EQ(p01->profile, e2e::Profile::p01);
  EXPECT_EQ(p01->data_id_mode, e2e::DataIdMode::low);
  EXPECT_EQ(p01->data_id, 0xE0);
  EXPECT_EQ(p01->max_delta_counter, 2);
  p01->data_length_bits = eps.length * 8;
  const dbc::CompiledMessage compiled = dbc::compile(eps);
  // EPS_Status as EPS sends it: torque, mode, fault; CRC and counter are the profile's.
  const auto frame = [&](double torque, std::uint32_t counter, const e2e::ProfileSpec& as) {
    CanFrame f;
    const std::vector<double> values{0.0, 0.0, torque, 3.0, 0.0};
    EXPECT_TRUE(dbc::encode_frame(compiled, values, f).ok());
    e2e::protect(as, std::span<std::uint8_t>(f.data.data(), f.length), counter);
    return f;
  };
  e2e::ProfileSpec wrong_id = *p01;
  wrong_id.data_id = 0xE1;
  std::map<std::int64_t, CanFrame> sends;
  for (std::uint32_t k = 0; k < 10; ++k)
    sends[std::int64_t{10} * k] = frame(1.0 + k, k, *p01);  // 0 … 90
  sends[100] = frame(99.0, 9, *p01);                        // counter 9 again: repeated
  sends[110] = frame(11.0, 10, *p01);                       // in sequence
  sends[120] = frame(99.0, 0, *p01);   // 10 → 0 (mod 15): 5 steps, wrong sequence
  sends[130] = frame(13.0, 11, *p01);  // 10 → 11: back in sequence
  sends[140] = frame(99.0, 12, *p01);  // a flipped CRC bit: error
  sends[140].data[0] ^= 0x01;
  sends[150] = frame(99.0, 13, wrong_id);  // another message's data id: error
  sends[160] = frame(16.0, 14, *p01);      // 11 → 14, within the widened tolerance
  // then nothing: NODATA 1.5 cycles (15 ms) after the last frame

  const rt::ChannelId status = channel("can.body.eps_status.e2e");
  const rt::ChannelId torque = channel("can.body.eps_status.eps_torque");
  const rt::ChannelId mode = channel("can.body.eps_status.eps_mode");
  EXPECT_EQ(table_.get(status), 4.0);  // no data yet
  std::map<std::int64_t, double> status_at;
  std::map<std::int64_t, double> torque_at;
  std::vector<TimedFrame> sink(256);
  for (std::int64_t tick = 0; tick < 200; ++tick) {
    if (const auto f = sends.find(tick); f != sends.end()) {
      ASSERT_EQ(peer_->send(f->second, tick), SendStatus::ok);
    }
    bus_->read(tick, table_);
    bus_->write(tick, table_);
    while (peer_->receive(sink, tick) == sink.size()) {
    }
    status_at[tick] = table_.get(status);
    torque_at[tick] = table_.get(torque);
  }

  for (std::int64_t t = 0; t <= 90; t += 10) {
    EXPECT_EQ(status_at[t], 0.0) << "tick " << t;  // the first good frame counts as OK
    EXPECT_NEAR(torque_at[t], 1.0 + static_cast<double>(t) / 10.0, 1e-9) << "tick " << t;
  }
  EXPECT_EQ(table_.get(mode), 3.0);
  EXPECT_EQ(status_at[100], 1.0);           // REPEATED
  EXPECT_NEAR(torque_at[100], 10.0, 1e-9);  // refused: the last good value stays
  EXPECT_EQ(status_at[110], 0.0);
  EXPECT_NEAR(torque_at[110], 11.0, 1e-9);
  EXPECT_EQ(status_at[120], 2.0);  // WRONG_SEQUENCE
  EXPECT_NEAR(torque_at[120], 11.0, 1e-9);
  EXPECT_EQ(status_at[130], 0.0);
  EXPECT_EQ(status_at[140], 3.0);  // ERROR: CRC
  EXPECT_EQ(status_at[150], 3.0);  // ERROR: data id
  EXPECT_NEAR(torque_at[150], 13.0, 1e-9);
  EXPECT_EQ(status_at[160], 0.0);
  EXPECT_NEAR(torque_at[160], 16.0, 1e-9);
  EXPECT_EQ(status_at[174], 0.0);
  EXPECT_EQ(status_at[175], 4.0);  // NODATA: 15 ms without a frame

  std::size_t i = 0;
  while (i < bus_->rx_count() && bus_->rx_name(i) != "EPS_Status") ++i;
  ASSERT_LT(i, bus_->rx_count());
  EXPECT_TRUE(bus_->rx_from_dut(i));
  const MessageCounters& c = bus_->rx_counters(i);
  EXPECT_EQ(c.frames.load(), 13U);  // 10 + 3 good ones
  EXPECT_EQ(c.counter_errors.load(), 1U);
  EXPECT_EQ(c.wrong_sequence.load(), 1U);
  EXPECT_EQ(c.crc_errors.load(), 2U);
  EXPECT_EQ(c.no_data.load(), 3U);  // ticks 175, 185, 195
  EXPECT_EQ(c.errors.load(), 4U);
}

TEST_F(RestBusTest, ASilencedNodeSendsNothingWhileTheOthersGoOn) {
  const std::int32_t abs = bus_->node_index("ABS");
  ASSERT_GE(abs, 0);
  EXPECT_EQ(bus_->node_index("XYZ"), -1);
  bool silent = false;
  bus_->set_node_silence(abs, &silent);
  run(0, 1000, [&](std::int64_t tick) { silent = tick >= 300 && tick < 600; });

  std::map<std::string, std::size_t> in_silence;
  std::size_t abs_after = 0;
  for (const Seen& s : seen_) {
    const dbc::Message* m = message_of(s.frame);
    if (s.tick >= 300 && s.tick < 600) ++in_silence[m->sender];
    if (s.tick >= 600 && m->sender == "ABS") ++abs_after;
  }
  EXPECT_EQ(in_silence["ABS"], 0U);
  EXPECT_EQ(in_silence["ESP"], 30U + 15U + 3U + 30U);  // YawRate, Accel, Status, TorqueRequest
  EXPECT_GT(in_silence["GW"], 0U);
  EXPECT_EQ(ticks_of("ESP_YawRate").size(), 100U);
  EXPECT_GT(abs_after, 0U);  // ABS back
  EXPECT_EQ(ticks_of("ABS_WheelSpeeds").front(), 0);
  EXPECT_EQ(ticks_of("ABS_WheelSpeeds").size(), 70U);  // 100 less the 30 of the silence
}

}  // namespace
}  // namespace hil::io::can
