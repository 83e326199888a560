#pragma once
// The attach handshake (docs/bus.md "Attach"), version 1, over an AF_UNIX SOCK_SEQPACKET
// connection: the client sends one HELLO, the server answers one WELCOME carrying the
// segments' file descriptors (SCM_RIGHTS), one per WelcomeSegment entry and in that order.
// Both messages are fixed-size little-endian structs; a message of any other size is refused.
// The connection then stays open: it is the write lease, and its EOF tells the client the rig
// went away.
//
// Thread-safety: free functions over a caller-owned socket; non-RT threads only (they make
// system calls).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/bus/bus_layout.hpp"

namespace hil::io::bus {

static_assert(std::endian::native == std::endian::little, "the attach messages are little-endian");

inline constexpr std::uint32_t kAttachProto = 1;
inline constexpr std::uint32_t kHelloMagic = 0x4C454842;    ///< "BHEL" little-endian
inline constexpr std::uint32_t kWelcomeMagic = 0x4C455742;  ///< "BWEL" little-endian
inline constexpr std::size_t kClientNameBytes = 48;         ///< NUL-terminated
inline constexpr std::size_t kAttachMessageBytes = 256;     ///< refusal text, NUL-terminated
/// Entries (and fds) one WELCOME carries: every segment read-only plus one read-write.
inline constexpr std::size_t kMaxWelcomeSegments = 64;

/// WELCOME::status.
enum class AttachStatus : std::uint32_t {
  ok = 0,
  role_taken = 1,        ///< another client (or the mirror) holds the role's lease
  role_unknown = 2,      ///< the bus has no input region written by that role
  not_permitted = 3,     ///< SO_PEERCRED not on the role's allow-list
  schema_mismatch = 4,   ///< bus_schema_hash is the server's; read-only fds still come
  bad_hello = 5,         ///< wrong size, magic or protocol version, or a malformed field
  too_many_clients = 6,  ///< the server's client cap is reached
};
[[nodiscard]] const char* to_string(AttachStatus s) noexcept;

struct Hello {
  std::uint32_t magic;        ///< kHelloMagic
  std::uint32_t proto;        ///< kAttachProto
  std::uint32_t want_write;   ///< 1: lease `role` and get its IN segment read-write
  std::uint32_t pid;          ///< advisory (the server trusts SO_PEERCRED)
  std::uint64_t schema_hash;  ///< the bus the client expects; 0 = accept any
  char role[kRoleBytes];      ///< NUL-terminated; "" = read only
  char client_name[kClientNameBytes];
};
static_assert(offsetof(Hello, proto) == 4);
static_assert(offsetof(Hello, want_write) == 8);
static_assert(offsetof(Hello, pid) == 12);
static_assert(offsetof(Hello, schema_hash) == 16);
static_assert(offsetof(Hello, role) == 24);
static_assert(offsetof(Hello, client_name) == 72);
static_assert(sizeof(Hello) == 120);

/// What one passed fd is.
struct WelcomeSegment {
  SegmentKind kind;        ///< out or in
  std::uint32_t writable;  ///< 1: the fd may be mapped read-write
  std::uint32_t index;     ///< the segment's index in the bus (0 = OUT)
  std::uint32_t reserved;
  char role[kRoleBytes];  ///< the IN segment's writer role; "" for OUT
};
static_assert(offsetof(WelcomeSegment, writable) == 4);
static_assert(offsetof(WelcomeSegment, index) == 8);
static_assert(offsetof(WelcomeSegment, role) == 16);
static_assert(sizeof(WelcomeSegment) == 64);

struct Welcome {
  std::uint32_t magic;  ///< kWelcomeMagic
  std::uint32_t proto;  ///< kAttachProto
  AttachStatus status;
  std::uint32_t segment_count;        ///< entries used = fds passed
  std::uint64_t generation;           ///< of the bus image
  std::uint64_t bus_schema_hash;      ///< the server's (also on schema_mismatch)
  std::uint64_t holder_pid;           ///< role_taken: the lease holder
  char message[kAttachMessageBytes];  ///< refusals: one line saying why
  WelcomeSegment segments[kMaxWelcomeSegments];
};
static_assert(offsetof(Welcome, status) == 8);
static_assert(offsetof(Welcome, segment_count) == 12);
static_assert(offsetof(Welcome, generation) == 16);
static_assert(offsetof(Welcome, bus_schema_hash) == 24);
static_assert(offsetof(Welcome, holder_pid) == 32);
static_assert(offsetof(Welcome, message) == 40);
static_assert(offsetof(Welcome, segments) == 296);
static_assert(sizeof(Welcome) == 296 + 64 * kMaxWelcomeSegments);

/// Copies `text` into a fixed field, truncated to size-1 bytes, NUL-padded.
void set_field(char* field, std::size_t size, std::string_view text) noexcept;

/// Sends one HELLO. False with `why` on a socket error.
bool send_hello(int socket, const Hello& hello, std::string& why);
/// Receives one HELLO (non-blocking socket: false with errno EAGAIN when none is queued).
/// False with `why` when the message is not a HELLO of this protocol (`why` then starts with
/// "bad HELLO") or on a socket error / EOF.
bool receive_hello(int socket, Hello& hello, std::string& why);
/// Sends one WELCOME with `fds` (welcome.segment_count of them; none for refusals).
bool send_welcome(int socket, const Welcome& welcome, const std::vector<int>& fds,
                  std::string& why);
/// Receives one WELCOME and its fds (owned by the caller on success; closed on failure).
/// Blocks up to `timeout_ms`. False with `why` on timeout (errno ETIMEDOUT), EOF, a malformed
/// message, or an fd count that disagrees with segment_count.
bool receive_welcome(int socket, std::uint32_t timeout_ms, Welcome& welcome, std::vector<int>& fds,
                     std::string& why);

}  // namespace hil::io::bus
