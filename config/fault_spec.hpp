#pragma once
// The faults of a rig or scenario (config/fault.proto) checked and converted: every name
// resolved against the rig's channels and CAN buses, every problem located at its field.
// Setup phase only (allocates).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "io/can/mapping/can_bus_spec.hpp"
#include "rt_core/channel_table.hpp"

namespace google::protobuf {
template <typename Element>
class RepeatedPtrField;
}  // namespace google::protobuf

namespace hil::config {

class Fault;  // config/fault.proto

struct FaultCondition {
  enum class Test : std::uint8_t { above, below, crosses };
  std::string channel;
  Test test = Test::above;
  double value = 0.0;
  double for_s = 0.0;
};

struct FaultStartAt {
  double at_s = 0.0;
};
struct FaultAfter {
  std::string fault;
};
using FaultStart = std::variant<FaultStartAt, FaultCondition, FaultAfter>;

struct FaultNever {};
struct FaultDuration {
  double s = 0.0;
};
struct FaultCount {
  std::uint64_t n = 0;  ///< frames (message faults) or ticks
};
using FaultStop = std::variant<FaultNever, FaultDuration, FaultCount, FaultCondition>;

/// What a channel fault does to the value v the channel has at its slot.
enum class ChannelOp : std::uint8_t { force, stuck, offset, gain, noise, drift, delay, nan };
struct ChannelFaultSpec {
  std::string channel;
  ChannelOp op = ChannelOp::force;
  double value = 0.0;     ///< force/stuck/offset/gain value, noise sigma, drift per s, delay s
  bool has_value = true;  ///< stuck without a value holds the onset's
};

enum class MessageOp : std::uint8_t {
  drop,
  delay,
  cycle,
  dlc,
  crc,
  counter,
  signal,
  bits,
  duplicate,
  data_id
};
/// CANoe's ways to corrupt a counter or CRC, and how a counter continues after.
enum class ByteMode : std::uint8_t { value, offset, random, freeze };
enum class CounterContinue : std::uint8_t { correct, last_valid, last };
struct MessageFaultSpec {
  std::string bus;
  std::string message;
  bool transmitted = true;  ///< the rig sends it (else it receives it: drop and delay only)
  MessageOp op = MessageOp::drop;
  double delay_ms = 0.0;
  double cycle_ms = 0.0;  ///< cycle: a new cycle (0: every_nth instead)
  std::uint32_t every_nth = 0;
  std::uint32_t length = 0;         ///< dlc
  ByteMode mode = ByteMode::value;  ///< crc, counter
  std::uint64_t value = 0;          ///< crc/counter value, bits value, data id
  CounterContinue after = CounterContinue::correct;
  std::string signal;  ///< signal
  double signal_value = 0.0;
  std::uint32_t bit_start = 0, bit_size = 0;  ///< bits
};

struct BusFaultSpec {
  std::string bus;   ///< silence
  std::string node;  ///< only this simulated node's messages ("" : the whole bus)
};

struct FaultSpec {
  std::string name;
  FaultStart start = FaultStartAt{};
  FaultStop stop = FaultNever{};
  std::optional<std::pair<double, double>> pulse;  ///< on_s, off_s
  std::variant<ChannelFaultSpec, MessageFaultSpec, BusFaultSpec> target;
  std::string where;  ///< "faults[2]" or "scenario faults[0]": for messages at run time
};

/// "lost wheel speeds" → "lost_wheel_speeds" (the part of its channel names).
[[nodiscard]] std::string fault_channel_stem(std::string_view name);

/// Checks `faults` (the block at `prefix`, e.g. "faults") against the rig's channels
/// (`table`, including `extra_channels` such as a scenario's markers) and CAN buses, and
/// appends the converted faults to `out`. `known` holds the names of faults already
/// converted (a scenario's faults come after the rig's and may follow them).
[[nodiscard]] ConfigErrors check_faults(const google::protobuf::RepeatedPtrField<Fault>& faults,
                                        const rt::ChannelTable& table,
                                        const std::vector<std::string>& extra_channels,
                                        const std::vector<io::can::CanBusSpec>& can,
                                        std::string_view prefix, const SourceMap& sources,
                                        std::vector<FaultSpec>& out);

}  // namespace hil::config
