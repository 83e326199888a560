#include "io/can/dbc/dbc_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <optional>

#include "io/can/can_frame.hpp"
#include "io/can/dbc/dbc_layout.hpp"
#include "io/can/dbc/dbc_lexer.hpp"

namespace hil::io::can::dbc {
namespace {

constexpr std::uint32_t kMaxClassicBytes = kMaxClassicLength;

/// Thrown to leave one signal out of its message (check_signals() then runs again).
struct LeftOut {
  std::size_t index;
};

class Checker {
 public:
  Checker(Database& db, const DbcReadSpec& options) : db_(db), options_(options) {}

  void run() {
    for (Message& m : db_.messages) {
      resolve_attributes(m);
      check_frame_format(m);
      for (;;) {
        try {
          check_signals(m);
          break;
        } catch (const LeftOut& out) {
          m.signals.erase(m.signals.begin() + static_cast<std::ptrdiff_t>(out.index));
        }
      }
      warn_overlaps(m);
    }
  }

 private:
  [[noreturn]] void fail(SourceLocation at, std::string_view message) const {
    throw DbcError(located(db_.file_name, at, message));
  }
  /// A signal that cannot be used: an error, or (lenient) a warning and the signal left out.
  [[noreturn]] void refuse(const Message& m, const Signal& s, std::string_view message) {
    if (!options_.lenient) fail(s.location, message);
    warn(s.location, fmt::format("{}; the signal skipped", message));
    throw LeftOut{static_cast<std::size_t>(&s - m.signals.data())};
  }
  void warn(SourceLocation at, std::string_view message) {
    db_.warnings.push_back(located(db_.file_name, at, fmt::format("warning: {}", message)));
  }

  [[nodiscard]] std::optional<double> number(const Attributes& on, std::string_view name) const {
    return db_.number_attribute(on, name);
  }
  [[nodiscard]] std::string text(const Attributes& on, std::string_view name) const {
    return db_.text_attribute(on, name).value_or(std::string());
  }

  void resolve_attributes(Message& m) {
    if (const auto cycle = number(m.attributes, "GenMsgCycleTime"); cycle && *cycle >= 1.0) {
      m.cycle_time_ms = static_cast<std::uint32_t>(std::min(*cycle, 4.0e9));
    }
    const std::string format = text(m.attributes, "VFrameFormat");
    m.fd = format == "StandardCAN_FD" || format == "ExtendedCAN_FD";
    m.brs = m.fd && text(m.attributes, "CANFD_BRS") == "1";
    const bool says_extended = format.starts_with("ExtendedCAN");
    const bool says_standard = format.starts_with("StandardCAN");
    if ((says_extended && !m.extended) || (says_standard && m.extended)) {
      warn(m.location, fmt::format("BO_ '{}': VFrameFormat {} but the id is {} (bit 31 of the BO_ "
                                   "id decides)",
                                   m.name, format, m.extended ? "29-bit" : "11-bit"));
    }
    for (Signal& s : m.signals) s.start_value_raw = number(s.attributes, "GenSigStartValue");
  }

  void check_frame_format(Message& m) {
    if (m.length > kMaxClassicBytes && !m.fd) {
      warn(m.location, fmt::format("BO_ '{}': {} bytes but VFrameFormat is not StandardCAN_FD or "
                                   "ExtendedCAN_FD; sent as a CAN FD frame",
                                   m.name, m.length));
      m.fd = true;
    }
    if (m.fd && !is_valid_fd_length(m.length)) {
      warn(m.location, fmt::format("BO_ '{}': {} bytes is no CAN FD length; frames carry {} bytes",
                                   m.name, m.length, dlc_to_length(length_to_dlc(m.length), true)));
    }
  }

  void check_signals(Message& m) {
    for (const Signal& s : m.signals) check_signal(m, s);
    resolve_multiplexing(m);
  }

  void check_signal(const Message& m, const Signal& s) {
    const BitLayout l = compute_layout(s.start_bit, s.length, s.byte_order);
    if (l.bytes_needed > m.length) {
      const std::string what = fmt::format(
          "SG_ '{}': bits {}..{} ({}) need {} bytes but BO_ '{}' has {}", s.name, l.first_bit,
          l.last_bit,
          s.byte_order == ByteOrder::big_endian ? "Motorola, MSB..LSB" : "Intel, LSB..MSB",
          l.bytes_needed, m.name, m.length);
      if (!options_.accept_deviations && !options_.lenient) {
        fail(s.location, fmt::format("{}; a rig reads its DBC strictly: fix the message length or "
                                     "the signal, or set dbc_lenient: true on the bus",
                                     what));
      }
      warn(s.location,
           fmt::format("{}: the signal left out (no frame of BO_ '{}' carries it)", what, m.name));
      throw LeftOut{static_cast<std::size_t>(&s - m.signals.data())};
    }
    if (s.minimum > s.maximum) {
      warn(s.location, fmt::format("SG_ '{}': minimum {} is above maximum {}; no range check on "
                                   "encode",
                                   s.name, s.minimum, s.maximum));
    }
  }

  void resolve_multiplexing(Message& m) {
    std::vector<const Signal*> multiplexors;
    for (const Signal& s : m.signals) {
      if (s.is_multiplexor) multiplexors.push_back(&s);
      if (s.is_multiplexor && s.value_type != ValueType::integer) {
        refuse(m, s,
               fmt::format("SG_ '{}': a multiplexor must be an integer signal, not a "
                           "SIG_VALTYPE_ float",
                           s.name));
      }
    }
    for (Signal& s : m.signals) {
      if (!s.mux_indicator || s.multiplexed()) continue;
      std::vector<std::string> candidates;
      for (const Signal* mux : multiplexors) {
        if (mux != &s) candidates.push_back(mux->name);
      }
      if (candidates.empty()) {
        refuse(m, s,
               fmt::format("SG_ '{}': multiplexed (m{}) but BO_ '{}' has no multiplexor "
                           "signal (M)",
                           s.name, *s.mux_indicator, m.name));
      }
      if (candidates.size() > 1) {
        refuse(m, s,
               fmt::format("SG_ '{}': BO_ '{}' has several multiplexors ({}); expected "
                           "an SG_MUL_VAL_ line that says which one selects it",
                           s.name, m.name, fmt::join(candidates, ", ")));
      }
      s.multiplexor = candidates.front();
      s.mux_ranges = {{*s.mux_indicator, *s.mux_indicator}};
    }
    for (const Signal& s : m.signals) check_mux_chain(m, s);
  }

  void check_mux_chain(const Message& m, const Signal& s) {
    const Signal* at = &s;
    for (std::size_t depth = 0; at->multiplexed(); ++depth) {
      const Signal* parent = m.find_signal(at->multiplexor);
      if (parent == nullptr) {  // only after the multiplexor itself was left out
        refuse(m, s,
               fmt::format("SG_ '{}': its multiplexor '{}' was left out", s.name, at->multiplexor));
      }
      if (depth > m.signals.size() || parent == &s) {
        refuse(m, s, fmt::format("SG_ '{}': its multiplexor chain loops back to itself", s.name));
      }
      const std::uint64_t max_raw =
          compute_layout(0, parent->length, ByteOrder::little_endian).mask;
      for (const MuxRange& r : at->mux_ranges) {
        if (at == &s && r.low > max_raw) {
          warn(s.location, fmt::format("SG_ '{}': multiplexor value {} cannot occur in the {}-bit "
                                       "multiplexor '{}'",
                                       s.name, r.low, parent->length, parent->name));
        }
      }
      at = parent;
    }
  }

  /// True when no frame can carry both signals i and j: some multiplexor selects an ancestor
  /// of each (or the signal itself) by disjoint ranges. `parent[k]` is the index of signal
  /// k's multiplexor, or −1 (chains are loop-free: check_mux_chain ran first).
  [[nodiscard]] static bool exclusive(const Message& m, const std::vector<std::ptrdiff_t>& parent,
                                      std::size_t i, std::size_t j) {
    const auto disjoint = [](const Signal& x, const Signal& y) {
      for (const MuxRange& r : x.mux_ranges) {
        for (const MuxRange& q : y.mux_ranges) {
          if (r.low <= q.high && q.low <= r.high) return false;
        }
      }
      return true;
    };
    for (auto x = static_cast<std::ptrdiff_t>(i); parent[static_cast<std::size_t>(x)] >= 0;
         x = parent[static_cast<std::size_t>(x)]) {
      for (auto y = static_cast<std::ptrdiff_t>(j); parent[static_cast<std::size_t>(y)] >= 0;
           y = parent[static_cast<std::size_t>(y)]) {
        const auto xi = static_cast<std::size_t>(x);
        const auto yi = static_cast<std::size_t>(y);
        if (parent[xi] == parent[yi] && disjoint(m.signals[xi], m.signals[yi])) return true;
      }
    }
    return false;
  }

  void warn_overlaps(const Message& m) {
    using Bits = std::array<std::uint8_t, kMaxFdLength + 1>;
    std::vector<Bits> occupied(m.signals.size());
    std::vector<std::ptrdiff_t> parent(m.signals.size(), -1);
    for (std::size_t k = 0; k < m.signals.size(); ++k) {
      if (const Signal* mux = m.find_signal(m.signals[k].multiplexor)) {
        parent[k] = mux - m.signals.data();
      }
    }
    for (std::size_t i = 0; i < m.signals.size(); ++i) {
      const Signal& s = m.signals[i];
      const BitLayout l = compute_layout(s.start_bit, s.length, s.byte_order);
      occupied[i].fill(0);
      write_raw(l, l.mask, occupied[i]);
      for (std::size_t j = 0; j < i; ++j) {
        bool overlap = false;
        for (std::size_t k = 0; k < occupied[i].size() && !overlap; ++k) {
          overlap = (occupied[i][k] & occupied[j][k]) != 0;
        }
        if (overlap && !exclusive(m, parent, i, j)) {
          warn(s.location, fmt::format("SG_ '{}' overlaps SG_ '{}' in BO_ '{}' (both can be in "
                                       "the same frame)",
                                       s.name, m.signals[j].name, m.name));
        }
      }
    }
  }

  Database& db_;
  DbcReadSpec options_;
};

}  // namespace

void check_database(Database& db, const DbcReadSpec& options) { Checker(db, options).run(); }

}  // namespace hil::io::can::dbc
