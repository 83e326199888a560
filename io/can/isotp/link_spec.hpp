#pragma once
// What one ISO-TP connection (link.hpp) is: its identifiers and addressing, frame format,
// the flow control it asks of its peer, its timeouts and buffer; and the counters it keeps.
// ISO 15765-2 names in the comments (N_As, N_Bs, N_Cr, BS, STmin, TX_DL, N_WFTmax).
// Thread-safety: plain values.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace hil::io::can::isotp {

enum class Addressing : std::uint8_t {
  normal,    ///< the identifier alone addresses the peer
  extended,  ///< the first data byte of every frame is the target address
};

struct LinkSpec {
  std::uint32_t tx_id = 0x7E8;  ///< identifier of the frames this end sends (its FC too)
  std::uint32_t rx_id = 0x7E0;  ///< identifier of the frames it receives (physical)
  bool extended_ids = false;    ///< 29-bit identifiers for tx_id, rx_id, functional_rx_id
  /// Functional requests (e.g. OBD's 0x7DF): single frames only, delivered flagged functional.
  std::optional<std::uint32_t> functional_rx_id;
  Addressing addressing = Addressing::normal;
  std::uint8_t tx_address = 0;  ///< extended addressing: first byte of the frames we send
  std::uint8_t rx_address = 0;  ///< … and of the frames we accept (others are ignored)
  bool fd = false;              ///< send CAN FD frames (with BRS); also accept them
  std::uint8_t tx_dl = 8;       ///< TX_DL: 8 classic; 8, 12, 16, 20, 24, 32, 48 or 64 FD
  /// Pad every frame to tx_dl with this byte; nullopt: the shortest length (CAN FD frames
  /// above 8 bytes still round up to their DLC, filled with 0xCC).
  std::optional<std::uint8_t> padding = 0xCC;
  std::uint8_t block_size = 0;           ///< BS our FC asks for (0: one FC per message)
  std::uint8_t st_min = 0;               ///< raw STmin our FC asks for (0x00–0x7F, 0xF1–0xF9)
  std::int64_t n_as_ns = 1'000'000'000;  ///< N_As: a due frame not taken by poll() in time
  std::int64_t n_bs_ns = 1'000'000'000;  ///< N_Bs: waiting for the peer's FC
  std::int64_t n_cr_ns = 1'000'000'000;  ///< N_Cr: waiting for the peer's next CF
  /// Largest message received (longer first frames are answered FC overflow) and sent.
  std::size_t max_message_bytes = 4095;
  std::uint8_t max_wait_frames = 10;  ///< FC WAIT tolerated in a row (N_WFTmax of the peer)
  /// Added to the peer's STmin between our CFs: a sender polled at tick boundaries keeps the
  /// peer's STmin on the wire even when one tick runs late (the built-in ECU: one period).
  std::int64_t st_min_margin_ns = 0;
};

/// "" if `spec` is usable, else a one-line problem naming the field (setup phase; allocates).
[[nodiscard]] std::string validate(const LinkSpec& spec);

/// What a Link saw. Every frame on our identifiers lands in exactly one of rx/tx progress,
/// malformed, unexpected or ignored_other_address. Plain counters, read by the owning thread.
struct Counters {
  std::uint64_t rx_messages = 0;     ///< complete messages received (SF or reassembled)
  std::uint64_t rx_functional = 0;   ///< … of them on functional_rx_id
  std::uint64_t tx_messages = 0;     ///< messages whose last frame poll() handed out
  std::uint64_t tx_rejected = 0;     ///< send() refused: busy, empty or too long
  std::uint64_t malformed = 0;       ///< frames the standard says to ignore (bad PCI, length,
                                     ///< RTR, FD on a classic link, CF longer than the FF)
  std::uint64_t unexpected = 0;      ///< well-formed but not expected now: a CF with no
                                     ///< reception, an FC with no sending waiting for one,
                                     ///< anything but an SF on functional_rx_id
  std::uint64_t rx_interrupted = 0;  ///< a new SF/FF aborted an unfinished reception
  std::uint64_t wrong_sequence = 0;  ///< a CF's SN was wrong: reception aborted
  std::uint64_t overflow = 0;        ///< messages longer than max_message_bytes (FF → FC OVFLW)
  std::uint64_t peer_overflow = 0;   ///< the peer's FC OVFLW aborted our sending
  std::uint64_t invalid_flow_status = 0;    ///< an FC with a reserved FS aborted our sending
  std::uint64_t wait_limit = 0;             ///< more than max_wait_frames FC WAIT: sending aborted
  std::uint64_t timeout_as = 0;             ///< N_As: sending aborted
  std::uint64_t timeout_bs = 0;             ///< N_Bs: sending aborted
  std::uint64_t timeout_cr = 0;             ///< N_Cr: reception aborted
  std::uint64_t rx_unread = 0;              ///< complete messages replaced before take_received()
  std::uint64_t ignored_other_ids = 0;      ///< frames on other identifiers, error frames
  std::uint64_t ignored_other_address = 0;  ///< extended addressing: another target address
};

}  // namespace hil::io::can::isotp
