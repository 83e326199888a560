// The console's "drive" message (io/console/console_protocol.hpp, docs/console.md "Driving"):
// the page's controls raw — take or give back the wheel, a gamepad's axes and buttons, the keys
// held — and every malformed one refused with what is wrong.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "io/console/console_protocol.hpp"

namespace hil::io::console {
namespace {

Drive drive_of(const std::string& text) {
  const ClientMessage m = parse_client_message(text);
  EXPECT_TRUE(m.request) << text << " → " << m.error;
  if (!m.request || !std::holds_alternative<Drive>(*m.request)) return {};
  return std::get<Drive>(*m.request);
}

TEST(ConsoleDriveMessage, ModeGamepadAndKeys) {
  EXPECT_EQ(drive_of(R"({"type":"drive","mode":"human"})").human, true);
  EXPECT_EQ(drive_of(R"({"type":"drive","mode":"auto"})").human, false);
  const Drive d =
      drive_of(R"({"type":"drive","req":3,"gamepad":{"axes":[-1,0.25],"buttons":[0,1,0.5]},)"
               R"("keys":["ArrowLeft","KeyW"]})");
  EXPECT_FALSE(d.human.has_value());
  ASSERT_TRUE(d.gamepad.has_value());
  EXPECT_EQ(d.gamepad->axes, (std::vector<double>{-1.0, 0.25}));
  EXPECT_EQ(d.gamepad->buttons, (std::vector<double>{0.0, 1.0, 0.5}));
  EXPECT_EQ(d.keys, (std::vector<std::string>{"ArrowLeft", "KeyW"}));
  const Drive let_go = drive_of(R"({"type":"drive","gamepad":{},"keys":[]})");
  EXPECT_TRUE(let_go.gamepad->axes.empty());
  EXPECT_TRUE(let_go.keys->empty());
}

TEST(ConsoleDriveMessage, RefusesWhatIsNotAControl) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {R"({"type":"drive"})", "drive takes 'mode', 'gamepad' or 'keys'"},
      {R"({"type":"drive","mode":"HUMAN"})", R"('mode' must be "human")"},
      {R"({"type":"drive","gamepad":[1,2]})", "'gamepad' must be"},
      {R"({"type":"drive","gamepad":{"axes":[1.5]}})",
       "'gamepad.axes' must be a list of at most 64"},
      {R"({"type":"drive","gamepad":{"buttons":[-0.1]}})", "'gamepad.buttons' must be"},
      {R"({"type":"drive","gamepad":{"axes":["x"]}})", "'gamepad.axes' must be"},
      {R"({"type":"drive","keys":"ArrowUp"})", "'keys' must be a list"},
      {R"({"type":"drive","keys":[""]})", "'keys' must be a list of key codes"},
      {R"({"type":"drive","keys":[3]})", "'keys' must be a list of key codes"},
  };
  for (const auto& [text, why] : cases) {
    const ClientMessage m = parse_client_message(text);
    EXPECT_FALSE(m.request) << text;
    EXPECT_NE(m.error.find(why), std::string::npos) << text << " → " << m.error;
  }
  std::string axes = R"({"type":"drive","gamepad":{"axes":[0)";
  for (int i = 0; i < 64; ++i) axes += ",0";
  const ClientMessage too_many = parse_client_message(axes + "]}}");
  EXPECT_FALSE(too_many.request);
  EXPECT_NE(too_many.error.find("at most 64"), std::string::npos) << too_many.error;
}

}  // namespace
}  // namespace hil::io::console
