#include "runtime/rig.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "config/can_spec.hpp"
#include "io/bus/endpoint.hpp"
#include "io/input/driver_channels.hpp"

namespace hil::runtime {

Rig::~Rig() = default;

Rig::Rig(config::RigSpec settings, const RigBuildSpec& options) : settings_(std::move(settings)) {
  // The same channel universe `hilsim check` resolved the mapping against
  vehicle_channels_ = config::add_rig_channels(table_, settings_.vehicle);
  if (settings_.driver) io::input::add_driver_channels(table_);  // before the buses map them
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
  if (settings_.diagnostics && settings_.diagnostics->bus < buses_.size()) {
    diag_tester_ =
        std::make_unique<DiagTester>(*settings_.diagnostics, *buses_[settings_.diagnostics->bus],
                                     table_, settings_.executive.period);
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
    bus_ = io::bus::BusExchange::create(spec, table_, problems);
    if (!bus_) {
      std::string why;
      for (const auto& p : problems) why += fmt::format("\n  bus.{}: {}", p.field, p.message);
      throw std::runtime_error(fmt::format("the bus \"{}\" cannot start:{}", spec.name, why));
    }
    if (options.live_bus) {
      live_bus_ = std::make_unique<io::bus::LiveBus>(
          bus_->schema(), io::bus::LiveBusSpec{.endpoint = io::bus::endpoint_for(spec.name),
                                               .mirror = spec.mirror,
                                               .tick_period_ns = static_cast<std::uint64_t>(
                                                   settings_.executive.period)});
      bus_->connect(&live_bus_->image(), &live_bus_->input());
    }
  }
  for (const config::FmuSpec& f : settings_.fmus) {
    fmus_.push_back(std::make_unique<FmuStage>(f, table_, period_s));
  }
  if (!options.objects.empty() && settings_.terrain) {
    world_objects_ =
        std::make_unique<WorldObjectsStage>(options.objects, *settings_.terrain, table_, period_s);
  }
  for (const config::RadarSpec& r : settings_.radars) {  // after the objects they see
    radars_.push_back(std::make_unique<RadarStage>(
        r, *buses_.at(r.bus), settings_.can.at(r.bus).database, vehicle_.get(),
        world_objects_.get(), table_, period_s, settings_.vehicle ? settings_.vehicle->seed : 1));
  }
  for (const config::LidarSpec& l : settings_.lidars) {  // after the objects they see
    lidars_.push_back(std::make_unique<LidarStage>(
        l, settings_.terrain, settings_.vehicle ? settings_.vehicle->seed : 1, table_,
        settings_.executive.period, options.send_lidar));
  }
  table_.freeze();
  if (world_objects_) world_objects_->bind(table_);
  for (const auto& l : lidars_) l->bind(table_, world_objects_.get());
  if (vehicle_) {
    vehicle_stages_ = std::make_unique<VehicleStages>(*vehicle_, *vehicle_channels_, table_);
  }
  if (bus_) {
    bus_rx_ = std::make_unique<rt::MethodStage<&io::bus::BusExchange::read>>(*bus_);
    bus_tx_ = std::make_unique<rt::MethodStage<&io::bus::BusExchange::write>>(*bus_);
  }
}

void Rig::add_stages(TickPlan& plan) {
  if (!buses_.empty()) {
    plan.add(Slot::can_rx, "can_rx", can_.rx());
    if (diag_tester_) plan.add(Slot::can_tx, "diag_tester", *diag_tester_);
    plan.add(Slot::can_tx, "can_tx", can_.tx());
  }
  if (bus_) {
    plan.add(Slot::bus_rx, "bus_rx", *bus_rx_);
    plan.add(Slot::bus_tx, "bus_tx", *bus_tx_);
  }
  if (vehicle_stages_) vehicle_stages_->add_to(plan);
  for (const std::unique_ptr<FmuStage>& fmu : fmus_) {
    plan.add(Slot::fmu, "fmu " + fmu->instance(), *fmu, fmu->every_ticks());
  }
  if (world_objects_) plan.add(Slot::world, "world_objects", *world_objects_);
  for (const std::unique_ptr<RadarStage>& r : radars_) {
    plan.add(Slot::sensors, "radar " + r->name(), *r, r->every_ticks());
  }
  for (const auto& l : lidars_) plan.add(Slot::sensors, "lidar " + l->spec().name, *l);
}

}  // namespace hil::runtime
