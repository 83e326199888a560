#include "io/console/console_spec.hpp"

#include <fmt/format.h>

#include <boost/asio/ip/address.hpp>
#include <charconv>
#include <stdexcept>

namespace hil::io::console {

void parse_console_endpoint(std::string_view text, ConsoleSpec& options) {
  if (text == "off") {
    options.enabled = false;
    return;
  }
  const auto bad = [&](std::string_view why) {
    return std::invalid_argument(fmt::format(
        "--console '{}': {} (expected off, PORT, ADDR:PORT or [V6ADDR]:PORT, e.g. 8642, "
        "0.0.0.0:8642, 127.0.0.1:0)",
        text, why));
  };
  std::string_view address;
  std::string_view port = text;
  if (const std::size_t colon = text.rfind(':'); colon != std::string_view::npos) {
    address = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (address.starts_with('[') && address.ends_with(']')) {
      address = address.substr(1, address.size() - 2);
    }
  }
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535) {
    throw bad("the port must be a number 0..65535");
  }
  if (!address.empty()) {
    boost::system::error_code error;
    boost::asio::ip::make_address(std::string(address), error);
    if (error) throw bad(fmt::format("'{}' is not an IP address", address));
    options.address = std::string(address);
  }
  options.enabled = true;
  options.port = static_cast<std::uint16_t>(value);
}

}  // namespace hil::io::console
