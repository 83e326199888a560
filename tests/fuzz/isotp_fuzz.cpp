// libFuzzer target for ISO-TP (io/can/isotp): arbitrary frames, sends, polls and jumps in time
// fed to a Link whose frames go to a well-behaved peer Link (whose flow control goes back).
// The first byte picks the configuration (classic/FD, addressing, padding, 29-bit ids, BS,
// STmin, buffer size). Besides crashes and sanitizer reports it traps when a promise breaks:
//   - every frame poll() hands out is valid, ours (tx id, format), no longer than TX_DL
//     (exactly TX_DL when padded) and decodes as a well-formed PCI;
//   - poll() never returns more frames than it was given room for;
//   - a received message is 1..max_message_bytes long;
//   - whatever the peer completes is exactly the message the Link sent last (the fuzzed
//     frames reach the Link only, so they can disturb but never corrupt a transfer);
//   - a frame the PCI decoder accepts re-encodes to the same PCI bytes.
//
//   cmake --preset fuzz && cmake --build build/fuzz --target isotp_fuzz
//   cmake --build build/fuzz --target run_isotp_fuzz   # 60 s with the seed corpus

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "io/can/isotp/isotp_pci.hpp"
#include "io/can/isotp/link.hpp"

namespace {

using hil::io::can::CanFrame;
namespace isotp = hil::io::can::isotp;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

class Input {
 public:
  explicit Input(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  [[nodiscard]] bool empty() const { return at_ >= bytes_.size(); }
  std::uint8_t u8() { return empty() ? 0 : bytes_[at_++]; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

isotp::LinkSpec spec_of(std::uint8_t choice, std::uint8_t more) {
  isotp::LinkSpec s;
  s.fd = (choice & 0x01) != 0;
  static constexpr std::array<std::uint8_t, 4> kFdDl{8, 12, 20, 64};
  s.tx_dl = s.fd ? kFdDl[(more >> 4U) & 3U] : 8;
  if ((choice & 0x02) != 0) {
    s.addressing = isotp::Addressing::extended;
    s.tx_address = 0xF1;
    s.rx_address = 0x10;
  }
  if ((choice & 0x04) != 0) s.padding.reset();
  if ((choice & 0x08) != 0) {
    s.extended_ids = true;
    s.rx_id = 0x18DA10F1;
    s.tx_id = 0x18DAF110;
  }
  if ((choice & 0x10) != 0) s.functional_rx_id = s.extended_ids ? 0x18DB33F1 : 0x7DF;
  s.block_size = (choice & 0x20) != 0 ? (more & 0x07U) : 0;
  static constexpr std::array<std::uint8_t, 4> kStMin{0x00, 0x01, 0xF3, 0x7F};
  s.st_min = kStMin[(more >> 6U) & 3U];
  s.max_message_bytes = (choice & 0x40) != 0 ? 5000 : 300;
  s.max_wait_frames = more & 0x03U;
  s.n_as_ns = s.n_bs_ns = s.n_cr_ns = 50'000'000;
  return s;
}

isotp::LinkSpec peer_of(const isotp::LinkSpec& s) {
  isotp::LinkSpec p = s;
  std::swap(p.tx_id, p.rx_id);
  std::swap(p.tx_address, p.rx_address);
  p.functional_rx_id.reset();
  p.max_message_bytes = 5000;
  return p;
}

void check_pci_roundtrip(std::span<const std::uint8_t> data, std::size_t address_bytes) {
  const isotp::Decoded d = isotp::decode(data, address_bytes);
  if (d.error != isotp::PciError::none) return;
  std::array<std::uint8_t, 8> again{};
  const std::size_t n = isotp::encode(d.pci, again);
  require(n > 0 && address_bytes + n <= data.size());
  require(std::equal(again.begin(), again.begin() + static_cast<std::ptrdiff_t>(n),
                     data.begin() + static_cast<std::ptrdiff_t>(address_bytes)));
}

void check_own_frame(const isotp::LinkSpec& s, const CanFrame& f) {
  require(hil::io::can::is_valid(f) && f.id == s.tx_id && f.extended() == s.extended_ids);
  require(f.fd() == s.fd && f.length <= s.tx_dl && (!s.padding || f.length == s.tx_dl));
  const std::size_t address_bytes = s.addressing == isotp::Addressing::extended ? 1 : 0;
  if (address_bytes == 1) require(f.data[0] == s.tx_address);
  require(isotp::decode(f.payload(), address_bytes).error == isotp::PciError::none);
}

CanFrame fuzzed_frame(Input& in, const isotp::LinkSpec& s) {
  CanFrame f;
  const std::uint8_t head = in.u8();
  switch (head & 0x03U) {
    case 0:
      f.id = s.rx_id;
      break;
    case 1:
      f.id = s.functional_rx_id.value_or(s.rx_id);
      break;
    case 2:
      f.id = s.tx_id;
      break;
    default:
      f.id = in.u8();
      break;
  }
  f.flags = static_cast<std::uint8_t>(((head >> 2U) & 0x3FU) ^ (s.extended_ids ? 1U : 0U) ^
                                      (s.fd ? 0x18U : 0U));
  f.length = static_cast<std::uint8_t>(in.u8() % (hil::io::can::kMaxFdLength + 1));
  for (std::size_t i = 0; i < f.length; ++i) f.data[i] = in.u8();
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in({data, size});
  const std::uint8_t choice = in.u8();
  const isotp::LinkSpec spec = spec_of(choice, in.u8());
  isotp::Link link(spec);
  isotp::Link peer(peer_of(spec));
  std::int64_t now = 0;
  std::vector<std::uint8_t> last_sent;
  std::uint8_t seed = 0;
  std::array<CanFrame, 8> out{};

  const auto check_received = [&](isotp::Link& l, std::size_t max) {
    if (const auto r = l.take_received()) require(!r->data.empty() && r->data.size() <= max);
  };

  while (!in.empty()) {
    const std::uint8_t op = in.u8();
    switch (op & 0x03U) {
      case 0: {  // a frame from anywhere
        const CanFrame f = fuzzed_frame(in, spec);
        check_pci_roundtrip(f.payload(), 0);
        check_pci_roundtrip(f.payload(), 1);
        link.on_frame(f, now);
        check_received(link, spec.max_message_bytes);
        break;
      }
      case 1: {  // time passes: µs, 100 µs, ms or 10 ms steps
        static constexpr std::array<std::int64_t, 4> kScale{1'000, 100'000, 1'000'000, 10'000'000};
        now += kScale[(op >> 2U) & 3U] * in.u8();
        break;
      }
      case 2: {  // send a message
        const std::size_t n = (std::size_t{in.u8()} << 8U | in.u8()) % (spec.max_message_bytes + 8);
        std::vector<std::uint8_t> m(n);
        ++seed;
        for (std::size_t i = 0; i < n; ++i) m[i] = static_cast<std::uint8_t>(i * 13 + seed);
        const bool accepted = link.send(m, now);
        const bool fits = n > 0 && n <= spec.max_message_bytes;
        require(accepted ? fits && link.busy_sending() : !fits || link.busy_sending());
        if (accepted) last_sent = m;
        break;
      }
      default: {  // the bus turns: the Link's frames reach the peer, the peer's come back
        const std::size_t room = (op >> 2U) % (out.size() + 1);
        const std::size_t n = link.poll(now, std::span(out).first(room));
        require(n <= room);
        for (std::size_t i = 0; i < n; ++i) {
          check_own_frame(spec, out[i]);
          peer.on_frame(out[i], now);
          if (const auto r = peer.take_received()) {
            require(std::equal(r->data.begin(), r->data.end(), last_sent.begin(), last_sent.end()));
          }
        }
        const std::size_t back = peer.poll(now, out);
        for (std::size_t i = 0; i < back; ++i) {
          link.on_frame(out[i], now);
          check_received(link, spec.max_message_bytes);
        }
        break;
      }
    }
  }
  return 0;
}
