#pragma once
// The steps of `hilsim uds` (docs/diagnostics.md "The tester"): words as typed on the command
// line — `session 3 read-did F190 read-dtc 09 clear-dtc reset raw 22F190 …` — parsed into
// requests, then run one after the other on a UdsPort (a transport's tester or a rig's), each with
// its response described.

#include <cstdint>
#include <string>
#include <vector>

#include "tools/session/uds/uds_tester.hpp"

namespace hil::session {

/// One step: a request, or SecurityAccess (seed and key), or a pause that keeps the session.
struct UdsStep {
  std::string text;  ///< as typed: "read-did F190"
  std::vector<std::uint8_t> request;
  std::uint8_t unlock_level = 0;  ///< security: the level to unlock (request empty)
  double wait_s = 0.0;            ///< wait: seconds (request empty)
};

/// Parses the words; throws std::invalid_argument naming the word at fault and what was
/// expected. Verbs: session N | reset [hard|soft] | tester-present | read-dtc [MASK] |
/// count-dtc [MASK] | supported-dtc | dtc-info DTC | clear-dtc [GROUP] | read-did DID… |
/// write-did DID HEX|text:TEXT | security [LEVEL] | routine start|stop|results ID [HEX] |
/// raw HEX | wait SECONDS. Numbers are hex (0x optional) except session, levels and seconds.
[[nodiscard]] std::vector<UdsStep> parse_uds_steps(const std::vector<std::string>& words);

/// Runs `steps` on `port`: each exchange, in order (security: both of its own).
[[nodiscard]] std::vector<UdsExchange> run_uds_steps(UdsPort& port,
                                                     const std::vector<UdsStep>& steps,
                                                     std::uint32_t key_mask);

}  // namespace hil::session
