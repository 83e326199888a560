#include "tools/session/uds/uds_reply.hpp"

#include <fmt/format.h>

#include "io/can/uds/uds_codec.hpp"
#include "io/can/uds/uds_hex.hpp"

namespace hil::session {

nlohmann::json uds_reply(const runtime::UdsResult& result) {
  const std::span<const std::uint8_t> response(result.response.data(), result.size);
  std::string text = result.refused     ? "ISO-TP could not send the request (no flow control)"
                     : result.timed_out ? "no response (P2/P2* expired)"
                     : response.empty() ? "positive response suppressed"
                                        : io::can::uds::describe(response);
  return {{"tick", result.done_tick},
          {"sent_tick", result.sent_tick},
          {"response", io::can::uds::hex_text(response)},
          {"text", std::move(text)},
          {"negative", io::can::uds::negative_code(response)},
          {"pending", result.pending},
          {"timed_out", result.timed_out},
          {"refused", result.refused}};
}

}  // namespace hil::session
