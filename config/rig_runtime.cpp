#include "config/rig_runtime.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "config/can_settings.hpp"
#include "io/bus/endpoint.hpp"

namespace hil::config {

/// In the can_rx slot it drains and decodes (read); in can_tx it encodes and sends (write).
class RigRuntime::CanTask final : public rt::Task {
 public:
  CanTask(std::vector<std::unique_ptr<io::can::CanBus>>& buses, rt::ChannelTable& table)
      : buses_(buses), table_(table) {}
  void read(const rt::TickContext& c) noexcept override {
    for (const auto& bus : buses_) bus->read(c.tick, table_);
  }
  void update(const rt::TickContext& /*c*/) noexcept override {}
  void write(const rt::TickContext& c) noexcept override {
    for (const auto& bus : buses_) bus->write(c.tick, table_);
  }

 private:
  std::vector<std::unique_ptr<io::can::CanBus>>& buses_;
  rt::ChannelTable& table_;
};

class RigRuntime::VehicleTask final : public rt::Task {
 public:
  VehicleTask(models::Vehicle& vehicle, const models::VehicleChannels& channels,
              rt::ChannelTable& table)
      : vehicle_(vehicle), channels_(channels), table_(table) {}
  // The inputs are read in the update phase, after every task's read phase set them
  void update(const rt::TickContext& /*c*/) noexcept override {
    channels_.read(table_, inputs_);
    vehicle_.step(inputs_);
    if (channels_.write(vehicle_.outputs(), table_) != 0) {  // a non-finite output
      vehicle_.enter_safe_state();
      (void)channels_.write(vehicle_.outputs(), table_);
    }
  }

 private:
  models::Vehicle& vehicle_;
  const models::VehicleChannels& channels_;
  rt::ChannelTable& table_;
  models::VehicleInputs inputs_;
};

RigRuntime::~RigRuntime() = default;

RigRuntime::RigRuntime(RigSettings settings, const RuntimeOptions& options)
    : settings_(std::move(settings)) {
  // The same channel universe `hilsim check` resolved the mapping against
  vehicle_channels_ = add_rig_channels(table_, settings_.vehicle);
  if (settings_.vehicle) {
    if (!settings_.terrain) throw std::runtime_error("rig: a vehicle needs a terrain");
    vehicle_ = std::make_unique<models::Vehicle>(*settings_.vehicle, *settings_.terrain);
  }
  const double period_s =
      static_cast<double>(settings_.executive.period) / static_cast<double>(rt::kSecond);
  for (std::size_t i = 0; i < settings_.can.size(); ++i) {
    io::can::CanBusSpec spec = settings_.can[i];
    if (i == 0 && options.can_uri) spec.uri = *options.can_uri;
    std::vector<io::can::MappingProblem> problems;
    std::unique_ptr<io::can::Transport> transport;
    if (options.transport_for_bus) transport = options.transport_for_bus(i, spec.name);
    auto bus = io::can::CanBus::create(spec, table_, period_s, static_cast<std::uint8_t>(i),
                                       problems, std::move(transport));
    if (!bus) {
      std::string why;
      for (const auto& p : problems)
        why += fmt::format("\n  can.buses[{}].{}: {}", i, p.field, p.message);
      throw std::runtime_error(fmt::format("CAN bus \"{}\" cannot start:{}", spec.name, why));
    }
    buses_.push_back(std::move(bus));
  }
  for (const rt::ChannelSpec& spec : options.extra_output_channels) {
    if (!table_.find(spec.name)) (void)table_.add(spec);
  }
  for (const std::string& name : options.extra_input_channels) {
    if (!table_.find(name)) {
      (void)table_.add({.name = name, .unit = "-", .direction = rt::Direction::input});
    }
  }
  if (settings_.bus) {
    io::bus::BusSpec spec = *settings_.bus;
    if (spec.name.empty()) spec.name = options.bus_name;
    std::vector<io::bus::BusProblem> problems;
    bus_task_ = io::bus::BusTask::create(spec, table_, problems);
    if (!bus_task_) {
      std::string why;
      for (const auto& p : problems) why += fmt::format("\n  bus.{}: {}", p.field, p.message);
      throw std::runtime_error(fmt::format("the bus \"{}\" cannot start:{}", spec.name, why));
    }
    if (options.live_bus) {
      live_bus_ = std::make_unique<io::bus::LiveBus>(
          bus_task_->schema(), io::bus::LiveBusOptions{.endpoint = io::bus::endpoint_for(spec.name),
                                                       .mirror = spec.mirror});
      bus_task_->connect(&live_bus_->image(), &live_bus_->input());
    }
  }
  for (const FmuSettings& f : settings_.fmus) {
    fmu_tasks_.push_back(std::make_unique<FmuTask>(f, table_, period_s));
  }
  table_.freeze();
  if (vehicle_) {
    vehicle_task_ = std::make_unique<VehicleTask>(*vehicle_, *vehicle_channels_, table_);
  }
  can_task_ = std::make_unique<CanTask>(buses_, table_);
}

void RigRuntime::add_tasks(rt::TickPlan& plan) {
  if (!buses_.empty()) {
    plan.add(rt::Slot::can_rx, "can_rx", *can_task_);
    plan.add(rt::Slot::can_tx, "can_tx", *can_task_);
  }
  if (bus_task_) {
    plan.add(rt::Slot::bus_rx, "bus_rx", *bus_task_);
    plan.add(rt::Slot::bus_tx, "bus_tx", *bus_task_);
  }
  if (vehicle_task_) plan.add(rt::Slot::models, "vehicle", *vehicle_task_);
  for (std::size_t i = 0; i < fmu_tasks_.size(); ++i) {
    plan.add(rt::Slot::fmu, "fmu " + settings_.fmus[i].instance, *fmu_tasks_[i]);
  }
}

}  // namespace hil::config
