#include "tools/session/run.hpp"

#include "tools/session/uds/uds_reply.hpp"

namespace hil::session {

Run::~Run() = default;

RunOutcome Run::run(std::int64_t max_ticks, const RunHooks& hooks) {
  if (recipe.with_commands && commands) recipe.with_commands(*commands);
  RunOutcome outcome = harness->run(max_ticks, hooks);
  stop_jobs();
  return outcome;
}

void Run::take_applied_commands() const {
  if (!commands) return;
  for (runtime::AppliedCommand& a : commands->take_applied()) {
    if (driver && driver->is_control_command(a.id)) continue;  // up to 50 Hz: commands.log only
    if (harness->console() != nullptr) {
      harness->console()->command_applied(a.id, a.tick, a.ok, std::move(a.line));
    }
  }
  runtime::DiagTester* tester = rig ? rig->diag_tester() : nullptr;
  if (tester == nullptr) return;
  for (const runtime::UdsResult& r : tester->take_results()) {  // after their commands' acks
    if (harness->console() != nullptr)
      harness->console()->command_result(r.command, "uds", uds_reply(r));
  }
}

void Run::stop_jobs() {
  harness->jobs().stop();
  take_applied_commands();  // those the last round missed
}

}  // namespace hil::session
