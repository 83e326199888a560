// The operator's side of the console's protocol (docs/api.md): the operator lock, commands for
// the loop and their acks, driving (docs/console.md "Driving"), stop, and the lock-step of a
// paused run.
#include <fmt/format.h>

#include <cmath>

#include "io/console/server_core.hpp"

namespace hil::io::console::detail {

namespace {
/// How far a paused run steps for a UDS reply at most: P2* many times over (the tester always
/// ends a request by P2/P2*, so the watch stops it long before).
constexpr std::int64_t kUdsStepLimitNs = 60'000'000'000;
}  // namespace

void Core::request_stop(WsSession& s, std::optional<std::int64_t> req) {
  if (s.role != Role::operator_) {
    return refuse(s, req, "stop needs the operator token (open the console's URL with ?token=…)");
  }
  if (ending) {  // not a mistake: the run ended first
    s.send_control(error_message(req, "the run has ended").dump());
    return;
  }
  if (!hold_lock(s, req)) return;
  add_event({.tick = timing.ticks,
             .level = "warn",
             .kind = "console",
             .text = fmt::format("stop requested by the operator at {}", s.peer)});
  pending_stops.emplace_back(s.weak_from_this(), req);
  if (stop) stop();
}

void Core::submit_command(WsSession& s, std::optional<std::int64_t> req, const Command& c) {
  if (s.role != Role::operator_) {
    return refuse(s, req,
                  "commands need the operator token (open the console's URL with ?token=…)");
  }
  if (!feed.submit) return refuse(s, req, "this run takes no commands (a replay or a timing run)");
  if (ending) return refuse(s, req, "the run has ended");
  if (!hold_lock(s, req)) return;
  const bool uds = c.kind == Command::Kind::uds;
  if (uds && !feed.uds_replies) {
    return refuse(s, req, "this rig has no UDS tester: give it a diagnostics block");
  }
  if (uds && feed.lock_step && (step_granted < step_goal || step_watch)) {
    return refuse(s, req, "a step is under way: wait for its ack first");
  }
  std::vector<std::uint64_t> ids;
  try {
    ids = feed.submit(c);
  } catch (const std::invalid_argument& e) {
    return refuse(s, req, e.what());
  }
  if (ids.empty()) return refuse(s, req, "nothing to do");
  pending_commands[ids.back()] = {
      .session = s.weak_from_this(), .req = req, .peer = s.peer, .awaits_result = uds};
  if (feed.lock_step && uds) {  // a paused run runs until the tester has the answer
    const std::int64_t awaiting =
        std::count_if(pending_commands.begin(), pending_commands.end(),
                      [](const auto& p) { return p.second.awaits_result; });
    const double replies = feed.table->values()[feed.uds_replies->index];  // the loop waits
    step_watch = rt::ChannelCondition{.channel = *feed.uds_replies,
                                      .op = rt::Compare::greater,
                                      .threshold = replies + static_cast<double>(awaiting) - 0.5};
    (void)ask_ticks(std::max<std::int64_t>(1, kUdsStepLimitNs / feed.run.period_ns));
    advance_steps();
  } else if (feed.lock_step) {  // a paused run runs the tick the command is applied at
    (void)ask_ticks(1);         // the loop waits between ticks: all of them at its next
    advance_steps();
  }
}

void Core::drive(WsSession& s, std::optional<std::int64_t> req, const Drive& d) {
  if (s.role != Role::operator_) {
    return refuse(s, req,
                  "driving needs the operator token (open the console's URL with ?token=…)");
  }
  if (!feed.drive) {
    return refuse(s, req,
                  "this run has no driver: its rig has no driver block (docs/console.md "
                  "\"Driving\"), or it is a replay");
  }
  if (ending) return refuse(s, req, "the run has ended");
  if (!hold_lock(s, req)) return;
  Json driver;
  try {
    driver = feed.drive(d);
  } catch (const std::invalid_argument& e) {
    return refuse(s, req, e.what());
  }
  if (!req) return;  // the page's stream of controls: no reply each
  Json out = reply("drive", req);
  out.update(driver);
  s.send_control(out.dump());
}

Json Core::lock_json() const {
  const std::shared_ptr<WsSession> holder = lock_holder.lock();
  if (holder == nullptr || !holder->open()) return nullptr;
  return {{"peer", holder->peer}, {"since_tick", locked_at}};
}

bool Core::hold_lock(WsSession& s, std::optional<std::int64_t> req) {
  const std::shared_ptr<WsSession> holder = lock_holder.lock();
  if (holder == nullptr || !holder->open()) {
    lock_holder = s.weak_from_this();
    locked_at = timing.ticks;
    add_event({.tick = locked_at,
               .level = "info",
               .kind = "operator",
               .text = fmt::format("operator lock taken by {}", s.peer)});
    return true;
  }
  if (holder.get() == &s) return true;
  refuse(s, req,
         fmt::format("the operator lock is held by {} (since tick {}): wait for its unlock",
                     holder->peer, locked_at));
  return false;
}

void Core::lock(WsSession& s, std::optional<std::int64_t> req, bool take) {
  if (s.role != Role::operator_) {
    return refuse(s, req, "the operator lock needs the operator token");
  }
  if (take && !hold_lock(s, req)) return;
  if (!take) {
    if (lock_holder.lock().get() == &s) {
      lock_holder.reset();
      add_event({.tick = timing.ticks,
                 .level = "info",
                 .kind = "operator",
                 .text = fmt::format("operator lock given back by {}", s.peer)});
    }
  }
  s.send_control(ack_message(req, timing.ticks).dump());
}

bool Core::may_step(WsSession& s, std::optional<std::int64_t> req) {
  if (s.role != Role::operator_) {
    refuse(s, req, "step, pause, resume and a stepped wait_for need the operator token");
    return false;
  }
  if (!feed.lock_step) {
    refuse(s, req, "this run is not paused: start it with hilsim run --speed max --paused");
    return false;
  }
  if (!hold_lock(s, req)) return false;
  if (ending) {
    refuse(s, req, "the run has ended");
    return false;
  }
  return true;
}

void Core::lock_step(WsSession& s, std::optional<std::int64_t> req, const Step& step) {
  if (!may_step(s, req)) return;
  switch (step.kind) {
    case Step::Kind::pause:
    case Step::Kind::resume:
      feed.lock_step->pause(step.kind == Step::Kind::pause);
      step_goal = step_granted;  // what was not granted yet is not wanted any more
      step_watch.reset();
      s.send_control(ack_message(req, timing.ticks).dump());
      break;
    case Step::Kind::step: {
      const std::int64_t ticks =
          step.ticks > 0
              ? step.ticks
              : std::max<std::int64_t>(
                    1, std::llround(step.seconds * 1e9 / static_cast<double>(feed.run.period_ns)));
      pending_steps.push_back(
          {.session = s.weak_from_this(), .req = req, .through = ask_ticks(ticks)});
      advance_steps();
      break;
    }
  }
}

std::int64_t Core::ask_ticks(std::int64_t ticks) {
  if (step_granted >= step_goal) {  // nothing outstanding: from where the gate is now
    step_granted = step_goal = feed.lock_step->step(0, nullptr, {});
  }
  step_goal += ticks;
  return step_goal;
}

void Core::advance_steps() {
  if (!feed.lock_step) return;
  const std::int64_t at = feed.lock_step->waiting_at();
  if (const std::int64_t limit = feed.lock_step->limit(); limit < step_granted) {
    step_granted = step_goal = limit;  // a watch that fired stopped the loop early
  }
  if (step_granted < step_goal) {
    // while anything is copied off the tap, never further ahead of it than half its room
    std::int64_t chunk = step_goal - step_granted;
    if (tap.armed()) {
      const auto room = static_cast<std::int64_t>(tap.capacity_ticks() / 2);
      chunk = std::min(chunk, room - (step_granted - drained_through));
    }
    if (chunk > 0) {
      const double* watched =
          step_watch ? &feed.table->values()[step_watch->channel.index] : nullptr;
      step_granted =
          feed.lock_step->step(chunk, watched, step_watch.value_or(rt::ChannelCondition{}));
    }
  }
  ack_steps(at);
}

void Core::ack_steps(std::int64_t at) {
  if (!feed.lock_step) return;
  // a step is done when the loop waits at its end, or earlier when the gate was cut there
  const bool idle = at >= 0 && at == step_granted && step_granted == step_goal;
  // (`at` may lag a step just granted: the loop has not woken yet; then at < step_granted)
  std::erase_if(pending_steps, [&](const PendingStep& p) {
    if (!ending && !(at >= 0 && at >= p.through) && !idle) return false;
    if (const std::shared_ptr<WsSession> session = p.session.lock()) {
      // the last tick the step ran
      const std::int64_t last = ending ? final_ticks - 1 : std::min(p.through, at) - 1;
      session->send_control(ack_message(p.req, last).dump());
    }
    return true;
  });
  if (idle || ending) {
    finish_stepped_waits(ending ? final_ticks : at);
    send_deferred_replies();
  }
}

void Core::command_applied(std::uint64_t id, std::int64_t tick, bool ok, const std::string& line) {
  // every client's event log: what the operator did, at which tick
  add_event({.tick = tick,
             .level = ok ? "info" : "warn",
             .kind = "operator",
             .text = ok ? fmt::format("operator: {}", line)
                        : fmt::format("operator: {} (no effect)", line)});
  const auto it = pending_commands.find(id);
  if (it == pending_commands.end()) return;
  if (ok && it->second.awaits_result) return;  // its reply is the result (command_result)
  if (const std::shared_ptr<WsSession> session = it->second.session.lock()) {
    Json ack = ack_message(it->second.req, tick);
    ack["applied"] = ok;
    if (!ok && it->second.awaits_result) {
      ack["message"] = "the tester's queue is full (8 requests wait): try again";
    }
    session->send_control(ack.dump());
  }
  pending_commands.erase(it);
}

void Core::command_result(std::uint64_t id, const std::string& type, Json body) {
  const auto it = pending_commands.find(id);
  if (body.contains("text")) {  // every client's event log: what the ECU answered
    add_event({.tick = body.value("tick", std::int64_t{-1}),
               .level = body.value("timed_out", false) ? "warn" : "info",
               .kind = "operator",
               .text = fmt::format("{}: {}", type, body["text"].get<std::string>())});
  }
  if (it == pending_commands.end()) return;
  Json out = reply(type, it->second.req);
  out.update(body);
  deferred_replies.push_back({.session = it->second.session, .message = out.dump()});
  pending_commands.erase(it);
  if (feed.lock_step) {  // a paused run: once the loop waits again (its next call is then exact)
    advance_steps();
  } else {
    send_deferred_replies();
  }
}

void Core::send_deferred_replies() {
  for (const DeferredReply& r : deferred_replies) {
    if (const std::shared_ptr<WsSession> session = r.session.lock()) {
      session->send_control(r.message);
    }
  }
  deferred_replies.clear();
}

}  // namespace hil::io::console::detail
