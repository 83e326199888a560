#include "tools/cli/tire_curve_command.hpp"

#include <fmt/format.h>

#include <numbers>
#include <optional>
#include <vector>

#include "models/tire/tire.hpp"
#include "models/tire/vti.hpp"
#include "tools/cli/sweep_range.hpp"

namespace hil::cli {

namespace {

constexpr std::size_t kMaxPointsPerAxis = 100'000;
constexpr std::size_t kMaxRows = 1'000'000;

struct TireCurveSpec {
  std::string surface;
  double load_n = 0.0;
  std::optional<double> deflection_m;
  std::optional<double> cone_index_kpa;
  std::vector<double> tire;  // width, diameter, section height [m]
  std::string slip;
  std::string slip_angle;
};

models::TireParams tire_params(const TireCurveSpec& o) {
  models::TireParams p;
  if (!o.tire.empty()) {
    p.width = o.tire[0];
    p.diameter = o.tire[1];
    p.section_height = o.tire[2];
  }
  return p;
}

void run_tire_curve(const TireCurveSpec& o) {
  const models::Surface surface = models::parse_surface(o.surface).value();  // IsMember checked
  if (models::is_soil(surface) && !o.cone_index_kpa) {
    throw CLI::ValidationError("--cone-index",
                               fmt::format("--surface {} needs the soil strength: --cone-index "
                                           "kPa (e.g. 600 for firm sand)",
                                           o.surface));
  }
  const models::TireParams p = tire_params(o);
  // Default deflection: what the tire's vertical stiffness gives under the load (Step 2).
  const double delta = o.deflection_m.value_or(o.load_n / p.vertical_stiffness);
  const models::SurfaceProperties props{.type = surface,
                                        .cone_index_pa = o.cone_index_kpa.value_or(0.0) * 1e3};
  const models::VtiCurve curve = models::make_vti_curve(p, props, o.load_n, delta);

  const SweepRange zero{.from = 0.0, .to = 0.0, .step = 1.0};
  const SweepRange slips =
      o.slip.empty() ? zero : parse_sweep_range("--slip", o.slip, -1.0, 1.0, kMaxPointsPerAxis);
  const double half_pi = std::numbers::pi / 2;
  const SweepRange angles =
      o.slip_angle.empty()
          ? zero
          : parse_sweep_range("--slip-angle", o.slip_angle, -half_pi, half_pi, kMaxPointsPerAxis);
  if (slips.count() * angles.count() > kMaxRows) {
    throw CLI::ValidationError("--slip-angle",
                               fmt::format("the --slip × --slip-angle grid has {} points, more "
                                           "than {}; use larger steps",
                                           slips.count() * angles.count(), kMaxRows));
  }
  std::string csv = "slip,slip_angle_rad,fx_n,fy_n\n";
  for (std::size_t i = 0; i < slips.count(); ++i) {
    for (std::size_t j = 0; j < angles.count(); ++j) {
      const double s = slips.at(i);
      const double alpha = angles.at(j);
      const models::WheelForce F = models::steady_state_forces(curve, o.load_n, s, alpha);
      csv += fmt::format("{},{},{},{}\n", s, alpha, F.x, F.y);  // shortest round-trip digits
    }
    std::fputs(csv.c_str(), stdout);
    csv.clear();
  }
}

}  // namespace

void add_tire_curve_command(CLI::App& app) {
  auto o = std::make_shared<TireCurveSpec>();
  CLI::App* cmd = app.add_subcommand(
      "tire-curve", "Print the steady-state tire/terrain force curves (VTI) of one tire as CSV");
  cmd->footer(
      "Prints CSV: slip,slip_angle_rad,fx_n,fy_n (wheel frame, x forward, y left, forward "
      "travel).\n"
      "Only --slip: pure longitudinal. Only --slip-angle: pure lateral at slip 0. Both: the "
      "grid,\ncombined by the friction ellipse. Slip is + when driving; + slip angle = sliding "
      "left.\n"
      "\n"
      "Examples:\n"
      "  hilsim tire-curve --surface dry --load 4000 --slip -1:1:0.01\n"
      "  hilsim tire-curve --surface ice --load 4000 --slip-angle -0.5:0.5:0.01\n"
      "  hilsim tire-curve --surface sand --cone-index 600 --load 5000 --deflection 0.02 "
      "--slip 0:1:0.01\n"
      "  hilsim tire-curve --surface clay --cone-index 500 --load 5000 --tire 0.3,0.8,0.18 "
      "--slip 0:1:0.05 --slip-angle 0:0.3:0.1\n"
      "\nModel and rulings: docs/models.md, section Tire / VTI.\n");
  cmd->add_option("--surface", o->surface, "dry, wet, snow, ice, sand or clay")
      ->required()
      ->check(CLI::IsMember({"dry", "wet", "snow", "ice", "sand", "clay"}));
  cmd->add_option("--load", o->load_n, "Normal force N on the tire [N]")
      ->required()
      ->check(CLI::Range(1e-6, 1e7));
  cmd->add_option("--deflection", o->deflection_m,
                  "Tire deflection δ [m] (default: load / vertical stiffness 4e5 N/m)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--cone-index", o->cone_index_kpa, "Soil cone index [kPa]; sand and clay")
      ->check(CLI::Range(1.0, 1e5));
  cmd->add_option("--tire", o->tire,
                  "width,diameter,section_height [m] (default 0.318,0.94,0.20: HMMWV)")
      ->delimiter(',')
      ->expected(3)
      ->check(CLI::Range(0.01, 5.0));
  cmd->add_option("--slip", o->slip, "Slip sweep FROM:TO:STEP within [-1, 1]");
  cmd->add_option("--slip-angle", o->slip_angle,
                  "Slip angle sweep FROM:TO:STEP [rad] within [-pi/2, pi/2]");
  cmd->callback([o] {
    if (o->slip.empty() && o->slip_angle.empty()) {
      throw CLI::RequiredError("--slip or --slip-angle (or both)");
    }
    run_tire_curve(*o);
  });
}

}  // namespace hil::cli
