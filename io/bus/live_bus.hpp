#pragma once
// A bus that co-simulators can reach: its image in shared memory, the attach server on its
// socket (local clients), and the UDP mirror when the rig has one (remote peers). hilsim
// runs one beside its loop; `hilsim bus mirror` runs one as the replica on another host,
// with the mirror's directions turned around. Setup phase: construction opens sockets and
// starts their non-RT threads; throws std::runtime_error naming what failed.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "io/bus/bus_exchange.hpp"
#include "io/bus/bus_image.hpp"
#include "io/bus/bus_schema.hpp"
#include "io/bus/bus_spec.hpp"

namespace hil::io::bus {

class AttachServer;
namespace mirror {
class Mirror;
class HealthFileWriter;
}  // namespace mirror

struct LiveBusSpec {
  std::filesystem::path endpoint;    ///< the attach socket
  std::optional<MirrorSpec> mirror;  ///< the rig's mirror block
  /// The far side (`hilsim bus mirror`): send what the rig receives and receive what it sends,
  /// from `peer` (the rig's mirror address), bound to `bind`.
  bool replica = false;
  std::string replica_bind;
  std::string replica_peer;
  /// The rig's tick: the mirror's receive budget is per tick.
  std::uint64_t tick_period_ns = 1'000'000;
};

class LiveBus {
 public:
  LiveBus(BusSchema schema, const LiveBusSpec& options);
  ~LiveBus();
  LiveBus(LiveBus&&) = delete;
  LiveBus(const LiveBus&) = delete;
  LiveBus& operator=(const LiveBus&) = delete;

  [[nodiscard]] BusImage& image() noexcept { return *image_; }
  [[nodiscard]] const BusImage& image() const noexcept { return *image_; }
  /// The input regions as the RT task reads them.
  [[nodiscard]] ImageInput& input() noexcept { return *input_; }
  [[nodiscard]] AttachServer& server() noexcept { return *server_; }
  [[nodiscard]] mirror::Mirror* mirror() noexcept { return mirror_.get(); }
  [[nodiscard]] const mirror::Mirror* mirror() const noexcept { return mirror_.get(); }
  [[nodiscard]] const std::filesystem::path& endpoint() const noexcept { return endpoint_; }
  /// One line for the run's start: "bus ravon: 3 regions at /run/hilsim/ravon.bus; mirror …".
  [[nodiscard]] std::string describe() const;
  /// Stops the mirror and marks the segments closed (clients see it); the server closes
  /// with the object. Idempotent.
  void close() noexcept;

 private:
  std::filesystem::path endpoint_;
  std::unique_ptr<BusImage> image_;
  std::unique_ptr<ImageInput> input_;
  std::unique_ptr<AttachServer> server_;
  std::unique_ptr<mirror::Mirror> mirror_;
  std::unique_ptr<mirror::HealthFileWriter> health_;  // <endpoint>.mirror.json for bus ls
};

}  // namespace hil::io::bus
