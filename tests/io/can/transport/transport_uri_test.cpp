// Choosing a transport by URI (io/can/transport/transport_uri.hpp, transport_factory.hpp): every
// mistake is a std::invalid_argument that quotes the URI, says what is wrong and shows the form.

#include "io/can/transport/transport_uri.hpp"

#include <gtest/gtest.h>

#include <string>

#include "io/can/transport/transport_factory.hpp"

namespace hil::io::can {
namespace {

std::string error_of(std::string_view uri) {
  try {
    (void)open_transport(uri);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no std::invalid_argument)";
}

TEST(TransportUri, SplitsSchemeTargetAndQuery) {
  const TransportUri u =
      parse_transport_uri("cannelloni://10.0.0.2:20000?local=0.0.0.0:20001&max_packet=512");
  EXPECT_EQ(u.scheme, "cannelloni");
  EXPECT_EQ(u.target, "10.0.0.2:20000");
  ASSERT_EQ(u.query.size(), 2U);
  EXPECT_EQ(u.query[0], (std::pair<std::string, std::string>{"local", "0.0.0.0:20001"}));
  EXPECT_EQ(u.query[1], (std::pair<std::string, std::string>{"max_packet", "512"}));
  EXPECT_EQ(parse_transport_uri("slcan:/dev/ttyACM0").target, "/dev/ttyACM0");
  EXPECT_EQ(parse_transport_uri("virtual:demo").scheme, "virtual");
  EXPECT_EQ(parse_transport_uri("socketcan:can0").target, "can0");
}

TEST(TransportUri, UnknownSchemesListWhatExists) {
  const std::string m = error_of("can0");
  EXPECT_EQ(m,
            "CAN transport URI 'can0': unknown transport 'can0'; expected virtual:NAME, "
            "cannelloni://HOST:PORT, slcan:/dev/TTY or socketcan:IFACE");
  EXPECT_NE(error_of("udp://1.2.3.4:5").find("unknown transport 'udp'"), std::string::npos);
}

TEST(TransportUri, AKnownSchemeWrittenWrongShowsItsForm) {
  EXPECT_EQ(error_of("cannelloni:10.0.0.2:20000"),
            "CAN transport URI 'cannelloni:10.0.0.2:20000': it must start with 'cannelloni://'; "
            "expected cannelloni://HOST:PORT[?local=ADDR:PORT&max_packet=BYTES]");
  EXPECT_NE(error_of("slcan:").find("nothing after 'slcan:'"), std::string::npos);
}

TEST(TransportUri, HostPortMistakes) {
  EXPECT_NE(error_of("cannelloni://10.0.0.2").find("is not HOST:PORT"), std::string::npos);
  EXPECT_NE(error_of("cannelloni://10.0.0.2:99999").find("port in 0..65535"), std::string::npos);
  EXPECT_NE(error_of("cannelloni://:20000").find("needs a host"), std::string::npos);
  EXPECT_NE(error_of("cannelloni://10.0.0.2:0").find("peer port 0"), std::string::npos);
  EXPECT_NE(error_of("cannelloni://::1:20000").find("[ADDR]:PORT"), std::string::npos);
  EXPECT_NE(error_of("cannelloni://10.0.0.2:20000?local=0.0.0.0").find("local="),
            std::string::npos);

  std::string why;
  const auto v6 = parse_host_port("[::1]:20000", why);
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 20000);
  const auto name = parse_host_port("ecu-bridge.local:0x4E20", why);
  ASSERT_TRUE(name);
  EXPECT_EQ(name->host, "ecu-bridge.local");
  EXPECT_EQ(name->port, 20000);
  EXPECT_FALSE(parse_host_port("[::1]20000", why));
}

TEST(TransportUri, QueryMistakes) {
  EXPECT_NE(error_of("virtual:a?queue").find("'queue' is not key=value"), std::string::npos);
  EXPECT_NE(error_of("virtual:a?=3").find("is not key=value"), std::string::npos);
  EXPECT_NE(error_of("virtual:a?queue=1&queue=2").find("given twice"), std::string::npos);
  EXPECT_EQ(error_of("virtual:a?size=3"),
            "CAN transport URI 'virtual:a?size=3': unknown query parameter 'size' (accepted: "
            "queue); expected virtual:NAME[?queue=FRAMES]");
  EXPECT_NE(error_of("virtual:a?queue=lots").find("queue='lots' is not a number in [1, 65534]"),
            std::string::npos);
  EXPECT_NE(error_of("slcan:/dev/ttyACM0?bitrate=-5").find("bitrate='-5'"), std::string::npos);
  EXPECT_NE(error_of("cannelloni://1.2.3.4:5?max_packet=70").find("max_packet='70'"),
            std::string::npos);
}

TEST(TransportUri, UnsignedNumbers) {
  EXPECT_EQ(parse_unsigned("12"), 12U);
  EXPECT_EQ(parse_unsigned("0x1F"), 31U);
  EXPECT_EQ(parse_unsigned("0X7ff"), 0x7FFU);
  EXPECT_EQ(parse_unsigned(""), std::nullopt);
  EXPECT_EQ(parse_unsigned("0x"), std::nullopt);
  EXPECT_EQ(parse_unsigned("-1"), std::nullopt);
  EXPECT_EQ(parse_unsigned("12a"), std::nullopt);
  EXPECT_EQ(parse_unsigned("99999999999999999999999"), std::nullopt);
}

}  // namespace
}  // namespace hil::io::can
