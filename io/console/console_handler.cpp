// The page's protocol `hilsim.console.v1` on the server side (docs/console.md): the welcome,
// client requests, and sample frames cut from the history.
#include <fmt/format.h>

#include <cmath>

#include "io/console/console_frames.hpp"
#include "io/console/console_protocol.hpp"
#include "io/console/server_core.hpp"

namespace hil::io::console::detail {

namespace {

constexpr std::size_t kMaxSamplesPerFrame = 1024;

Json number_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(); }

}  // namespace

Json reply(std::string_view type, std::optional<std::int64_t> req) {
  return {{"type", type}, {"req", req ? Json(*req) : Json()}};
}

Json error_message(std::optional<std::int64_t> req, std::string_view message) {
  Json out = reply("error", req);
  out["message"] = message;
  return out;
}

Json ack_message(std::optional<std::int64_t> req, std::int64_t tick) {
  Json out = reply("ack", req);
  out["tick"] = tick;
  return out;
}

std::optional<std::vector<std::uint32_t>> Core::matching(WsSession& s,
                                                         std::optional<std::int64_t> req,
                                                         const std::vector<std::string>& patterns) {
  std::vector<std::uint32_t> out;
  const auto specs = feed.table->specs();
  for (const std::string& pattern : patterns) {
    const std::size_t before = out.size();
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (wildcard_match(pattern, specs[i].name)) out.push_back(static_cast<std::uint32_t>(i));
    }
    if (out.size() == before) {
      refuse(s, req, fmt::format("no channel matches '{}'", pattern));
      return std::nullopt;
    }
  }
  return out;
}

void Core::refuse(WsSession& s, std::optional<std::int64_t> req, std::string_view why) {
  counters.bad_messages.fetch_add(1, std::memory_order_relaxed);
  s.send_control(error_message(req, why).dump());
}

Json channel_json(const rt::ChannelSpec& c) {
  Json out{{"name", c.name},
           {"unit", c.unit},
           {"direction", rt::to_string(c.direction)},
           {"description", c.description}};
  if (std::isfinite(c.min) || std::isfinite(c.max)) {
    out["min"] = number_or_null(c.min);
    out["max"] = number_or_null(c.max);
  }
  return out;
}

Json Core::info_json(Role role) const {
  const RunDescription& r = feed.run;
  Json channels = Json::array();
  for (const rt::ChannelSpec& c : feed.table->specs()) channels.push_back(channel_json(c));
  return {{"server_info",
           {{"type", "server_info"},
            {"version", HIL_VERSION},
            {"rig", r.rig},
            {"scenario", r.scenario ? Json(*r.scenario) : Json()},
            {"run_id", r.run_id},
            {"period_ns", r.period_ns},
            {"start_epoch_ns", r.start_epoch_ns},
            {"console_rate_hz", 1e9 / (static_cast<double>(r.period_ns) * history.stride())},
            {"tick_stride", history.stride()},
            {"history_s", options.history_s},
            {"role", to_string(role)},
            {"realtime", realtime.on},
            {"realtime_summary", realtime.summary},
            {"paced", r.paced},
            {"speed", r.speed},
            {"capabilities", role != Role::operator_ ? Json::array() : capabilities()}}},
          {"channels", {{"type", "channels"}, {"channels", std::move(channels)}}}};
}

Json Core::capabilities() const {
  Json out = Json::array({"stop"});
  if (feed.submit) {
    for (const char* c : {"write", "release", "fault", "clear_fault", "marker"}) out.push_back(c);
    if (feed.uds_replies) out.push_back("uds");
  }
  if (feed.lock_step) {
    for (const char* c : {"step", "pause", "resume"}) out.push_back(c);
  }
  if (feed.drive) out.push_back("drive");
  return out;
}

std::string Core::snapshot_json() {
  feed.table->read_snapshot(snapshot);
  Json values = Json::array();
  for (const double v : snapshot.values()) values.push_back(number_or_null(v));
  return Json{{"type", "values"}, {"tick", snapshot.tick()}, {"values", std::move(values)}}.dump();
}

std::string Core::snapshot_http_json() {
  feed.table->read_snapshot(snapshot);
  // The channels in the table's order (nlohmann::ordered_json keeps the insertion order)
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  const auto& specs = feed.table->specs();
  const auto v = snapshot.values();
  for (std::size_t i = 0; i < specs.size() && i < v.size(); ++i) {
    values[specs[i].name] = std::isfinite(v[i]) ? nlohmann::ordered_json(v[i]) : nullptr;
  }
  nlohmann::ordered_json out;
  out["tick"] = snapshot.tick();
  out["sim_time_s"] =
      static_cast<double>(snapshot.tick()) * static_cast<double>(feed.run.period_ns) * 1e-9;
  out["values"] = std::move(values);
  return out.dump();
}

void Core::welcome(WsSession& s) {
  Json info = info_json(s.role);
  s.send_control(info["server_info"].dump());
  s.send_control(info["channels"].dump());
  if (feed.run.course) {
    Json course = *feed.run.course;
    course["type"] = "course";
    s.send_control(course.dump());
  }
  if (feed.run.scene) {  // the terrain makes it MBs: dumped once, sent on the lossless queue
    if (!scene_text) {
      Json scene = *feed.run.scene;
      scene["type"] = "scene";
      scene_text = std::make_shared<const std::string>(scene.dump());
    }
    (void)s.send_capture(scene_text, false);
  }
  for (const std::string& e : events) s.send_control(e);
  s.send_control(status_json(s).dump());
  s.send_control(snapshot_json());
}

void Core::on_console_message(WsSession& s, std::string_view text) {
  const ClientMessage m = parse_client_message(text);
  if (!m.request) {
    counters.bad_messages.fetch_add(1, std::memory_order_relaxed);
    s.send_control(error_message(m.req, m.error).dump());
    return;
  }
  const ClientRequest& request = *m.request;
  if (const auto* sub = std::get_if<Subscribe>(&request)) {
    Subscription out{.id = sub->id};
    std::optional<std::vector<std::uint32_t>> channels = matching(s, m.req, sub->channels);
    if (!channels) return;
    out.channels = std::move(*channels);
    if (out.channels.size() > 65535) {
      s.send_control(error_message(m.req, "more than 65535 channels in one subscription").dump());
      return;
    }
    const double sample_s =
        static_cast<double>(feed.run.period_ns) * 1e-9 * static_cast<double>(history.stride());
    const auto back = static_cast<std::uint64_t>(std::ceil(sub->backfill_s / sample_s));
    out.next_seq = history.end_seq() - std::min(back, history.end_seq() - history.first_seq());
    std::erase_if(s.subscriptions, [&](const Subscription& x) { return x.id == out.id; });
    Json indices = out.channels;
    const std::int64_t from = out.next_seq < history.end_seq() ? history.tick(out.next_seq) : -1;
    s.subscriptions.push_back(std::move(out));
    // the data queue holds half a second of this client's stream, at least kMinDataQueue
    double bytes_per_s = 0;
    for (const Subscription& x : s.subscriptions) {
      bytes_per_s += 24.0 * static_cast<double>(x.channels.size()) / sample_s;
    }
    s.data_cap = std::max(kMinDataQueue, static_cast<std::size_t>(bytes_per_s / 2));
    s.send_control(Json{{"type", "subscribed"},
                        {"id", sub->id},
                        {"req", m.req ? Json(*m.req) : Json()},
                        {"channels", std::move(indices)},
                        {"backfill_from_tick", from >= 0 ? Json(from) : Json()}}
                       .dump());
    send_console_frames(s);
    update_armed();
  } else if (const auto* unsub = std::get_if<Unsubscribe>(&request)) {
    std::erase_if(s.subscriptions, [&](const Subscription& x) { return x.id == unsub->id; });
    update_armed();
  } else if (const auto* view = std::get_if<CanView>(&request)) {
    s.can_view = view->on;
    if (view->on && feed.can_view) {
      s.send_control(Json{{"type", "can"}, {"buses", feed.can_view()}}.dump());
    }
  } else if (const auto* capture = std::get_if<CaptureRequest>(&request)) {
    start_capture(s, m.req, *capture);
  } else if (const auto* cancel = std::get_if<CaptureCancel>(&request)) {
    cancel_capture(s, m.req, cancel->id);
  } else if (const auto* wait = std::get_if<WaitFor>(&request)) {
    wait_for(s, m.req, *wait);
  } else if (std::holds_alternative<Info>(request)) {
    Json out = info_json(s.role)["server_info"];
    out["type"] = "info";
    out["req"] = m.req ? Json(*m.req) : Json();
    out["tick"] = ticks_now();
    out["state"] = state;
    out["paused"] = feed.lock_step.has_value();
    out["operator_lock"] = lock_json();
    s.send_control(out.dump());
  } else if (const auto* list = std::get_if<Channels>(&request)) {
    Json out = reply("channels", m.req);
    out["channels"] = Json::array();
    for (const rt::ChannelSpec& c : feed.table->specs()) {
      if (wildcard_match(list->pattern, c.name)) out["channels"].push_back(channel_json(c));
    }
    if (out["channels"].empty())
      return refuse(s, m.req, fmt::format("no channel matches '{}'", list->pattern));
    s.send_control(out.dump());
  } else if (std::holds_alternative<Stop>(request)) {
    request_stop(s, m.req);
  } else if (const auto* command = std::get_if<Command>(&request)) {
    submit_command(s, m.req, *command);
  } else if (const auto* d = std::get_if<Drive>(&request)) {
    drive(s, m.req, *d);
  } else if (const auto* l = std::get_if<Lock>(&request)) {
    lock(s, m.req, l->take);
  } else if (const auto* step = std::get_if<Step>(&request)) {
    lock_step(s, m.req, *step);
  } else if (const auto* read = std::get_if<Read>(&request)) {
    // one snapshot: every value of one tick
    const std::optional<std::vector<std::uint32_t>> channels = matching(s, m.req, read->channels);
    if (!channels) return;
    feed.table->read_snapshot(snapshot);
    const auto specs = feed.table->specs();
    Json values = Json::object();
    for (const std::uint32_t i : *channels) {
      values[specs[i].name] = number_or_null(snapshot.values()[i]);
    }
    Json out = reply("read", m.req);
    out["tick"] = snapshot.tick();
    out["values"] = std::move(values);
    s.send_control(out.dump());
  } else {
    s.send_control(reply("pong", m.req).dump());
  }
}

void Core::send_console_frames(WsSession& s) const {
  // a live client more than half a second behind loses its oldest samples: what it sees stays
  // live; a backfill is paced by the queue's room instead and loses only what leaves the history
  const double sample_s =
      static_cast<double>(feed.run.period_ns) * 1e-9 * static_cast<double>(history.stride());
  const auto live_lag = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(0.5 / sample_s));
  for (Subscription& sub : s.subscriptions) {
    std::uint64_t skip_to = history.first_seq();
    if (!sub.backfilling && history.end_seq() > live_lag) {
      skip_to = std::max(skip_to, history.end_seq() - live_lag);
    }
    if (sub.next_seq < skip_to) {
      sub.next_seq = skip_to;
      ++sub.frames;  // the client sees a seq gap
      s.note_dropped(1);
    }
    while (sub.next_seq < history.end_seq() && s.data_room()) {
      // one frame: consecutive samples one stride apart
      const std::uint64_t first = sub.next_seq;
      std::uint64_t end = first + 1;
      while (end < history.end_seq() && end - first < kMaxSamplesPerFrame &&
             history.tick(end) - history.tick(end - 1) == history.stride()) {
        ++end;
      }
      const SampleFrameHeader h{.flags = sub.backfilling ? kBackfillFlag : std::uint8_t{0},
                                .subscription = sub.id,
                                .seq = sub.frames++,
                                .first_tick = history.tick(first),
                                .tick_stride = history.stride(),
                                .samples = static_cast<std::uint16_t>(end - first),
                                .channels = static_cast<std::uint16_t>(sub.channels.size()),
                                .wall_ms = history.wall_ms(end - 1)};
      auto frame = std::make_shared<std::string>(sample_frame_bytes(h.samples, h.channels), '\0');
      const std::span<std::uint8_t> bytes(reinterpret_cast<std::uint8_t*>(frame->data()),
                                          frame->size());
      put_header(bytes, h);
      for (std::uint64_t q = first; q < end; ++q) {
        const auto values = history.values(q);
        const auto low = history.minima(q);
        const auto high = history.maxima(q);
        for (std::size_t c = 0; c < sub.channels.size(); ++c) {
          const std::uint32_t ch = sub.channels[c];
          put_sample(bytes, h, c, q - first, values[ch], low[ch], high[ch]);
        }
      }
      sub.next_seq = end;
      s.send_data(std::move(frame), true);
    }
    if (sub.next_seq == history.end_seq()) sub.backfilling = false;
  }
}

}  // namespace hil::io::console::detail
