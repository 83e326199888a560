#pragma once
// Setup-time options of the CAN transports. The URI's query parameters override the
// matching fields (docs/can.md lists them); what a URI cannot say well (a list of receive
// filters from the DBC) comes only from here.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace hil::io::can {

/// One acceptance filter: a frame passes when (frame id & mask) == (id & mask) and its format
/// (11/29-bit) matches `extended`.
struct CanIdFilter {
  std::uint32_t id = 0;
  std::uint32_t mask = 0x1FFF'FFFF;
  bool extended = false;
};

struct VirtualSpec {
  /// Frames an endpoint's receive queue holds (1..65534, boost::lockfree's limit). URI: queue=.
  std::size_t queue_frames = 1024;
};

struct CannelloniSpec {
  /// Largest UDP payload a batch may fill. cannelloni's receiver reads 1500 bytes at most and
  /// fills 1472; 1400 leaves room for tunnels and VPNs. URI: max_packet=. Range 75..65507.
  std::size_t max_packet_bytes = 1400;
  /// Datagrams larger than this are counted as oversized and dropped (jumbo frames fit).
  std::size_t max_rx_packet_bytes = 9000;
  /// SO_RCVBUF asked for (the kernel caps it at net.core.rmem_max); 0 keeps the kernel's
  /// default (net.core.rmem_default). Datagrams that do not fit are dropped by the kernel
  /// (kernel_overflow); a larger queue keeps more of a flood for the transport to drop
  /// itself, which costs the tick more (docs/can.md "Receive budget").
  std::size_t rx_socket_bytes = 0;
};

struct SlcanSpec {
  /// CAN bitrate set with S0..S8 at open; nullopt leaves the adapter as it is. URI: bitrate=.
  std::optional<std::uint32_t> bitrate = 500'000;
  /// Serial line speed (USB CDC adapters ignore it). URI: baud=.
  std::uint32_t baud = 115'200;
  /// Bytes of formatted lines one tick may queue before flush() (a full FD line is 139).
  std::size_t tx_buffer_bytes = 8192;
};

struct SocketCanSpec {
  /// Kernel receive filters (CAN_RAW_FILTER); empty receives everything. URI: filter=.
  std::vector<CanIdFilter> filters;
  /// Enable CAN FD frames (CAN_RAW_FD_FRAMES). URI: fd=0|1.
  bool fd = true;
  /// Also hand error frames to receive() (they always update the state and counters).
  bool deliver_error_frames = false;
  /// Interface control through libsocketcan at open (needs CAP_NET_ADMIN); nullopt leaves
  /// the interface as configured. URI: bitrate=, restart_ms=.
  std::optional<std::uint32_t> bitrate;
  std::optional<std::uint32_t> restart_ms;
};

struct TransportSpec {
  VirtualSpec virtual_bus;
  CannelloniSpec cannelloni;
  SlcanSpec slcan;
  SocketCanSpec socketcan;
};

}  // namespace hil::io::can
