#pragma once
// Commands from outside the loop (the console, the automation API, tests): channel writes and
// releases, faults added and cleared, UDS requests for the rig's tester (runtime/diag). Any non-RT
// thread submits; the queue's stage, in the commands slot of the tick, applies each at the tick it
// runs in (a written input channel stays forced — over scenario events and CAN — until released);
// the submitter learns that tick from take_applied(), which also yields the line for commands.log
// (docs/faults.md "Commands"), so `hilsim replay` applies them again at their ticks
// (RecordedCommands).
//
// Thread-safety: submit and take_applied from any non-RT threads (serialised inside); stage()
// runs on the RT thread (noexcept, no allocation: prepared faults are freed off it).

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/fault_command.hpp"
#include "io/record/line_log.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/spsc_ring.hpp"
#include "rt_core/stage.hpp"
#include "runtime/faults/fault_engine.hpp"

namespace hil::runtime {

/// A command as the RT side applies it (trivially copyable: it crosses a ring).
struct Command {
  enum class Kind : std::uint8_t { write, release, fault, clear, marker, uds };
  std::uint64_t id = 0;
  Kind kind = Kind::write;
  rt::ChannelId channel{};
  double value = 0.0;
  runtime::PreparedFault* fault = nullptr;  ///< owned by the command until applied
  std::array<char, 64> name{};              ///< clear: the fault's name
  const std::uint8_t* bytes = nullptr;      ///< uds: the request (owned by the submitter)
  std::uint16_t size = 0;
  bool functional = false;  ///< uds: to the functional id
};

/// A UDS request as commands.log and the API write it: hex bytes (spaces allowed), after
/// "functional " for the functional id.
struct UdsRequestText {
  std::vector<std::uint8_t> bytes;
  bool functional = false;
};
/// Parses "22F190", "22 F1 90", "functional 3E00"; std::invalid_argument saying what is wrong
/// (not hex, odd digits, empty, longer than 4095 bytes, functional beyond one frame).
[[nodiscard]] UdsRequestText parse_uds_request(std::string_view text);
/// The text of a request, as parse_uds_request() reads it ("functional 3E00").
[[nodiscard]] std::string uds_request_text(std::span<const std::uint8_t> bytes, bool functional);

class DiagTester;  // runtime/diag/diag_tester.hpp

/// Applies commands on the RT thread: forced channels, the fault engine's faults, the UDS
/// tester's requests (`tester`: none when the rig has no diagnostics block).
class CommandApplier {
 public:
  CommandApplier(rt::ChannelTable& table, runtime::FaultEngine& faults,
                 DiagTester* tester = nullptr);
  /// RT: applies `c`; a prepared fault the engine took or refused goes to `garbage` (freed
  /// off the RT thread). False when it could not be applied (no room, no such fault).
  bool apply(const Command& c, runtime::PreparedFault*& garbage) noexcept;
  /// RT, every tick after the commands: forced channels get their values again. A released
  /// channel nothing else writes gets back the value it had before it was forced.
  void hold() noexcept;

 private:
  rt::ChannelTable& table_;
  runtime::FaultEngine& faults_;
  DiagTester* tester_;
  std::vector<rt::ChannelId> forced_;  ///< capacity: every channel
  std::vector<double> values_;         ///< by channel index
  std::vector<double> before_;         ///< the value when first forced
  std::vector<bool> is_forced_;
};

/// One applied command, for the submitter and commands.log.
struct AppliedCommand {
  std::uint64_t id = 0;
  std::int64_t tick = 0;
  bool ok = true;
  std::string line;  ///< "write vehicle.brake.command 1", "fault name: … ", … (no tick)
};

class CommandQueue {
 public:
  /// `table` (the rig's channels), `buses` (its CAN buses' settings, which faults are checked
  /// against), `faults` and `tester` (the rig's, or none) must outlive it.
  CommandQueue(rt::ChannelTable& table, const std::vector<io::can::CanBusSpec>& buses,
               FaultEngine& faults, DiagTester* tester = nullptr, std::size_t capacity = 256);
  ~CommandQueue();
  CommandQueue(const CommandQueue&) = delete;
  CommandQueue& operator=(const CommandQueue&) = delete;

  // ---- any non-RT thread; each returns the command's id, or throws std::invalid_argument
  // saying what is wrong (an unknown or output channel, a bad fault, a full queue) ----
  std::uint64_t write(const std::string& channel, double value);
  /// What write() would refuse, without submitting: an unknown or output channel, a value
  /// that is not finite or outside the channel's range (ChannelSpec::min, max).
  void check_write(const std::string& channel, double value) const;
  std::uint64_t release(const std::string& channel);
  /// What release() would refuse: an unknown or output channel.
  void check_release(const std::string& channel) const;
  /// A fault of the API (JSON, docs/api.md) or in Protobuf text (commands.log, tests), checked
  /// against the rig (config/fault_command.hpp).
  std::uint64_t add_fault_json(std::string_view json);
  std::uint64_t add_fault_text(std::string_view text);
  std::uint64_t clear_fault(const std::string& name);
  /// A note at the tick it is applied (no effect on the run; in the log and the events).
  std::uint64_t marker(const std::string& text);
  /// A UDS request (parse_uds_request's text) for the rig's tester, which sends it when the
  /// requests before it are done; its response comes from the tester (DiagTester::
  /// take_results, by this id). Refused when the rig has no tester.
  std::uint64_t uds(std::string_view request);

  /// Commands applied since the last call, in the order applied; those that took effect are
  /// appended to the log first (set_log: written and synced at once). Someone must call this
  /// regularly (the run's I/O thread does, every 2 ms): at most `capacity` commands wait to be
  /// taken, then submitting is refused.
  std::vector<AppliedCommand> take_applied();
  /// Setup: where applied commands are logged ("<tick> <line>", created at the first).
  void set_log(std::filesystem::path file);
  /// The log's first write error ("" if none). Any thread.
  [[nodiscard]] std::string log_error() const;

  /// The stage of the tick's commands slot.
  [[nodiscard]] rt::Stage& stage() noexcept { return stage_; }

 private:
  struct Ack {
    std::uint64_t id = 0;
    std::int64_t tick = 0;
    bool ok = false;
    runtime::PreparedFault* garbage = nullptr;
  };
  std::uint64_t submit(Command c, std::string line);
  /// submit() with submit_mutex_ held.
  std::uint64_t submit_locked(Command c, std::string line);
  std::uint64_t add_fault(config::FaultCommand fault);
  /// RT: applies what was submitted, then holds the forced channels.
  void apply(std::int64_t tick) noexcept;

  rt::ChannelTable& table_;
  const std::vector<io::can::CanBusSpec>& buses_;
  runtime::FaultEngine& faults_;
  CommandApplier applier_;
  rt::SpscRing<Command> commands_;
  rt::SpscRing<Ack> acks_;
  std::mutex submit_mutex_;
  mutable std::mutex ack_mutex_;
  std::uint64_t next_id_ = 1;
  std::size_t capacity_;
  std::size_t in_flight_ = 0;  ///< submitted, not yet taken (guarded by ack_mutex_)
  std::filesystem::path log_file_;
  std::unique_ptr<io::record::LineLog> log_;    // guarded by ack_mutex_ (created at the first)
  std::map<std::uint64_t, std::string> lines_;  ///< submitted, not yet applied
  DiagTester* tester_;
  /// uds: the requests' bytes until applied (guarded by ack_mutex_)
  std::map<std::uint64_t, std::vector<std::uint8_t>> uds_bytes_;
  rt::MethodStage<&CommandQueue::apply> stage_{*this};
};

}  // namespace hil::runtime
