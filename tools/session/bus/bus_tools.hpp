#pragma once
// `hilsim bus`: look at and drive the shared-memory bus of a running rig from the shell
// (docs/bus.md "From the shell"), and keep a replica of it on another host. Each attaches as
// a client of libhilbus's C++ side (io/bus/client/bus_client.hpp), like any co-simulator.
// Setup phase, one thread; each returns the process's exit code.

#include <optional>
#include <string>
#include <vector>

namespace hil::session {

/// Which running rig: its bus name (--rig), or the only one running.
struct BusTarget {
  std::string rig;  ///< "" = the only bus in the runtime directory
};

struct BusLsSpec {
  BusTarget target;
  bool json = false;
};
/// The regions of the running rig(s): writer, lease, sequence, rate, age, status.
[[nodiscard]] int bus_ls(const BusLsSpec& o);

struct BusDumpSpec {
  BusTarget target;
  std::string region;
  bool json = false;
  bool follow = false;      ///< print new snapshots until Ctrl-C (or --count)
  std::uint64_t count = 0;  ///< with follow: stop after this many printed (0: no limit)
  double rate_hz = 10.0;    ///< with follow: print the latest snapshot at this display rate
  bool all = false;         ///< with follow: print every snapshot (ignores rate_hz)
};
[[nodiscard]] int bus_dump(const BusDumpSpec& o);

struct BusWriteSpec {
  BusTarget target;
  std::string region;
  std::vector<std::string> assignments;  ///< CHANNEL=VALUE; a unique suffix names a channel
  std::optional<std::string> duration;   ///< keep publishing this long ("10s", "inf")
  double rate_hz = 100.0;
};
[[nodiscard]] int bus_write(const BusWriteSpec& o);

struct BusMirrorSpec {
  std::string rig;  ///< the rig file or name whose bus to mirror (the same files as the rig's host)
  std::vector<std::string> overlays;
  std::string peer;                     ///< host:port of the rig's mirror (its bus.mirror.bind)
  std::string bind;                     ///< local host:port
  std::optional<std::string> key_file;  ///< default: the rig's bus.mirror.key_file
  bool quiet = false;
};
/// The far end: a local replica of the rig's bus that local co-simulators attach to, kept in
/// step with the rig over the UDP mirror, until Ctrl-C.
[[nodiscard]] int bus_mirror(const BusMirrorSpec& o);

/// A new random mirror key in `file` (mode 0600).
[[nodiscard]] int bus_keygen(const std::string& file);

}  // namespace hil::session
