#pragma once
// The URIs that choose a CAN transport — parsed once, in the setup phase:
//   virtual:NAME   cannelloni://HOST:PORT   slcan:/dev/TTY   socketcan:IFACE   [?key=value&…]
// Every error is a std::invalid_argument that quotes the URI, says what is wrong and shows
// the expected form.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hil::io::can {

struct TransportUri {
  std::string text;    ///< the whole URI, for messages
  std::string scheme;  ///< "virtual", "cannelloni", "slcan" or "socketcan"
  std::string target;  ///< after the scheme and before '?': NAME, HOST:PORT, /dev/TTY, IFACE
  std::vector<std::pair<std::string, std::string>> query;  ///< in order of appearance
};

/// The expected form of each scheme, as error messages and docs/can.md show it.
[[nodiscard]] std::string_view expected_uri_form(std::string_view scheme) noexcept;

/// Splits a URI. Throws std::invalid_argument on an unknown scheme, an empty target, or a
/// query that is not key=value pairs with distinct keys.
[[nodiscard]] TransportUri parse_transport_uri(std::string_view uri);

/// "CAN transport URI '<uri>': <what>; expected <form>", thrown as std::invalid_argument.
[[noreturn]] void throw_uri_error(const TransportUri& uri, std::string_view what);

/// Hands out the query parameters of one URI; finish() rejects any left unread.
class UriQuery {
 public:
  explicit UriQuery(const TransportUri& uri) : uri_(uri), taken_(uri.query.size(), false) {}

  [[nodiscard]] std::optional<std::string> take(std::string_view key);
  /// Decimal or 0x-hex, within [min, max]; an error names the key and the range.
  [[nodiscard]] std::optional<std::uint64_t> take_unsigned(std::string_view key, std::uint64_t min,
                                                           std::uint64_t max);
  /// take_unsigned() for a 32-bit field, max <= UINT32_MAX.
  [[nodiscard]] std::optional<std::uint32_t> take_u32(std::string_view key, std::uint32_t min,
                                                      std::uint32_t max) {
    const auto value = take_unsigned(key, min, max);
    return value ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*value)) : std::nullopt;
  }
  /// 0/1, true/false, yes/no, on/off.
  [[nodiscard]] std::optional<bool> take_bool(std::string_view key);
  /// Throws naming the first parameter nobody took, and the accepted ones.
  void finish(std::string_view accepted_keys) const;

 private:
  const TransportUri& uri_;
  std::vector<bool> taken_;
};

/// Decimal or 0x-hex unsigned number, the whole of `text`; nullopt otherwise.
[[nodiscard]] std::optional<std::uint64_t> parse_unsigned(std::string_view text) noexcept;

struct HostPort {
  std::string host;  ///< name, IPv4 address, or IPv6 address without the brackets
  std::uint16_t port = 0;
};

/// "HOST:PORT" or "[IPV6]:PORT"; nullopt with `why` filled when it is neither.
[[nodiscard]] std::optional<HostPort> parse_host_port(std::string_view text, std::string& why);

}  // namespace hil::io::can
