#include "tools/ecu/virtual_ecu.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "io/can/mapping/can_bus_mirror.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "io/input/driver_channels.hpp"

namespace hil::ecu {

namespace {

/// The rig's transmitted messages (the ECU's received ones) with their nominal cycles.
std::vector<WatchedMessage> watched_messages(const io::can::CanBusSpec& rig_bus,
                                             double default_cycle_s) {
  std::vector<WatchedMessage> out;
  for (const io::can::TxMessageSpec& t : rig_bus.tx) {
    const io::can::dbc::Message* m = rig_bus.database.find_message(t.message);
    if (m == nullptr) continue;  // the loader checked every name; nothing to watch
    double cycle = default_cycle_s;
    if (t.cycle_s) {
      cycle = *t.cycle_s;
    } else if (m->cycle_time_ms) {
      cycle = *m->cycle_time_ms / 1000.0;
    }
    out.push_back({.name = t.message, .id = m->id, .extended = m->extended, .cycle_s = cycle});
  }
  return out;
}

}  // namespace

VirtualEcu::~VirtualEcu() = default;

VirtualEcu::VirtualEcu(const config::RigSpec& rig, const config::ScenarioSpec& scenario,
                       const VirtualEcuSpec& options)
    : judge_(scenario), start_on_input_(options.start_clock_on_input) {
  if (rig.can.empty()) throw std::runtime_error("the rig has no CAN bus for an ECU to talk on");
  if (!rig.vehicle) throw std::runtime_error("the rig has no vehicle for an ECU to drive");
  period_s_ = options.period_s.value_or(static_cast<double>(rig.executive.period) /
                                        static_cast<double>(rt::kSecond));
  spec_ = io::can::mirror(rig.can.front(), options.cycle_s);
  io::can::CanBusSpec& spec = spec_;
  if (options.can_uri) spec.uri = *options.can_uri;
  io::can::add_mirror_channels(spec, table_);

  auto monitor = std::make_unique<ArrivalMonitor>(
      io::can::open_transport(spec.uri), watched_messages(rig.can.front(), options.cycle_s));
  arrivals_ = monitor.get();
  std::vector<io::can::MappingProblem> problems;
  bus_ = io::can::CanBus::create(spec, table_, period_s_, 0, problems, std::move(monitor));
  if (!bus_) {
    std::string why;
    for (const auto& p : problems) why += fmt::format("\n  {}: {}", p.field, p.message);
    throw std::runtime_error(
        fmt::format("the virtual ECU's bus \"{}\" cannot start:{}", spec.name, why));
  }
  if (rig.diagnostics && rig.diagnostics->bus == 0) {  // UDS on the ECU's bus
    diagnostics_ =
        std::make_unique<diag::EcuDiagnostics>(*rig.diagnostics, *bus_, table_, period_s_);
  }
  for (const std::uint32_t code : judge_.dtc_codes()) {
    const std::optional<std::size_t> at =
        diagnostics_ ? diagnostics_->dtcs().find(code) : std::nullopt;
    dtc_index_.push_back(at.value_or(kNoDtc));
  }
  dtc_status_.assign(dtc_index_.size(), std::numeric_limits<double>::quiet_NaN());
  table_.freeze();
  driver_ = std::make_unique<Driver>(*rig.vehicle, scenario, table_, options.cycle_s);
  if (options.rig_table != nullptr && rig.driver) {
    const rt::ChannelTable& t = *options.rig_table;
    namespace input = io::input;
    human_ = HumanChannels{.table = &t,
                           .mode = t.resolve(input::kModeChannel),
                           .steer = t.resolve(input::kSteerChannel),
                           .throttle = t.resolve(input::kThrottleChannel),
                           .brake = t.resolve(input::kBrakeChannel),
                           .max_speed = rig.driver->max_speed};
  }
  cycle_ticks_ = std::max<std::int64_t>(1, std::llround(options.cycle_s / period_s_));
  // The bus's own timeout of each received message: 3 of its cycles (mirror(), CanBus)
  for (std::size_t i = 0; i < spec.rx.size(); ++i) {
    const double cycle =
        i < arrivals_->watched().size() ? arrivals_->watched()[i].cycle_s : options.cycle_s;
    const double timeout = spec.rx[i].timeout_s.value_or(3.0 * cycle);
    rx_timeout_ticks_.push_back(std::max<std::int64_t>(1, std::llround(timeout / period_s_)));
  }
}

bool VirtualEcu::inputs_valid(std::int64_t tick) const noexcept {
  for (std::size_t i = 0; i < bus_->rx_count(); ++i) {
    const std::int64_t last = bus_->rx_counters(i).last_tick.load(std::memory_order_relaxed);
    if (last < 0 || tick - last > rx_timeout_ticks_[i]) return false;
  }
  return true;
}

void VirtualEcu::receive(std::int64_t tick) noexcept {
  if (first_tick_ < 0) first_tick_ = tick;
  bus_->read(tick, table_);
}

bool VirtualEcu::human_drives() const noexcept {
  return human_ && human_->table->get(human_->mode) >= 0.5;
}

HumanControls VirtualEcu::human_controls() const noexcept {
  const rt::ChannelTable& t = *human_->table;
  return {.steer = t.get(human_->steer),
          .throttle = t.get(human_->throttle),
          .brake = t.get(human_->brake)};
}

void VirtualEcu::drive(std::int64_t tick) noexcept {
  const bool valid = inputs_valid(tick);
  if (valid && clock_start_tick_ < 0) clock_start_tick_ = start_on_input_ ? tick : first_tick_;
  if (valid) last_valid_tick_ = tick;
  cycles_.fetch_add(1, std::memory_order_relaxed);
  if (!valid) {
    driver_->hold(table_);
    holding_.fetch_add(1, std::memory_order_relaxed);
  } else {
    const double t = static_cast<double>(tick - clock_start_tick_) * period_s_;
    if (human_drives()) {
      driver_->step_human(human_controls(), human_->max_speed, table_);
    } else {
      driver_->step(t, table_);
    }
    const DriverStatus& s = driver_->status();
    read_dtc_statuses();
    judge_.observe({.time = t,
                    .x = table_.get(driver_->pose_x()),
                    .y = table_.get(driver_->pose_y()),
                    .yaw = table_.get(driver_->pose_yaw()),
                    .speed = s.speed_measured,
                    .dtc_status = dtc_status_});
  }
  const DriverStatus& s = driver_->status();
  progress_.elapsed.store(static_cast<double>(tick - first_tick_) * period_s_,
                          std::memory_order_relaxed);
  progress_.silent_for.store(
      last_valid_tick_ < 0 ? 0.0 : static_cast<double>(tick - last_valid_tick_) * period_s_,
      std::memory_order_relaxed);
  progress_.time.store(s.time, std::memory_order_relaxed);
  progress_.speed_ref.store(s.speed_ref, std::memory_order_relaxed);
  progress_.speed_measured.store(s.speed_measured, std::memory_order_relaxed);
  progress_.cross_track.store(s.cross_track, std::memory_order_relaxed);
  progress_.progress.store(s.progress, std::memory_order_relaxed);
  progress_.holding.store(!valid, std::memory_order_relaxed);
  progress_.human.store(driver_->human(), std::memory_order_relaxed);
}

void VirtualEcu::read_dtc_statuses() noexcept {
  for (std::size_t k = 0; k < dtc_index_.size(); ++k) {
    dtc_status_[k] = dtc_index_[k] == kNoDtc
                         ? std::numeric_limits<double>::quiet_NaN()
                         : static_cast<double>(diagnostics_->dtcs().status(dtc_index_[k]));
  }
}

void VirtualEcu::send(std::int64_t tick) noexcept {
  if (silent_.load(std::memory_order_relaxed)) return;
  if (diagnostics_) diagnostics_->step(tick);  // its frames before the bus's own
  bus_->write(tick, table_);
}

EcuProgress VirtualEcu::progress() const noexcept {
  return {.elapsed = progress_.elapsed.load(std::memory_order_relaxed),
          .silent_for = progress_.silent_for.load(std::memory_order_relaxed),
          .time = progress_.time.load(std::memory_order_relaxed),
          .speed_ref = progress_.speed_ref.load(std::memory_order_relaxed),
          .speed_measured = progress_.speed_measured.load(std::memory_order_relaxed),
          .cross_track = progress_.cross_track.load(std::memory_order_relaxed),
          .progress = progress_.progress.load(std::memory_order_relaxed),
          .holding = progress_.holding.load(std::memory_order_relaxed),
          .human = progress_.human.load(std::memory_order_relaxed)};
}

}  // namespace hil::ecu
