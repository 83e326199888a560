#include "config/fault_spec.hpp"

#include "config/fault.pb.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "config/fault_checker.hpp"
#include "config/text/suggest.hpp"

namespace hil::config {

namespace {

using detail::FaultChecker;
using detail::kMaxDelay;
using detail::kMaxTime;

ChannelFaultSpec channel_fault(const Fault::ChannelFault& c, const std::string& at,
                               const FaultChecker& check) {
  ChannelFaultSpec out{.channel = c.name()};
  check.channel(at + ".name", c.name());
  switch (c.op_case()) {
    case Fault::ChannelFault::kForce:
      out.op = ChannelOp::force;
      out.value = c.force().value();
      break;
    case Fault::ChannelFault::kStuck:
      out.op = ChannelOp::stuck;
      out.has_value = c.stuck().has_value();
      out.value = c.stuck().value();
      break;
    case Fault::ChannelFault::kOffset:
      out.op = ChannelOp::offset;
      out.value = c.offset().value();
      break;
    case Fault::ChannelFault::kGain:
      out.op = ChannelOp::gain;
      out.value = c.gain().value();
      break;
    case Fault::ChannelFault::kNoise:
      out.op = ChannelOp::noise;
      out.value = c.noise().sigma();
      check.in_range(at + ".noise.sigma", out.value, 0.0, 1e12, ">= 0");
      break;
    case Fault::ChannelFault::kDrift:
      out.op = ChannelOp::drift;
      out.value = c.drift().per_s();
      break;
    case Fault::ChannelFault::kDelay:
      out.op = ChannelOp::delay;
      out.value = c.delay().s();
      check.in_range(at + ".delay.s", out.value, 0.0, kMaxDelay, "0..10 (s)");
      break;
    case Fault::ChannelFault::kNan:
      out.op = ChannelOp::nan;
      break;
    case Fault::ChannelFault::OP_NOT_SET:
      check.fail(at,
                 "no operation; expected force, stuck, offset, gain, noise, drift, delay or nan");
      break;
  }
  check.in_range(at, out.value, -1e12, 1e12, "a finite number");
  return out;
}

}  // namespace

std::string fault_channel_stem(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  return out;
}

ConfigErrors check_faults(const google::protobuf::RepeatedPtrField<Fault>& faults,
                          const rt::ChannelTable& table,
                          const std::vector<std::string>& extra_channels,
                          const std::vector<io::can::CanBusSpec>& can, std::string_view prefix,
                          const SourceMap& sources, std::vector<FaultSpec>& out) {
  ConfigErrors errors;
  const FaultChecker check(table, extra_channels, can, sources, errors);
  const std::size_t first = out.size();
  for (int i = 0; i < faults.size(); ++i) {
    const Fault& f = faults.Get(i);
    const std::string at = fmt::format("{}[{}]", prefix, i);
    FaultSpec s{.name = f.name(), .where = at};
    if (f.name().empty()) check.fail(at + ".name", "missing; every fault needs a unique name");
    for (const FaultSpec& other : out) {
      if (other.name == f.name() ||
          fault_channel_stem(other.name) == fault_channel_stem(f.name())) {
        check.fail(at + ".name", fmt::format("\"{}\" is taken by {} (names must differ in letters, "
                                             "digits and _)",
                                             f.name(), other.where));
      }
    }
    switch (f.start().when_case()) {
      case Fault::Start::kAtS:
        check.in_range(at + ".start.at_s", f.start().at_s(), 0.0, kMaxTime, "0..86400 (s)");
        s.start = FaultStartAt{f.start().at_s()};
        break;
      case Fault::Start::kCondition:
        s.start = check.condition(f.start().condition(), at + ".start.condition");
        break;
      case Fault::Start::kAfter:
        s.start = FaultAfter{f.start().after()};
        break;
      case Fault::Start::WHEN_NOT_SET:
        break;
    }
    switch (f.stop().until_case()) {
      case Fault::Stop::kDurationS:
        check.in_range(at + ".stop.duration_s", f.stop().duration_s(), 1e-9, kMaxTime, "> 0 (s)");
        s.stop = FaultDuration{f.stop().duration_s()};
        break;
      case Fault::Stop::kCount:
        if (f.stop().count() == 0) check.fail(at + ".stop.count", "expected >= 1");
        s.stop = FaultCount{f.stop().count()};
        break;
      case Fault::Stop::kCondition:
        s.stop = check.condition(f.stop().condition(), at + ".stop.condition");
        break;
      case Fault::Stop::kNever:
      case Fault::Stop::UNTIL_NOT_SET:
        break;
    }
    if (f.has_pulse()) {
      check.in_range(at + ".pulse.on_s", f.pulse().on_s(), 1e-9, kMaxTime, "> 0 (s)");
      check.in_range(at + ".pulse.off_s", f.pulse().off_s(), 1e-9, kMaxTime, "> 0 (s)");
      s.pulse = std::pair(f.pulse().on_s(), f.pulse().off_s());
    }
    switch (f.target_case()) {
      case Fault::kChannel:
        s.target = channel_fault(f.channel(), at + ".channel", check);
        break;
      case Fault::kMessage:
        s.target = detail::message_fault(f.message(), at + ".message", check);
        break;
      case Fault::kBus:
        s.target = BusFaultSpec{f.bus().name(), f.bus().node()};
        if (const io::can::CanBusSpec* bus = check.bus(at + ".bus.name", f.bus().name());
            bus != nullptr && f.bus().has_node()) {
          std::vector<std::string> nodes;
          for (const io::can::TxMessageSpec& t : bus->tx) {
            if (t.simulated && std::find(nodes.begin(), nodes.end(), t.node) == nodes.end()) {
              nodes.push_back(t.node);
            }
          }
          if (std::find(nodes.begin(), nodes.end(), f.bus().node()) == nodes.end()) {
            check.fail(
                at + ".bus.node",
                fmt::format("\"{}\" is not a node bus {} simulates; expected {}", f.bus().node(),
                            f.bus().name(),
                            nodes.empty() ? std::string("a bus with simulate_nodes")
                                          : fmt::format("one of {}", fmt::join(nodes, ", "))));
          }
        }
        if (f.bus().op_case() != Fault::BusFault::kSilence)
          check.fail(at + ".bus", "expected silence {}");
        break;
      case Fault::TARGET_NOT_SET:
        check.fail(at, "no target; expected channel, message or bus");
        break;
    }
    out.push_back(std::move(s));
  }
  // `after` names a fault of the rig or of this block, not itself
  for (std::size_t k = first; k < out.size(); ++k) {
    const auto* after = std::get_if<FaultAfter>(&out[k].start);
    if (after == nullptr) continue;
    std::vector<std::string> names;
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (j != k) names.push_back(out[j].name);
    }
    if (std::find(names.begin(), names.end(), after->fault) == names.end()) {
      const std::optional<std::string> near = closest_name(after->fault, names);
      check.fail(out[k].where + ".start.after",
                 fmt::format("\"{}\" is not another fault of the run{}", after->fault,
                             near ? fmt::format(" (did you mean {}?)", *near) : ""));
    }
  }
  return errors;
}

}  // namespace hil::config
