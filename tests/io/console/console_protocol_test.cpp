// The console's wire format (io/console/console_protocol.hpp): client messages and the binary
// sample frame.
#include "io/console/console_protocol.hpp"
#include "io/console/console_frames.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace hil::io::console {
namespace {

TEST(ConsoleMessage, SubscribeWithPatternsAndBackfill) {
  const ClientMessage m = parse_client_message(
      R"({"type":"subscribe","id":7,"req":3,"channels":["vehicle.wheel.*.speed","a.b"],"backfill_s":2.5})");
  ASSERT_TRUE(m.request) << m.error;
  const auto& s = std::get<Subscribe>(*m.request);
  EXPECT_EQ(s.id, 7);
  EXPECT_EQ(s.channels, (std::vector<std::string>{"vehicle.wheel.*.speed", "a.b"}));
  EXPECT_DOUBLE_EQ(s.backfill_s, 2.5);
  EXPECT_EQ(m.req, 3);
}

TEST(ConsoleMessage, EveryKnownType) {
  EXPECT_TRUE(std::holds_alternative<Unsubscribe>(
      *parse_client_message(R"({"type":"unsubscribe","id":1})").request));
  EXPECT_TRUE(
      std::get<CanView>(*parse_client_message(R"({"type":"can_view","on":true})").request).on);
  EXPECT_TRUE(std::holds_alternative<Stop>(*parse_client_message(R"({"type":"stop"})").request));
  EXPECT_TRUE(std::holds_alternative<Ping>(*parse_client_message(R"({"type":"ping"})").request));
  const Command write = std::get<Command>(
      *parse_client_message(R"({"type":"write","values":{"a.b":1.5,"c.d":-2}})").request);
  EXPECT_EQ(write.kind, Command::Kind::write);
  ASSERT_EQ(write.values.size(), 2U);
  EXPECT_EQ(write.values[0], std::pair(std::string("a.b"), 1.5));
  EXPECT_EQ(
      std::get<Command>(*parse_client_message(R"({"type":"release","channels":["a.b"]})").request)
          .channels,
      std::vector<std::string>{"a.b"});
  const Command fault = std::get<Command>(
      *parse_client_message(R"({"type":"fault","fault":{"name":"f","bus":{}}})").request);
  EXPECT_EQ(fault.kind, Command::Kind::fault);
  EXPECT_EQ(fault.fault_json, R"({"bus":{},"name":"f"})");
  EXPECT_EQ(
      std::get<Command>(*parse_client_message(R"({"type":"clear_fault","name":"f"})").request).name,
      "f");
}

TEST(ConsoleMessage, RefusesWhatItCannotRead) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"not json", "not JSON"},
      {"[1,2]", "JSON object"},
      {R"({"id":1})", "'type' is missing"},
      {R"({"type":"set","channel":"x"})", "unknown message type 'set'"},
      {R"({"type":"subscribe","channels":["a"]})", "'id' is missing"},
      {R"({"type":"subscribe","id":0,"channels":["a"]})", "1..65535"},
      {R"({"type":"subscribe","id":70000,"channels":["a"]})", "1..65535"},
      {R"({"type":"subscribe","id":1,"channels":"a"})", "'channels'"},
      {R"({"type":"subscribe","id":1,"channels":[""]})", "'channels'"},
      {R"({"type":"subscribe","id":1.5,"channels":["a"]})", "'id' must be an integer"},
      {R"({"type":"subscribe","id":1,"channels":["a"],"backfill_s":"x"})", "'backfill_s'"},
      {R"({"type":"can_view","on":1})", "'on' must be true or false"},
      {R"({"type":"write","values":[1]})", "'values' must be an object"},
      {R"({"type":"write","values":{}})", "'values' must be an object"},
      {R"({"type":"write","values":{"a":"1"}})", "'values.a' must be a finite number"},
      {R"({"type":"release","channels":"a"})", "'channels'"},
      {R"({"type":"fault","fault":"drop"})", "'fault' must be an object"},
      {R"({"type":"clear_fault","name":""})", "'name' must be the fault's name"},
  };
  for (const auto& [text, why] : cases) {
    const ClientMessage m = parse_client_message(text);
    EXPECT_FALSE(m.request) << text;
    EXPECT_NE(m.error.find(why), std::string::npos) << text << " → " << m.error;
  }
}

TEST(ConsoleMessage, EchoesTheRequestNumberOfARefusal) {
  EXPECT_EQ(parse_client_message(R"({"type":"nope","req":41})").req, 41);
}

TEST(SampleFrame, RoundTripsHeaderAndArraysAligned) {
  const SampleFrameHeader h{.flags = kBackfillFlag,
                            .subscription = 513,
                            .seq = 0xFFFFFFFF,
                            .first_tick = 1'234'567'890'123,
                            .tick_stride = 4,
                            .samples = 3,
                            .channels = 2,
                            .wall_ms = 1.7e12 + 0.25};
  std::vector<std::uint8_t> frame(sample_frame_bytes(h.samples, h.channels));
  EXPECT_EQ(frame.size(), 32U + 3 * 8 * 3 * 2);
  put_header(frame, h);
  for (std::size_t c = 0; c < 2; ++c) {
    for (std::size_t i = 0; i < 3; ++i) {
      const double v = static_cast<double>(10 * c + i);
      put_sample(frame, h, c, i, v, v - 0.5, c == 1 && i == 2 ? std::nan("") : v + 0.5);
    }
  }
  EXPECT_EQ(frame[0], kSamplesOp);
  const std::optional<SampleFrameHeader> back = read_header(frame);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->flags, h.flags);
  EXPECT_EQ(back->subscription, h.subscription);
  EXPECT_EQ(back->seq, h.seq);
  EXPECT_EQ(back->first_tick, h.first_tick);
  EXPECT_EQ(back->tick_stride, h.tick_stride);
  EXPECT_EQ(back->wall_ms, h.wall_ms);
  EXPECT_EQ(read_sample(frame, *back, 0, 1, 2), 12.0);
  EXPECT_EQ(read_sample(frame, *back, 1, 0, 1), 0.5);
  EXPECT_TRUE(std::isnan(read_sample(frame, *back, 2, 1, 2)));
  // values of channel c are contiguous at 32 + 8·(c·n): a Float64Array over the buffer
  double first_of_channel_1 = 0;
  std::memcpy(&first_of_channel_1, frame.data() + 32 + 8 * 3, 8);
  EXPECT_EQ(first_of_channel_1, 10.0);
}

TEST(SampleFrame, RefusesTruncatedOrForeignFrames) {
  std::vector<std::uint8_t> frame(sample_frame_bytes(2, 2));
  put_header(frame, {.samples = 2, .channels = 2});
  EXPECT_TRUE(read_header(frame));
  frame.pop_back();
  EXPECT_FALSE(read_header(frame));
  std::vector<std::uint8_t> other(40, 0);
  other[0] = 2;
  EXPECT_FALSE(read_header(other));
}

}  // namespace
}  // namespace hil::io::console
