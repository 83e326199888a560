#pragma once
// The commands of a recorded run (its commands.log) applied again at their ticks: the replay's
// task in the commands slot (tools/commands/command_queue.hpp writes the log).
//
// Thread-safety: construct in the setup phase; the task runs on the RT thread.

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tools/commands/command_queue.hpp"

namespace hil::commands {

class RecordedCommands final : public rt::Task {
 public:
  /// Parses `log` (commands.log's text) and prepares its faults, leaving out those named in
  /// `without`. Throws std::invalid_argument naming the line at fault.
  RecordedCommands(std::string_view log, config::RigRuntime& rig, faults::FaultEngine& faults,
                   const std::set<std::string>& without = {});
  ~RecordedCommands() override;
  RecordedCommands(const RecordedCommands&) = delete;
  RecordedCommands& operator=(const RecordedCommands&) = delete;

  void read(const rt::TickContext& c) noexcept override;
  void update(const rt::TickContext& /*c*/) noexcept override {}
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
  std::vector<faults::PreparedFault*> garbage_;  ///< capacity: every fault command
};

}  // namespace hil::commands
