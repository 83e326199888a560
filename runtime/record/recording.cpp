#include "runtime/record/recording.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <thread>

#include "runtime/rig.hpp"
#include "runtime/scene/scene_builder.hpp"

namespace hil::runtime {

namespace {

constexpr const char* kReserve = ".reserve";
constexpr std::uint64_t kReserveBytes = 4 << 20;  // the manifest, timing.json, can.log's end

/// The file system holding `dir`: bytes free (for an unprivileged writer) and in all; nullopt
/// when the directory is gone (removed while the run records).
struct Space {
  std::uint64_t free = 0, size = 0;
};
std::optional<Space> space_of(const std::filesystem::path& dir) {
  struct statvfs s {};
  if (::statvfs(dir.c_str(), &s) != 0) return std::nullopt;
  return Space{.free = static_cast<std::uint64_t>(s.f_bavail) * s.f_frsize,
               .size = static_cast<std::uint64_t>(s.f_blocks) * s.f_frsize};
}

/// The watermark: the rig's, but never more than a twentieth of the file system (a small disk
/// still records).
std::uint64_t watermark(const std::optional<Space>& space, std::uint64_t wanted) {
  return wanted == 0 || !space ? wanted : std::min(wanted, space->size / 20);
}

/// The 3D scene, when the rig has a vehicle and the recording a scene rate.
std::shared_ptr<const io::scene::Scene> scene_of(const Rig& rig, const RunRecordingSpec& o) {
  return o.settings.scene_rate_hz > 0 ? build_scene(rig.settings(), o.scenario) : nullptr;
}

std::unique_ptr<io::scene::SceneRecorderTopics> scene_topics(
    const std::shared_ptr<const io::scene::Scene>& scene, const Rig& rig,
    const RunRecordingSpec& o) {
  if (!scene) return nullptr;
  return std::make_unique<io::scene::SceneRecorderTopics>(
      scene, rig.table(), o.settings.scene_rate_hz, rig.settings().executive.period);
}

io::record::TelemetryRecorderSpec telemetry_config(
    const std::filesystem::path& dir, std::int64_t period_ns, std::int64_t start_epoch_ns,
    const std::string& rig_name, const config::RecordingSpec& s, io::record::ExtraTopics* scene) {
  return {.tick_period_ns = period_ns,
          .start_time_ns = static_cast<std::uint64_t>(start_epoch_ns),
          .group_rates_hz = s.rates_hz,
          .compression = s.compression,
          .run_metadata = {{"rig", rig_name}},
          .split_bytes = s.split_bytes,
          .split_ticks =
              static_cast<std::int64_t>(s.split_duration_s * 1e9 / static_cast<double>(period_ns)),
          .min_free_bytes = watermark(space_of(dir), s.min_free_bytes),
          .free_bytes = [dir]() -> std::optional<std::uint64_t> {
            const std::optional<Space> space = space_of(dir);
            return space ? std::optional(space->free) : std::nullopt;
          },
          .extra_topics = scene};
}

}  // namespace

Recording::Recording(Rig& rig, const RunRecordingSpec& o)
    : table_(rig.table()),
      dir_(o.dir),
      lossless_(o.lossless),
      scene_(scene_of(rig, o)),
      scene_topics_(scene_topics(scene_, rig, o)),
      lidar_topics_(LidarRecorderTopics::make(rig.lidars(), scene_topics_.get(),
                                              rig.settings().executive.period)),
      telemetry_(rig.table(), o.dir / "telemetry.mcap",
                 telemetry_config(o.dir, rig.settings().executive.period, o.start_epoch_ns,
                                  o.rig_name, o.settings,
                                  lidar_topics_
                                      ? static_cast<io::record::ExtraTopics*>(lidar_topics_.get())
                                      : scene_topics_.get())) {
  const std::filesystem::path& dir = o.dir;
  const std::int64_t period_ns = rig.settings().executive.period;
  // Space kept for the end of the run: whatever fills the disk, the manifest and timing.json
  // can still be written (given back in stop())
  // (a thirty-second of a small file system)
  const std::uint64_t size = space_of(dir).value_or(Space{}).size;
  const int fd = ::open((dir / kReserve).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd >= 0) {
    (void)::posix_fallocate(fd, 0, static_cast<off_t>(std::min(kReserveBytes, size / 32)));
    ::close(fd);
  }
  io::record::CanLogSpec log{.tick_period_ns = period_ns, .start_epoch_ns = o.start_epoch_ns};
  for (const auto& bus : rig.buses()) log.interfaces.push_back(bus->name());
  can_log_ = std::make_unique<io::record::CanLogRecorder>(dir / "can.log", log);
  for (const auto& bus : rig.buses()) bus->set_tap(&can_log_->tap());
  if (io::bus::BusExchange* bus = rig.bus()) {
    io::record::BusLogSpec config;
    for (const io::bus::RegionSchema& r : bus->schema().regions) config.regions.push_back(r.name);
    bus_log_ = std::make_unique<io::record::BusLogRecorder>(dir / "bus.log", std::move(config));
    bus->set_tap(&bus_log_->tap());
  }
  if (std::ranges::any_of(rig.fmus(), [](const auto& f) { return f->on_worker(); })) {
    fmu_log_ = fmu_log_writer(rig.fmus(), dir / "fmu.log");
  }
  if (!rig.lidars().empty()) {
    lidar_log_ = lidar_log_writer(rig.lidars(), dir / "lidar.log");
  }
}

void Recording::run(const rt::TickContext& c) noexcept {
  // Not paced by real time: wait for the writer threads rather than drop (they drain even
  // after a write error, so the wait ends)
  while (lossless_ && !(telemetry_.has_room_for(c.tick) && can_log_->has_room() &&
                        (!bus_log_ || bus_log_->has_room()))) {
    std::this_thread::yield();
  }
  (void)telemetry_.push(c.tick, table_.values());
}

Recording::~Recording() { stop(); }

void Recording::service() {
  can_log_->service();
  if (bus_log_) bus_log_->service();
  if (fmu_log_) fmu_log_->service();
  if (lidar_log_) lidar_log_->service();
}

void Recording::stop() {
  telemetry_.stop();
  can_log_->stop();
  if (bus_log_) bus_log_->stop();
  if (fmu_log_) fmu_log_->stop();
  if (lidar_log_) lidar_log_->stop();
  std::error_code ignored;
  std::filesystem::remove(dir_ / kReserve, ignored);
}

std::uint64_t Recording::free_bytes() const { return space_of(dir_).value_or(Space{}).free; }

RecordingCounters Recording::counters() const {
  std::string errors;
  for (const std::string& e :
       {telemetry_.error(), can_log_->error(), bus_log_ ? bus_log_->error() : std::string(),
        fmu_log_ ? fmu_log_->error() : std::string(),
        lidar_log_ ? lidar_log_->error() : std::string()}) {
    if (!e.empty()) errors += (errors.empty() ? "" : "; ") + e;
  }
  return {.telemetry = telemetry_.counters(),
          .can_log = can_log_->counters(),
          .bus_log = bus_log_ ? std::optional(bus_log_->counters()) : std::nullopt,
          .errors = errors};
}

}  // namespace hil::runtime
