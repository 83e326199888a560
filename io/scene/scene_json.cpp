#include "io/scene/scene_json.hpp"

#include <cmath>

namespace hil::io::scene {

namespace {

using nlohmann::json;

/// `v` to 1/`per_unit` (the nearest double to that decimal: it prints short).
double rounded(double v, double per_unit) { return std::round(v * per_unit) / per_unit; }

json numbers(const std::vector<double>& values, double per_unit) {
  json out = json::array();
  out.get_ref<json::array_t&>().reserve(values.size());
  for (const double v : values) out.push_back(rounded(v, per_unit));
  return out;
}

json points(const std::vector<ScenePoint>& points) {
  json out = json::array();
  for (const ScenePoint& p : points) out.push_back({p.x, p.y});
  return out;
}

json vehicle_json(const SceneVehicle& v) {
  json wheels = json::array();
  for (const SceneWheel& w : v.wheels) {
    wheels.push_back({{"name", w.name},
                      {"x", w.x},
                      {"y", w.y},
                      {"z", w.z},
                      {"radius", w.radius},
                      {"width", w.width},
                      {"steered", w.steered}});
  }
  return {{"wheelbase", v.wheelbase},
          {"track", v.track},
          {"body",
           {{"length", v.body.length},
            {"width", v.body.width},
            {"height", v.body.height},
            {"z", v.body.z}}},
          {"wheels", std::move(wheels)}};
}

json terrain_json(const TerrainMesh& t) {
  json surfaces = json::array();
  for (const SceneSurface& s : t.surfaces) {
    surfaces.push_back({{"name", s.name}, {"color", s.color}});
  }
  return {{"vertices", numbers(t.vertices, 1000.0)},
          {"colors", numbers(t.colors, 1000.0)},
          {"indices", t.indices},
          {"surfaces", std::move(surfaces)}};
}

json channels_json(const Scene& s) {
  const SceneChannels& c = s.channels;
  json wheels = json::array();
  for (std::size_t w = 0; w < c.wheels.size() && w < s.vehicle.wheels.size(); ++w) {
    const SceneWheelChannels& x = c.wheels[w];
    wheels.push_back({{"name", s.vehicle.wheels[w].name},
                      {"spin", x.spin},
                      {"steer", x.steer},
                      {"travel", x.travel},
                      {"fx", x.fx},
                      {"fy", x.fy},
                      {"fz", x.fz}});
  }
  return {{"x", c.x},
          {"y", c.y},
          {"z", c.z},
          {"roll", c.roll},
          {"pitch", c.pitch},
          {"yaw", c.yaw},
          {"wheels", std::move(wheels)}};
}

json objects_json(const std::vector<SceneObject>& objects) {
  json out = json::array();
  for (const SceneObject& o : objects) {
    const char* shape = o.shape == SceneObject::Shape::box        ? "box"
                        : o.shape == SceneObject::Shape::cylinder ? "cylinder"
                                                                  : "cone";
    json channels = nullptr;  // a static object stays where it starts
    if (o.moving) {
      channels = {{"x", object_channel(o, "x")},
                  {"y", object_channel(o, "y")},
                  {"z", object_channel(o, "z")},
                  {"yaw", object_channel(o, "yaw")}};
    }
    out.push_back({{"name", o.name},
                   {"shape", shape},
                   {"kind", o.kind},
                   {"length", o.length},
                   {"width", o.width},
                   {"height", o.height},
                   {"x", o.x},
                   {"y", o.y},
                   {"z", o.z},
                   {"yaw", o.yaw},
                   {"color", o.color},
                   {"channels", std::move(channels)}});
  }
  return out;
}

}  // namespace

json scene_json(const Scene& scene) {
  return {{"vehicle", vehicle_json(scene.vehicle)}, {"terrain", terrain_json(scene.terrain)},
          {"cones", points(scene.cones)},           {"path", points(scene.path)},
          {"objects", objects_json(scene.objects)}, {"channels", channels_json(scene)}};
}

}  // namespace hil::io::scene
