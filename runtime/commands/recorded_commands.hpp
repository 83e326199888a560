#pragma once
// The commands of a recorded run (its commands.log) applied again at their ticks: the replay's
// stage in the commands slot (runtime/commands/command_queue.hpp writes the log).
//
// Thread-safety: construct in the setup phase; run() on the RT thread.

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/commands/command_queue.hpp"

namespace hil::runtime {

class RecordedCommands final : public rt::Stage {
 public:
  /// Parses `log` (commands.log's text) and prepares its faults against the rig's channels
  /// and CAN buses, leaving out those named in `without`; its UDS requests go to `tester`.
  /// Throws std::invalid_argument naming the line at fault.
  RecordedCommands(std::string_view log, rt::ChannelTable& table,
                   const std::vector<io::can::CanBusSpec>& buses, FaultEngine& faults,
                   const std::set<std::string>& without = {}, DiagTester* tester = nullptr);
  ~RecordedCommands() override;
  RecordedCommands(const RecordedCommands&) = delete;
  RecordedCommands& operator=(const RecordedCommands&) = delete;

  /// RT, the commands slot: the commands recorded at c.tick.
  void run(const rt::TickContext& c) noexcept override;
  [[nodiscard]] std::size_t size() const noexcept { return commands_.size(); }
  [[nodiscard]] std::size_t applied() const noexcept { return next_; }

 private:
  struct Timed {
    std::int64_t tick = 0;
    Command command;
  };
  CommandApplier applier_;
  std::vector<Timed> commands_;
  std::size_t next_ = 0;
  std::vector<runtime::PreparedFault*> garbage_;      ///< capacity: every fault command
  std::vector<std::vector<std::uint8_t>> uds_bytes_;  ///< the UDS requests' bytes
};

}  // namespace hil::runtime
