#include "io/bus/client/bus_client.hpp"

#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <utility>

#include "io/bus/bus_image.hpp"
#include "io/bus/client/attach_connect.hpp"
#include "io/bus/client/attach_protocol.hpp"
#include "io/bus/client/schema_diff.hpp"

namespace hil::io::bus {

namespace {

std::uint64_t load(const std::uint64_t& word) noexcept {
  return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(word))
      .load(std::memory_order_acquire);
}

/// Closes the fds of a WELCOME the client did not take over.
struct FdGuard {
  std::vector<int>& fds;
  ~FdGuard() {
    for (const int fd : fds) {
      if (fd >= 0) close(fd);
    }
  }
};

}  // namespace

std::unique_ptr<BusClient> BusClient::attach(const std::filesystem::path& endpoint,
                                             const AttachSpec& options, BusStatus& status,
                                             std::string& why) {
  try {
    if (options.role.size() >= kRoleBytes) {
      status = BusStatus::bad_argument;
      why = "role \"" + options.role + "\" is longer than " + std::to_string(kRoleBytes - 1) +
            " bytes";
      return nullptr;
    }
    std::unique_ptr<BusClient> client(new BusClient());
    status = connect_to(endpoint, options.timeout_ms, client->socket_, why);
    if (status != BusStatus::ok) return nullptr;

    Hello hello{};
    hello.magic = kHelloMagic;
    hello.proto = kAttachProto;
    hello.want_write = options.role.empty() ? 0 : 1;
    hello.pid = static_cast<std::uint32_t>(getpid());
    hello.schema_hash = options.expect_schema_hash != 0 ? options.expect_schema_hash
                        : options.expect_schema         ? options.expect_schema->hash()
                                                        : 0;
    set_field(hello.role, sizeof hello.role, options.role);
    set_field(hello.client_name, sizeof hello.client_name,
              options.client_name.empty() ? program_invocation_short_name : options.client_name);
    if (!send_hello(client->socket_, hello, why)) {
      status = BusStatus::io_error;
      return nullptr;
    }
    Welcome welcome{};
    std::vector<int> fds;
    if (!receive_welcome(client->socket_, options.timeout_ms, welcome, fds, why)) {
      status = errno == ETIMEDOUT ? BusStatus::timeout : BusStatus::io_error;
      why = "attaching to " + endpoint.string() + ": " + why;
      return nullptr;
    }
    FdGuard guard{fds};
    status = status_of(welcome.status);
    if (welcome.status == AttachStatus::schema_mismatch) {
      why = "the rig's bus differs: " + std::string(welcome.message);
      // The read-only fds came along: name the first difference when we know what we expect
      std::string ignored;
      if (options.expect_schema &&
          client->adopt(welcome, fds, AttachSpec{}, ignored) == BusStatus::ok) {
        BusSchema actual{.name = client->bus_name_};
        for (const RegionInfo& r : client->regions_) {
          actual.regions.push_back(
              {r.name, r.direction, r.writer, r.channels, r.timeout_ticks, r.expected_period_ns});
        }
        why = "the rig's bus differs: " + first_difference(*options.expect_schema, actual);
      }
      return nullptr;
    }
    if (status != BusStatus::ok) {
      why = welcome.message;
      if (why.empty()) why = std::string("refused: ") + to_string(welcome.status);
      return nullptr;
    }
    status = client->adopt(welcome, fds, options, why);
    if (status != BusStatus::ok) return nullptr;
    return client;
  } catch (const std::exception& e) {
    status = BusStatus::io_error;
    why = e.what();
    return nullptr;
  }
}

BusStatus BusClient::adopt(const Welcome& welcome, std::vector<int>& fds, const AttachSpec& options,
                           std::string& why) {
  // Map: the role's segment read-write (its read-only duplicate is closed), the rest read-only
  std::vector<const WelcomeSegment*> entries;
  for (std::uint32_t i = 0; i < welcome.segment_count; ++i) {
    const WelcomeSegment& e = welcome.segments[i];
    bool duplicate = false;
    for (std::uint32_t j = 0; j < welcome.segment_count; ++j) {
      duplicate = duplicate || (j != i && e.writable == 0 && welcome.segments[j].writable != 0 &&
                                welcome.segments[j].index == e.index);
    }
    const int fd = std::exchange(fds[i], -1);
    if (duplicate) {
      close(fd);
      continue;
    }
    segments_.push_back(Segment::map(fd, e.writable != 0));  // owns fd even when it throws
    entries.push_back(&e);
  }
  struct Found {
    RegionDescriptor d;
    std::size_t segment;
  };
  std::vector<Found> found;
  std::vector<std::vector<ChannelSchema>> channels;
  const std::string what = "bus segment from the rig: ";
  for (std::size_t s = 0; s < segments_.size(); ++s) {
    const Segment& seg = segments_[s];
    const WelcomeSegment& e = *entries[s];
    // Parse a private copy of header and directory: the other side may scribble on the memory
    if (seg.size() < kHeaderBytes) {
      why = what + "smaller than its header";
      return BusStatus::schema;
    }
    SegmentHeader head{};
    std::memcpy(&head, seg.data(), sizeof head);
    const std::uint64_t dir_end = std::uint64_t{head.directory_offset} + head.directory_bytes;
    std::vector<std::byte> copy(
        std::max<std::uint64_t>(kHeaderBytes, std::min<std::uint64_t>(dir_end, seg.size())));
    std::memcpy(copy.data(), seg.data(), copy.size());
    std::string reason;
    const auto dir = parse_segment(copy.data(), seg.size(), reason);
    if (!dir || copy.size() < dir_end) {
      why = what + (dir ? "segment directory out of bounds" : reason);
      return BusStatus::schema;
    }
    const SegmentHeader& h = *dir->header;
    const std::string role(field_text(h.role, sizeof h.role));
    if (h.kind != e.kind || role != field_text(e.role, sizeof e.role) ||
        h.bus_schema_hash != welcome.bus_schema_hash || h.generation != welcome.generation) {
      why = what + "its header disagrees with the WELCOME (kind, role, schema hash or generation)";
      return BusStatus::schema;
    }
    if (s == 0 || h.kind == SegmentKind::out) {
      bus_name_ = field_text(h.bus_name, sizeof h.bus_name);
    }
    if (h.kind == SegmentKind::out)
      owner_header_ = reinterpret_cast<const SegmentHeader*>(seg.data());
    for (const RegionDescriptor& d : dir->regions) {
      const bool in = h.kind == SegmentKind::in;
      const bool placed = d.control_offset < seg.size() && d.slot_offset < seg.size() &&
                          d.slot_stride < seg.size() &&
                          d.direction == (in ? RegionDirection::input : RegionDirection::output) &&
                          (!in || field_text(d.writer, sizeof d.writer) == role);
      if (!placed) {
        why = what + "region \"" + std::string(field_text(d.name, sizeof d.name)) +
              "\" misplaced or out of bounds";
        return BusStatus::schema;
      }
      found.push_back({d, s});
      std::vector<ChannelSchema> list;
      for (std::uint32_t k = 0; k < d.value_count; ++k) {
        const ChannelEntry& c = dir->channels[d.first_channel + k];
        list.push_back({std::string(field_text(c.name, sizeof c.name)),
                        std::string(field_text(c.unit, sizeof c.unit))});
      }
      channels.push_back(std::move(list));
    }
  }
  if (owner_header_ == nullptr) {
    why = what + "the WELCOME carried no OUT segment";
    return BusStatus::schema;
  }
  // Region ids: exactly 0..n-1, once each
  const std::size_t n = found.size();
  regions_.resize(n);
  views_.resize(n);
  writers_.resize(n);
  homes_.assign(n, nullptr);
  std::vector<bool> seen(n, false);
  session_ = 0;
  role_ = options.role;
  while (!role_.empty() && session_ == 0) session_ = random_u64();
  for (std::size_t k = 0; k < n; ++k) {
    const RegionDescriptor& d = found[k].d;
    if (d.id >= n || seen[d.id]) {
      why = what + "region ids are not 0.." + std::to_string(n - 1) + " once each";
      return BusStatus::schema;
    }
    seen[d.id] = true;
    const Segment& seg = segments_[found[k].segment];
    RegionInfo& info = regions_[d.id];
    info.id = d.id;
    info.name = field_text(d.name, sizeof d.name);
    info.direction = d.direction;
    info.writer = field_text(d.writer, sizeof d.writer);
    info.timeout_ticks = d.timeout_ticks;
    info.expected_period_ns = d.expected_period_ns;
    info.channels = std::move(channels[k]);
    views_[d.id] = RegionView(seg.data(), d);
    homes_[d.id] = reinterpret_cast<const SegmentHeader*>(seg.data());
    if (seg.writable()) {
      if (info.writer != role_) {
        why = what + "the read-write segment is not role \"" + role_ + "\"'s";
        return BusStatus::schema;
      }
      views_[d.id].recover();  // the previous writer may have died mid-publish
      writers_[d.id] = RegionWriter(views_[d.id], session_);
    }
  }
  // The directory must be the bus its hash names (catches a scribbled directory)
  BusSchema actual{.name = bus_name_};
  for (const RegionInfo& r : regions_) {
    actual.regions.push_back(
        {r.name, r.direction, r.writer, r.channels, r.timeout_ticks, r.expected_period_ns});
  }
  if (actual.hash() != welcome.bus_schema_hash) {
    why = what + "its directory does not hash to the bus schema hash it carries";
    return BusStatus::schema;
  }
  generation_ = welcome.generation;
  schema_hash_ = welcome.bus_schema_hash;
  if (options.expect_schema && options.expect_schema->hash() != schema_hash_) {
    why = "the rig's bus differs: " + first_difference(*options.expect_schema, actual);
    return BusStatus::schema;
  }
  if (options.expect_schema_hash != 0 && options.expect_schema_hash != schema_hash_) {
    why = "the rig's bus differs: schema hash " + std::to_string(schema_hash_) + ", expected " +
          std::to_string(options.expect_schema_hash);
    return BusStatus::schema;
  }
  return BusStatus::ok;
}

BusClient::~BusClient() {
  if (socket_ >= 0) close(socket_);
}

int BusClient::find_region(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    if (regions_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

bool BusClient::find_channel(std::string_view name, std::uint32_t& region,
                             std::uint32_t& index) const noexcept {
  for (const RegionInfo& r : regions_) {
    for (std::size_t c = 0; c < r.channels.size(); ++c) {
      if (r.channels[c].name == name) {
        region = r.id;
        index = static_cast<std::uint32_t>(c);
        return true;
      }
    }
  }
  return false;
}

bool BusClient::writes(std::uint32_t region) const noexcept {
  return region < writers_.size() && writers_[region].view().valid();
}

BusStatus BusClient::read(std::uint32_t region, RegionSnapshot& out, unsigned max_tries) const {
  if (region >= views_.size()) return BusStatus::bad_argument;
  const RegionView& view = views_[region];
  for (unsigned t = 0; t < std::max(max_tries, 1U); ++t) {
    if (t > 0) sched_yield();
    if (view.read(out, 1).ok) {
      return out.head.region_seq == 0 ? BusStatus::stale : BusStatus::ok;
    }
  }
  return BusStatus::contention;
}

BusStatus BusClient::write(std::uint32_t region, const double* values, std::uint32_t n,
                           std::int64_t tick, SlotStatus status) {
  if (region >= views_.size()) return BusStatus::bad_argument;
  if (!writes(region)) return BusStatus::not_writer;
  if (values == nullptr || n != views_[region].value_count() ||
      static_cast<std::uint64_t>(status) > static_cast<std::uint64_t>(SlotStatus::safe_state)) {
    return BusStatus::bad_argument;
  }
  if (detached()) return BusStatus::detached;
  RegionWriter& w = writers_[region];
  w.publish(values, tick, monotonic_ns(), status);
  // Readers map the segment read-only and cannot count themselves in `waiters`: always wake
  syscall(SYS_futex, &w.view().control().notify_word, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
  return BusStatus::ok;
}

BusStatus BusClient::wait(std::uint32_t region, std::uint64_t after_seq, std::uint32_t timeout_us) {
  if (region >= views_.size()) return BusStatus::bad_argument;
  constexpr std::uint64_t kSliceNs = 100'000;           // hilsim's RT writer never wakes us
  constexpr std::uint64_t kDetachCheckNs = 10'000'000;  // poll the socket this often
  const RegionView& view = views_[region];
  std::uint32_t& word = view.control().notify_word;
  const std::uint64_t start = monotonic_ns();
  const std::uint64_t deadline = start + std::uint64_t{timeout_us} * 1000;
  std::uint64_t next_check = start;
  RegionSnapshot snap;
  for (;;) {
    const std::uint32_t seen = std::atomic_ref<std::uint32_t>(word).load(std::memory_order_acquire);
    const BusStatus s = read(region, snap, 16);
    if ((s == BusStatus::ok || s == BusStatus::stale) && snap.head.region_seq != after_seq) {
      return BusStatus::ok;
    }
    const std::uint64_t now = monotonic_ns();
    if (now >= deadline) return BusStatus::timeout;
    if (now >= next_check) {
      if (detached()) return BusStatus::detached;
      next_check = now + kDetachCheckNs;
    }
    const std::uint64_t slice = std::min(deadline - now, kSliceNs);
    const timespec ts{0, static_cast<long>(slice)};
    syscall(SYS_futex, &word, FUTEX_WAIT, seen, &ts, nullptr, 0);
  }
}

bool BusClient::detached() const noexcept {
  if (detached_.load(std::memory_order_relaxed)) return true;
  bool gone = false;
  for (const SegmentHeader* h : homes_) {
    gone = gone || load(h->state) >= static_cast<std::uint64_t>(SegmentState::closing);
  }
  char byte = 0;
  const ssize_t got = recv(socket_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  gone = gone || got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR);
  if (gone) detached_.store(true, std::memory_order_relaxed);
  return gone;
}

std::int64_t BusClient::owner_tick() const noexcept {
  return static_cast<std::int64_t>(load(owner_header_->owner_tick));
}

std::uint64_t BusClient::owner_heartbeat_mono_ns() const noexcept {
  return load(owner_header_->owner_heartbeat_mono_ns);
}

const RegionControl* BusClient::control(std::uint32_t region) const noexcept {
  return region < views_.size() ? &views_[region].control() : nullptr;
}

std::uint64_t BusClient::writer_pid(std::uint32_t region) const noexcept {
  const RegionControl* c = control(region);
  return c != nullptr ? load(c->writer_pid) : 0;
}

}  // namespace hil::io::bus
