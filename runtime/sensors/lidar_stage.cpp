#include "runtime/sensors/lidar_stage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/sensors/lidar/terrain_slope.hpp"
#include "models/sensors/sensor_noise.hpp"
#include "runtime/world/world_objects_stage.hpp"

namespace hil::runtime {

namespace lidar = models::lidar;

LidarStage::LidarStage(config::LidarSpec spec, std::shared_ptr<const models::Terrain> terrain,
                       std::uint64_t master_seed, rt::ChannelTable& table, std::int64_t period_ns,
                       bool send)
    : spec_(std::move(spec)),
      terrain_(std::move(terrain)),
      seed_(models::derive_seed(master_seed, "lidar." + spec_.name)),
      period_ns_(period_ns),
      packet_ns_(std::llround(lidar::preset(spec_.params.preset).packet_period_s() * 1e9)),
      // The most packet windows that can start within one tick
      packets_per_job_(static_cast<int>((period_ns + packet_ns_ - 1) / packet_ns_)),
      sender_(std::make_unique<io::lidar::LidarSender>(send ? spec_.uri : "none")) {
  const std::string base = "sensor.lidar." + spec_.name + ".";
  packets_id_ = table.add(
      {.name = base + "packets", .unit = "-", .description = "data packets taken since the start"});
  returns_id_ = table.add({.name = base + "returns",
                           .unit = "-",
                           .description = "returns in the last completed revolution"});
  late_id_ = table.add({.name = base + "late",
                        .unit = "-",
                        .description = "packet jobs not finished when due (real-time runs)"});
  digest_id_ = table.add({.name = base + "digest",
                          .unit = "-",
                          .description = "FNV-1a (32 bit) of the last packet taken"});
}

LidarStage::~LidarStage() = default;

void LidarStage::bind(const rt::ChannelTable& table, const WorldObjectsStage* world) {
  table_ = const_cast<rt::ChannelTable*>(&table);  // the stage writes its own channels
  pose_ = {.x = table.resolve("vehicle.body.position.x"),
           .y = table.resolve("vehicle.body.position.y"),
           .z = table.resolve("vehicle.body.position.z"),
           .roll = table.resolve("vehicle.body.roll"),
           .pitch = table.resolve("vehicle.body.pitch"),
           .yaw = table.resolve("vehicle.body.yaw")};
  world_ = world;
  std::vector<models::WorldObject> objects;
  if (world_ != nullptr) objects.assign(world_->objects().begin(), world_->objects().end());
  // The slope bound over twice the range around the origin (a DEM: its whole grid)
  const double slope =
      terrain_ ? lidar::slope_bound(*terrain_, {0.0, 0.0}, 2.0 * spec_.params.range_max_m) : 1.0;
  worker_ =
      std::make_unique<LidarWorker>(spec_.params, seed_, terrain_.get(), slope, std::move(objects),
                                    packets_per_job_, spec_.record_points);
  due_.assign(LidarWorker::kDefaultDepth, 0);
}

void LidarStage::set_realtime(bool realtime) noexcept {
  realtime_ = realtime;
  if (worker_) worker_->set_polling(realtime);  // the tick makes no system call
}

void LidarStage::follow(std::vector<LidarEvent> events) {
  followed_ = std::move(events);
  next_followed_ = 0;
}

const LidarEvent* LidarStage::followed(std::int64_t tick, bool behind) const noexcept {
  if (!followed_ || next_followed_ >= followed_->size()) return nullptr;
  const LidarEvent& e = (*followed_)[next_followed_];
  return e.tick == tick && (e.taken == LidarEvent::kBehind) == behind ? &e : nullptr;
}

void LidarStage::run(const rt::TickContext& c) noexcept {
  if (!worker_) return;
  hand(c);
  take(c.tick);
}

void LidarStage::hand(const rt::TickContext& c) noexcept {
  const std::int64_t end = c.time + period_ns_;
  int n = 0;
  while (n < packets_per_job_ && (next_packet_ + n) * packet_ns_ < end) ++n;
  if (n == 0) return;
  const rt::ChannelTable& t = *table_;
  const models::SensorPose pose = models::sensor_pose(
      {t.get(pose_.x), t.get(pose_.y), t.get(pose_.z)},
      models::attitude(t.get(pose_.roll), t.get(pose_.pitch), t.get(pose_.yaw)), spec_.mount);
  const std::span<const models::ObjectState> states =
      world_ != nullptr ? world_->states() : std::span<const models::ObjectState>{};
  bool handed = false;
  if (followed_) {  // a replay: lost where the run lost it, else hand it (waiting for a slot)
    if (followed(c.tick, true) != nullptr) {
      ++next_followed_;
    } else {
      handed = worker_->hand(next_packet_, n, pose, states, /*wait=*/true);
    }
  } else {
    // The job's slot must hold nothing the tick has yet to take (a late job finished since the
    // last tick is taken below, after this hand): refused as behind, the worker's too
    const auto depth = static_cast<std::int64_t>(due_.size());
    const bool slot_taken = worker_->handed() + 1 - depth <= taken_;
    handed = (slot_taken || !realtime_) &&
             worker_->hand(next_packet_, n, pose, states, /*wait=*/!realtime_);
    if (!handed) (void)events_.try_push({.tick = c.tick, .taken = LidarEvent::kBehind});
  }
  next_packet_ += n;
  if (!handed) {
    lost_ += static_cast<std::uint64_t>(n);
    return;
  }
  // Due at the first tick at or after the end of its last packet's window
  const std::int64_t window_end = next_packet_ * packet_ns_;
  due_[static_cast<std::size_t>(worker_->handed()) % due_.size()] =
      (window_end + period_ns_ - 1) / period_ns_;
}

void LidarStage::take(std::int64_t tick) noexcept {
  while (taken_ < worker_->handed()) {
    const std::int64_t j = taken_ + 1;
    if (due_[static_cast<std::size_t>(j) % due_.size()] > tick) return;
    if (followed_) {
      if (const LidarEvent* e = followed(tick, false); e != nullptr && e->taken == j) {
        ++next_followed_;
        if (late_job_ != j) ++late_;
        late_job_ = j;
        table_->set(late_id_, static_cast<double>(late_));
        return;
      }
      worker_->wait_for(j);
    } else if (worker_->finished() < j) {
      if (!realtime_) {
        worker_->wait_for(j);
      } else {
        (void)events_.try_push({.tick = tick, .taken = j});
        if (late_job_ != j) ++late_;
        late_job_ = j;
        table_->set(late_id_, static_cast<double>(late_));
        return;
      }
    }
    apply(j);
    taken_ = j;
  }
}

void LidarStage::apply(std::int64_t job) noexcept {
  const LidarJobResult& r = worker_->result(job);
  for (int i = 0; i < r.packets; ++i) (void)sender_->post(worker_->packet(job, i));
  packets_ += static_cast<std::uint64_t>(r.packets);
  if (r.completed_revolution >= 0) last_returns_ = r.revolution_returns;
  rt::ChannelTable& t = *table_;
  t.set(packets_id_, static_cast<double>(packets_));
  t.set(returns_id_, static_cast<double>(last_returns_));
  if (r.packets > 0) t.set(digest_id_, static_cast<double>(r.digest));
}

std::size_t LidarStage::take_events(std::vector<LidarEvent>& out) {
  return events_.drain([&out](const LidarEvent& e) { out.push_back(e); });
}

std::string LidarStage::report(double run_s) const {
  std::string out = fmt::format(
      "lidar {}: {} packets ({:.1f}/s), {} returns in the last revolution, {} late, {} lost",
      spec_.name, packets_, run_s > 0 ? static_cast<double>(packets_) / run_s : 0.0, last_returns_,
      late_, lost_);
  if (spec_.uri != "none") {
    out +=
        fmt::format(", {} sent on {} ({} dropped)", sender_->sent(), spec_.uri, sender_->dropped());
  }
  return out;
}

}  // namespace hil::runtime
