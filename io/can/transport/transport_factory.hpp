#pragma once
// Opens a CAN transport from its URI — setup phase only (allocates, may block
// briefly, throws):
//   virtual:NAME[?queue=FRAMES]                                  in-process bus
//   cannelloni://HOST:PORT[?local=ADDR:PORT&max_packet=BYTES]   UDP, cannelloni v2
//   slcan:/dev/TTY[?bitrate=BITS_PER_S&baud=SERIAL_BAUD]        Lawicel/SLCAN adapter
//   socketcan:IFACE[?fd=0|1&filter=ID[:MASK],…&bitrate=…&restart_ms=…]   Linux CAN_RAW
// A malformed URI throws std::invalid_argument quoting it, saying what is wrong and what is
// expected; a link that cannot be opened throws std::runtime_error naming the URI and why.
// Query parameters override the matching TransportSpec fields (docs/can.md).
// Thread-safety: may be called from any thread (the virtual bus registry is locked).

#include <memory>
#include <string_view>

#include "io/can/transport/transport.hpp"
#include "io/can/transport/transport_spec.hpp"

namespace hil::io::can {

[[nodiscard]] std::unique_ptr<Transport> open_transport(std::string_view uri_text,
                                                        const TransportSpec& options = {});

}  // namespace hil::io::can
