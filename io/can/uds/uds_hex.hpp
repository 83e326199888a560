#pragma once
// UDS messages as the text people type and read: hex bytes, upper case ("22F190", or with a
// separator "22 F1 90"). One pair for every place that writes or reads them (commands.log,
// the API's `uds` message, scenarios, `hilsim uds`). Not for the RT path (allocates).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hil::io::can::uds {

/// The bytes of `text`: hex digit pairs, either case, spaces anywhere. Throws
/// std::invalid_argument saying what is wrong ("'g' is not a hex digit", "an odd number of hex
/// digits"); "" gives no bytes.
[[nodiscard]] std::vector<std::uint8_t> parse_hex_bytes(std::string_view text);

/// "22F190", or with `separator` " ": "22 F1 90".
[[nodiscard]] std::string hex_text(std::span<const std::uint8_t> bytes,
                                   std::string_view separator = "");

}  // namespace hil::io::can::uds
