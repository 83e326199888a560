#include "io/can/isotp/isotp_pci.hpp"

namespace hil::io::can::isotp {
namespace {

constexpr std::uint8_t kLowNibble = 0x0F;

Decoded failed(Decoded d, PciError error) {
  d.error = error;
  return d;
}

Decoded decode_single(Decoded d, std::span<const std::uint8_t> pdu, std::size_t can_dl) {
  const std::uint8_t sf_dl = pdu[0] & kLowNibble;
  std::size_t pci_size = 1;
  std::size_t length = sf_dl;
  if (can_dl > kClassicDl) {  // CAN FD beyond 8 bytes: only the escape form is valid
    if (sf_dl != 0) return failed(d, PciError::bad_length);
    if (pdu.size() < 2) return failed(d, PciError::too_short);
    pci_size = 2;
    length = pdu[1];
    d.pci.escape = true;
  }
  d.pci.length = static_cast<std::uint32_t>(length);
  if (length == 0 || length > pdu.size() - pci_size) return failed(d, PciError::bad_length);
  d.payload = pdu.subspan(pci_size, length);
  return d;
}

Decoded decode_first(Decoded d, std::span<const std::uint8_t> pdu, std::size_t can_dl,
                     std::size_t address_bytes) {
  if (can_dl < kClassicDl || pdu.size() < 2) return failed(d, PciError::too_short);
  std::uint32_t length = static_cast<std::uint32_t>((pdu[0] & kLowNibble) << 8U) | pdu[1];
  std::size_t pci_size = 2;
  if (length == 0) {  // escape: the 32-bit FF_DL follows, big-endian
    if (pdu.size() < 6) return failed(d, PciError::too_short);
    length = (std::uint32_t{pdu[2]} << 24U) | (std::uint32_t{pdu[3]} << 16U) |
             (std::uint32_t{pdu[4]} << 8U) | pdu[5];
    pci_size = 6;
    d.pci.escape = true;
  }
  d.pci.length = length;
  if (d.pci.escape && length <= kMaxShortFirstLength) return failed(d, PciError::bad_length);
  if (length < min_first_length(can_dl, address_bytes)) return failed(d, PciError::bad_length);
  d.payload = pdu.subspan(pci_size);
  return d;
}

}  // namespace

Decoded decode(std::span<const std::uint8_t> frame_data, std::size_t address_bytes) noexcept {
  Decoded d;
  if (frame_data.size() <= address_bytes) return failed(d, PciError::too_short);
  const std::span<const std::uint8_t> pdu = frame_data.subspan(address_bytes);
  const unsigned type = pdu[0] >> 4U;
  if (type > 3) return failed(d, PciError::reserved_type);
  d.pci.type = static_cast<FrameType>(type);
  switch (d.pci.type) {
    case FrameType::single:
      return decode_single(d, pdu, frame_data.size());
    case FrameType::first:
      return decode_first(d, pdu, frame_data.size(), address_bytes);
    case FrameType::consecutive:
      d.pci.sequence = pdu[0] & kLowNibble;
      if (pdu.size() < 2) return failed(d, PciError::too_short);
      d.payload = pdu.subspan(1);
      return d;
    case FrameType::flow_control:
      if (pdu.size() < 3) return failed(d, PciError::too_short);
      d.pci.flow_status = static_cast<FlowStatus>(pdu[0] & kLowNibble);
      d.pci.block_size = pdu[1];
      d.pci.st_min = pdu[2];
      if ((pdu[0] & kLowNibble) > 2) d.error = PciError::reserved_flow_status;
      return d;
  }
  return d;
}

std::size_t encode(const Pci& pci, std::span<std::uint8_t> out) noexcept {
  const std::uint32_t n = pci.length;
  switch (pci.type) {
    case FrameType::single:
      if (!pci.escape) {
        if (n == 0 || n > 7 || out.empty()) return 0;
        out[0] = static_cast<std::uint8_t>(n);
        return 1;
      }
      if (n == 0 || n > 0xFF || out.size() < 2) return 0;
      out[0] = 0x00;
      out[1] = static_cast<std::uint8_t>(n);
      return 2;
    case FrameType::first:
      if (!pci.escape) {
        if (n == 0 || n > kMaxShortFirstLength || out.size() < 2) return 0;
        out[0] = static_cast<std::uint8_t>(0x10U | (n >> 8U));
        out[1] = static_cast<std::uint8_t>(n & 0xFFU);
        return 2;
      }
      if (n <= kMaxShortFirstLength || out.size() < 6) return 0;
      out[0] = 0x10;
      out[1] = 0x00;
      for (std::size_t i = 0; i < 4; ++i) {
        out[2 + i] = static_cast<std::uint8_t>(n >> (8U * (3 - i)));
      }
      return 6;
    case FrameType::consecutive:
      if (pci.sequence > kLowNibble || out.empty()) return 0;
      out[0] = static_cast<std::uint8_t>(0x20U | pci.sequence);
      return 1;
    case FrameType::flow_control:
      if (static_cast<unsigned>(pci.flow_status) > 2 || out.size() < 3) return 0;
      out[0] = static_cast<std::uint8_t>(0x30U | static_cast<unsigned>(pci.flow_status));
      out[1] = pci.block_size;
      out[2] = pci.st_min;
      return 3;
  }
  return 0;
}

}  // namespace hil::io::can::isotp
