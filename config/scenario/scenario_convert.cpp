#include "config/scenario/scenario_convert.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include "config/can_spec.hpp"
#include "config/scenario/scenario_checker.hpp"
#include "config/scenario/scenario_gates.hpp"
#include "config/scenario/scenario_objects.hpp"
#include "config/text/suggest.hpp"
#include "io/can/uds/uds_hex.hpp"

namespace hil::config {

namespace {

constexpr double kMaxDuration = 86'400.0;  // one day of simulated time [s]
constexpr std::string_view kMarkerPrefix = "scenario.";

/// The straight line ahead, long enough for the run.
void straight_plan(const Scenario::Straight& s, double duration, const Checker& check,
                   DrivingPlan& plan) {
  if (s.speeds_size() == 0) check.fail("drive.straight", "no speeds; expected at least one");
  double v_max = 0.0;
  for (int i = 0; i < s.speeds_size(); ++i) {
    const std::string at = fmt::format("drive.straight.speeds[{}]", i);
    const Scenario::SpeedStep& step = s.speeds(i);
    check.present(at + ".speed", step.has_speed(), "the target speed [m/s]");
    check.in_range(at + ".speed", step.speed(), 0.0, 100.0, "0..100 (m/s)");
    if (check.time(at + ".at_s", step.at_s(), duration) && i > 0 &&
        !(step.at_s() > s.speeds(i - 1).at_s())) {
      check.fail(at + ".at_s", fmt::format("{} is not after the previous step's {}; expected "
                                           "increasing times",
                                           step.at_s(), s.speeds(i - 1).at_s()));
    }
    plan.steps.push_back({.at_s = step.at_s(), .speed = step.speed()});
    v_max = std::max(v_max, std::abs(step.speed()));
  }
  plan.path = {{.x = 0.0, .y = 0.0}, {.x = v_max * duration + 100.0, .y = 0.0}};
}

void path_plan(const Scenario::Path& p, const Checker& check, DrivingPlan& plan) {
  if (p.points_size() < 2) {
    check.fail("drive.path", fmt::format("{} point(s); expected at least 2", p.points_size()));
  }
  double speed = 0.0;
  for (int i = 0; i < p.points_size(); ++i) {
    const std::string at = fmt::format("drive.path.points[{}]", i);
    const Scenario::PathPoint& point = p.points(i);
    check.finite(at + ".x", point.x());
    check.finite(at + ".y", point.y());
    if (i == 0) check.present(at + ".speed", point.has_speed(), "the target speed [m/s]");
    if (point.has_speed() &&
        check.in_range(at + ".speed", point.speed(), 0.0, 100.0, "0..100 (m/s)")) {
      speed = point.speed();
    }
    if (i > 0 &&
        std::hypot(point.x() - p.points(i - 1).x(), point.y() - p.points(i - 1).y()) < 1e-3) {
      check.fail(at, "the same point as the previous one; expected points apart");
    }
    plan.path.push_back({.x = point.x(), .y = point.y()});
    plan.point_speed.push_back(speed);
  }
  plan.stop_at_end = true;
}

void lane_change_plan(const Scenario::DoubleLaneChange& d, const config::RigSpec& rig,
                      const Checker& check, DrivingPlan& plan, std::vector<GateSpec>& gates) {
  const std::string at = "drive.double_lane_change";
  Iso3888Spec params;
  const double v = d.speed();
  bool ok = check.present(at + ".speed", d.has_speed(), "the speed through the course [m/s]") &&
            check.in_range(at + ".speed", v, 0.01, 100.0, "0.01..100 (m/s)");
  params.vehicle_width = d.has_vehicle_width() ? d.vehicle_width() : vehicle_width_of(*rig.vehicle);
  ok = check.in_range(at + ".vehicle_width", params.vehicle_width, 0.1, 10.0, "0.1..10 (m)") && ok;
  params.approach = d.has_approach() ? d.approach() : v * v / (2.0 * plan.max_acceleration) + 10.0;
  params.exit =
      d.has_exit() ? d.exit() : std::max(20.0, v * v / (2.0 * plan.max_deceleration) + 10.0);
  params.lane_offset = d.has_lane_offset() ? d.lane_offset() : 3.5;
  ok = check.in_range(at + ".approach", params.approach, 0.0, 10'000.0, "0..10000 (m)") && ok;
  ok = check.in_range(at + ".exit", params.exit, 0.0, 10'000.0, "0..10000 (m)") && ok;
  ok = check.in_range(at + ".lane_offset", params.lane_offset, 0.0, 50.0, "0..50 (m)") && ok;
  if (d.has_direction() && d.direction() != "left" && d.direction() != "right") {
    check.fail(at + ".direction",
               fmt::format("unknown direction \"{}\"; expected left or right", d.direction()));
    ok = false;
  }
  params.left = d.direction() != "right";
  if (!ok) return;
  const Iso3888Course course = iso3888_1_course(params);
  plan.path = course.path;
  plan.point_speed.assign(course.path.size(), v);
  plan.stop_at_end = true;
  for (const CourseLane& lane : course.lanes) {
    gates.push_back(
        {.name = lane.name,
         .check = LaneGate{
             .x_min = lane.x_min, .x_max = lane.x_max, .y_min = lane.y_min, .y_max = lane.y_max}});
  }
}

void convert_drive(const Scenario::Drive& d, double duration, const config::RigSpec& rig,
                   const Checker& check, ScenarioSpec& out) {
  DrivingPlan& plan = out.drive;
  if (d.has_max_acceleration() &&
      check.in_range("drive.max_acceleration", d.max_acceleration(), 0.01, 20.0, "0.01..20")) {
    plan.max_acceleration = d.max_acceleration();
  }
  if (d.has_max_deceleration() &&
      check.in_range("drive.max_deceleration", d.max_deceleration(), 0.01, 20.0, "0.01..20")) {
    plan.max_deceleration = d.max_deceleration();
  }
  switch (d.task_case()) {
    case Scenario::Drive::kStraight:
      straight_plan(d.straight(), duration, check, plan);
      break;
    case Scenario::Drive::kPath:
      path_plan(d.path(), check, plan);
      break;
    case Scenario::Drive::kDoubleLaneChange:
      lane_change_plan(d.double_lane_change(), rig, check, plan, out.gates);
      break;
    case Scenario::Drive::TASK_NOT_SET:
      check.fail("drive", "no driving task; expected straight, path or double_lane_change");
      break;
  }
}

/// The bytes of hex text ("14 FF FF FF"); empty when it is not hex.
std::vector<std::uint8_t> uds_bytes(std::string_view text) {
  try {
    return io::can::uds::parse_hex_bytes(text);
  } catch (const std::invalid_argument&) {
    return {};
  }
}

void convert_events(const Scenario& s, const config::RigSpec& rig, const Checker& check,
                    ScenarioSpec& out) {
  rt::ChannelTable universe;
  (void)config::add_rig_channels(universe, rig.vehicle);
  std::vector<std::string> inputs;
  for (const rt::ChannelSpec& spec : universe.specs()) {
    if (spec.direction == rt::Direction::input) inputs.push_back(spec.name);
  }
  for (int i = 0; i < s.events_size(); ++i) {
    const std::string at = fmt::format("events[{}]", i);
    const Scenario::Event& e = s.events(i);
    check.time(at + ".at_s", e.at_s(), out.duration_s);
    if (e.has_uds()) {
      if (e.has_channel() || e.has_value() || e.has_ramp_s()) {
        check.fail(at + ".uds", "a UDS request event has no channel, value or ramp_s");
      }
      if (!rig.diagnostics) {
        check.fail(at + ".uds", "the rig has no diagnostics block: no tester to send it");
      }
      std::vector<std::uint8_t> bytes = uds_bytes(e.uds());
      if (bytes.empty() || bytes.size() > 4095) {
        check.fail(at + ".uds",
                   fmt::format(R"("{}" is not a UDS request: hex bytes, 1 to 4095 ("14FFFFFF"))",
                               e.uds()));
      }
      out.events.push_back({.at_s = e.at_s(), .uds = std::move(bytes)});
      continue;
    }
    check.non_negative(at + ".ramp_s", e.ramp_s());
    check.present(at + ".value", e.has_value(), "the value the channel goes to");
    check.finite(at + ".value", e.value());
    const std::string& name = e.channel();
    const bool input = std::find(inputs.begin(), inputs.end(), name) != inputs.end();
    if (!input && name.starts_with(kMarkerPrefix) && rt::is_valid_channel_name(name)) {
      if (std::find(out.marker_channels.begin(), out.marker_channels.end(), name) ==
          out.marker_channels.end()) {
        out.marker_channels.push_back(name);
      }
    } else if (!input) {
      const std::optional<std::string> near = config::closest_name(name, inputs);
      check.fail(at + ".channel",
                 fmt::format("\"{}\" is not an input channel of the rig{}; expected one of its "
                             "inputs (hilsim check --print) or a marker \"scenario.<name>\"",
                             name, near ? fmt::format(" (did you mean {}?)", *near) : ""));
    }
    out.events.push_back(
        {.at_s = e.at_s(), .channel = name, .value = e.value(), .ramp_s = e.ramp_s()});
  }
}

/// The scenario's faults, checked after the rig's (names unique across both; `after` may
/// name a rig fault).
void convert_faults(const Scenario& s, const config::RigSpec& rig, const config::SourceMap& sources,
                    config::ConfigErrors& errors, ScenarioSpec& out) {
  rt::ChannelTable universe;
  (void)config::add_rig_channels(universe, rig.vehicle);
  std::vector<config::FaultSpec> all = rig.faults;
  config::ConfigErrors more = config::check_faults(s.faults(), universe, out.marker_channels,
                                                   rig.can, "faults", sources, all);
  errors.insert(errors.end(), std::make_move_iterator(more.begin()),
                std::make_move_iterator(more.end()));
  out.faults.assign(
      std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(rig.faults.size())),
      std::make_move_iterator(all.end()));
}

void convert_controller(const Scenario::Controller& c, const Checker& check, ControllerSpec& out) {
  const auto gain = [&](const char* name, bool has, double value, std::optional<double>& to) {
    if (has && check.non_negative(fmt::format("controller.{}", name), value)) to = value;
  };
  gain("kp", c.has_kp(), c.kp(), out.kp);
  gain("ki", c.has_ki(), c.ki(), out.ki);
  gain("kd", c.has_kd(), c.kd(), out.kd);
  gain("speed_gain", c.has_speed_gain(), c.speed_gain(), out.speed_gain);
  gain("pedal_kp", c.has_pedal_kp(), c.pedal_kp(), out.pedal_kp);
  gain("pedal_ki", c.has_pedal_ki(), c.pedal_ki(), out.pedal_ki);
  gain("stanley_k", c.has_stanley_k(), c.stanley_k(), out.stanley_k);
  gain("stanley_k_soft", c.has_stanley_k_soft(), c.stanley_k_soft(), out.stanley_k_soft);
  gain("stanley_k_yaw", c.has_stanley_k_yaw(), c.stanley_k_yaw(), out.stanley_k_yaw);
  gain("stanley_k_ag", c.has_stanley_k_ag(), c.stanley_k_ag(), out.stanley_k_ag);
}

}  // namespace

double vehicle_width_of(const models::VehicleParams& vehicle) noexcept {
  double width = 0.0;
  for (std::size_t a = 0; a < vehicle.axle_count; ++a) {
    width = std::max(width, vehicle.axles[a].track + vehicle.axles[a].tire.width);
  }
  return width;
}

Footprint footprint_of(const models::VehicleParams& vehicle) noexcept {
  const models::AxleParams& front = vehicle.axles[0];
  const models::AxleParams& rear = vehicle.axles[vehicle.axle_count - 1];
  return {.x_front = front.x + 0.5 * front.tire.diameter,
          .x_rear = rear.x - 0.5 * rear.tire.diameter,
          .half_width = 0.5 * vehicle_width_of(vehicle)};
}

ScenarioSpec constant_speed_scenario(const config::RigSpec& rig, double speed, double duration_s) {
  if (!rig.vehicle) throw std::invalid_argument("the rig has no vehicle for a scenario to drive");
  ScenarioSpec out;
  out.name = "constant_speed";
  out.description = fmt::format("straight ahead at {} m/s", speed);
  out.duration_s = duration_s;
  out.footprint = footprint_of(*rig.vehicle);
  out.drive.steps = {{.at_s = 0.0, .speed = speed}};
  out.drive.path = {{.x = 0.0, .y = 0.0}, {.x = std::abs(speed) * duration_s + 100.0, .y = 0.0}};
  return out;
}

void convert_scenario(const Scenario& s, const config::RigSpec& rig,
                      const config::SourceMap& sources, ScenarioSpec& out,
                      config::ConfigErrors& errors) {
  const Checker check(sources, errors);
  if (!rig.vehicle) {
    check.fail("", "the rig has no vehicle; a scenario needs one to drive");
    return;
  }
  out.description = s.description();
  out.rigs.assign(s.rigs().begin(), s.rigs().end());
  if (!out.rigs.empty()) {
    out.rigs_error =
        sources.error("rigs[0]", fmt::format("the scenario is for {}", fmt::join(out.rigs, ", ")));
  }
  const bool timed =
      check.present("duration_s", s.has_duration_s(), "the run's length [s]") &&
      check.in_range("duration_s", s.duration_s(), 0.001, kMaxDuration, "0.001..86400 (s)");
  // Without a valid duration, times are checked against the longest run (one error, not
  // one per time in the file)
  out.duration_s = timed ? s.duration_s() : kMaxDuration;
  const Scenario::StartPose& p = s.start();
  check.finite("start.x", p.x());
  check.finite("start.y", p.y());
  check.finite("start.yaw", p.yaw());
  check.in_range("start.speed", p.speed(), 0.0, 100.0, "0..100 (m/s)");
  out.start = {.x = p.x(), .y = p.y(), .yaw = p.yaw(), .speed = p.speed()};
  out.footprint = footprint_of(*rig.vehicle);
  convert_drive(s.drive(), out.duration_s, rig, check, out);
  convert_events(s, rig, check, out);
  convert_faults(s, rig, sources, errors, out);
  for (int i = 0; i < s.gates_size(); ++i) {
    const std::string at = fmt::format("gates[{}]", i);
    GateCheck gate = convert_gate(s.gates(i), at, out.duration_s, rig, check);
    std::string name =
        s.gates(i).has_name() ? s.gates(i).name() : fmt::format("{} {}", kind_name(gate), i + 1);
    out.gates.push_back({.name = std::move(name), .check = gate});
  }
  convert_controller(s.controller(), check, out.controller);
  convert_objects(s, rig, check, out);
}

}  // namespace hil::config
