// libhilbus: the C ABI over BusClient (hilbus.h). Every entry point catches everything: no
// exception crosses into C, Python, Simulink or Modelica.
#include "io/bus/client/hilbus.h"

#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "io/bus/bus_image.hpp"
#include "io/bus/client/bus_client.hpp"
#include "io/bus/endpoint.hpp"

using hil::io::bus::BusClient;
using hil::io::bus::BusStatus;

struct hilbus_client {
  std::unique_ptr<BusClient> bus;
};

namespace {

static_assert(static_cast<int>(BusStatus::io_error) == HILBUS_IO_ERROR);
static_assert(static_cast<int>(BusStatus::bad_argument) == HILBUS_BAD_ARGUMENT);
static_assert(static_cast<int>(BusStatus::no_endpoint) == HILBUS_NO_ENDPOINT);
static_assert(static_cast<int>(BusStatus::stale) == HILBUS_STALE);
static_assert(static_cast<int>(BusStatus::detached) == HILBUS_DETACHED);

int code(BusStatus s) { return static_cast<int>(s); }

void set_why(char* why, std::size_t size, const std::string& text) {
  if (why == nullptr || size == 0) return;
  const std::size_t n = std::min(text.size(), size - 1);
  std::memcpy(why, text.data(), n);
  why[n] = '\0';
}

const BusClient* get(const hilbus_client* c) { return c != nullptr ? c->bus.get() : nullptr; }
BusClient* get(hilbus_client* c) { return c != nullptr ? c->bus.get() : nullptr; }

}  // namespace

extern "C" {

hilbus_client* hilbus_attach_ex(const char* endpoint_or_rig, const char* role, uint32_t timeout_ms,
                                const char* client_name, uint64_t expect_schema_hash, int* status,
                                char* why, size_t why_size) {
  int ignored = 0;
  int& st = status != nullptr ? *status : ignored;
  try {
    if (endpoint_or_rig == nullptr || *endpoint_or_rig == '\0') {
      st = HILBUS_BAD_ARGUMENT;
      set_why(why, why_size, "no endpoint or rig name given");
      return nullptr;
    }
    const std::string target(endpoint_or_rig);
    const std::filesystem::path endpoint = target.find('/') != std::string::npos
                                               ? std::filesystem::path(target)
                                               : hil::io::bus::endpoint_for(target);
    hil::io::bus::AttachSpec options;
    options.role = role != nullptr ? role : "";
    options.timeout_ms = timeout_ms;
    options.expect_schema_hash = expect_schema_hash;
    options.client_name = client_name != nullptr ? client_name : "";
    BusStatus s = BusStatus::io_error;
    std::string text;
    std::unique_ptr<BusClient> bus = BusClient::attach(endpoint, options, s, text);
    st = code(s);
    if (!bus) {
      set_why(why, why_size, text);
      return nullptr;
    }
    set_why(why, why_size, "");
    return new hilbus_client{std::move(bus)};
  } catch (const std::exception& e) {
    st = HILBUS_IO_ERROR;
    set_why(why, why_size, e.what());
  } catch (...) {
    st = HILBUS_IO_ERROR;
    set_why(why, why_size, "unknown error");
  }
  return nullptr;
}

hilbus_client* hilbus_attach(const char* endpoint_or_rig, const char* role, uint32_t timeout_ms,
                             int* status) {
  return hilbus_attach_ex(endpoint_or_rig, role, timeout_ms, nullptr, 0, status, nullptr, 0);
}

hilbus_client* hilbus_attach_modelica(const char* endpoint_or_rig, const char* role) {
  return hilbus_attach(endpoint_or_rig, role, 1000, nullptr);
}

void hilbus_detach(hilbus_client* client) { delete client; }

uint32_t hilbus_region_count(const hilbus_client* client) {
  const BusClient* bus = get(client);
  return bus != nullptr ? static_cast<uint32_t>(bus->regions().size()) : 0;
}

int hilbus_find_region(const hilbus_client* client, const char* name) {
  const BusClient* bus = get(client);
  return bus != nullptr && name != nullptr ? bus->find_region(name) : -1;
}

int hilbus_find_channel(const hilbus_client* client, const char* name, uint32_t* region,
                        uint32_t* index) {
  const BusClient* bus = get(client);
  std::uint32_t r = 0, i = 0;
  if (bus == nullptr || name == nullptr || !bus->find_channel(name, r, i)) {
    return HILBUS_BAD_ARGUMENT;
  }
  if (region != nullptr) *region = r;
  if (index != nullptr) *index = i;
  return HILBUS_OK;
}

int hilbus_region_info(const hilbus_client* client, uint32_t region,
                       struct hilbus_region_info* out) {
  const BusClient* bus = get(client);
  if (bus == nullptr || out == nullptr || region >= bus->regions().size()) {
    return HILBUS_BAD_ARGUMENT;
  }
  const hil::io::bus::RegionInfo& r = bus->regions()[region];
  out->name = r.name.c_str();
  out->writer = r.writer.c_str();
  out->id = r.id;
  out->direction = static_cast<uint32_t>(r.direction);
  out->value_count = static_cast<uint32_t>(r.channels.size());
  out->timeout_ticks = r.timeout_ticks;
  out->expected_period_ns = r.expected_period_ns;
  return HILBUS_OK;
}

const char* hilbus_channel_name(const hilbus_client* client, uint32_t region, uint32_t index) {
  const BusClient* bus = get(client);
  if (bus == nullptr || region >= bus->regions().size()) return nullptr;
  const auto& channels = bus->regions()[region].channels;
  return index < channels.size() ? channels[index].name.c_str() : nullptr;
}

const char* hilbus_channel_unit(const hilbus_client* client, uint32_t region, uint32_t index) {
  const BusClient* bus = get(client);
  if (bus == nullptr || region >= bus->regions().size()) return nullptr;
  const auto& channels = bus->regions()[region].channels;
  return index < channels.size() ? channels[index].unit.c_str() : nullptr;
}

uint64_t hilbus_schema_hash(const hilbus_client* client) {
  const BusClient* bus = get(client);
  return bus != nullptr ? bus->schema_hash() : 0;
}

uint64_t hilbus_generation(const hilbus_client* client) {
  const BusClient* bus = get(client);
  return bus != nullptr ? bus->generation() : 0;
}

int hilbus_read(hilbus_client* client, uint32_t region, double* values, uint32_t n,
                hilbus_meta* meta) {
  const BusClient* bus = get(client);
  if (bus == nullptr || values == nullptr || region >= bus->regions().size() ||
      n != bus->regions()[region].channels.size()) {
    return HILBUS_BAD_ARGUMENT;
  }
  hil::io::bus::RegionSnapshot snap;
  const BusStatus s = bus->read(region, snap);
  if (s == BusStatus::contention) return code(s);
  if (s == BusStatus::stale) {
    std::memset(values, 0, sizeof(double) * n);
  } else {
    std::memcpy(values, snap.values, sizeof(double) * n);
  }
  if (meta != nullptr) {
    const std::uint64_t now = hil::io::bus::monotonic_ns();
    const hil::io::bus::SlotHeader& h = snap.head;
    meta->region_seq = h.region_seq;
    meta->tick = h.tick;
    meta->session = h.session_id;
    meta->publish_mono_ns = h.publish_mono_ns;
    meta->age_ns = (h.region_seq != 0 && now > h.publish_mono_ns ? now - h.publish_mono_ns : 0) +
                   h.source_age_ns;
    meta->status = static_cast<uint32_t>(h.status);
    meta->value_count = n;
  }
  return code(s);
}

int hilbus_write(hilbus_client* client, uint32_t region, const double* values, uint32_t n,
                 int64_t tick, uint32_t status) {
  BusClient* bus = get(client);
  if (bus == nullptr) return HILBUS_BAD_ARGUMENT;
  if (status > HILBUS_SLOT_SAFE_STATE) return HILBUS_BAD_ARGUMENT;
  return code(bus->write(region, values, n, tick, static_cast<hil::io::bus::SlotStatus>(status)));
}

int hilbus_wait(hilbus_client* client, uint32_t region, uint64_t after_seq, uint32_t timeout_us) {
  BusClient* bus = get(client);
  if (bus == nullptr) return HILBUS_BAD_ARGUMENT;
  return code(bus->wait(region, after_seq, timeout_us));
}

int hilbus_read_values(hilbus_client* client, int region, double* values, int n) {
  if (region < 0 || n < 0) return HILBUS_BAD_ARGUMENT;
  return hilbus_read(client, static_cast<uint32_t>(region), values, static_cast<uint32_t>(n),
                     nullptr);
}

int hilbus_write_values(hilbus_client* client, int region, const double* values, int n, int tick) {
  if (region < 0 || n < 0) return HILBUS_BAD_ARGUMENT;
  return hilbus_write(client, static_cast<uint32_t>(region), values, static_cast<uint32_t>(n), tick,
                      HILBUS_SLOT_VALID);
}

int hilbus_detached(const hilbus_client* client) {
  const BusClient* bus = get(client);
  return bus == nullptr || bus->detached() ? 1 : 0;
}

const char* hilbus_strerror(int status) {
  switch (status) {
    case HILBUS_OK:
      return "HILBUS_OK: success";
    case HILBUS_STALE:
      return "HILBUS_STALE: nothing was published in that region yet";
    case HILBUS_CONTENTION:
      return "HILBUS_CONTENTION: every read raced a write; try again";
    case HILBUS_DETACHED:
      return "HILBUS_DETACHED: the rig went away; attach again";
    case HILBUS_SCHEMA:
      return "HILBUS_SCHEMA: the rig's bus is not the expected one";
    case HILBUS_NOT_WRITER:
      return "HILBUS_NOT_WRITER: the region is not this client's role's";
    case HILBUS_ROLE_TAKEN:
      return "HILBUS_ROLE_TAKEN: another writer holds that role";
    case HILBUS_ROLE_UNKNOWN:
      return "HILBUS_ROLE_UNKNOWN: no region of the bus has that writer";
    case HILBUS_NOT_PERMITTED:
      return "HILBUS_NOT_PERMITTED: this user may not do that";
    case HILBUS_TIMEOUT:
      return "HILBUS_TIMEOUT: timed out";
    case HILBUS_NO_ENDPOINT:
      return "HILBUS_NO_ENDPOINT: no rig is running at that endpoint";
    case HILBUS_BAD_ARGUMENT:
      return "HILBUS_BAD_ARGUMENT: unknown region, wrong value count or NULL argument";
    case HILBUS_IO_ERROR:
      return "HILBUS_IO_ERROR: system error while attaching";
    default:
      return "HILBUS_?: unknown status";
  }
}

const char* hilbus_status_name(int status) {
  if (status < 0 || status > HILBUS_IO_ERROR) return "unknown";
  return hil::io::bus::to_string(static_cast<BusStatus>(status));
}

const char* hilbus_runtime_directory(char* why, size_t why_size) {
  thread_local std::string path;  // hilbus.h: valid until this thread calls again
  try {
    path = hil::io::bus::runtime_directory().string();
    set_why(why, why_size, "");
    return path.c_str();
  } catch (const std::exception& e) {
    set_why(why, why_size, e.what());
  } catch (...) {
    set_why(why, why_size, "unknown error");
  }
  return nullptr;
}

}  // extern "C"
