#include "io/bus/bus_schema.hpp"

#include <algorithm>

namespace hil::io::bus {

std::uint64_t fnv1a64(std::string_view text, std::uint64_t h) noexcept {
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

namespace {

std::uint64_t hash_region(const RegionSchema& r, std::uint64_t h) noexcept {
  h = fnv1a64(r.name, h);
  h = fnv1a64(r.direction == RegionDirection::input ? "|input|" : "|output|", h);
  h = fnv1a64(r.writer, h);
  h = fnv1a64("\n", h);
  for (const ChannelSchema& c : r.channels) {
    h = fnv1a64(c.name, h);
    h = fnv1a64("|", h);
    h = fnv1a64(c.unit, h);
    h = fnv1a64("\n", h);
  }
  return h;
}

}  // namespace

std::uint64_t BusSchema::hash() const noexcept {
  std::uint64_t h = fnv1a64("hilsim-bus-1\n");
  for (const RegionSchema& r : regions) h = hash_region(r, h);
  return h;
}

std::uint64_t BusSchema::region_hash(std::size_t i) const noexcept {
  return hash_region(regions.at(i), fnv1a64("hilsim-region-1\n"));
}

int BusSchema::find_region(std::string_view region) const noexcept {
  for (std::size_t i = 0; i < regions.size(); ++i) {
    if (regions[i].name == region) return static_cast<int>(i);
  }
  return -1;
}

std::vector<std::string> BusSchema::input_roles() const {
  std::vector<std::string> roles;
  for (const RegionSchema& r : regions) {
    if (r.direction == RegionDirection::input &&
        std::find(roles.begin(), roles.end(), r.writer) == roles.end()) {
      roles.push_back(r.writer);
    }
  }
  return roles;
}

}  // namespace hil::io::bus
