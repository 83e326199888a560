#include "io/can/isotp/link_spec.hpp"

#include <algorithm>
#include <array>

#include "io/can/can_frame.hpp"
#include "io/can/isotp/isotp_pci.hpp"

namespace hil::io::can::isotp {
namespace {

bool id_fits(std::uint32_t id, bool extended) {
  return id <= (extended ? kMaxExtendedId : kMaxStandardId);
}

}  // namespace

std::string validate(const LinkSpec& spec) {
  const char* const format = spec.extended_ids ? "29-bit" : "11-bit";
  if (!id_fits(spec.tx_id, spec.extended_ids)) {
    return std::string("tx_id does not fit an ") + format + " identifier";
  }
  if (!id_fits(spec.rx_id, spec.extended_ids)) {
    return std::string("rx_id does not fit an ") + format + " identifier";
  }
  if (spec.tx_id == spec.rx_id) return "tx_id and rx_id must differ";
  if (spec.functional_rx_id) {
    const std::uint32_t f = *spec.functional_rx_id;
    if (!id_fits(f, spec.extended_ids)) {
      return std::string("functional_rx_id does not fit an ") + format + " identifier";
    }
    if (f == spec.rx_id || f == spec.tx_id) return "functional_rx_id must differ from tx/rx_id";
  }
  constexpr std::array<std::uint8_t, 8> kFdDl{8, 12, 16, 20, 24, 32, 48, 64};
  if (!spec.fd && spec.tx_dl != kClassicDl) return "tx_dl must be 8 for classic CAN";
  if (spec.fd && std::find(kFdDl.begin(), kFdDl.end(), spec.tx_dl) == kFdDl.end()) {
    return "tx_dl must be 8, 12, 16, 20, 24, 32, 48 or 64 for CAN FD";
  }
  if (!is_valid_st_min(spec.st_min)) return "st_min must be 0x00-0x7F or 0xF1-0xF9";
  if (spec.n_as_ns <= 0) return "n_as_ns must be positive";
  if (spec.n_bs_ns <= 0) return "n_bs_ns must be positive";
  if (spec.st_min_margin_ns < 0) return "st_min_margin_ns must not be negative";
  if (spec.n_cr_ns <= 0) return "n_cr_ns must be positive";
  if (spec.max_message_bytes == 0) return "max_message_bytes must be at least 1";
  if (spec.max_message_bytes > 0xFFFF'FFFFU) return "max_message_bytes exceeds 2^32 - 1";
  return "";
}

}  // namespace hil::io::can::isotp
