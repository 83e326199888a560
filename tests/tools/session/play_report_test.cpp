// The figures `hilsim play` reports: transport drops after send told apart from the refusals
// the player already counted, the summary lines and the JSON keys.

#include "tools/session/play/play_report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hil::tools {
namespace {

using io::can::DropReason;
using io::can::TransportStats;

TransportStats with_drops(std::uint64_t back_pressure, std::uint64_t send_failed,
                          std::uint64_t peer_queue_full = 0) {
  TransportStats s;
  s.drops[static_cast<std::size_t>(DropReason::back_pressure)] = back_pressure;
  s.drops[static_cast<std::size_t>(DropReason::send_failed)] = send_failed;
  s.drops[static_cast<std::size_t>(DropReason::peer_queue_full)] = peer_queue_full;
  return s;
}

TEST(PlayReport, DropsAfterSendAreWhatTheRefusalsDoNotExplain) {
  // socketcan/slcan: every back-pressure drop was a refusal the player saw and retried.
  session::TransportDrops d = session::after_send_drops(
      "socketcan:can0", with_drops(2, 0), with_drops(7, 1), {.back_pressure = 5, .failed = 1});
  EXPECT_EQ(d.frames, 0U);
  // cannelloni: send() accepted everything; the socket refused a datagram of 4 frames.
  d = session::after_send_drops("cannelloni://h:1", with_drops(0, 0), with_drops(4, 2), {});
  EXPECT_EQ(d.frames, 6U);
  EXPECT_EQ(d.reasons, "back_pressure 4, send_failed 2");
  // virtual: a full peer queue is a refusal (back_pressure from send), never a drop here.
  d = session::after_send_drops("virtual:x", with_drops(0, 0), with_drops(0, 0, 9),
                                {.back_pressure = 9});
  EXPECT_EQ(d.frames, 0U);
}

TEST(PlayReport, SummaryAndJsonSayWhatWasSentSkippedAndLost) {
  session::PlayReport r;
  r.counts.sent = 8;
  r.counts.no_route = 2;
  r.counts.filtered = 3;
  r.counts.late = 1;
  r.counts.loops_completed = 1;
  r.counts.start = 1'000;
  r.counts.first_sent = 1'000;
  r.counts.last_sent = 8'001'000;
  r.counts.first_deadline = 1'000;
  r.counts.last_deadline = 7'001'000;
  r.counts.back_pressure_gave_up = 1;
  r.frames_per_loop = 9;
  r.unrouted_interfaces = {"can7"};
  r.filtered = true;
  r.late_after = 1'000'000;
  r.transport_drops = {{.uri = "cannelloni://h:1", .frames = 2, .reasons = "back_pressure 2"}};
  r.realtime = "not real-time (no SCHED_FIFO)";
  const std::string s = session::format_play_summary(r);
  EXPECT_NE(s.find("sent 8 frames (1 of 1 loops of 9 frames) in 0.008000 s"), std::string::npos)
      << s;
  EXPECT_NE(s.find("skipped 2 frames of interfaces with no destination (can7)"), std::string::npos);
  EXPECT_NE(s.find("filtered out 3 frames (--ids)"), std::string::npos);
  EXPECT_NE(s.find("late 1 frames (> 1000 us)"), std::string::npos);
  EXPECT_NE(s.find("duration error +1000.0 us"), std::string::npos) << s;
  EXPECT_NE(s.find("cannelloni://h:1: 2 frames dropped by the transport after send"),
            std::string::npos);
  EXPECT_NE(s.find("NOT SENT: 3 frames"), std::string::npos) << s;
  EXPECT_EQ(r.lost(), 3U);
  const nlohmann::json j = session::play_report_json(r);
  EXPECT_EQ(j["frames_sent"], 8);
  EXPECT_EQ(j["duration_error_us"], 1000.0);
  EXPECT_EQ(j["not_sent"]["back_pressure"], 1);
  EXPECT_EQ(j["transport_drops"]["cannelloni://h:1"], 2);
  r.speed = 0;
  EXPECT_TRUE(play_report_json(r)["lateness_us"].is_null());
  EXPECT_NE(format_play_summary(r).find("speed max: 1000 frames/s"), std::string::npos)
      << format_play_summary(r);
}

}  // namespace
}  // namespace hil::tools
