// --console (io/console/console_spec.hpp).
#include "io/console/console_spec.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace hil::io::console {
namespace {

TEST(ConsoleEndpoint, ReadsEveryForm) {
  ConsoleSpec o;
  parse_console_endpoint("9000", o);
  EXPECT_EQ(o.address, "127.0.0.1");
  EXPECT_EQ(o.port, 9000);
  parse_console_endpoint("0.0.0.0:0", o);
  EXPECT_EQ(o.address, "0.0.0.0");
  EXPECT_EQ(o.port, 0);
  parse_console_endpoint("[::1]:8642", o);
  EXPECT_EQ(o.address, "::1");
  EXPECT_TRUE(o.enabled);
  parse_console_endpoint("off", o);
  EXPECT_FALSE(o.enabled);
}

TEST(ConsoleEndpoint, SaysWhatIsWrong) {
  ConsoleSpec o;
  for (const char* bad : {"", "65536", "http://x", "localhost:80", "1.2.3:80", "80x"}) {
    try {
      parse_console_endpoint(bad, o);
      ADD_FAILURE() << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--console"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace hil::io::console
