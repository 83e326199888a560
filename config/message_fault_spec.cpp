// The message target of a fault (config/fault.proto MessageFault): a message the bus sends
// or receives, its operation and the operation's settings, each checked where it is written.

#include <fmt/format.h>

#include <algorithm>

#include "config/fault_checker.hpp"

namespace hil::config::detail {
namespace {

ByteMode byte_mode(const std::string& text, const std::string& field, const FaultChecker& check) {
  if (text.empty() || text == "value") return ByteMode::value;
  if (text == "offset") return ByteMode::offset;
  if (text == "random") return ByteMode::random;
  if (text == "freeze") return ByteMode::freeze;
  check.fail(field, fmt::format("\"{}\": expected value, offset, random or freeze", text));
  return ByteMode::value;
}

}  // namespace

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

}  // namespace hil::config::detail
