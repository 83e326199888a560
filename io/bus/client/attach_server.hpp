#pragma once
// The attach server (docs/bus.md "Attach"): serves a BusImage on an AF_UNIX SOCK_SEQPACKET
// socket from ONE non-RT thread of its own (poll()). Each client sends a HELLO and gets a
// WELCOME with read-only fds of every segment, plus a read-write fd of its role's IN segment
// when it asked to write, the role exists, its peer credentials are allowed and the role's
// lease is free. The open connection IS the lease: when it closes (the client detached or
// died; the kernel closes it), the role is free again within one poll round, and the role's
// regions get writer_pid 0. The server never reads what clients write.
//
// Thread-safety: the constructor and destructor from the owner's setup/teardown; reserve(),
// unreserve(), lease_holder(), clients() and the counters from any non-RT thread (a mutex
// guards the role table; counters are relaxed atomics and may be read from the RT thread).

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "io/bus/bus_image.hpp"
#include "io/bus/client/attach_protocol.hpp"

namespace hil::io::bus {

/// Who may lease a role: SO_PEERCRED's uid in `uids` or gid in `gids`. Both empty = any local
/// user who can open the socket.
struct RoleAccess {
  std::vector<uid_t> uids;
  std::vector<gid_t> gids;
};

struct AttachServerSpec {
  std::size_t max_clients = 64;             ///< connections beyond are refused
  std::map<std::string, RoleAccess> allow;  ///< per role; a role not listed: anyone
  mode_t socket_mode = 0660;
  std::optional<gid_t> socket_group;      ///< chown the socket to this group (e.g. hilsim)
  std::uint32_t hello_timeout_ms = 1000;  ///< a connection silent this long is closed
};

/// One connected client, as `hilsim bus ls` shows it.
struct AttachedClient {
  pid_t pid = 0;  ///< SO_PEERCRED
  uid_t uid = 0;
  std::string name;  ///< HELLO's client_name
  std::string role;  ///< the leased role; "" for readers
};

class AttachServer {
 public:
  /// Binds `socket_path` (mode options.socket_mode) and starts the thread. Throws
  /// std::runtime_error "a rig named X is already running: <path>" when a server answers on
  /// the path, or when the path exists and is not a socket; a stale socket (nobody answers)
  /// is replaced. std::system_error for socket errors. `image` must outlive the server.
  AttachServer(BusImage& image, std::filesystem::path socket_path, AttachServerSpec options = {});
  /// Stops the thread, closes every client (they see EOF: detached), unlinks the socket.
  ~AttachServer();
  AttachServer(const AttachServer&) = delete;
  AttachServer& operator=(const AttachServer&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

  /// Marks `role` as written in-process (the UDP mirror writes remote roles): clients asking
  /// for it get ROLE_TAKEN naming `holder`. False when a client holds it or it is unknown.
  bool reserve(std::string_view role, std::string_view holder = "hilsim bus mirror");
  /// Ends a reservation.
  void unreserve(std::string_view role);
  /// The pid holding `role`'s lease (this process's for a reservation), 0 when free.
  [[nodiscard]] pid_t lease_holder(std::string_view role) const;
  /// The clients connected now.
  [[nodiscard]] std::vector<AttachedClient> clients() const;

  // Counters since construction (relaxed atomics; any thread).
  [[nodiscard]] std::uint64_t attaches() const noexcept { return attaches_.load(kRelaxed); }
  [[nodiscard]] std::uint64_t refusals() const noexcept { return refusals_.load(kRelaxed); }
  [[nodiscard]] std::uint64_t leases_granted() const noexcept { return granted_.load(kRelaxed); }
  [[nodiscard]] std::uint64_t leases_released() const noexcept { return released_.load(kRelaxed); }

 private:
  static constexpr std::memory_order kRelaxed = std::memory_order_relaxed;
  struct Connection;
  struct Lease {
    pid_t pid = 0;
    std::string holder;  ///< client name or the reservation's holder
    bool reserved = false;
  };

  void run() noexcept;
  void accept_clients();
  /// False when the connection is to be dropped (refused, EOF, error).
  bool serve_hello(Connection& c);
  Welcome answer(const Hello& hello, Connection& c, std::vector<int>& fds);
  void drop(std::size_t index);
  void stamp_lease(std::string_view role, pid_t pid, bool granted) noexcept;

  BusImage& image_;
  std::filesystem::path path_;
  AttachServerSpec options_;
  int listen_fd_ = -1;
  ino_t socket_inode_ = 0;          ///< of the socket we bound: unlinked only if still ours
  int wake_fd_ = -1;                ///< eventfd: the destructor wakes the thread
  std::vector<int> read_only_fds_;  ///< one per segment, reopened O_RDONLY once

  mutable std::mutex mutex_;                          ///< guards leases_ and connections_' identity
  std::map<std::string, Lease, std::less<>> leases_;  ///< role → holder
  std::vector<std::unique_ptr<Connection>> connections_;

  std::atomic<std::uint64_t> attaches_{0};
  std::atomic<std::uint64_t> refusals_{0};
  std::atomic<std::uint64_t> granted_{0};
  std::atomic<std::uint64_t> released_{0};
  std::thread thread_;
};

}  // namespace hil::io::bus
