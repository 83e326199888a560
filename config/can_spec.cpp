#include "config/can_spec.hpp"

#include "config/can.pb.h"

#include <fmt/format.h>

#include <exception>
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/mapping/bus_plan.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/mapping/e2e_attributes.hpp"
#include "io/can/transport/rx_budget.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "io/can/transport/transport_uri.hpp"
#include "models/vehicle/vehicle_channels.hpp"

namespace hil::config {

namespace {

std::vector<io::can::SignalBinding> bindings(
    const google::protobuf::RepeatedPtrField<SignalChannel>& list) {
  std::vector<io::can::SignalBinding> out;
  for (const SignalChannel& s : list) out.push_back({.signal = s.signal(), .channel = s.channel()});
  return out;
}

std::optional<std::uint8_t> data_id(bool has, std::uint32_t value, const std::string& field,
                                    const SourceMap& sources, ConfigErrors& errors) {
  if (!has) return std::nullopt;
  if (value > 255) {
    errors.push_back(
        sources.error(field, fmt::format("{} is out of range; expected 0..255", value)));
    return std::nullopt;
  }
  return static_cast<std::uint8_t>(value);
}

io::can::E2eMessageSpec e2e_spec(const CanE2e& e, const std::string& at, const SourceMap& sources,
                                 ConfigErrors& errors) {
  io::can::E2eMessageSpec spec{.message = e.message()};
  io::can::e2e::ProfileSpec& p = spec.profile;
  const auto fail = [&](const std::string& field, const std::string& what) {
    errors.push_back(sources.error(field.empty() ? at : fmt::format("{}.{}", at, field), what));
  };
  if (const auto profile = io::can::parse_e2e_profile(e.profile())) {
    p.profile = *profile;
  } else {
    fail(e.has_profile() ? "profile" : "",
         fmt::format("{}; expected profile: \"P01\", \"P02\", "
                     "\"P05\", \"P11\" or \"P22\"",
                     e.has_profile() ? fmt::format("\"{}\" is not an "
                                                   "E2E profile",
                                                   e.profile())
                                     : std::string("no profile")));
  }
  if (e.data_id() > 65535)
    fail("data_id", fmt::format("{} is out of range; expected 0..65535", e.data_id()));
  p.data_id = static_cast<std::uint16_t>(e.data_id());
  if (e.data_id_list_size() > 0) {
    if (e.data_id_list_size() != 16) {
      fail("data_id_list",
           fmt::format("{} values; expected 16 (one per counter value)", e.data_id_list_size()));
    }
    for (int i = 0; i < e.data_id_list_size() && i < 16; ++i) {
      if (e.data_id_list(i) > 255) {
        fail(fmt::format("data_id_list[{}]", i),
             fmt::format("{} is out of range; expected 0..255", e.data_id_list(i)));
      }
      p.data_id_list[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(e.data_id_list(i));
    }
  }
  if (e.has_data_id_mode()) {
    if (const auto mode = io::can::parse_data_id_mode(e.data_id_mode())) {
      p.data_id_mode = *mode;
    } else {
      fail("data_id_mode", fmt::format("\"{}\" is not a data id mode; expected \"both\", "
                                       "\"alt\", \"low\" or \"nibble\"",
                                       e.data_id_mode()));
    }
  }
  if (e.has_offset_bits()) p.offset_bits = e.offset_bits();
  if (e.has_crc_offset_bits()) p.crc_offset_bits = e.crc_offset_bits();
  if (e.has_counter_offset_bits()) p.counter_offset_bits = e.counter_offset_bits();
  if (e.has_data_id_nibble_offset_bits())
    p.data_id_nibble_offset_bits = e.data_id_nibble_offset_bits();
  if (e.has_max_delta_counter()) {
    if (e.max_delta_counter() < 1 || e.max_delta_counter() > 255) {
      fail("max_delta_counter",
           fmt::format("{} is out of range; expected 1..255", e.max_delta_counter()));
    }
    p.max_delta_counter = static_cast<std::uint8_t>(e.max_delta_counter());
  }
  return spec;
}

/// The bus's bit rates and receive budget (docs/can.md "Receive budget"), each in range.
void receive_budget(const CanBus& bus, const std::string& at, const SourceMap& sources,
                    ConfigErrors& errors, io::can::CanBusSpec& spec) {
  const auto in_range = [&](bool has, std::uint32_t value, const char* field, std::uint32_t lo,
                            std::uint32_t hi, const char* why) -> std::optional<std::uint32_t> {
    if (!has) return std::nullopt;
    if (value < lo || value > hi) {
      errors.push_back(
          sources.error(fmt::format("{}.{}", at, field),
                        fmt::format("{} is out of range; expected {}..{}{}", value, lo, hi, why)));
      return std::nullopt;
    }
    return value;
  };
  spec.bit_rate = in_range(bus.has_bit_rate(), bus.bit_rate(), "bit_rate", 1, 1'000'000,
                           " bit/s (ISO 11898-1: at most 1 Mbit/s outside a CAN FD data phase)");
  spec.data_bit_rate = in_range(bus.has_data_bit_rate(), bus.data_bit_rate(), "data_bit_rate",
                                spec.bit_rate.value_or(1), io::can::kFastestBitRate,
                                " bit/s (a CAN FD data phase, not slower than bit_rate)");
  spec.max_rx_frames_per_tick =
      in_range(bus.has_max_rx_frames_per_tick(), bus.max_rx_frames_per_tick(),
               "max_rx_frames_per_tick", 1, io::can::kMaxRxFramesPerTick, " frames");
}

io::can::CanBusSpec to_spec(const CanBus& bus, const std::string& at, const SourceMap& sources,
                            ConfigErrors& errors) {
  io::can::CanBusSpec spec;
  spec.name = bus.name();
  spec.uri = bus.uri();
  spec.simulate_nodes.assign(bus.simulate_nodes().begin(), bus.simulate_nodes().end());
  spec.except_nodes.assign(bus.except_nodes().begin(), bus.except_nodes().end());
  spec.dut_nodes.assign(bus.dut_nodes().begin(), bus.dut_nodes().end());
  receive_budget(bus, at, sources, errors, spec);
  for (int i = 0; i < bus.e2e_size(); ++i) {
    spec.e2e.push_back(e2e_spec(bus.e2e(i), fmt::format("{}.e2e[{}]", at, i), sources, errors));
  }
  for (int i = 0; i < bus.rx_size(); ++i) {
    const CanRx& r = bus.rx(i);
    const std::string field = fmt::format("{}.rx[{}]", at, i);
    io::can::RxMessageSpec rx{.message = r.message(),
                              .signals = bindings(r.signals()),
                              .alive_counter = r.alive_counter(),
                              .crc = r.crc(),
                              .crc_data_id = data_id(r.has_crc_data_id(), r.crc_data_id(),
                                                     field + ".crc_data_id", sources, errors)};
    if (r.has_timeout_ms()) rx.timeout_s = r.timeout_ms() / 1000.0;
    if (r.on_timeout().has_hold_cycles()) rx.hold_cycles = r.on_timeout().hold_cycles();
    for (const ChannelValue& v : r.on_timeout().set()) rx.safe.emplace_back(v.channel(), v.value());
    spec.rx.push_back(std::move(rx));
  }
  for (int i = 0; i < bus.tx_size(); ++i) {
    const CanTx& t = bus.tx(i);
    io::can::TxMessageSpec tx{
        .message = t.message(),
        .signals = bindings(t.signals()),
        .alive_counter = t.alive_counter(),
        .crc = t.crc(),
        .crc_data_id = data_id(t.has_crc_data_id(), t.crc_data_id(),
                               fmt::format("{}.tx[{}].crc_data_id", at, i), sources, errors)};
    if (t.has_cycle_ms()) tx.cycle_s = t.cycle_ms() / 1000.0;
    spec.tx.push_back(std::move(tx));
  }
  return spec;
}

/// The schema's name of a mapping problem's field: "tx[1].cycle" → "tx[1].cycle_ms".
std::string schema_field(const std::string& field) {
  if (field.ends_with(".cycle")) return field + "_ms";
  if (field.ends_with(".timeout")) return field + "_ms";
  return field;
}

}  // namespace

std::unique_ptr<models::VehicleChannels> add_rig_channels(
    rt::ChannelTable& table, const std::optional<models::VehicleParams>& vehicle) {
  if (!vehicle) return nullptr;
  return std::make_unique<models::VehicleChannels>(table, *vehicle);
}

ConfigErrors check_can(const Can& can, rt::ChannelTable& table, double period_s,
                       std::string_view prefix, const SourceMap& sources,
                       std::vector<io::can::CanBusSpec>& buses) {
  ConfigErrors errors;
  std::set<std::string> names;
  for (int i = 0; i < can.buses_size(); ++i) {
    const CanBus& bus = can.buses(i);
    const std::string at = fmt::format("{}.buses[{}]", prefix, i);
    io::can::CanBusSpec spec = to_spec(bus, at, sources, errors);
    if (!names.insert(spec.name).second) {
      errors.push_back(
          sources.error(at + ".name", fmt::format("bus \"{}\" is defined twice", spec.name)));
    }
    try {
      (void)io::can::parse_transport_uri(spec.uri);
    } catch (const std::exception& e) {
      errors.push_back(sources.error(at + ".uri", e.what()));
    }
    if (!bus.has_dbc()) {
      errors.push_back(sources.error(at, "no dbc; expected dbc: \"<file>.dbc\""));
      continue;
    }
    std::filesystem::path dbc_path(bus.dbc());
    if (dbc_path.is_relative()) {
      dbc_path = std::filesystem::path(sources.locate(at + ".dbc").file).parent_path() / dbc_path;
    }
    try {
      spec.database = io::can::dbc::load_dbc(
          dbc_path, {.accept_deviations = bus.dbc_lenient(), .lenient = bus.dbc_lenient()});
    } catch (const std::exception& e) {  // "file.dbc:line:column: what"
      errors.push_back(sources.error(at + ".dbc", e.what()));
      continue;
    }
    // Resolve the node lists and every name by building the bus on a scratch virtual link
    // (no device opened)
    std::vector<io::can::MappingProblem> problems;
    io::can::plan_bus(spec, problems);
    auto scratch = io::can::open_transport(fmt::format("virtual:check-{}-{}", i, spec.name));
    (void)io::can::CanBus::create(spec, table, period_s, static_cast<std::uint8_t>(i), problems,
                                  std::move(scratch));
    for (const io::can::MappingProblem& p : problems) {
      errors.push_back(sources.error(fmt::format("{}.{}", at, schema_field(p.field)), p.message));
    }
    buses.push_back(std::move(spec));
  }
  return errors;
}

}  // namespace hil::config
