#pragma once
// What a rig maps on one CAN bus: the transport, the DBC, which received signals drive which
// input channels, which channels fill which transmitted signals, timeouts and safe states,
// which nodes of the DBC hilsim plays (rest-bus simulation) and which it checks (the device
// under test), and the messages' AUTOSAR E2E protection. Plain setup-phase data; config/
// fills it from the rig file (config/can.proto), tests build it directly.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/can/dbc/dbc_model.hpp"
#include "io/can/e2e/profile.hpp"
#include "io/can/mapping/send_plan.hpp"

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
  /// Sent by the device under test (plan_bus: an entry of its own or an `rx` block's message):
  /// its signals are output channels can.<bus>.<message>.<signal> when no `signals` map them,
  /// and it has no timeout when the DBC gives it no cycle.
  bool dut = false;
  std::optional<e2e::ProfileSpec> e2e;  ///< checked on reception (plan_bus)
};

struct TxMessageSpec {
  std::string message;
  std::vector<SignalBinding> signals;  ///< signal ← channel
  std::optional<double> cycle_s;       ///< default GenMsgCycleTime
  std::string alive_counter;
  std::string crc;
  std::optional<std::uint8_t> crc_data_id;
  /// Sent for a simulated node (plan_bus): every signal neither `signals` nor E2E uses is an
  /// input channel can.<bus>.<message>.<signal>, starting at its GenSigStartValue.
  bool simulated = false;
  std::string node;  ///< the simulated node that sends it ("" for a plain `tx` block)
  /// When it goes out (plan_bus; a plain `tx` block: cyclic at cycle_s or GenMsgCycleTime).
  std::optional<SendPlan> send;
  std::optional<e2e::ProfileSpec> e2e;  ///< protected on sending (plan_bus)
};

/// AUTOSAR E2E protection of one message: sent messages are protected, received ones checked.
struct E2eMessageSpec {
  std::string message;
  e2e::ProfileSpec profile;  ///< data_length_bits is the message's; filled when the bus builds
};

struct CanBusSpec {
  std::string name;  ///< lower snake case: interface name in can.log, channel prefix
  std::string uri;   ///< transport (io/can/transport/transport_factory.hpp)
  dbc::Database database;
  std::vector<RxMessageSpec> rx;
  std::vector<TxMessageSpec> tx;
  /// Rest-bus simulation: every message these DBC nodes send goes out as the DBC's
  /// attributes say ("*": every node); except_nodes and dut_nodes are left out.
  std::vector<std::string> simulate_nodes;
  std::vector<std::string> except_nodes;
  /// The device under test: each message these nodes send is checked (timeout, counter, E2E).
  std::vector<std::string> dut_nodes;
  /// E2E per message; a message not named here takes the DBC's E2E_* attributes, if any.
  std::vector<E2eMessageSpec> e2e;
  /// The bus's nominal and CAN FD data-phase bit rates [bit/s], for the receive budget.
  std::optional<std::uint32_t> bit_rate, data_bit_rate;
  /// Frames the transport hands the tick per tick at most (io/can/transport/rx_budget.hpp);
  /// default default_rx_frames_per_tick(period, bit_rate, data_bit_rate).
  std::optional<std::uint32_t> max_rx_frames_per_tick;

  /// plan_bus() ran: the node lists and E2E settings are in rx and tx (appended after the
  /// rig's own blocks, whose indices stay), and `plan` describes each message it decided on.
  bool planned = false;
  std::vector<std::string> plan;
};

/// A mapping error: the field of the spec ("rx[0].signals[2].signal", "tx[1].cycle",
/// "uri") and what is wrong, so that the rig loader can point at the line that wrote it.
struct MappingProblem {
  std::string field;
  std::string message;
};

}  // namespace hil::io::can
