#include "tools/session/bus/bus_tools.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <fstream>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "config/rig/loader.hpp"
#include "config/rig/rig_locator.hpp"
#include "io/bus/bus_image.hpp"
#include "io/bus/client/bus_client.hpp"
#include "io/bus/endpoint.hpp"
#include "io/bus/live_bus.hpp"
#include "io/bus/mirror/mirror.hpp"
#include "io/bus/mirror/mirror_health.hpp"
#include "io/bus/mirror/mirror_key.hpp"
#include "rt_core/time.hpp"
#include "runtime/rig.hpp"
#include "tools/session/bus/stop_signals.hpp"
#include "tools/session/config_errors.hpp"

namespace hil::session {

namespace bus = io::bus;
using bus_signals::StopSignals;

namespace {

/// The endpoint of --rig NAME, or of the only bus running; nullopt after saying why.
std::optional<std::filesystem::path> find_endpoint(const BusTarget& t) {
  if (!t.rig.empty()) {
    const std::filesystem::path p = t.rig.find('/') != std::string::npos
                                        ? std::filesystem::path(t.rig)
                                        : bus::endpoint_for(t.rig);
    return p;
  }
  const std::vector<std::filesystem::path> running = bus::running_endpoints();
  if (running.size() == 1) return running.front();
  if (running.empty()) {
    fmt::print(stderr,
               "no rig with a bus is running (looked in {}); start one, e.g. hilsim run --rig "
               "ravon --overlay hil_rigs/ravon/cosim.pbtxt --scenario none\n",
               bus::runtime_directory().string());
  } else {
    fmt::print(stderr, "{} rigs with a bus are running; name one with --rig:", running.size());
    for (const auto& p : running) fmt::print(stderr, " {}", p.stem().string());
    fmt::print(stderr, "\n");
  }
  return std::nullopt;
}

std::unique_ptr<bus::BusClient> attach(const BusTarget& t, const std::string& role = {}) {
  const std::optional<std::filesystem::path> endpoint = find_endpoint(t);
  if (!endpoint) return nullptr;
  bus::BusStatus status = bus::BusStatus::ok;
  std::string why;
  auto client = bus::BusClient::attach(
      *endpoint, {.role = role, .client_name = role.empty() ? "hilsim bus" : "hilsim bus write"},
      status, why);
  if (!client) fmt::print(stderr, "{}: {} ({})\n", endpoint->string(), why, bus::to_string(status));
  return client;
}

int region_of(const bus::BusClient& client, const std::string& name) {
  const int id = client.find_region(name);
  if (id < 0) {
    std::string names;
    for (const bus::RegionInfo& r : client.regions()) names += " " + r.name;
    fmt::print(stderr, "no region \"{}\" in bus {}; it has:{}\n", name, client.bus_name(), names);
  }
  return id;
}

/// The rig's mirror health (<endpoint>.mirror.json, written once a second), or null.
nlohmann::json mirror_health(const std::filesystem::path& endpoint) {
  std::ifstream in(bus::mirror::mirror_health_file(endpoint));
  if (!in) return nullptr;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  return j.is_discarded() ? nlohmann::json(nullptr) : j;
}

double age_ms(std::uint64_t then_ns) {
  const std::uint64_t now = bus::monotonic_ns();
  return then_ns == 0 || then_ns > now ? 0.0 : static_cast<double>(now - then_ns) / 1e6;
}

nlohmann::json snapshot_json(const bus::RegionInfo& r, const bus::RegionSnapshot& s) {
  nlohmann::json values = nlohmann::json::object();
  for (std::size_t i = 0; i < r.channels.size(); ++i) values[r.channels[i].name] = s.values[i];
  return {{"region", r.name},        {"region_seq", s.head.region_seq},
          {"tick", s.head.tick},     {"session", fmt::format("{:016x}", s.head.session_id)},
          {"status", s.head.status}, {"age_ms", age_ms(s.head.publish_mono_ns)},
          {"values", values}};
}

void print_snapshot(const bus::RegionInfo& r, const bus::RegionSnapshot& s, bool json) {
  if (json) {
    fmt::print("{}\n", snapshot_json(r, s).dump());
    return;
  }
  fmt::print("{} seq {} tick {} age {:.1f} ms{}\n", r.name, s.head.region_seq, s.head.tick,
             age_ms(s.head.publish_mono_ns),
             s.head.status == static_cast<std::uint64_t>(bus::SlotStatus::safe_state)
                 ? "  (writer asks for the safe values)"
                 : "");
  for (std::size_t i = 0; i < r.channels.size(); ++i) {
    fmt::print("  {:<40} {:>14.6g} {}\n", r.channels[i].name, s.values[i], r.channels[i].unit);
  }
}

}  // namespace

int bus_ls(const BusLsSpec& o) {
  std::vector<std::filesystem::path> endpoints;
  if (!o.target.rig.empty()) {
    endpoints.push_back(*find_endpoint(o.target));
  } else {
    endpoints = bus::running_endpoints();
    if (endpoints.empty()) {
      fmt::print(stderr, "no rig with a bus is running (looked in {})\n",
                 bus::runtime_directory().string());
      return 1;
    }
  }
  nlohmann::json all = nlohmann::json::array();
  int code = 0;
  for (const std::filesystem::path& endpoint : endpoints) {
    auto client = attach({.rig = endpoint.string()});
    if (!client) {
      code = 1;
      continue;
    }
    // Two looks 200 ms apart give each region's publish rate
    std::vector<bus::RegionSnapshot> first(client->regions().size());
    for (std::uint32_t i = 0; i < first.size(); ++i) (void)client->read(i, first[i]);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    nlohmann::json regions = nlohmann::json::array();
    if (!o.json) {
      fmt::print("bus {} at {}: tick {}, owner heartbeat {:.1f} ms ago\n", client->bus_name(),
                 endpoint.string(), client->owner_tick(),
                 age_ms(client->owner_heartbeat_mono_ns()));
      fmt::print("  {:<12} {:<4} {:<12} {:>8} {:>9} {:>10} {:>10} {:>10}\n", "region", "dir",
                 "writer", "pid", "channels", "seq", "rate Hz", "age ms");
    }
    for (std::uint32_t i = 0; i < first.size(); ++i) {
      const bus::RegionInfo& r = client->regions()[i];
      bus::RegionSnapshot now;
      (void)client->read(i, now);
      const bool same_session = now.head.session_id == first[i].head.session_id;
      const double rate =
          same_session ? static_cast<double>(now.head.region_seq - first[i].head.region_seq) / 0.2
                       : 0.0;
      const std::uint64_t pid = client->writer_pid(i);
      const bool out = r.direction == bus::RegionDirection::output;
      const std::string writer = out ? "hilsim" : r.writer;
      if (o.json) {
        regions.push_back({{"region", r.name},
                           {"direction", out ? "out" : "in"},
                           {"writer", writer},
                           {"writer_pid", pid},
                           {"channels", r.channels.size()},
                           {"region_seq", now.head.region_seq},
                           {"rate_hz", rate},
                           {"age_ms", now.head.region_seq == 0
                                          ? nullptr
                                          : nlohmann::json(age_ms(now.head.publish_mono_ns))},
                           {"timeout_ticks", r.timeout_ticks}});
        continue;
      }
      fmt::print("  {:<12} {:<4} {:<12} {:>8} {:>9} {:>10} {:>10.0f} {:>10}\n", r.name,
                 out ? "out" : "in", writer,
                 out        ? "-"
                 : pid == 0 ? "none"
                            : std::to_string(pid),
                 r.channels.size(), now.head.region_seq, rate,
                 now.head.region_seq == 0
                     ? std::string("never")
                     : fmt::format("{:.1f}", age_ms(now.head.publish_mono_ns)));
    }
    const nlohmann::json health = mirror_health(endpoint);
    if (o.json) {
      all.push_back({{"bus", client->bus_name()},
                     {"endpoint", endpoint.string()},
                     {"owner_tick", client->owner_tick()},
                     {"regions", regions},
                     {"mirror", health}});
    } else if (!health.is_null()) {
      try {
        fmt::print("{}", bus::mirror::mirror_health_text(health));
      } catch (const nlohmann::json::exception& e) {  // a file from another version
        fmt::print("  mirror: {} unreadable ({})\n",
                   bus::mirror::mirror_health_file(endpoint).string(), e.what());
      }
    }
  }
  if (o.json) fmt::print("{}\n", all.dump(2));
  return code;
}

int bus_dump(const BusDumpSpec& o) {
  auto client = attach(o.target);
  if (!client) return 1;
  const int id = region_of(*client, o.region);
  if (id < 0) return 2;
  const auto region = static_cast<std::uint32_t>(id);
  const bus::RegionInfo& info = client->regions()[region];
  bus::RegionSnapshot s;
  if (!o.follow) {
    const bus::BusStatus st = client->read(region, s);
    if (st == bus::BusStatus::stale) {
      fmt::print(stderr, "region {} was never published (its writer has not written yet)\n",
                 o.region);
      return 1;
    }
    if (st != bus::BusStatus::ok) {
      fmt::print(stderr, "region {}: {}\n", o.region, bus::to_string(st));
      return 1;
    }
    print_snapshot(info, s, o.json);
    return 0;
  }
  const StopSignals signals;
  std::uint64_t seen = 0, printed = 0;
  // At a display rate (unless --all): the latest snapshot once per period, not every one
  using Clock = std::chrono::steady_clock;
  const auto period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(o.all ? 0.0 : 1.0 / o.rate_hz));
  auto next = Clock::now();
  while (!StopSignals::requested() && (o.count == 0 || printed < o.count)) {
    const bus::BusStatus st = client->wait(region, seen, 200'000);
    if (client->detached()) {
      fmt::print(stderr, "the rig went away\n");
      return 1;
    }
    if (st != bus::BusStatus::ok) continue;
    if (!o.all) {
      // Sleep in short steps so that Ctrl-C is still prompt at a slow rate
      for (auto now = Clock::now(); now < next && !StopSignals::requested(); now = Clock::now()) {
        std::this_thread::sleep_for(
            std::min<Clock::duration>(next - now, std::chrono::milliseconds(50)));
      }
      if (StopSignals::requested()) break;
    }
    if (client->read(region, s) != bus::BusStatus::ok || s.head.region_seq == seen) continue;
    seen = s.head.region_seq;
    print_snapshot(info, s, o.json);
    std::fflush(stdout);
    ++printed;
    next = std::max(next + period, Clock::now());
  }
  return 0;
}

int bus_write(const BusWriteSpec& o) {
  // Attach read-only first to learn the region's writer role, then as that writer
  std::unique_ptr<bus::BusClient> look = attach(o.target);
  if (!look) return 1;
  const int id = region_of(*look, o.region);
  if (id < 0) return 2;
  const auto region = static_cast<std::uint32_t>(id);
  const bus::RegionInfo info = look->regions()[region];
  if (info.direction == bus::RegionDirection::output) {
    fmt::print(stderr, "region {} is an output: hilsim writes it (hilsim bus dump {} reads it)\n",
               info.name, info.name);
    return 2;
  }
  // Values not given keep the region's last published ones (0 before the first)
  std::vector<double> values(info.channels.size(), 0.0);
  bus::RegionSnapshot last;
  if (look->read(region, last) == bus::BusStatus::ok && last.head.region_seq != 0) {
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = last.values[i];
  }
  look.reset();
  for (const std::string& a : o.assignments) {
    const std::size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    std::vector<std::size_t> matches;
    for (std::size_t i = 0; i < info.channels.size(); ++i) {
      const std::string& c = info.channels[i].name;
      if (c == name) {
        matches = {i};
        break;
      }
      if (c.size() > name.size() && c.ends_with(name) && c[c.size() - name.size() - 1] == '.') {
        matches.push_back(i);
      }
    }
    double v = 0.0;
    std::size_t used = 0;
    bool number = eq != std::string::npos;
    try {
      v = number ? std::stod(a.substr(eq + 1), &used) : 0.0;
      number = number && used == a.size() - eq - 1;
    } catch (const std::exception&) {
      number = false;
    }
    if (matches.size() != 1 || !number) {
      std::string names;
      for (const auto& c : info.channels) names += "\n  " + c.name;
      fmt::print(stderr, "'{}': expected CHANNEL=VALUE with {} channel of region {}:{}\n", a,
                 matches.empty() ? "a" : "exactly one", info.name, names);
      return 2;
    }
    values[matches.front()] = v;
  }
  rt::Nanoseconds duration = 0;
  bool forever = false;
  if (o.duration) {
    forever = *o.duration == "inf";
    if (!forever) {
      const auto d = rt::parse_duration(*o.duration);
      if (!d) {
        fmt::print(stderr, "--for {}: expected a duration such as 10s, 500ms or inf\n",
                   *o.duration);
        return 2;
      }
      duration = *d;
    }
  }
  auto client = attach(o.target, info.writer);
  if (!client) return 1;
  const StopSignals signals;
  const auto start = std::chrono::steady_clock::now();
  const auto period = std::chrono::duration<double>(1.0 / std::max(o.rate_hz, 0.1));
  std::int64_t step = 0;
  for (;;) {
    const bus::BusStatus st =
        client->write(region, values.data(), static_cast<std::uint32_t>(values.size()), step);
    if (st != bus::BusStatus::ok) {
      fmt::print(stderr, "region {}: {}\n", info.name, bus::to_string(st));
      return 1;
    }
    ++step;
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (StopSignals::requested() || (!forever && elapsed >= std::chrono::nanoseconds(duration))) {
      break;
    }
    std::this_thread::sleep_until(start + std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              period * static_cast<double>(step)));
  }
  fmt::print("wrote region {} {} time{}\n", info.name, step, step == 1 ? "" : "s");
  return 0;
}

}  // namespace hil::session
