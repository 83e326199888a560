#include "config/bus_spec.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <set>

#include "io/bus/bus_exchange.hpp"

namespace hil::config {

namespace {

bool lower_snake(std::string_view s) {
  if (s.empty() || s.front() < 'a' || s.front() > 'z') return false;
  for (const char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

io::bus::RegionSpec to_spec(const BusRegion& r) {
  io::bus::RegionSpec spec{.name = r.name(),
                           .direction = r.direction() == BusRegion::OUTPUT
                                            ? io::bus::RegionDirection::output
                                            : io::bus::RegionDirection::input,
                           .writer = r.writer(),
                           .channels = {r.channels().begin(), r.channels().end()},
                           .timeout_ticks = r.timeout_ticks(),
                           .hold_ticks = r.on_timeout().hold_ticks(),
                           .every_ticks = r.has_every_ticks() ? r.every_ticks() : 1};
  for (const ChannelValue& v : r.on_timeout().set()) spec.safe.emplace_back(v.channel(), v.value());
  for (const BusRange& range : r.ranges()) {
    spec.ranges.push_back({.channel = range.channel(),
                           .min = range.min(),
                           .max = range.max(),
                           .clamp = range.mode() == BusRange::CLAMP});
  }
  return spec;
}

/// Channel → "can.buses[i].rx[j]" for every channel a CAN bus writes (signals, safe values).
std::map<std::string, std::string> can_fed(const std::vector<io::can::CanBusSpec>& can) {
  std::map<std::string, std::string> fed;
  for (std::size_t b = 0; b < can.size(); ++b) {
    for (std::size_t m = 0; m < can[b].rx.size(); ++m) {
      const std::string where =
          fmt::format("CAN bus \"{}\" (message {})", can[b].name, can[b].rx[m].message);
      for (const auto& s : can[b].rx[m].signals) fed.emplace(s.channel, where);
    }
  }
  return fed;
}

void check_mirror(const BusMirror& m, const io::bus::BusSpec& bus, const std::string& at,
                  const SourceMap& sources, ConfigErrors& errors, io::bus::MirrorSpec& out) {
  if (m.has_bind()) out.bind = m.bind();
  if (m.has_key_id()) {
    if (m.key_id() > 255) {
      errors.push_back(sources.error(at + ".key_id", fmt::format("{} is not 0..255", m.key_id())));
    }
    out.key_id = static_cast<std::uint8_t>(m.key_id());
  }
  if (m.has_send_repeat()) {
    if (m.send_repeat() < 1 || m.send_repeat() > 4) {
      errors.push_back(
          sources.error(at + ".send_repeat", fmt::format("{} is not 1..4", m.send_repeat())));
    }
    out.send_repeat = m.send_repeat();
  }
  if (m.has_receive_budget()) {
    if (m.receive_budget() < 1 || m.receive_budget() > 100'000) {
      errors.push_back(sources.error(at + ".receive_budget",
                                     fmt::format("{} is not 1..100000", m.receive_budget())));
    }
    out.receive_budget = m.receive_budget();
  }
  if (m.has_tag()) {
    if (m.tag() == "hmac_sha256" || m.tag() == "blake2b") {
      out.tag = m.tag() == "blake2b" ? 2 : 1;
    } else {
      errors.push_back(
          sources.error(at + ".tag", fmt::format("\"{}\" is not hmac_sha256 or blake2b", m.tag())));
    }
  }
  if (!m.has_key_file()) {
    errors.push_back(sources.error(
        at, "no key_file: the mirror signs every datagram (hilsim bus keygen FILE makes one)"));
  } else {
    std::filesystem::path key(m.key_file());
    if (key.is_relative()) {
      key = std::filesystem::path(sources.locate(at + ".key_file").file).parent_path() / key;
    }
    out.key_file = key.lexically_normal().string();
  }
  std::map<std::string, std::string> received;  // region → peer field
  for (int p = 0; p < m.peers_size(); ++p) {
    const BusMirrorPeer& peer = m.peers(p);
    const std::string pat = fmt::format("{}.peers[{}]", at, p);
    if (peer.address().empty()) errors.push_back(sources.error(pat, "no address (host:port)"));
    io::bus::MirrorPeerSpec spec{.address = peer.address()};
    auto region_of = [&](const std::string& name,
                         const std::string& field) -> const io::bus::RegionSpec* {
      for (const io::bus::RegionSpec& r : bus.regions) {
        if (r.name == name) return &r;
      }
      errors.push_back(sources.error(field, fmt::format("no region \"{}\" in this bus", name)));
      return nullptr;
    };
    for (int i = 0; i < peer.send_size(); ++i) {
      if (region_of(peer.send(i), fmt::format("{}.send[{}]", pat, i)) != nullptr) {
        spec.send.push_back(peer.send(i));
      }
    }
    for (int i = 0; i < peer.receive_size(); ++i) {
      const std::string field = fmt::format("{}.receive[{}]", pat, i);
      const io::bus::RegionSpec* r = region_of(peer.receive(i), field);
      if (r == nullptr) continue;
      if (r->direction != io::bus::RegionDirection::input) {
        errors.push_back(sources.error(
            field,
            fmt::format("region \"{}\" is an OUTPUT: hilsim writes it, a peer cannot", r->name)));
      }
      const auto [it, fresh] = received.emplace(r->name, field);
      if (!fresh) {
        errors.push_back(sources.error(
            field, fmt::format("region \"{}\" is already received at {}: one writer per region",
                               r->name, it->second)));
      }
      if (std::find(spec.send.begin(), spec.send.end(), r->name) != spec.send.end()) {
        errors.push_back(sources.error(
            field,
            fmt::format("region \"{}\" is both sent to and received from this peer", r->name)));
      }
      spec.receive.push_back(r->name);
    }
    out.peers.push_back(std::move(spec));
  }
}

}  // namespace

ConfigErrors check_bus(const Bus& bus, const rt::ChannelTable& table,
                       const std::vector<io::can::CanBusSpec>& can, std::string_view prefix,
                       const SourceMap& sources, std::optional<io::bus::BusSpec>& out) {
  ConfigErrors errors;
  out.reset();
  if (bus.regions_size() == 0) {
    if (bus.has_mirror()) {
      errors.push_back(sources.error(std::string(prefix) + ".mirror", "a mirror without regions"));
    }
    return errors;
  }
  io::bus::BusSpec spec{.name = bus.name()};
  if (bus.has_name() && !lower_snake(bus.name())) {
    errors.push_back(sources.error(std::string(prefix) + ".name",
                                   fmt::format("\"{}\" is not lower snake case", bus.name())));
  }
  const std::map<std::string, std::string> fed = can_fed(can);
  std::set<std::string> names;
  for (int i = 0; i < bus.regions_size(); ++i) {
    const BusRegion& r = bus.regions(i);
    const std::string at = fmt::format("{}.regions[{}]", prefix, i);
    if (!lower_snake(r.name())) {
      errors.push_back(sources.error(
          at + ".name", fmt::format("\"{}\": expected a lower snake case name", r.name())));
    } else if (!names.insert(r.name()).second) {
      errors.push_back(
          sources.error(at + ".name", fmt::format("region \"{}\" is defined twice", r.name())));
    }
    if (r.direction() == BusRegion::DIRECTION_UNSPECIFIED) {
      errors.push_back(sources.error(at, "no direction; expected direction: INPUT or OUTPUT"));
    }
    if (r.direction() == BusRegion::INPUT) {
      if (!lower_snake(r.writer()) || r.writer() == io::bus::kHilsimRole) {
        errors.push_back(sources.error(
            r.has_writer() ? at + ".writer" : at,
            r.has_writer()
                ? fmt::format("writer \"{}\": expected a lower snake case role other "
                              "than \"hilsim\"",
                              r.writer())
                : std::string("an INPUT region needs its writer role: writer: \"...\"")));
      }
      for (int c = 0; c < r.channels_size(); ++c) {
        const auto it = fed.find(r.channels(c));
        if (it != fed.end()) {
          errors.push_back(sources.error(
              fmt::format("{}.channels[{}]", at, c),
              fmt::format("{} is fed by {}: a channel has one source (remove it from the CAN "
                          "mapping or from this region)",
                          r.channels(c), it->second)));
        }
      }
    } else if (r.direction() == BusRegion::OUTPUT) {
      for (const char* field : {"writer", "timeout_ticks", "on_timeout", "ranges"}) {
        const bool set = (std::string_view(field) == "writer" && r.has_writer()) ||
                         (std::string_view(field) == "timeout_ticks" && r.has_timeout_ticks()) ||
                         (std::string_view(field) == "on_timeout" && r.has_on_timeout()) ||
                         (std::string_view(field) == "ranges" && r.ranges_size() > 0);
        if (set) {
          errors.push_back(sources.error(
              fmt::format("{}.{}", at, field),
              fmt::format("{} is for INPUT regions; hilsim writes an OUTPUT region", field)));
        }
      }
    }
    if (r.has_every_ticks() && r.every_ticks() == 0) {
      errors.push_back(sources.error(at + ".every_ticks", "0; expected 1 or more"));
    }
    spec.regions.push_back(to_spec(r));
  }
  // Channel names, directions and ranges: what the task itself refuses, located here
  rt::ChannelTable scratch;
  for (const rt::ChannelSpec& c : table.specs()) (void)scratch.add(c);
  std::vector<io::bus::BusProblem> problems;
  (void)io::bus::BusExchange::create(spec, scratch, problems);
  for (const io::bus::BusProblem& p : problems) {
    errors.push_back(sources.error(fmt::format("{}.{}", prefix, p.field), p.message));
  }
  if (bus.has_mirror()) {
    io::bus::MirrorSpec mirror;
    check_mirror(bus.mirror(), spec, std::string(prefix) + ".mirror", sources, errors, mirror);
    spec.mirror = std::move(mirror);
  }
  if (errors.empty()) out = std::move(spec);
  return errors;
}

}  // namespace hil::config
