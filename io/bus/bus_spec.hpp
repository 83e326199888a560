#pragma once
// A rig's bus as config/ hands it to io/bus: the `bus` block of the rig file (config/bus.proto)
// checked and converted (config/bus_spec.hpp), channel names not yet resolved to ids.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/bus/bus_layout.hpp"

namespace hil::io::bus {

struct RangeSpec {
  std::string channel;
  double min = 0.0;
  double max = 0.0;
  bool clamp = false;  ///< false: an out-of-range value rejects the whole snapshot
};

struct RegionSpec {
  std::string name;
  RegionDirection direction = RegionDirection::input;
  std::string writer;  ///< inputs: the writer role; outputs: "hilsim"
  std::vector<std::string> channels;
  std::uint32_t timeout_ticks = 0;  ///< inputs; 0 = never
  std::uint32_t hold_ticks = 0;     ///< inputs: after the timeout, before the safe values
  std::vector<std::pair<std::string, double>> safe;  ///< inputs: forced while missing
  std::vector<RangeSpec> ranges;                     ///< inputs
  std::uint32_t every_ticks = 1;                     ///< outputs: publish every N-th tick
};

struct MirrorPeerSpec {
  std::string address;  ///< host:port
  std::vector<std::string> send;
  std::vector<std::string> receive;
};

struct MirrorSpec {
  std::string bind = "127.0.0.1:29500";
  std::string key_file;  ///< absolute
  std::uint8_t key_id = 1;
  std::vector<MirrorPeerSpec> peers;
  unsigned send_repeat = 1;
  std::uint32_t receive_budget = 64;  ///< datagrams per peer and tick (docs/bus.md)
  std::uint8_t tag = 1;               ///< the wire version signed with: 1 HMAC-SHA256, 2 BLAKE2b
};

struct BusSpec {
  std::string name;  ///< "" = the rig's name (known to the application, not to the file)
  std::vector<RegionSpec> regions;
  std::optional<MirrorSpec> mirror;
};

}  // namespace hil::io::bus
