// The lidars' point clouds on the Foxglove endpoint (docs/console.md "Foxglove WebSocket",
// docs/sensors.md "Lidar"): /lidar/<name> as foxglove.PointCloud with the schema the recording
// uses (io/scene/point_cloud_message.hpp), advertised after the scene's topics. The sources
// (ConsoleFeed::clouds; the lidar workers' live triple buffers, runtime/sensors/lidar_worker.hpp)
// collect only while somebody subscribes; each revolution is encoded once, on the console
// thread, and the same bytes go to every subscriber — at most at the lidar's rotation rate and
// at foxglove_rate_hz, stamped at the revolution's end. Clouds are hundreds of kB: they go
// through the lossless binary queue, so a slow client's telemetry is never pushed out by them.
#include <chrono>

#include "io/console/server_core.hpp"
#include "io/scene/point_cloud_message.hpp"

namespace hil::io::console::detail {

std::size_t Core::first_cloud_channel() const noexcept {
  return groups().size() + 2 + (feed.scene ? io::scene::kSceneTopics.size() : 0);
}

void Core::advertise_clouds(Json& channels) const {
  static const std::string cloud_schema = base64(io::scene::point_cloud_schema());
  for (std::size_t i = 0; i < feed.clouds.size(); ++i) {
    channels.push_back({{"id", first_cloud_channel() + i},
                        {"topic", feed.clouds[i].topic},
                        {"encoding", "protobuf"},
                        {"schemaName", io::scene::kPointCloudSchema},
                        {"schema", cloud_schema},
                        {"schemaEncoding", "protobuf"}});
  }
}

void Core::update_cloud_wants() {
  cloud_wanted.resize(feed.clouds.size(), false);
  cloud_sent_end_ns.resize(feed.clouds.size(), -1);
  const std::size_t first = first_cloud_channel();
  for (std::size_t i = 0; i < feed.clouds.size(); ++i) {
    bool wanted = false;
    for (const std::shared_ptr<WsSession>& s : sessions) {
      for (const FoxgloveSubscription& f : s->foxglove) wanted = wanted || f.channel == first + i;
    }
    wanted = wanted && !ending;
    if (wanted != cloud_wanted[i] && feed.clouds[i].want) feed.clouds[i].want(wanted);
    cloud_wanted[i] = wanted;
  }
}

void Core::send_live_clouds() {
  using std::chrono::steady_clock;
  const std::size_t first = first_cloud_channel();
  const auto min_gap_ns = static_cast<std::int64_t>(1e9 / options.foxglove_rate_hz);
  for (std::size_t i = 0; i < feed.clouds.size() && i < cloud_wanted.size(); ++i) {
    const LiveCloudSource& source = feed.clouds[i];
    if (!cloud_wanted[i] || !source.latest) continue;
    const std::optional<LiveCloudSource::Cloud> cloud = source.latest();
    if (!cloud) continue;
    if (cloud_sent_end_ns[i] >= 0 && cloud->end_ns - cloud_sent_end_ns[i] < min_gap_ns) continue;
    cloud_sent_end_ns[i] = cloud->end_ns;
    const auto log_time = static_cast<std::uint64_t>(feed.run.start_epoch_ns + cloud->end_ns);
    const steady_clock::time_point t0 = steady_clock::now();
    const std::vector<std::uint8_t> message =
        io::scene::point_cloud_message(log_time, source.frame_id, cloud->xyzi);
    const auto took =
        std::chrono::duration_cast<std::chrono::nanoseconds>(steady_clock::now() - t0);
    ++cloud_encodes;
    cloud_encode_ns += took.count();
    cloud_encode_max_ns = std::max<std::int64_t>(cloud_encode_max_ns, took.count());
    for (const std::shared_ptr<WsSession>& s : sessions) {
      if (s->protocol != Protocol::foxglove || !s->open()) continue;
      for (const FoxgloveSubscription& f : s->foxglove) {
        if (f.channel != first + i) continue;
        if (!s->send_capture(foxglove_message_data(f.id, log_time, message), true)) {
          s->note_dropped(1);  // its lossless queue is full: this cloud is lost to it
        }
      }
    }
  }
}

}  // namespace hil::io::console::detail
