// libFuzzer target for the console's client message parser (io/console/console_protocol.hpp):
// arbitrary bytes as a WebSocket text frame from a browser or script. Besides crashes and
// sanitizer reports it traps when a promise breaks: a message is either a request or an
// error (never both, never neither), and a subscription's id and channels are in range.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target run_console_message_fuzz

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "io/console/console_protocol.hpp"

namespace {

void require(bool promise) {
  if (!promise) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hil::io::console;
  const ClientMessage m =
      parse_client_message(std::string_view(reinterpret_cast<const char*>(data), size));
  require(m.request.has_value() == m.error.empty());
  if (const auto* s = m.request ? std::get_if<Subscribe>(&*m.request) : nullptr) {
    require(s->id >= 1);
    require(s->channels.size() <= 4096);
    require(s->backfill_s >= 0.0);
    for (const auto& c : s->channels) require(!c.empty());
  }
  return 0;
}
