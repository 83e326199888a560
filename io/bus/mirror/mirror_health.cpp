#include "io/bus/mirror/mirror_health.hpp"

#include <fmt/format.h>

#include <fstream>
#include <system_error>

namespace hil::io::bus::mirror {

namespace {

std::uint64_t get(const Counter& c) { return c.load(std::memory_order_relaxed); }

/// Counts every ReceiveCounters has (the totals and each peer).
nlohmann::json receive_json(const ReceiveCounters& c, std::uint64_t rx, std::uint64_t over_budget) {
  return {{"rx", rx},
          {"applied", get(c.applied)},
          {"lost", get(c.lost)},
          {"duplicates", get(c.duplicates)},
          {"reordered", get(c.reordered)},
          {"tick_regression", get(c.tick_regression)},
          {"writer_restarts", get(c.writer_restarts)},
          {"dropped",
           {{"malformed", get(c.malformed)},
            {"schema", get(c.schema)},
            {"unknown_source", get(c.unknown_source)},
            {"auth_failed", get(c.auth_failed)},
            {"old_session", get(c.old_session)},
            {"over_budget", over_budget}}}};
}

std::string refused_text(const nlohmann::json& refused) {
  std::string out;
  std::uint64_t total = 0;
  for (const char* reason : kRefusalReasons) {
    const auto n = refused.value(reason, std::uint64_t{0});
    total += n;
    if (n != 0) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, reason);
  }
  return total == 0 ? std::string("none dropped") : fmt::format("dropped: {}", out);
}

std::string rtt_text(const nlohmann::json& j) {
  return j["rtt_us"].is_null() ? std::string("no RTT yet")
                               : fmt::format("RTT {} us", j["rtt_us"].get<std::uint64_t>());
}

}  // namespace

nlohmann::json mirror_health_json(const Mirror& mirror, const BusSchema& schema) {
  const MirrorCounters& c = mirror.counters();
  nlohmann::json totals = receive_json(c, get(c.rx), get(c.over_budget));
  totals["tx"] = get(c.tx);
  totals["send_dropped"] = get(c.send_dropped);
  totals["send_errors"] = get(c.send_errors);
  totals["pings"] = get(c.pings);
  totals["pongs"] = get(c.pongs);
  totals["rtt_us"] = get(c.pongs) == 0 ? nlohmann::json(nullptr) : nlohmann::json(get(c.rtt_us));
  nlohmann::json peers = nlohmann::json::array();
  for (std::size_t p = 0; p < mirror.peers().size(); ++p) {
    const PeerCounters& pc = mirror.peer_counters(p);
    nlohmann::json j = receive_json(pc, get(pc.rx), get(pc.over_budget));
    j["address"] = mirror.peers()[p];
    j["rtt_us"] = get(pc.rtt_us) == 0 ? nlohmann::json(nullptr) : nlohmann::json(get(pc.rtt_us));
    peers.push_back(std::move(j));
  }
  nlohmann::json regions = nlohmann::json::array();
  for (std::uint32_t r = 0; r < schema.regions.size(); ++r) {
    const int peer = mirror.receive_peer(r);
    if (peer < 0) continue;
    const RegionReceiveCounters& rc = mirror.region_counters(r);
    regions.push_back({{"region", schema.regions[r].name},
                       {"peer", mirror.peers()[static_cast<std::size_t>(peer)]},
                       {"applied", get(rc.applied)},
                       {"lost", get(rc.lost)},
                       {"duplicates", get(rc.duplicates)},
                       {"reordered", get(rc.reordered)},
                       {"tick_regression", get(rc.tick_regression)},
                       {"writer_restarts", get(rc.writer_restarts)},
                       {"dropped",
                        {{"unknown_source", get(rc.unknown_source)},
                         {"auth_failed", get(rc.auth_failed)},
                         {"old_session", get(rc.old_session)}}}});
  }
  const MirrorLinkSpec& config = mirror.config();
  return {{"bind", mirror.local_address()},
          {"tag", config.tag == TagKind::blake2b ? "blake2b" : "hmac_sha256"},
          {"budget_datagrams_per_tick", config.receive_budget},
          {"tick_ns", config.budget_period_ns},
          {"totals", std::move(totals)},
          {"peers", std::move(peers)},
          {"regions", std::move(regions)}};
}

std::string mirror_health_text(const nlohmann::json& h) {
  const nlohmann::json& t = h["totals"];
  std::string out = fmt::format(
      "  mirror on {} ({}, budget {} datagrams per peer and tick): rx {}, applied {}, lost {}, "
      "{} duplicates, {} reordered, {}; tx {} ({} dropped, {} failed)\n",
      h["bind"].get<std::string>(), h["tag"].get<std::string>(),
      h["budget_datagrams_per_tick"].get<std::uint64_t>(), t["rx"].get<std::uint64_t>(),
      t["applied"].get<std::uint64_t>(), t["lost"].get<std::uint64_t>(),
      t["duplicates"].get<std::uint64_t>(), t["reordered"].get<std::uint64_t>(),
      refused_text(t["dropped"]), t["tx"].get<std::uint64_t>(),
      t["send_dropped"].get<std::uint64_t>(), t["send_errors"].get<std::uint64_t>());
  for (const nlohmann::json& p : h["peers"]) {
    out += fmt::format(
        "    peer {}: rx {}, applied {}, lost {}, {} duplicates, {} reordered, {}, {}\n",
        p["address"].get<std::string>(), p["rx"].get<std::uint64_t>(),
        p["applied"].get<std::uint64_t>(), p["lost"].get<std::uint64_t>(),
        p["duplicates"].get<std::uint64_t>(), p["reordered"].get<std::uint64_t>(),
        refused_text(p["dropped"]), rtt_text(p));
  }
  for (const nlohmann::json& r : h["regions"]) {
    out += fmt::format(
        "    region {} from {}: applied {}, lost {}, {} duplicates, {} reordered, {}, writer "
        "restarts {}\n",
        r["region"].get<std::string>(), r["peer"].get<std::string>(),
        r["applied"].get<std::uint64_t>(), r["lost"].get<std::uint64_t>(),
        r["duplicates"].get<std::uint64_t>(), r["reordered"].get<std::uint64_t>(),
        refused_text(r["dropped"]), r["writer_restarts"].get<std::uint64_t>());
  }
  return out;
}

std::filesystem::path mirror_health_file(const std::filesystem::path& endpoint) {
  std::filesystem::path file = endpoint;
  file += ".mirror.json";
  return file;
}

bool write_mirror_health(const std::filesystem::path& file, const nlohmann::json& health) noexcept {
  try {
    std::filesystem::path tmp = file;
    tmp += ".tmp";
    {
      std::ofstream out(tmp, std::ios::trunc);
      out << health.dump() << '\n';
      if (!out) return false;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, file, ec);
    return !ec;
  } catch (const std::exception&) {
    return false;
  }
}

HealthFileWriter::HealthFileWriter(const Mirror& mirror, const BusSchema& schema,
                                   const std::filesystem::path& endpoint)
    : mirror_(mirror), schema_(schema), file_(mirror_health_file(endpoint)) {
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      (void)write_mirror_health(file_, mirror_health_json(mirror_, schema_));
      wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; });
    }
  });
}

HealthFileWriter::~HealthFileWriter() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  std::error_code ec;
  std::filesystem::remove(file_, ec);
}

}  // namespace hil::io::bus::mirror
