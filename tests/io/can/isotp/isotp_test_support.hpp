#pragma once
// Helpers for the ISO-TP tests: a tester and a server Link on one simulated bus, stepped in
// fixed ticks (each tick: the tester's due frames reach the server, then the server's reach
// the tester), an optional log of every frame with its time; frame builders; message bytes.

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "io/can/can_frame.hpp"
#include "io/can/isotp/link.hpp"

namespace hil::io::can::isotp::test {

inline constexpr std::int64_t kUs = 1'000;
inline constexpr std::int64_t kMs = 1'000'000;

/// The ECU end (0x7E0 → 0x7E8, the OBD pair).
inline LinkSpec server_spec() { return LinkSpec{}; }

/// The tester end of `server`: identifiers and addresses swapped.
inline LinkSpec tester_of(const LinkSpec& server) {
  LinkSpec t = server;
  t.tx_id = server.rx_id;
  t.rx_id = server.tx_id;
  t.functional_rx_id.reset();
  t.tx_address = server.rx_address;
  t.rx_address = server.tx_address;
  return t;
}

/// `n` bytes of a pattern that differs per `seed`.
inline std::vector<std::uint8_t> message(std::size_t n, std::uint8_t seed = 0) {
  std::vector<std::uint8_t> m(n);
  for (std::size_t i = 0; i < n; ++i) m[i] = static_cast<std::uint8_t>(i * 7 + 3 + seed);
  return m;
}

constexpr CanFrame make_frame(std::uint32_t id, std::initializer_list<std::uint8_t> bytes,
                              std::uint8_t flags = 0) noexcept {
  CanFrame f;
  f.id = id;
  f.flags = flags;
  for (const std::uint8_t b : bytes) f.data[f.length++] = b;
  return f;
}

/// The frame type nibble of a frame's PCI (after `address_bytes`).
inline unsigned pci_type(const CanFrame& f, std::size_t address_bytes = 0) {
  return f.data[address_bytes] >> 4U;
}

struct Logged {
  std::int64_t t = 0;
  bool from_tester = false;
  CanFrame frame;
};

/// Tester and server on one bus.
class Wire {
 public:
  Wire(Link& tester, Link& server, std::vector<Logged>* log = nullptr)
      : tester_(tester), server_(server), log_(log) {}

  void step(std::int64_t now) {
    pass(tester_, server_, true, now);
    pass(server_, tester_, false, now);
  }

  /// Steps every `tick` from `from` until `done()` or `limit`; returns the time it stopped.
  template <class Done>
  std::int64_t run(std::int64_t from, std::int64_t tick, std::int64_t limit, Done&& done) {
    std::int64_t now = from;
    for (; now <= limit; now += tick) {
      step(now);
      if (done()) break;
    }
    return now;
  }

 private:
  void pass(Link& from, Link& to, bool from_tester, std::int64_t now) {
    const std::size_t n = from.poll(now, buffer_);
    for (std::size_t i = 0; i < n; ++i) {
      if (log_ != nullptr) log_->push_back({now, from_tester, buffer_[i]});
      to.on_frame(buffer_[i], now);
    }
  }

  Link& tester_;
  Link& server_;
  std::vector<Logged>* log_;
  std::array<CanFrame, 8> buffer_{};
};

/// The bytes of a received message, if there is one.
inline std::optional<std::vector<std::uint8_t>> take(Link& link) {
  const auto r = link.take_received();
  if (!r) return std::nullopt;
  return std::vector<std::uint8_t>(r->data.begin(), r->data.end());
}

}  // namespace hil::io::can::isotp::test
