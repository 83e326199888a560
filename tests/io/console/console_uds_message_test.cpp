// The console's "uds" message (io/console/console_protocol.hpp, docs/api.md): a UDS request
// for the rig's tester as a command, its text as commands.log writes it ("[functional ]HEX").
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "io/console/console_protocol.hpp"

namespace hil::io::console {
namespace {

Command command_of(const std::string& text) {
  const ClientMessage m = parse_client_message(text);
  EXPECT_TRUE(m.request) << text << " → " << m.error;
  if (!m.request || !std::holds_alternative<Command>(*m.request)) return {};
  return std::get<Command>(*m.request);
}

TEST(ConsoleUdsMessage, PhysicalAndFunctionalRequests) {
  Command c = command_of(R"({"type":"uds","request":"22F190"})");
  EXPECT_EQ(c.kind, Command::Kind::uds);
  EXPECT_EQ(c.name, "22F190");
  c = command_of(R"({"type":"uds","request":"22F190","functional":false})");
  EXPECT_EQ(c.kind, Command::Kind::uds);
  EXPECT_EQ(c.name, "22F190");
  c = command_of(R"({"type":"uds","request":"3E00","functional":true})");
  EXPECT_EQ(c.kind, Command::Kind::uds);
  EXPECT_EQ(c.name, "functional 3E00");
  const ClientMessage m = parse_client_message(R"({"type":"uds","request":"10 03","req":12})");
  ASSERT_TRUE(m.request) << m.error;
  EXPECT_EQ(std::get<Command>(*m.request).name, "10 03") << "the queue parses the hex";
  EXPECT_EQ(m.req, 12);
}

TEST(ConsoleUdsMessage, RefusesAMissingOrEmptyRequestOrAFunctionalNotABool) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {R"({"type":"uds"})", "'request' must be the UDS request in hex"},
      {R"({"type":"uds","request":""})", "'request' must be the UDS request in hex"},
      {R"({"type":"uds","request":34})", "'request' must be the UDS request in hex"},
      {R"({"type":"uds","request":["22"]})", "'request' must be the UDS request in hex"},
      {R"({"type":"uds","functional":true})", "'request' must be the UDS request in hex"},
      {R"({"type":"uds","request":"3E00","functional":"yes"})",
       "'functional' must be true or false"},
      {R"({"type":"uds","request":"3E00","functional":1})", "'functional' must be true or false"},
      {R"({"type":"udss","request":"3E00"})", "marker, uds, step"},
  };
  for (const auto& [text, why] : cases) {
    const ClientMessage m = parse_client_message(text);
    EXPECT_FALSE(m.request) << text;
    EXPECT_NE(m.error.find(why), std::string::npos) << text << " → " << m.error;
  }
}

}  // namespace
}  // namespace hil::io::console
