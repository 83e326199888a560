#pragma once
// What a bus holds, independent of where it lives (shared memory, a replica on another host,
// the wire): its regions, each an ordered list of channels with one writer role. Built at
// setup from the rig's `bus` block (config/bus_spec.hpp); both ends of a mirror and every
// client check they agree through the schema hashes (FNV-1a-64 over a canonical text).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/bus/bus_layout.hpp"

namespace hil::io::bus {

/// The role hilsim's own RT thread writes under (the output regions).
inline constexpr std::string_view kHilsimRole = "hilsim";

struct ChannelSchema {
  std::string name;  ///< a channel of the rig: "vehicle.wheel.fl.speed_ref"
  std::string unit;  ///< SI, as the channel table has it
};

struct RegionSchema {
  std::string name;  ///< [a-z][a-z0-9_]*, unique in the bus
  RegionDirection direction = RegionDirection::input;
  std::string writer;  ///< the role that writes it; kHilsimRole for outputs
  std::vector<ChannelSchema> channels;
  std::uint32_t timeout_ticks = 0;       ///< inputs: silent this long = timed out; 0 never
  std::uint64_t expected_period_ns = 0;  ///< how often its writer publishes (informational)
};

struct BusSchema {
  std::string name;  ///< the rig's name: the endpoint is <runtime dir>/<name>.bus
  std::vector<RegionSchema> regions;

  /// FNV-1a-64 of "region|direction|writer\n" + "channel|unit\n" per channel, per region.
  [[nodiscard]] std::uint64_t hash() const noexcept;
  /// The same over region `i` alone.
  [[nodiscard]] std::uint64_t region_hash(std::size_t i) const noexcept;
  /// Index of the region named `name`, or -1.
  [[nodiscard]] int find_region(std::string_view region) const noexcept;
  /// The distinct writer roles of the input regions, in region order.
  [[nodiscard]] std::vector<std::string> input_roles() const;
};

/// FNV-1a-64 (the offset basis 0xcbf29ce484222325, prime 0x100000001b3) continued from `h`.
[[nodiscard]] std::uint64_t fnv1a64(std::string_view text,
                                    std::uint64_t h = 0xcbf29ce484222325ULL) noexcept;

}  // namespace hil::io::bus
