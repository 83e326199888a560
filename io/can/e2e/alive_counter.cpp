#include "io/can/e2e/alive_counter.hpp"

#include <algorithm>

#include "io/can/e2e/crc.hpp"

namespace hil::io::can {

std::uint8_t crc8_j1850(std::span<const std::uint8_t> payload, std::size_t skip,
                        std::optional<std::uint8_t> data_id) noexcept {
  std::uint8_t crc = 0;
  bool first = true;
  const auto add = [&](std::span<const std::uint8_t> bytes) {
    if (bytes.empty()) return;
    crc = e2e::crc8_sae_j1850(bytes, crc, first);
    first = false;
  };
  if (data_id) add(std::span<const std::uint8_t>(&*data_id, 1));
  add(payload.first(std::min(skip, payload.size())));
  if (skip < payload.size()) add(payload.subspan(skip + 1));
  return first ? e2e::crc8_sae_j1850({}, 0, true) : crc;
}

CounterCheck check_counter(std::optional<std::uint32_t> previous, std::uint32_t now,
                           std::uint32_t bits) noexcept {
  if (!previous) return CounterCheck::first;
  const std::uint64_t modulus = std::uint64_t{1} << bits;
  const std::uint64_t step = (now + modulus - *previous) % modulus;
  if (step == 0) return CounterCheck::repeat;
  return step == 1 ? CounterCheck::next : CounterCheck::jump;
}

}  // namespace hil::io::can
