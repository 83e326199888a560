// The Foxglove WebSocket endpoint (docs/console.md "Foxglove WebSocket"), read-only: the run's
// telemetry groups advertised with the protobuf schemas of telemetry.mcap, and each
// subscribed group's message — the same bytes as the MCAP message of that tick — at most
// foxglove_rate_hz, with the tick's time as log time; /events carries the console's events.
// After them the 3D scene's topics (io/scene/foxglove_schemas.hpp), for a run with a vehicle:
// /tf and /scene/forces from the history's samples at io::scene::kLiveSceneRateHz (30 Hz),
// /scene/trail at io::scene::kTrailRateHz, and the static /scene/world, /scene/vehicle,
// /scene/path once, to each subscriber as it subscribes. Then the lidars' live point clouds
// (foxglove_clouds.cpp).
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "io/console/server_core.hpp"
#include "io/scene/foxglove_schemas.hpp"

namespace hil::io::console::detail {

namespace {

constexpr std::uint8_t kMessageDataOp = 0x01;

void status(WsSession& s, int level, std::string_view message) {
  s.send_control(Json{{"op", "status"}, {"level", level}, {"message", message}}.dump());
}

std::shared_ptr<const std::string> message_data(std::uint32_t subscription,
                                                std::uint64_t log_time_ns,
                                                std::span<const std::uint8_t> payload) {
  return foxglove_message_data(subscription, log_time_ns, payload);
}

/// The scene topics' schemas, base64 (the same for every run).
const std::vector<std::string>& scene_schemas_base64() {
  static const std::vector<std::string> schemas = [] {
    std::vector<std::string> out;
    out.reserve(io::scene::kSceneTopics.size());
    for (const io::scene::SceneTopicInfo& t : io::scene::kSceneTopics) {
      out.push_back(base64(io::scene::scene_schema(t.id)));
    }
    return out;
  }();
  return schemas;
}

}  // namespace

std::shared_ptr<const std::string> foxglove_message_data(std::uint32_t subscription,
                                                         std::uint64_t log_time_ns,
                                                         std::span<const std::uint8_t> payload) {
  auto out = std::make_shared<std::string>(1 + 4 + 8 + payload.size(), '\0');
  (*out)[0] = static_cast<char>(kMessageDataOp);
  std::memcpy(out->data() + 1, &subscription, 4);  // little endian (console_protocol.cpp)
  std::memcpy(out->data() + 5, &log_time_ns, 8);
  std::memcpy(out->data() + 13, payload.data(), payload.size());
  return out;
}

std::size_t Core::foxglove_channel_count() const noexcept {
  return first_cloud_channel() - 1 + feed.clouds.size();
}

io::scene::SceneMessages* Core::scene_messages() {
  if (!feed.scene) return nullptr;
  if (!scene_encoder) scene_encoder.emplace(*feed.scene, *feed.table);
  return &*scene_encoder;
}

void Core::foxglove_welcome(WsSession& s) {
  s.send_control(Json{{"op", "serverInfo"},
                      {"name", fmt::format("hilsim {} ({})", HIL_VERSION, feed.run.rig)},
                      {"capabilities", Json::array()},
                      {"supportedEncodings", Json::array()},
                      {"metadata", {{"rig", feed.run.rig}, {"speed", feed.run.speed}}},
                      {"sessionId", feed.run.run_id}}
                     .dump());
  Json channels = Json::array();
  const auto all = groups();
  for (std::size_t g = 0; g < all.size(); ++g) {
    channels.push_back({{"id", g + 1},
                        {"topic", all[g].topic},
                        {"encoding", "protobuf"},
                        {"schemaName", all[g].message_name},
                        {"schema", foxglove_schemas_base64[g]},
                        {"schemaEncoding", "protobuf"}});
  }
  channels.push_back({{"id", all.size() + 1},
                      {"topic", io::record::kEventTopic},
                      {"encoding", "protobuf"},
                      {"schemaName", io::record::kEventMessageName},
                      {"schema", foxglove_schemas_base64.back()},
                      {"schemaEncoding", "protobuf"}});
  if (feed.scene) {
    for (std::size_t t = 0; t < io::scene::kSceneTopics.size(); ++t) {
      channels.push_back({{"id", all.size() + 2 + t},
                          {"topic", io::scene::kSceneTopics[t].topic},
                          {"encoding", "protobuf"},
                          {"schemaName", io::scene::kSceneTopics[t].schema_name},
                          {"schema", scene_schemas_base64()[t]},
                          {"schemaEncoding", "protobuf"}});
    }
  }
  advertise_clouds(channels);
  s.send_control(Json{{"op", "advertise"}, {"channels", std::move(channels)}}.dump());
}

void Core::on_foxglove_message(WsSession& s, std::string_view text) {
  const Json m = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  const auto refuse = [&](std::string_view why) {
    counters.bad_messages.fetch_add(1, std::memory_order_relaxed);
    status(s, 2, why);
  };
  if (m.is_discarded() || !m.is_object() || !m.contains("op") || !m["op"].is_string()) {
    return refuse("a message is a JSON object with an \"op\"");
  }
  const auto& op = m["op"].get_ref<const std::string&>();
  const std::size_t channel_count = foxglove_channel_count();
  if (op == "subscribe") {
    if (!m.contains("subscriptions") || !m["subscriptions"].is_array()) {
      return refuse("subscribe: 'subscriptions' must be a list");
    }
    for (const Json& sub : m["subscriptions"]) {
      if (!sub.is_object() || !sub.contains("id") || !sub["id"].is_number_unsigned() ||
          !sub.contains("channelId") || !sub["channelId"].is_number_unsigned()) {
        return refuse("subscribe: each subscription needs an unsigned 'id' and 'channelId'");
      }
      const auto channel = sub["channelId"].get<std::uint64_t>();
      if (channel < 1 || channel > channel_count) {
        return refuse(fmt::format("subscribe: no channel {}", channel));
      }
      const auto id = sub["id"].get<std::uint64_t>();
      if (id > 0xFFFFFFFF) return refuse("subscribe: 'id' must fit 32 bits");
      std::erase_if(s.foxglove, [&](const FoxgloveSubscription& f) { return f.id == id; });
      FoxgloveSubscription& f = s.foxglove.emplace_back(FoxgloveSubscription{
          .id = static_cast<std::uint32_t>(id), .channel = static_cast<std::size_t>(channel)});
      if (f.channel > groups().size() + 1 && f.channel < first_cloud_channel()) {
        const auto topic = static_cast<io::scene::SceneTopic>(f.channel - groups().size() - 2);
        if (!io::scene::topic_info(topic).per_sample) send_scene_static(s, f, topic);
        if (topic == io::scene::SceneTopic::trail) {  // the trail so far, from the history
          for (std::uint64_t q = history.first_seq(); q < history.end_seq(); ++q) {
            const auto body = scene_messages()->frames().body(history.values(q));
            f.trail.add(body.translation[0], body.translation[1], body.translation[2]);
          }
        }
      }
    }
    s.foxglove_seq = std::max(s.foxglove_seq, history.end_seq());
    update_armed();
  } else if (op == "unsubscribe") {
    if (!m.contains("subscriptionIds") || !m["subscriptionIds"].is_array()) {
      return refuse("unsubscribe: 'subscriptionIds' must be a list");
    }
    for (const Json& id : m["subscriptionIds"]) {
      if (!id.is_number_unsigned()) return refuse("unsubscribe: ids are unsigned integers");
      std::erase_if(s.foxglove,
                    [&](const FoxgloveSubscription& f) { return f.id == id.get<std::uint64_t>(); });
    }
    update_armed();
  } else {
    refuse(fmt::format("'{}' is not served: this endpoint is read-only", op));
  }
}

void Core::send_foxglove_messages(WsSession& s) {
  if (s.foxglove.empty()) return;
  const auto all = groups();
  const auto period = feed.run.period_ns;
  const auto min_gap = static_cast<std::int64_t>(
      std::ceil(1e9 / (options.foxglove_rate_hz * static_cast<double>(period))));
  const double period_s = static_cast<double>(period) * 1e-9;
  std::vector<std::uint8_t> payload;
  s.foxglove_seq = std::max(s.foxglove_seq, history.first_seq());
  for (; s.foxglove_seq < history.end_seq(); ++s.foxglove_seq) {
    const std::int64_t tick = history.tick(s.foxglove_seq);
    const auto values = history.values(s.foxglove_seq);
    for (FoxgloveSubscription& f : s.foxglove) {
      if (f.channel == all.size() + 1) continue;         // events below
      if (f.channel >= first_cloud_channel()) continue;  // send_live_clouds()
      if (f.channel > all.size() + 1) {
        send_scene_sample(s, f, static_cast<io::scene::SceneTopic>(f.channel - all.size() - 2),
                          s.foxglove_seq);
        continue;
      }
      if (f.last_tick >= 0 && tick - f.last_tick < min_gap) continue;
      f.last_tick = tick;
      io::record::TelemetrySchema::encode(
          all[f.channel - 1], tick, static_cast<double>(tick * period) * 1e-9, values, payload);
      const auto log_time = static_cast<std::uint64_t>(feed.run.start_epoch_ns + tick * period);
      s.send_data(message_data(f.id, log_time, payload), true);
    }
  }
  // events since this client's last look: the events subscription keeps its place by count
  for (FoxgloveSubscription& f : s.foxglove) {
    if (f.channel != all.size() + 1) continue;
    const auto total = static_cast<std::int64_t>(events_total);
    if (f.last_tick < 0) f.last_tick = total;  // from the subscription on
    const auto held = static_cast<std::int64_t>(foxglove_events.size());
    for (std::int64_t n = std::max(f.last_tick, total - held); n < total; ++n) {
      const ConsoleEvent& e = foxglove_events[static_cast<std::size_t>(n - (total - held))];
      const std::int64_t tick = std::max<std::int64_t>(e.tick, 0);
      io::record::encode_event(tick, static_cast<double>(tick) * period_s, e.kind, e.text, payload);
      s.send_data(
          message_data(f.id, static_cast<std::uint64_t>(feed.run.start_epoch_ns + tick * period),
                       payload),
          true);
    }
    f.last_tick = total;
  }
}

void Core::send_scene_static(WsSession& s, const FoxgloveSubscription& f,
                             io::scene::SceneTopic topic) {
  // stamped now: the live edge, where a Foxglove client's clock is
  const auto log_time =
      static_cast<std::uint64_t>(feed.run.start_epoch_ns + ticks_now() * feed.run.period_ns);
  const std::vector<std::uint8_t> message = scene_messages()->static_message(topic, log_time);
  // the lossless binary queue (the data queue drops its oldest when full): the terrain is MBs
  (void)s.send_capture(message_data(f.id, log_time, message), true);
}

void Core::send_scene_sample(WsSession& s, FoxgloveSubscription& f, io::scene::SceneTopic topic,
                             std::uint64_t seq) {
  using io::scene::SceneTopic;
  if (!io::scene::topic_info(topic).per_sample) return;
  io::scene::SceneMessages& scene = *scene_messages();
  const std::int64_t tick = history.tick(seq);
  const auto values = history.values(seq);
  const auto period = feed.run.period_ns;
  double rate_hz = std::min(options.foxglove_rate_hz, io::scene::kLiveSceneRateHz);
  if (topic == SceneTopic::trail) {
    const auto body = scene.frames().body(values);
    f.trail.add(body.translation[0], body.translation[1], body.translation[2]);
    rate_hz = std::min(rate_hz, io::scene::kTrailRateHz);
  }
  const auto min_gap =
      static_cast<std::int64_t>(std::ceil(1e9 / (rate_hz * static_cast<double>(period))));
  if (f.last_tick >= 0 && tick - f.last_tick < min_gap) return;
  f.last_tick = tick;
  const auto log_time = static_cast<std::uint64_t>(feed.run.start_epoch_ns + tick * period);
  const auto send = [&](std::span<const std::uint8_t> m) {
    s.send_data(message_data(f.id, log_time, m), true);
  };
  if (topic == SceneTopic::tf) {
    scene.transforms(values, log_time, send);
  } else if (topic == SceneTopic::forces) {
    scene.forces(values, log_time, send);
  } else if (topic == SceneTopic::objects) {
    scene.objects(values, log_time, send);
  } else {
    scene.trail(f.trail, log_time, send);
  }
}

}  // namespace hil::io::console::detail
