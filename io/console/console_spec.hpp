#pragma once
// Where the console listens and what it keeps (docs/console.md), from `--console` and the
// harness. Setup phase.

#include <cstdint>
#include <string>
#include <string_view>

namespace hil::io::console {

inline constexpr std::uint16_t kDefaultConsolePort = 8642;

struct ConsoleSpec {
  bool enabled = true;
  std::string address = "127.0.0.1";
  std::uint16_t port = kDefaultConsolePort;  ///< 0: a free one
  double rate_hz = 1000.0;                   ///< console samples per second (at most)
  double history_s = 10.0;                   ///< kept for late joiners
  double foxglove_rate_hz = 100.0;           ///< per topic
  std::size_t max_clients = 64;
};

/// `--console off|PORT|ADDR:PORT|[V6ADDR]:PORT` into `options` (address and port only).
/// Throws std::invalid_argument saying what is wrong.
void parse_console_endpoint(std::string_view text, ConsoleSpec& options);

}  // namespace hil::io::console
