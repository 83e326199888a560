#pragma once
// Setup-phase helpers of CanBus (io/can/mapping/can_bus.cpp): name resolution with located
// problems, end-to-end signal layout, start values, transport options. Internal to io/can.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/mapping/can_bus_spec.hpp"
#include "io/can/transport/transport_spec.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::io::can::detail {

/// One signal of a message bound to a channel.
struct Binding {
  std::size_t signal = 0;  ///< index in the message's signals
  rt::ChannelId channel{};
};

/// Where the alive counter and the CRC sit in a message (−1: none).
struct E2e {
  std::int32_t counter = -1;
  std::uint32_t counter_bits = 0;
  std::int32_t crc = -1;
  std::size_t crc_byte = 0;
  std::optional<std::uint8_t> crc_data_id;
};

/// "ECU_Command" → "ecu_command", "WheelSpeeds2" → "wheel_speeds2".
[[nodiscard]] std::string snake_case(std::string_view name);

/// The physical start value of every signal (GenSigStartValue, else 0), in signal order.
[[nodiscard]] std::vector<double> start_values(const dbc::Message& message);

/// Transport options for the bus: socketcan receives only the mapped message ids.
[[nodiscard]] TransportSpec options_for(const CanBusSpec& spec, const dbc::CompiledDatabase& db);

/// True when the frame has no CRC signal or its CRC matches (RT).
[[nodiscard]] bool check_crc(const E2e& e2e, std::span<const std::uint8_t> payload) noexcept;
/// Computes and writes the CRC byte, if the message has one (RT).
void write_crc(const E2e& e2e, CanFrame& frame) noexcept;

/// Resolves the names of a bus spec, appending a MappingProblem for each that does not.
class Resolver {
 public:
  Resolver(const CanBusSpec& spec, const rt::ChannelTable& table,
           std::vector<MappingProblem>& problems)
      : spec_(spec), table_(table), problems_(problems) {}

  /// Index of the message in the database, or −1 (problem at `field`).
  [[nodiscard]] std::int32_t message(const std::string& name, const std::string& field) const;
  /// The id of a channel, checked for its direction when one is required.
  [[nodiscard]] std::optional<rt::ChannelId> channel(const std::string& name,
                                                     const std::string& field,
                                                     std::optional<rt::Direction> required) const;
  /// Signal bindings of `bindings`; `channel_direction` is required of their channels.
  [[nodiscard]] std::vector<Binding> bindings(std::int32_t message,
                                              const std::vector<SignalBinding>& bindings,
                                              const std::string& at,
                                              std::optional<rt::Direction> channel_direction) const;
  /// Counter and CRC of a message.
  [[nodiscard]] E2e e2e(std::int32_t message, const std::string& counter, const std::string& crc,
                        std::optional<std::uint8_t> data_id, const std::string& at) const;
  /// The cycle in ticks: `override_s` if given, else GenMsgCycleTime, else nullopt.
  [[nodiscard]] std::optional<std::int64_t> cycle_ticks(std::int32_t message,
                                                        std::optional<double> override_s,
                                                        double period_s) const;

 private:
  [[nodiscard]] std::int32_t signal(std::int32_t message, const std::string& name,
                                    const std::string& field) const;

  const CanBusSpec& spec_;
  const rt::ChannelTable& table_;
  std::vector<MappingProblem>& problems_;
};

}  // namespace hil::io::can::detail
