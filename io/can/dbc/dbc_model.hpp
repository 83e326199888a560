#pragma once
// The contents of a Vector DBC file as parsed (dbc_parser.hpp): nodes, messages, signals,
// value tables, comments and attributes, with the well-known attributes resolved (cycle time,
// signal start value, CAN FD frame format, BRS) and multiplexing resolved to one multiplexor
// per multiplexed signal. Setup-phase data (allocates); the RT path uses dbc_codec.hpp.
// Thread-safety: plain values; const access from any number of threads.

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace hil::io::can::dbc {

/// 1-based line and column in the DBC file.
struct SourceLocation {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

/// DBC byte order: '@1' Intel (little endian; start bit = LSB), '@0' Motorola (big endian;
/// start bit = MSB in the DBC's sawtooth numbering: bit 8·byte + bit-in-byte, 7 = MSB).
enum class ByteOrder : std::uint8_t { little_endian, big_endian };

/// Integer (the default) or SIG_VALTYPE_ 1 = IEEE float32, 2 = IEEE float64.
enum class ValueType : std::uint8_t { integer, float32, float64 };

/// Raw value → text (VAL_, VAL_TABLE_). `value` holds the raw bits read as int64 (negative for
/// signed signals).
struct ValueDescription {
  std::int64_t value = 0;
  std::string text;
};

/// An inclusive range of multiplexor raw values that selects a signal (SG_MUL_VAL_ "3-5").
struct MuxRange {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
};

/// BA_ / BA_DEF_DEF_ value: INT and HEX as integers, FLOAT as double, STRING and ENUM as text
/// (an ENUM's index is resolved to its name).
using AttributeValue = std::variant<std::int64_t, double, std::string>;
using Attributes = std::map<std::string, AttributeValue, std::less<>>;

enum class AttributeObject : std::uint8_t { network, node, message, signal, environment };
enum class AttributeType : std::uint8_t { integer, hex, floating, string, enumeration };

struct AttributeDefinition {
  std::string name;
  AttributeObject object = AttributeObject::network;
  AttributeType type = AttributeType::integer;
  double minimum = 0.0;  ///< INT, HEX, FLOAT; no range check when both are 0
  double maximum = 0.0;
  std::vector<std::string> enum_values;
  std::optional<AttributeValue> default_value;  ///< BA_DEF_DEF_
  SourceLocation location;
};

struct Signal {
  std::string name;
  SourceLocation location;  ///< of the name in its SG_ line
  std::uint32_t start_bit = 0;
  std::uint32_t length = 0;  ///< bits, 1–64
  ByteOrder byte_order = ByteOrder::little_endian;
  bool is_signed = false;
  ValueType value_type = ValueType::integer;
  double factor = 1.0;  ///< physical = raw · factor + offset
  double offset = 0.0;
  double minimum = 0.0;  ///< physical range; [0|0] means none
  double maximum = 0.0;
  std::string unit;
  std::vector<std::string> receivers;

  bool is_multiplexor = false;  ///< 'M' or 'm<n>M': its raw value selects other signals
  /// 'm<n>': the raw multiplexor value of the SG_ line (also when SG_MUL_VAL_ widens it).
  std::optional<std::uint64_t> mux_indicator;
  /// Name of the multiplexor this signal depends on; empty when not multiplexed.
  std::string multiplexor;
  /// Multiplexor raw values that select this signal (the indicator, or SG_MUL_VAL_ ranges).
  std::vector<MuxRange> mux_ranges;

  std::vector<ValueDescription> value_descriptions;  ///< VAL_, sorted by value
  std::string comment;
  Attributes attributes;
  /// GenSigStartValue: the raw value sent before anything is set (nullopt: 0).
  std::optional<double> start_value_raw;

  [[nodiscard]] bool multiplexed() const noexcept { return !multiplexor.empty(); }
  /// The VAL_ text of a raw value, or nullptr.
  [[nodiscard]] const std::string* value_text(std::int64_t raw) const noexcept;
};

/// VFrameFormat of a message (and what bit 31 of the BO_ id says).
enum class FrameFormat : std::uint8_t {
  standard_can,
  extended_can,
  standard_can_fd,
  extended_can_fd
};

struct Message {
  std::uint32_t id = 0;  ///< without the extended-id bit 31
  bool extended = false;
  std::string name;
  std::uint32_t length = 0;               ///< bytes, from BO_
  std::string sender;                     ///< "Vector__XXX" when none
  std::vector<std::string> transmitters;  ///< BO_TX_BU_ (besides the sender)
  std::vector<Signal> signals;
  std::string comment;
  Attributes attributes;
  SourceLocation location;  ///< of the BO_ keyword

  bool fd = false;                             ///< VFrameFormat *_FD (or a length above 8)
  bool brs = false;                            ///< CANFD_BRS = 1
  std::optional<std::uint32_t> cycle_time_ms;  ///< GenMsgCycleTime when > 0

  [[nodiscard]] const Signal* find_signal(std::string_view signal_name) const noexcept;
};

struct Node {
  std::string name;
  std::string comment;
  Attributes attributes;
};

struct ValueTable {
  std::string name;
  std::vector<ValueDescription> values;
};

struct Database {
  std::string file_name;  ///< as given to the parser, used in messages
  std::string version;
  std::vector<Node> nodes;
  std::vector<Message> messages;  ///< in file order
  std::vector<ValueTable> value_tables;
  std::string comment;  ///< CM_ "network comment";
  std::vector<AttributeDefinition> attribute_definitions;
  Attributes attributes;  ///< network attributes (BA_ without object)
  /// "file:line:column: warning: ..." for things that are legal but suspicious (overlapping
  /// signals, out-of-range attribute values, ...).
  std::vector<std::string> warnings;

  [[nodiscard]] const Message* find_message(std::string_view message_name) const noexcept;
  [[nodiscard]] const Message* find_message(std::uint32_t id, bool extended) const noexcept;

  /// Attribute `name` of an object whose BA_ values are `on`: its own value, else the
  /// BA_DEF_DEF_ default, else nullptr.
  [[nodiscard]] const AttributeValue* attribute(const Attributes& on,
                                                std::string_view name) const noexcept;
  /// attribute() as a number (INT, HEX, FLOAT), or nullopt.
  [[nodiscard]] std::optional<double> number_attribute(const Attributes& on,
                                                       std::string_view name) const noexcept;
  /// attribute() as text (STRING, ENUM name; an integer in decimal), or nullopt.
  [[nodiscard]] std::optional<std::string> text_attribute(const Attributes& on,
                                                          std::string_view name) const;
};

/// The DBC error every parse and check failure throws: what() is
/// "file:line:column: what is wrong, what was expected".
class DbcError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hil::io::can::dbc
