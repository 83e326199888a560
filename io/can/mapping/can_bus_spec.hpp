#pragma once
// What a rig maps on one CAN bus: the
// transport, the DBC, which received signals drive which input channels, which channels fill
// which transmitted signals, timeouts and safe states. Plain setup-phase data; config/ fills
// it from the rig file (config/can.proto), tests build it directly.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/can/dbc/dbc_model.hpp"

namespace hil::io::can {

struct SignalBinding {
  std::string signal;   ///< DBC signal name
  std::string channel;  ///< channel name
};

struct RxMessageSpec {
  std::string message;  ///< DBC message name
  std::vector<SignalBinding> signals;
  /// Missing after this long without a valid frame [s]; default 3 × GenMsgCycleTime.
  std::optional<double> timeout_s;
  std::string alive_counter;  ///< signal name, or empty
  std::string crc;            ///< signal name, or empty
  std::optional<std::uint8_t> crc_data_id;
  /// After a timeout, keep the last values this many cycle times more, then force `safe`.
  std::uint32_t hold_cycles = 1;
  std::vector<std::pair<std::string, double>> safe;  ///< channel name, value
};

struct TxMessageSpec {
  std::string message;
  std::vector<SignalBinding> signals;  ///< signal ← channel
  std::optional<double> cycle_s;       ///< default GenMsgCycleTime
  std::string alive_counter;
  std::string crc;
  std::optional<std::uint8_t> crc_data_id;
};

struct CanBusSpec {
  std::string name;  ///< lower snake case: interface name in can.log, channel prefix
  std::string uri;   ///< transport (io/can/transport/transport_factory.hpp)
  dbc::Database database;
  std::vector<RxMessageSpec> rx;
  std::vector<TxMessageSpec> tx;
};

/// A mapping error: the field of the spec ("rx[0].signals[2].signal", "tx[1].cycle",
/// "uri") and what is wrong, so that the rig loader can point at the line that wrote it.
struct MappingProblem {
  std::string field;
  std::string message;
};

}  // namespace hil::io::can
