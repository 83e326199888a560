// io/bus/bus_image.hpp: the segments a bus is made of, their directory, what parse_segment
// refuses, and that nothing of it appears in /dev/shm.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <set>

#include "io/bus/bus_image.hpp"

namespace hil::io::bus {
namespace {

BusSchema ravon_like() {
  BusSchema s{.name = "ravon"};
  s.regions.push_back({.name = "behaviour",
                       .direction = RegionDirection::input,
                       .writer = "behaviour",
                       .channels = {{"vehicle.wheel.fl.speed_ref", "rad/s"},
                                    {"vehicle.steering.front.command", "rad"}},
                       .timeout_ticks = 50});
  s.regions.push_back({.name = "env",
                       .direction = RegionDirection::input,
                       .writer = "env",
                       .channels = {{"env.road.friction.fl", "-"}}});
  s.regions.push_back({.name = "state",
                       .direction = RegionDirection::output,
                       .writer = "hilsim",
                       .channels = {{"vehicle.wheel.fl.speed", "rad/s"}}});
  return s;
}

std::set<std::string> dev_shm() {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm")) {
    names.insert(e.path().filename().string());
  }
  return names;
}

TEST(BusImageTest, OneOutSegmentAndOneInSegmentPerRole) {
  const auto before = dev_shm();
  BusImage image(ravon_like());
  ASSERT_EQ(image.segment_count(), 3U);
  EXPECT_EQ(image.kind(0), SegmentKind::out);
  EXPECT_EQ(image.role(1), "behaviour");
  EXPECT_EQ(image.role(2), "env");
  EXPECT_EQ(image.segment_of_region(0), 1U);
  EXPECT_EQ(image.segment_of_region(1), 2U);
  EXPECT_EQ(image.segment_of_region(2), 0U);
  EXPECT_EQ(dev_shm(), before) << "memfd segments have no name in /dev/shm";

  std::string why;
  const Segment& in = image.segment(1);
  const auto dir = parse_segment(in.data(), in.size(), why);
  ASSERT_TRUE(dir) << why;
  EXPECT_EQ(dir->header->bus_schema_hash, image.schema().hash());
  EXPECT_EQ(dir->header->generation, image.generation());
  ASSERT_EQ(dir->regions.size(), 1U);
  EXPECT_EQ(field_text(dir->regions[0].name, kRegionNameBytes), "behaviour");
  EXPECT_EQ(dir->regions[0].id, 0U);
  EXPECT_EQ(dir->regions[0].timeout_ticks, 50U);
  ASSERT_EQ(dir->channels.size(), 2U);
  EXPECT_EQ(field_text(dir->channels[1].name, kChannelNameBytes), "vehicle.steering.front.command");
  EXPECT_EQ(field_text(dir->channels[1].unit, kUnitBytes), "rad");
}

TEST(BusImageTest, SegmentsAreSealedAgainstResizing) {
  BusImage image(ravon_like());
  const int fd = image.segment(0).fd();
  EXPECT_NE(ftruncate(fd, 0), 0);
  EXPECT_NE(ftruncate(fd, static_cast<off_t>(image.segment(0).size() * 2)), 0);
  EXPECT_NE(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), 0) << "F_SEAL_SEAL: no further seals";
}

TEST(BusImageTest, AReadOnlyDescriptorCannotBeMappedWritable) {
  BusImage image(ravon_like());
  const int ro = image.segment(0).reopen_read_only();
  ASSERT_GE(ro, 0);
  void* p = mmap(nullptr, image.segment(0).size(), PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0);
  EXPECT_EQ(p, MAP_FAILED);
  Segment mapped = Segment::map(ro, false);
  std::string why;
  EXPECT_TRUE(parse_segment(mapped.data(), mapped.size(), why)) << why;
}

TEST(BusImageTest, ParseRefusesWhatIsOutOfPlace) {
  BusImage image(ravon_like());
  const Segment& s = image.segment(0);
  std::vector<std::byte> copy(s.data(), s.data() + s.size());
  std::string why;
  EXPECT_TRUE(parse_segment(copy.data(), copy.size(), why));
  EXPECT_FALSE(parse_segment(copy.data(), 100, why));
  auto* h = reinterpret_cast<SegmentHeader*>(copy.data());
  h->layout_major = 2;
  EXPECT_FALSE(parse_segment(copy.data(), copy.size(), why));
  EXPECT_NE(why.find("bus layout 2.0"), std::string::npos) << why;
  h->layout_major = kLayoutMajor;
  auto* r = reinterpret_cast<RegionDescriptor*>(copy.data() + h->directory_offset);
  r->slot_offset = copy.size();
  EXPECT_FALSE(parse_segment(copy.data(), copy.size(), why));
  EXPECT_NE(why.find("out of bounds"), std::string::npos);
  // Offsets a sum would wrap around (a scribbled directory) are refused too
  r->slot_offset = 64;
  r->slot_stride = ~std::uint64_t{0} / 2 + 1;
  EXPECT_FALSE(parse_segment(copy.data(), copy.size(), why));
  r->slot_stride = slot_stride(r->value_count);
  r->control_offset = ~std::uint64_t{0} - 63;
  EXPECT_FALSE(parse_segment(copy.data(), copy.size(), why));
  h->magic[0] = 'X';
  EXPECT_FALSE(parse_segment(copy.data(), copy.size(), why));
}

TEST(BusImageTest, UnpublishedSlotsSayNotInitialized) {
  BusImage image(ravon_like());
  RegionSnapshot snap;
  ASSERT_TRUE(image.region(0).read(snap, 1).ok);
  EXPECT_EQ(snap.head.region_seq, 0U);
  EXPECT_EQ(snap.head.status, static_cast<std::uint64_t>(SlotStatus::not_initialized));
}

TEST(BusSchemaTest, HashesChangeWithAnyChannelOrUnit) {
  const BusSchema a = ravon_like();
  BusSchema b = a;
  EXPECT_EQ(a.hash(), b.hash());
  b.regions[0].channels[1].unit = "deg";
  EXPECT_NE(a.hash(), b.hash());
  EXPECT_NE(a.region_hash(0), b.region_hash(0));
  EXPECT_EQ(a.region_hash(1), b.region_hash(1));
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);  // the FNV reference test vector
}

}  // namespace
}  // namespace hil::io::bus
