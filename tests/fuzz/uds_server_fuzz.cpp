// libFuzzer target for the UDS server (io/can/uds/uds_server.hpp) and its DTC store: the input
// is a script of operations — requests of arbitrary bytes, physically or functionally
// addressed, into a full or a short response buffer; time steps; ticks; monitor reports;
// operation cycles, clears and resets; and a correctly keyed sendKey after a seed, so that the
// secured paths are reached too. Every response is also described (tester side). Besides
// crashes and sanitizer reports it traps when a promise breaks:
//  - a response longer than its buffer, or neither the request's positive SID nor 7F sid nrc;
//  - a functional request answered with NRC 0x11, 0x12, 0x31, 0x7E or 0x7F (§7.5);
//  - tick() sending anything but 7F 31 78 or a startRoutine response;
//  - a session other than default, programming, extended;
//  - a DTC status that ISO 14229-1 Annex D's rules cannot produce (e.g. testFailedThisOperation-
//    Cycle without pendingDTC, or testNotCompletedSinceLastClear with any failure bit).
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target uds_server_fuzz
//   cmake --build --preset fuzz --target run_uds_server_fuzz   # 60 s with the seed corpus

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/can/uds/dtc_store.hpp"
#include "io/can/uds/uds_server.hpp"

namespace {

namespace uds = hil::io::can::uds;
namespace st = uds::dtc_status;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

/// Takes bytes off the front of the input; 0 once it is used up.
class Script {
 public:
  explicit Script(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  [[nodiscard]] bool done() const { return at_ >= bytes_.size(); }
  std::uint8_t next() { return done() ? 0 : bytes_[at_++]; }
  std::span<const std::uint8_t> take(std::size_t n) {
    const std::size_t k = std::min(n, bytes_.size() - at_);
    const std::span<const std::uint8_t> s = bytes_.subspan(at_, k);
    at_ += k;
    return s;
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

struct Data final : uds::DataAccess {
  std::array<std::uint8_t, 8> value{1, 2, 3, 4, 5, 6, 7, 8};
  bool refuse = false;
  bool read(std::size_t, std::span<std::uint8_t> out) noexcept override {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = value[i % value.size()];
    return !refuse;
  }
  bool write(std::size_t, std::span<const std::uint8_t> data) noexcept override {
    for (std::size_t i = 0; i < data.size(); ++i) value[i % value.size()] = data[i];
    return !refuse;
  }
  bool start_routine(std::size_t, std::span<const std::uint8_t>) noexcept override {
    return !refuse;
  }
  bool stop_routine(std::size_t) noexcept override { return !refuse; }
  std::size_t routine_status(std::size_t, uds::RoutineControlType type,
                             std::span<std::uint8_t> out) noexcept override {
    if (out.empty() || type == uds::RoutineControlType::start) return 0;
    out[0] = 0x30;
    return 1;
  }
};

uds::ServerSpec spec() {
  uds::ServerSpec s;
  s.vin = "W0L000043MB541326";
  s.part_number = "HIL-4711";
  s.dids = {{.id = 0x0100, .length = 2},
            {.id = 0x0200, .length = 2, .writable = true},
            {.id = 0x0300, .length = 4, .writable = true, .write_security_level = 1},
            {.id = 0x0400, .length = 3000}};
  s.routines = {{.id = 0x0201},
                {.id = 0xFF00,
                 .duration_ns = 7'000'000'000,
                 .sessions = uds::kNonDefaultSessions,
                 .security_level = 1}};
  s.snapshot_did = 0x0100;
  return s;
}

std::vector<uds::DtcSpec> dtcs() {
  return {{.code = 0x0A9B17, .confirmation_threshold = 2, .aging_threshold = 2},
          {.code = 0x080511, .fail_threshold = 3, .pass_threshold = -2, .jump_down = false},
          {.code = 0x25221F, .fail_step = 2, .fail_threshold = 5, .aging_threshold = 0}};
}

bool suppressed_when_functional(std::uint8_t code) {
  return code == 0x11 || code == 0x12 || code == 0x31 || code == 0x7E || code == 0x7F;
}

/// Annex D.2.3: combinations the status bit rules never produce.
void check_status(std::uint8_t s) {
  const auto has = [&](std::uint8_t bit) { return (s & bit) != 0; };
  require(!has(st::kWarningIndicatorRequested));
  if (has(st::kTestFailedThisOperationCycle)) {
    require(has(st::kPendingDtc) && has(st::kTestFailedSinceLastClear) &&
            !has(st::kTestNotCompletedThisOperationCycle));
  }
  if (has(st::kTestFailed) || has(st::kPendingDtc) || has(st::kConfirmedDtc)) {
    require(has(st::kTestFailedSinceLastClear));
  }
  if (has(st::kTestNotCompletedSinceLastClear)) {
    require(s == st::kInitial);
  }
}

void check_response(std::span<const std::uint8_t> request, bool functional,
                    std::span<const std::uint8_t> response, std::size_t capacity) {
  require(response.size() <= capacity);
  if (response.empty()) return;
  require(!request.empty());
  if (response[0] == uds::sid::kNegativeResponse) {
    require(response.size() == 3 && response[1] == request[0]);
    require(!(functional && suppressed_when_functional(response[2])));
  } else {
    require(response[0] == request[0] + uds::sid::kPositiveResponseOffset);
  }
  require(!uds::describe(response).empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Script script({data, size});
  Data access;
  uds::DtcStore store(dtcs());
  uds::UdsServer server(spec(), store, access);
  std::array<std::uint8_t, uds::kMaxMessageBytes> buffer{};
  std::int64_t now = 0;
  std::uint32_t last_seed = 0;
  while (!script.done()) {
    const std::uint8_t op = script.next();
    switch (op % 8) {
      case 0:
      case 1:
      case 2: {  // a request; bit 3 functional, bit 4 a short buffer
        const bool functional = (op & 0x08) != 0;
        const std::size_t capacity = (op & 0x10) != 0 ? script.next() % 32 : buffer.size();
        const std::span<const std::uint8_t> request = script.take(script.next() % 48);
        const std::span<std::uint8_t> out(buffer.data(), capacity);
        const std::size_t n = server.handle(request, functional, now, out);
        check_response(request, functional, {buffer.data(), n}, capacity);
        if (n == 6 && buffer[0] == 0x67 && buffer[1] == 0x01) {
          last_seed = uds::get_u32(std::span<const std::uint8_t>(buffer), 2);
        }
        break;
      }
      case 3: {  // sendKey with the key of the last seed (wrong if bit 3)
        std::uint32_t key = uds::xor_key(last_seed, server.spec().security.key_mask);
        if ((op & 0x08) != 0) key = ~key;
        const std::array<std::uint8_t, 6> request{0x27,
                                                  0x02,
                                                  static_cast<std::uint8_t>(key >> 24),
                                                  static_cast<std::uint8_t>(key >> 16),
                                                  static_cast<std::uint8_t>(key >> 8),
                                                  static_cast<std::uint8_t>(key)};
        const std::size_t n = server.handle(request, false, now, buffer);
        check_response(request, false, {buffer.data(), n}, buffer.size());
        break;
      }
      case 4:
        now += std::int64_t{script.next()} * 50'000'000;
        break;  // up to 12.75 s
      case 5: {
        const std::size_t n = server.tick(now, buffer);
        if (n > 0) {
          const bool pending =
              n == 3 && buffer[0] == 0x7F && buffer[1] == 0x31 && buffer[2] == 0x78;
          const bool final = n >= 4 && buffer[0] == 0x71 && buffer[1] == 0x01;
          require(pending || final);
        }
        break;
      }
      case 6: {
        const std::uint8_t arg = script.next();
        (void)store.report(arg % 4, (arg & 0x80) != 0);  // index 3 does not exist
        break;
      }
      default:
        switch ((op >> 3) % 5) {
          case 0:
            store.start_operation_cycle();
            break;
          case 1:
            (void)store.clear(uds::kAllDtcGroups);
            break;
          case 2:
            server.complete_reset();
            break;
          case 3:
            access.refuse = !access.refuse;
            break;
          default:
            store.set_tick(now);
            break;
        }
        break;
    }
    const auto session = static_cast<std::uint8_t>(server.session());
    require(session >= 1 && session <= 3);
    for (std::size_t i = 0; i < store.count(); ++i) check_status(store.status(i));
    uds::StatusChange change;
    while (store.pop_change(change)) require(change.old_status != change.new_status);
  }
  return 0;
}
