#include "config/fault_spec.hpp"

#include "config/fault.pb.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "config/text/suggest.hpp"

namespace hil::config {

namespace {

constexpr double kMaxTime = 86'400.0;  // [s]
constexpr double kMaxDelay = 10.0;     // [s]

class FaultChecker {
 public:
  FaultChecker(const rt::ChannelTable& table, const std::vector<std::string>& extra,
               const std::vector<io::can::CanBusSpec>& can, const SourceMap& sources,
               ConfigErrors& errors)
      : can_(can), sources_(sources), errors_(errors) {
    for (const rt::ChannelSpec& s : table.specs()) channels_.push_back(s.name);
    channels_.insert(channels_.end(), extra.begin(), extra.end());
  }

  void fail(const std::string& field, std::string message) const {
    errors_.push_back(sources_.error(field, std::move(message)));
  }
  bool in_range(const std::string& field, double v, double lo, double hi,
                std::string_view what) const {
    if (std::isfinite(v) && v >= lo && v <= hi) return true;
    fail(field, fmt::format("{} is out of range; expected {}", v, what));
    return false;
  }
  void channel(const std::string& field, const std::string& name) const {
    if (std::find(channels_.begin(), channels_.end(), name) != channels_.end()) return;
    const std::optional<std::string> near = closest_name(name, channels_);
    fail(field, fmt::format("\"{}\" is not a channel of the rig{}; expected one of its channels "
                            "(hilsim check --print)",
                            name, near ? fmt::format(" (did you mean {}?)", *near) : ""));
  }
  [[nodiscard]] const io::can::CanBusSpec* bus(const std::string& field,
                                               const std::string& name) const {
    std::vector<std::string> names;
    for (const io::can::CanBusSpec& b : can_) {
      if (b.name == name) return &b;
      names.push_back(b.name);
    }
    const std::optional<std::string> near = closest_name(name, names);
    fail(field, fmt::format("\"{}\" is not a CAN bus of the rig{}; expected {}", name,
                            near ? fmt::format(" (did you mean {}?)", *near) : "",
                            names.empty() ? "a rig with a can block"
                                          : fmt::format("one of {}", fmt::join(names, ", "))));
    return nullptr;
  }

  FaultCondition condition(const Fault::Condition& c, const std::string& at) const {
    FaultCondition out{.channel = c.channel(), .for_s = c.for_s()};
    channel(at + ".channel", c.channel());
    switch (c.test_case()) {
      case Fault::Condition::kAbove:
        out.test = FaultCondition::Test::above;
        out.value = c.above();
        break;
      case Fault::Condition::kBelow:
        out.test = FaultCondition::Test::below;
        out.value = c.below();
        break;
      case Fault::Condition::kCrosses:
        out.test = FaultCondition::Test::crosses;
        out.value = c.crosses();
        break;
      case Fault::Condition::TEST_NOT_SET:
        fail(at, "no test; expected above, below or crosses");
        break;
    }
    in_range(at, out.value, -1e12, 1e12, "a finite number");
    in_range(at + ".for_s", out.for_s, 0.0, kMaxTime, ">= 0 (s)");
    return out;
  }

 private:
  const std::vector<io::can::CanBusSpec>& can_;
  const SourceMap& sources_;
  ConfigErrors& errors_;
  std::vector<std::string> channels_;
};

ByteMode byte_mode(const std::string& text, const std::string& field, const FaultChecker& check) {
  if (text.empty() || text == "value") return ByteMode::value;
  if (text == "offset") return ByteMode::offset;
  if (text == "random") return ByteMode::random;
  if (text == "freeze") return ByteMode::freeze;
  check.fail(field, fmt::format("\"{}\": expected value, offset, random or freeze", text));
  return ByteMode::value;
}

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

MessageFaultSpec message_fault(const Fault::MessageFault& m, const std::string& at,
                               const FaultChecker& check) {
  using M = Fault::MessageFault;
  MessageFaultSpec out{.bus = m.bus(), .message = m.name()};
  const io::can::CanBusSpec* bus = check.bus(at + ".bus", m.bus());
  const io::can::dbc::Message* message = nullptr;
  if (bus != nullptr) {
    std::vector<std::string> mapped;
    bool found = false;
    for (const io::can::TxMessageSpec& t : bus->tx) {
      mapped.push_back(t.message);
      if (t.message == m.name()) found = true;
    }
    for (const io::can::RxMessageSpec& r : bus->rx) {
      mapped.push_back(r.message);
      if (!found && r.message == m.name()) {
        found = true;
        out.transmitted = false;
      }
    }
    for (const io::can::TxMessageSpec& t : bus->tx) {  // what a counter or CRC fault needs
      if (t.message != m.name()) continue;
      if (m.has_counter() && t.alive_counter.empty() && !t.e2e) {
        check.fail(at + ".counter", fmt::format("{} has no alive_counter in the rig's mapping "
                                                "and no E2E protection",
                                                m.name()));
      }
      if (m.has_crc() && t.crc.empty() && !t.e2e) {
        check.fail(at + ".crc", fmt::format("{} has no crc in the rig's mapping and no E2E "
                                            "protection",
                                            m.name()));
      }
      if (m.has_data_id() && !t.e2e) {
        check.fail(at + ".data_id", fmt::format("{} has no E2E protection", m.name()));
      }
    }
    if (!found) {
      const std::optional<std::string> near = closest_name(m.name(), mapped);
      check.fail(
          at + ".name",
          fmt::format("\"{}\" is not a message bus {} sends or receives{}; expected one "
                      "of {}",
                      m.name(), m.bus(), near ? fmt::format(" (did you mean {}?)", *near) : "",
                      fmt::join(mapped, ", ")));
    } else {
      message = bus->database.find_message(m.name());
    }
  }
  switch (m.op_case()) {
    case M::kDrop:
      out.op = MessageOp::drop;
      break;
    case M::kDelay:
      out.op = MessageOp::delay;
      out.delay_ms = m.delay().ms();
      check.in_range(at + ".delay.ms", out.delay_ms, 0.0, kMaxDelay * 1e3, "0..10000 (ms)");
      break;
    case M::kCycle:
      out.op = MessageOp::cycle;
      if (m.cycle().how_case() == M::Cycle::kMs) {
        out.cycle_ms = m.cycle().ms();
        check.in_range(at + ".cycle.ms", out.cycle_ms, 0.01, 60'000.0, "0.01..60000 (ms)");
      } else if (m.cycle().how_case() == M::Cycle::kEveryNth) {
        out.every_nth = m.cycle().every_nth();
        if (out.every_nth < 1) check.fail(at + ".cycle.every_nth", "expected >= 1");
      } else {
        check.fail(at + ".cycle", "expected ms or every_nth");
      }
      break;
    case M::kDlc:
      out.op = MessageOp::dlc;
      out.length = m.dlc().length();
      if (out.length > (message != nullptr && message->fd ? 64U : 8U)) {
        check.fail(at + ".dlc.length",
                   fmt::format("{} bytes: more than the frame can hold", out.length));
      }
      break;
    case M::kCrc:
      out.op = MessageOp::crc;
      out.mode = byte_mode(m.crc().mode(), at + ".crc.mode", check);
      out.value = m.crc().value();
      break;
    case M::kCounter:
      out.op = MessageOp::counter;
      out.mode = byte_mode(m.counter().mode(), at + ".counter.mode", check);
      out.value = m.counter().value();
      if (const std::string& c = m.counter().continue_(); c.empty() || c == "correct") {
        out.after = CounterContinue::correct;
      } else if (c == "last_valid") {
        out.after = CounterContinue::last_valid;
      } else if (c == "last") {
        out.after = CounterContinue::last;
      } else {
        check.fail(at + ".counter.continue",
                   fmt::format("\"{}\": expected correct, last_valid or last", c));
      }
      break;
    case M::kSignal: {
      out.op = MessageOp::signal;
      out.signal = m.signal().name();
      out.signal_value = m.signal().value();
      if (message != nullptr) {
        std::vector<std::string> names;
        for (const io::can::dbc::Signal& s : message->signals) names.push_back(s.name);
        if (std::find(names.begin(), names.end(), out.signal) == names.end()) {
          const std::optional<std::string> near = closest_name(out.signal, names);
          check.fail(at + ".signal.name",
                     fmt::format("\"{}\" is not a signal of {}{}", out.signal, m.name(),
                                 near ? fmt::format(" (did you mean {}?)", *near) : ""));
        }
      }
      break;
    }
    case M::kBits:
      out.op = MessageOp::bits;
      out.bit_start = m.bits().start();
      out.bit_size = m.bits().size();
      out.value = m.bits().value();
      if (out.bit_size < 1 || out.bit_size > 64 ||
          (message != nullptr && out.bit_start + out.bit_size > 8 * message->length)) {
        check.fail(at + ".bits", fmt::format("bits {}..{}: expected 1..64 bits within the frame",
                                             out.bit_start, out.bit_start + out.bit_size));
      }
      break;
    case M::kDuplicate:
      out.op = MessageOp::duplicate;
      break;
    case M::kDataId:
      out.op = MessageOp::data_id;
      out.value = m.data_id().value();
      if (out.value > 65535) {
        check.fail(at + ".data_id.value",
                   fmt::format("{} is out of range; expected 0..65535", out.value));
      }
      break;
    case M::OP_NOT_SET:
      check.fail(at,
                 "no operation; expected drop, delay, cycle, dlc, crc, counter, signal, bits, "
                 "duplicate or data_id");
      break;
  }
  if (!out.transmitted && out.op != MessageOp::drop && out.op != MessageOp::delay) {
    check.fail(at, fmt::format("the rig receives {}: only drop and delay apply to what it receives",
                               m.name()));
  }
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
        s.target = message_fault(f.message(), at + ".message", check);
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
