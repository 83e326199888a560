// io/bus/mirror/mirror_key.hpp: the key file formats, what is refused and with which message,
// write_new_key's mode, and that the two formats give the same key.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "io/bus/mirror/mirror_key.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::bus::mirror {
namespace {

using config::testing::TempDir;

std::filesystem::path key_file(const TempDir& dir, const std::string& name, const std::string& text,
                               mode_t mode = 0600) {
  const std::filesystem::path p = dir.write(name, text);
  ::chmod(p.c_str(), mode);
  return p;
}

std::string error_of(const std::filesystem::path& file) {
  try {
    (void)MirrorKey::load(file);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

const std::string kHex = "000102030405060708090a0b0c0d0e0f101112131415161718191A1B1C1D1E1F";

TEST(MirrorKeyTest, RawAndHexFilesGiveTheSameKey) {
  const TempDir dir;
  std::string raw;
  for (int i = 0; i < 32; ++i) raw += static_cast<char>(i);
  const MirrorKey a = MirrorKey::load(key_file(dir, "raw.key", raw));
  const MirrorKey b = MirrorKey::load(key_file(dir, "hex.key", kHex));
  const MirrorKey c = MirrorKey::load(key_file(dir, "hexnl.key", kHex + "\n", 0640));
  ASSERT_EQ(a.bytes().size(), 32U);
  for (std::size_t i = 0; i < 32; ++i) {
    EXPECT_EQ(a.bytes()[i], i);
    EXPECT_EQ(b.bytes()[i], i);
    EXPECT_EQ(c.bytes()[i], i);
  }
}

TEST(MirrorKeyTest, WrongSizesAndFormatsAreRefusedNamingTheFile) {
  const TempDir dir;
  for (const std::string& text :
       {std::string(31, 'k'), std::string(33, 'k'), kHex.substr(1), kHex + "\n\n", kHex + "0",
        std::string(), std::string(500, 'a')}) {
    const std::filesystem::path p = key_file(dir, "bad.key", text);
    const std::string e = error_of(p);
    EXPECT_NE(e.find(p.string()), std::string::npos) << e;
    EXPECT_NE(e.find("expected 32 raw bytes or 64 hex characters"), std::string::npos) << e;
    std::filesystem::remove(p);
  }
  std::string not_hex = kHex;
  not_hex[10] = 'g';
  const std::filesystem::path p = key_file(dir, "nothex.key", not_hex);
  EXPECT_NE(error_of(p).find("hexadecimal"), std::string::npos) << error_of(p);
  EXPECT_NE(error_of(dir.path() / "missing.key").find("cannot open"), std::string::npos);
}

TEST(MirrorKeyTest, AFileOthersCanReadIsRefused) {
  const TempDir dir;
  for (const mode_t mode : {0644, 0604, 0601, 0666}) {
    const std::filesystem::path p = key_file(dir, "open.key", kHex, mode);
    const std::string e = error_of(p);
    EXPECT_NE(e.find("chmod 640"), std::string::npos) << e;
    EXPECT_NE(e.find(p.string()), std::string::npos) << e;
    std::filesystem::remove(p);
  }
  EXPECT_NO_THROW((void)MirrorKey::load(key_file(dir, "group.key", kHex, 0640)));
}

TEST(MirrorKeyTest, WriteNewKeyCreatesAFreshPrivateFile) {
  const TempDir dir;
  const std::filesystem::path a = dir.path() / "a.key";
  const std::filesystem::path b = dir.path() / "b.key";
  write_new_key(a);
  write_new_key(b);
  struct stat st {};
  ASSERT_EQ(::stat(a.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600U);
  EXPECT_EQ(st.st_size, 65) << "64 hex characters and a newline";
  const MirrorKey ka = MirrorKey::load(a);
  const MirrorKey kb = MirrorKey::load(b);
  EXPECT_FALSE(std::equal(ka.bytes().begin(), ka.bytes().end(), kb.bytes().begin()));
  try {
    write_new_key(a);
    ADD_FAILURE() << "overwrote a key";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("already exists"), std::string::npos) << e.what();
  }
  const MirrorKey again = MirrorKey::load(a);
  EXPECT_TRUE(std::equal(ka.bytes().begin(), ka.bytes().end(), again.bytes().begin()));
}

TEST(MirrorKeyTest, MovedFromKeysAreEmpty) {
  const TempDir dir;
  MirrorKey a = MirrorKey::load(key_file(dir, "k.key", kHex));
  MirrorKey b = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the promise under test
  EXPECT_EQ(a.bytes().size(), 0U);
  EXPECT_FALSE(b.empty());
  KeyRing ring;
  EXPECT_THROW(ring.add(1, MirrorKey()), std::invalid_argument);
}

}  // namespace
}  // namespace hil::io::bus::mirror
