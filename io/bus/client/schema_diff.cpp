#include "io/bus/client/schema_diff.hpp"

#include <algorithm>

namespace hil::io::bus {

namespace {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string channel_text(const ChannelSchema& c) { return quoted(c.name) + " [" + c.unit + "]"; }

const char* direction_text(RegionDirection d) {
  return d == RegionDirection::input ? "input" : "output";
}

}  // namespace

std::string first_difference(const BusSchema& expected, const BusSchema& actual) {
  const std::size_t regions = std::max(expected.regions.size(), actual.regions.size());
  for (std::size_t i = 0; i < regions; ++i) {
    if (i >= actual.regions.size()) {
      return "region " + quoted(expected.regions[i].name) + " is missing from the rig's bus";
    }
    if (i >= expected.regions.size()) {
      return "the rig's bus has an extra region " + quoted(actual.regions[i].name);
    }
    const RegionSchema& e = expected.regions[i];
    const RegionSchema& a = actual.regions[i];
    if (e.name != a.name) {
      return "region " + std::to_string(i) + ": expected " + quoted(e.name) + ", the rig has " +
             quoted(a.name);
    }
    const std::string where = "region " + quoted(e.name);
    if (e.direction != a.direction || e.writer != a.writer) {
      return where + ": expected an " + direction_text(e.direction) + " written by " +
             quoted(e.writer) + ", the rig has an " + direction_text(a.direction) + " written by " +
             quoted(a.writer);
    }
    const std::size_t channels = std::max(e.channels.size(), a.channels.size());
    for (std::size_t c = 0; c < channels; ++c) {
      const std::string at = where + " channel " + std::to_string(c) + ": ";
      if (c >= a.channels.size()) {
        return at + "expected " + channel_text(e.channels[c]) + ", the rig has none";
      }
      if (c >= e.channels.size()) {
        return at + "the rig has an extra channel " + channel_text(a.channels[c]);
      }
      if (e.channels[c].name != a.channels[c].name || e.channels[c].unit != a.channels[c].unit) {
        return at + "expected " + channel_text(e.channels[c]) + ", the rig has " +
               channel_text(a.channels[c]);
      }
    }
  }
  return "no region or channel differs";
}

}  // namespace hil::io::bus
