#include "tools/session/run.hpp"

#include <chrono>
#include <optional>
#include <stop_token>
#include <thread>

namespace hil::session {

Run::~Run() = default;

RunOutcome Run::run(std::int64_t max_ticks, const RunHooks& hooks) {
  if (recipe.with_commands && commands) recipe.with_commands(*commands);
  // The applied commands go to commands.log as they come back from the loop, every 2 ms
  // (and to the console: its event log, the operator's ack)
  const auto take_applied = [this] {
    for (runtime::AppliedCommand& a : commands->take_applied()) {
      if (harness->console() != nullptr) {
        harness->console()->command_applied(a.id, a.tick, a.ok, std::move(a.line));
      }
    }
  };
  std::optional<std::jthread> pump;
  if (commands) {
    pump.emplace([&take_applied](const std::stop_token& stop) {
      while (!stop.stop_requested()) {
        take_applied();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // an ack's latency
      }
    });
  }
  RunOutcome outcome = harness->run(max_ticks, hooks);
  if (pump) {
    pump->request_stop();
    pump->join();
    take_applied();
  }
  return outcome;
}

}  // namespace hil::session
