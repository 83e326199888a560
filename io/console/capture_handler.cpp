// Captures and waits of the automation API (docs/api.md "capture", "wait_for"): what the console
// thread does with every tick it takes off the tap besides the history.
#include <fmt/format.h>

#include <cmath>

#include "io/console/console_frames.hpp"
#include "io/console/server_core.hpp"

namespace hil::io::console::detail {

namespace {

constexpr std::size_t kMaxCaptureValues = 8u << 20;  // pre-trigger memory: 64 MB of doubles

std::int64_t ticks_of(double seconds, std::int64_t period_ns) {
  return std::max<std::int64_t>(1, std::llround(seconds * 1e9 / static_cast<double>(period_ns)));
}

/// The answer to a wait_for: the first tick the condition held at, and the value.
void answer_wait(WsSession& s, std::optional<std::int64_t> req, std::int64_t tick, double value) {
  Json out = reply("wait_for", req);
  out["tick"] = tick;
  out["value"] = value;
  s.send_control(out.dump());
}

}  // namespace

std::optional<rt::ChannelCondition> Core::condition_of(WsSession& s,
                                                       std::optional<std::int64_t> req,
                                                       const rt::ConditionText& text) {
  const std::optional<rt::ChannelId> id = feed.table->find(text.channel);
  if (!id) {
    refuse(s, req, fmt::format("no channel {}", text.channel));
    return std::nullopt;
  }
  return rt::ChannelCondition{.channel = *id, .op = text.op, .threshold = text.threshold};
}

std::optional<CaptureTrigger> Core::trigger_of(WsSession& s, std::optional<std::int64_t> req,
                                               const TriggerRequest& t) {
  CaptureTrigger out{
      .kind = static_cast<CaptureTrigger::Kind>(t.kind), .tick = t.tick, .edge = t.edge};
  if (t.kind == TriggerRequest::Kind::condition) {
    out.condition = condition_of(s, req, t.condition);
    if (!out.condition) return std::nullopt;
  }
  return out;
}

void Core::start_capture(WsSession& s, std::optional<std::int64_t> req, const CaptureRequest& r) {
  if (ending) return refuse(s, req, "the run has ended");
  std::optional<std::vector<std::uint32_t>> channels = matching(s, req, r.channels);
  if (!channels) return;
  if (channels->size() > 65535) {
    return refuse(s, req, "more than 65535 channels in one capture");
  }
  CaptureSpec spec{
      .id = r.id,
      .channels = std::move(*channels),
      .decimation = static_cast<std::uint32_t>(r.decimation),
      .pre_ticks = r.pre_trigger_ticks > 0
                       ? r.pre_trigger_ticks
                       : (r.pre_trigger_s > 0 ? ticks_of(r.pre_trigger_s, feed.run.period_ns) : 0),
      .duration_ticks = r.duration_ticks > 0
                            ? r.duration_ticks
                            : (r.duration_s > 0 ? ticks_of(r.duration_s, feed.run.period_ns) : 0),
      .repeat = r.repeat};
  if (static_cast<std::size_t>(spec.pre_ticks) * spec.channels.size() > kMaxCaptureValues) {
    return refuse(s, req,
                  fmt::format("a pre-trigger of {} ticks × {} channels is more than {} values: "
                              "fewer channels or a shorter pre-trigger",
                              spec.pre_ticks, spec.channels.size(), kMaxCaptureValues));
  }
  const std::optional<CaptureTrigger> start = trigger_of(s, req, r.start);
  if (!start) return;
  spec.start = *start;
  if (r.stop) {
    spec.stop = trigger_of(s, req, *r.stop);
    if (!spec.stop) return;
  }
  drain_tap();  // "now" is from the next tick on, not from ticks still in the tap
  const std::int64_t now = std::max(ticks_now(), drained_through);
  if (spec.start.kind == CaptureTrigger::Kind::tick && spec.start.tick < now) {
    return refuse(
        s, req,
        fmt::format("the start tick {} has passed (the run is at tick {})", spec.start.tick, now));
  }
  std::erase_if(captures, [&](const ActiveCapture& c) {
    return c.session.lock().get() == &s && c.capture.spec().id == r.id;
  });
  Json names = Json::array();
  for (const std::uint32_t i : spec.channels) names.push_back(feed.table->specs()[i].name);
  Json armed = reply("capture", req);
  armed.update({{"id", r.id},
                {"tick", now},
                {"channels", spec.channels},
                {"names", std::move(names)},
                {"decimation", spec.decimation},
                {"pre_trigger_ticks", spec.pre_ticks},
                {"duration_ticks", spec.duration_ticks}});
  s.send_control(armed.dump());
  captures.push_back({.session = s.weak_from_this(), .req = req, .capture = Capture(spec)});
  update_armed();
}

void Core::cancel_capture(WsSession& s, std::optional<std::int64_t> req, std::uint16_t id) {
  bool found = false;
  for (ActiveCapture& c : captures) {
    if (c.session.lock().get() != &s || c.capture.spec().id != id || c.capture.done()) continue;
    drain_tap();
    c.capture.end("cancelled");
    found = true;
  }
  if (!found) return refuse(s, req, fmt::format("no capture {} is running", id));
  serve_captures();
  s.send_control(ack_message(req, drained_through - 1).dump());
}

void Core::serve_captures() {
  for (ActiveCapture& c : captures) {
    const std::shared_ptr<WsSession> session = c.session.lock();
    c.capture.flush();
    auto& out = c.capture.output();
    while (!out.empty()) {
      Capture::Output o = std::move(out.front());
      out.pop_front();
      if (session == nullptr) continue;
      if (o.block) {
        const CaptureBlock& b = *o.block;
        const CaptureBlockHeader h{
            .capture = c.capture.spec().id,
            .seq = c.blocks++,
            .first_tick = b.first_tick,
            .decimation = c.capture.spec().decimation,
            .samples = static_cast<std::uint16_t>(b.samples),
            .channels = static_cast<std::uint16_t>(c.capture.spec().channels.size()),
            .lost = c.capture.lost() + c.unsent_total};
        if (!session->send_capture(std::make_shared<const std::string>(capture_block(h, b.values)),
                                   true)) {
          c.unsent += b.samples;
          c.unsent_total += b.samples;
        }
        continue;
      }
      const CaptureNotice& n = *o.notice;
      Json m = reply(n.kind == CaptureNotice::Kind::triggered ? "capture_triggered" : "capture_end",
                     c.req);
      m["id"] = c.capture.spec().id;
      m["shot"] = n.shot;
      if (n.kind == CaptureNotice::Kind::triggered) {
        m["trigger_tick"] = n.tick;
        m["first_tick"] = n.first_tick;
      } else {
        m["reason"] = n.reason;
        m["first_tick"] = n.first_tick >= 0 ? Json(n.first_tick) : Json();
        m["last_tick"] = n.tick;
        m["samples"] = n.samples - std::min(n.samples, c.unsent);
        m["lost"] = n.lost + c.unsent;
        m["done"] = c.capture.done() && out.empty();
        c.unsent = 0;
      }
      session->send_capture(std::make_shared<const std::string>(m.dump()), false);
    }
  }
  const std::size_t before = captures.size();
  std::erase_if(captures, [](const ActiveCapture& c) {
    return c.session.expired() || (c.capture.done() && !c.capture.pending());
  });
  if (captures.size() != before) update_armed();
}

void Core::wait_for(WsSession& s, std::optional<std::int64_t> req, const WaitFor& w) {
  const std::optional<rt::ChannelCondition> condition = condition_of(s, req, w.condition);
  if (!condition) return;
  const std::string text = fmt::format("{} {} {}", w.condition.channel,
                                       rt::to_string(w.condition.op), w.condition.threshold);
  feed.table->read_snapshot(snapshot);
  if (snapshot.tick() >= 0 && condition->holds(snapshot.values())) {  // already
    return answer_wait(s, req, snapshot.tick(), snapshot.values()[condition->channel.index]);
  }
  if (ending) return refuse(s, req, fmt::format("{}: the run has ended", text));
  const std::int64_t timeout = ticks_of(w.timeout_s, feed.run.period_ns);
  const std::int64_t from = std::max<std::int64_t>(snapshot.tick(), 0);
  PendingWait p{.session = s.weak_from_this(),
                .req = req,
                .condition = *condition,
                .text = text,
                .timeout_s = w.timeout_s,
                .from_tick = from,
                .deadline_tick = from + timeout,
                .step = w.step};
  if (w.step) {
    if (!may_step(s, req)) return;
    if (step_granted < step_goal || step_watch) {
      return refuse(s, req, "a step is under way: wait for its ack first");
    }
    step_watch = *condition;
    (void)ask_ticks(timeout);
    waits.push_back(std::move(p));
    advance_steps();
    return;
  }
  waits.push_back(std::move(p));
  update_armed();
}

void Core::check_waits(std::int64_t tick, std::span<const double> values) {
  std::erase_if(waits, [&](const PendingWait& w) {
    if (w.step) return false;  // the gate stops at it: answered when the loop waits
    const std::shared_ptr<WsSession> s = w.session.lock();
    if (s == nullptr) return true;
    const double value = values[w.condition.channel.index];
    if (w.condition.holds(value)) {
      answer_wait(*s, w.req, tick, value);
      return true;
    }
    if (tick < w.deadline_tick) return false;
    refuse(*s, w.req,
           fmt::format("{}: not within {} s (ticks {}..{}); the last value {} at tick {}", w.text,
                       w.timeout_s, w.from_tick, tick, value, tick));
    return true;
  });
}

void Core::finish_stepped_waits(std::int64_t at) {
  if (!step_watch &&
      std::none_of(waits.begin(), waits.end(), [](const PendingWait& w) { return w.step; })) {
    return;
  }
  step_watch.reset();
  feed.table->read_snapshot(snapshot);
  std::erase_if(waits, [&](const PendingWait& w) {
    if (!w.step) return false;
    const std::shared_ptr<WsSession> s = w.session.lock();
    if (s == nullptr) return true;
    const double value = snapshot.values()[w.condition.channel.index];
    if (w.condition.holds(value)) {
      answer_wait(*s, w.req, snapshot.tick(), value);
    } else {
      refuse(*s, w.req,
             fmt::format("{}: not within {} s (ticks {}..{}){}; the last value {} at tick {}",
                         w.text, w.timeout_s, w.from_tick, at - 1, ending ? ": the run ended" : "",
                         value, snapshot.tick()));
    }
    return true;
  });
}

void Core::end_captures_and_waits() {
  for (ActiveCapture& c : captures) c.capture.end("run ended");
  serve_captures();
  for (const PendingWait& w : waits) {
    if (const std::shared_ptr<WsSession> s = w.session.lock(); s != nullptr && !w.step) {
      refuse(*s, w.req, fmt::format("{}: the run ended at tick {} first", w.text, final_ticks));
    }
  }
  std::erase_if(waits, [](const PendingWait& w) { return !w.step; });
}

}  // namespace hil::io::console::detail
