#include "tools/session/uds/uds_reply.hpp"

#include <fmt/format.h>

#include "io/can/uds/uds_codec.hpp"

namespace hil::session {

nlohmann::json uds_reply(const runtime::UdsResult& result) {
  const std::span<const std::uint8_t> response(result.response.data(), result.size);
  std::string hex;
  for (const std::uint8_t b : response) hex += fmt::format("{:02X}", b);
  std::string text = result.refused     ? "ISO-TP could not send the request (no flow control)"
                     : result.timed_out ? "no response (P2/P2* expired)"
                     : response.empty() ? "positive response suppressed"
                                        : io::can::uds::describe(response);
  return {{"tick", result.done_tick},
          {"sent_tick", result.sent_tick},
          {"response", hex},
          {"text", std::move(text)},
          {"negative", io::can::uds::negative_code(response)},
          {"pending", result.pending},
          {"timed_out", result.timed_out},
          {"refused", result.refused}};
}

}  // namespace hil::session
