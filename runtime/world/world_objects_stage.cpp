#include "runtime/world/world_objects_stage.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "rt_core/channel_condition.hpp"

namespace hil::runtime {

namespace {

/// One object's channels, world.<name>.*.
struct ObjectChannels {
  rt::ChannelId x, y, z, yaw, speed, moving;
};

ObjectChannels add_channels(rt::ChannelTable& table, const models::WorldObject& o) {
  const auto add = [&](const char* what, const char* unit, std::string description) {
    return table.add({.name = fmt::format("world.{}.{}", o.name, what),
                      .unit = unit,
                      .direction = rt::Direction::output,
                      .description = std::move(description)});
  };
  return {.x = add("x", "m", "base centre, world x (east)"),
          .y = add("y", "m", "base centre, world y (north)"),
          .z = add("z", "m", "base height: the terrain under the object"),
          .yaw = add("yaw", "rad", "heading from world x"),
          .speed = add("speed", "m/s", "speed along its path"),
          .moving = add("moving", "-", "1 while on its way along its path, else 0")};
}

}  // namespace

struct WorldObjectsStage::Impl {
  struct Entry {
    models::MovingObjectSpec spec;
    models::ObjectMotion motion;
    ObjectChannels channels;
    bool has_channels = true;  // the course's cones have none: fixed, they are the course's
    std::optional<rt::ChannelCondition> condition;  // bind(): start_when resolved
    std::int64_t start_tick = -1;                   // the tick it started at; -1: not yet
  };
  const models::Terrain& terrain;
  rt::ChannelTable& table;
  double period_s;
  std::vector<Entry> entries;
  std::vector<models::WorldObject> objects;
  std::vector<models::ObjectState> states;

  Impl(const models::Terrain& t, rt::ChannelTable& tab, double p)
      : terrain(t), table(tab), period_s(p) {}

  /// The state of entry i at `tick` (its start resolved first).
  void update(Entry& e, models::ObjectState& s, std::int64_t tick) noexcept {
    if (e.spec.path.empty()) return;  // static: placed once
    if (e.start_tick < 0) {
      if (e.condition) {
        if (e.condition->holds(table.values())) e.start_tick = tick;
      } else if (static_cast<double>(tick) * period_s >= e.spec.start_s) {
        e.start_tick = tick;
      }
    }
    // Time since the start: since the tick its condition held, or since start_s exactly
    double t = -1.0;
    if (e.start_tick >= 0) {
      t = e.condition ? static_cast<double>(tick - e.start_tick) * period_s
                      : static_cast<double>(tick) * period_s - e.spec.start_s;
    }
    s = e.motion.at(t);
    s.z = terrain.height(s.x, s.y);
  }

  void write(const Entry& e, const models::ObjectState& s) noexcept {
    if (!e.has_channels) return;
    table.set(e.channels.x, s.x);
    table.set(e.channels.y, s.y);
    table.set(e.channels.z, s.z);
    table.set(e.channels.yaw, s.yaw);
    table.set(e.channels.speed, std::hypot(s.vx, s.vy));
    table.set(e.channels.moving, s.moving ? 1.0 : 0.0);
  }
};

WorldObjectsStage::WorldObjectsStage(std::vector<models::MovingObjectSpec> objects,
                                     const models::Terrain& terrain, rt::ChannelTable& table,
                                     double period_s)
    : impl_(std::make_unique<Impl>(terrain, table, period_s)) {
  if (!(period_s > 0.0)) throw std::invalid_argument("world objects: the period must be > 0");
  impl_->entries.reserve(objects.size());
  for (models::MovingObjectSpec& o : objects) {
    models::ObjectMotion motion(o);  // throws for a bad path, naming the object
    const bool has_channels = !o.course_cone;
    const ObjectChannels channels = has_channels ? add_channels(table, o.object) : ObjectChannels{};
    impl_->objects.push_back(o.object);
    impl_->entries.push_back({.spec = std::move(o),
                              .motion = std::move(motion),
                              .channels = channels,
                              .has_channels = has_channels});
  }
  impl_->states.resize(impl_->entries.size());
  for (std::size_t i = 0; i < impl_->entries.size(); ++i) {
    models::ObjectState& s = impl_->states[i];
    s = impl_->entries[i].motion.at(-1.0);  // at its start, not started
    s.z = terrain.height(s.x, s.y);
  }
}

WorldObjectsStage::~WorldObjectsStage() = default;

void WorldObjectsStage::bind(const rt::ChannelTable& table) {
  for (Impl::Entry& e : impl_->entries) {
    if (e.spec.start_when.empty()) continue;
    std::string error;
    const std::optional<rt::ConditionText> text = rt::parse_condition(e.spec.start_when, error);
    if (!text) {
      throw std::invalid_argument(fmt::format("object {}: start_when \"{}\": {}",
                                              e.spec.object.name, e.spec.start_when, error));
    }
    const std::optional<rt::ChannelId> id = table.find(text->channel);
    if (!id) {
      throw std::invalid_argument(fmt::format("object {}: start_when: no channel \"{}\"",
                                              e.spec.object.name, text->channel));
    }
    e.condition =
        rt::ChannelCondition{.channel = *id, .op = text->op, .threshold = text->threshold};
  }
  // The channels hold the start states before the first tick runs
  for (std::size_t i = 0; i < impl_->entries.size(); ++i)
    impl_->write(impl_->entries[i], impl_->states[i]);
}

void WorldObjectsStage::run(const rt::TickContext& c) noexcept {
  for (std::size_t i = 0; i < impl_->entries.size(); ++i) {
    impl_->update(impl_->entries[i], impl_->states[i], c.tick);
    impl_->write(impl_->entries[i], impl_->states[i]);
  }
}

std::span<const models::WorldObject> WorldObjectsStage::objects() const noexcept {
  return impl_->objects;
}

std::span<const models::ObjectState> WorldObjectsStage::states() const noexcept {
  return impl_->states;
}

}  // namespace hil::runtime
