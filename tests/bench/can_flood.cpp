// can_flood: a cannelloni peer that babbles — the sender of the CAN flood benchmark
// (tests/bench/can_flood_bench.sh, docs/can.md "Receive budget"). It sends classic data frames
// of unknown ids (0x700 + i % 64, 8 bytes) packed `--frames-per-packet` to a cannelloni v2
// datagram (io/can/transport/cannelloni_codec.hpp) at `--rate` frames/s for `--duration`
// seconds, from `--from` to `--to`, in sendmmsg batches, optionally pinned to `--cpu`. It
// prints what it sent as one JSON line: frames, packets, packets the socket refused (counted
// as not sent), the achieved rate and the CPU it ran on.
//
// Rate control: every batch it compares the frames sent with rate × elapsed time and sends
// the difference (at most one batch), spinning in between — it never sleeps, so bursts are no
// larger than one batch of packets.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Options {
  std::string to = "127.0.0.1:20000";
  std::string from = "127.0.0.1:20001";
  double rate = 10e6;     // frames/s
  double duration = 4.0;  // s
  double delay = 0.0;     // s before the first frame
  int frames_per_packet = 100;
  int cpu = -1;
};

sockaddr_in endpoint(const std::string& text) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos ||
      inet_pton(AF_INET, text.substr(0, colon).c_str(), &a.sin_addr) != 1) {
    std::fprintf(stderr, "can_flood: '%s' is not ADDR:PORT (IPv4)\n", text.c_str());
    std::exit(2);
  }
  a.sin_port = htons(static_cast<std::uint16_t>(std::stoi(text.substr(colon + 1))));
  return a;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view k = argv[i];
    const char* v = argv[i + 1];
    if (k == "--to")
      o.to = v;
    else if (k == "--from")
      o.from = v;
    else if (k == "--rate")
      o.rate = std::atof(v);
    else if (k == "--duration")
      o.duration = std::atof(v);
    else if (k == "--delay")
      o.delay = std::atof(v);
    else if (k == "--frames-per-packet")
      o.frames_per_packet = std::atoi(v);
    else if (k == "--cpu")
      o.cpu = std::atoi(v);
    else {
      std::fprintf(stderr,
                   "usage: can_flood [--to ADDR:PORT] [--from ADDR:PORT] [--rate FRAMES_PER_S] "
                   "[--duration S] [--delay S] [--frames-per-packet N (1..107)] [--cpu N]\n");
      std::exit(2);
    }
  }
  o.frames_per_packet = std::clamp(o.frames_per_packet, 1, 107);  // 5 + 107 × 13 ≤ 1400 bytes
  return o;
}

/// One cannelloni v2 DATA packet of `frames` classic 8-byte frames; the sequence byte is set
/// per packet.
std::vector<std::uint8_t> packet(int frames) {
  std::vector<std::uint8_t> p = {2, 0, 0, static_cast<std::uint8_t>(frames >> 8),
                                 static_cast<std::uint8_t>(frames & 0xFF)};
  for (int i = 0; i < frames; ++i) {
    const std::uint32_t id = 0x700U + static_cast<std::uint32_t>(i % 64);  // not in RAVON's DBC
    p.insert(p.end(), {static_cast<std::uint8_t>(id >> 24), static_cast<std::uint8_t>(id >> 16),
                       static_cast<std::uint8_t>(id >> 8), static_cast<std::uint8_t>(id), 8});
    for (int b = 0; b < 8; ++b) p.push_back(static_cast<std::uint8_t>(i + b));
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(o.cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) std::perror("can_flood: sched_setaffinity");
  }
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  const sockaddr_in from = endpoint(o.from);
  sockaddr_in to = endpoint(o.to);
  const int one = 1;
  (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  const int sndbuf = 4 << 20;
  (void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0) {
    std::perror("can_flood: bind");
    return 1;
  }
  constexpr int kBatch = 32;
  std::array<std::vector<std::uint8_t>, kBatch> packets;
  std::array<iovec, kBatch> iov{};
  std::array<mmsghdr, kBatch> msgs{};
  for (int i = 0; i < kBatch; ++i) {
    packets[static_cast<std::size_t>(i)] = packet(o.frames_per_packet);
    auto& p = packets[static_cast<std::size_t>(i)];
    iov[static_cast<std::size_t>(i)] = {p.data(), p.size()};
    msghdr& h = msgs[static_cast<std::size_t>(i)].msg_hdr;
    h.msg_name = &to;
    h.msg_namelen = sizeof to;
    h.msg_iov = &iov[static_cast<std::size_t>(i)];
    h.msg_iovlen = 1;
  }
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
  const auto begin = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(o.delay));
  while (Clock::now() < begin) {
  }
  std::uint64_t sent_packets = 0, refused = 0;
  std::uint8_t sequence = 0;
  const double fpp = o.frames_per_packet;
  for (;;) {
    const double elapsed = seconds(Clock::now() - begin);
    if (elapsed >= o.duration) break;
    const double due = o.rate * elapsed / fpp - static_cast<double>(sent_packets + refused);
    const int n = std::min(kBatch, static_cast<int>(due));
    if (n <= 0) continue;
    for (int i = 0; i < n; ++i) packets[static_cast<std::size_t>(i)][2] = sequence++;
    const int done = sendmmsg(fd, msgs.data(), static_cast<unsigned>(n), 0);
    if (done < 0) {
      ++refused;  // ENOBUFS/EAGAIN: the first one refused; the rest tried again
      sequence = static_cast<std::uint8_t>(sequence - n + 1);
      continue;
    }
    sent_packets += static_cast<std::uint64_t>(done);
    sequence = static_cast<std::uint8_t>(sequence - (n - done));
  }
  const double took = seconds(Clock::now() - begin);
  const std::uint64_t frames = sent_packets * static_cast<std::uint64_t>(o.frames_per_packet);
  std::printf(
      "{\"frames\": %llu, \"packets\": %llu, \"refused_packets\": %llu, \"frames_per_packet\": "
      "%d, \"seconds\": %.3f, \"frames_per_s\": %.0f, \"cpu\": %d}\n",
      static_cast<unsigned long long>(frames), static_cast<unsigned long long>(sent_packets),
      static_cast<unsigned long long>(refused), o.frames_per_packet, took,
      static_cast<double>(frames) / took, sched_getcpu());
  close(fd);
  return 0;
}
