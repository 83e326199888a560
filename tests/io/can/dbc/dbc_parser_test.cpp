// The DBC reader on a file with every statement kind (tests/io/data/vehicle.dbc): what each
// statement puts into the Database.

#include <gtest/gtest.h>

#include <string>

#include "io/can/dbc/dbc_parser.hpp"

namespace hil::io::can::dbc {
namespace {

const Database& vehicle() {
  static const Database db = load_dbc(HIL_SOURCE_DIR "/tests/io/data/vehicle.dbc");
  return db;
}

const Signal& signal(const char* message, const char* name) {
  const Message* m = vehicle().find_message(message);
  EXPECT_NE(m, nullptr) << message;
  const Signal* s = m->find_signal(name);
  EXPECT_NE(s, nullptr) << name;
  return *s;
}

TEST(DbcParser, HeaderNodesAndValueTables) {
  const Database& db = vehicle();
  EXPECT_EQ(db.version, "1.0");
  ASSERT_EQ(db.nodes.size(), 3U);
  EXPECT_EQ(db.nodes[1].name, "ECU");
  EXPECT_EQ(db.nodes[1].comment, "The vehicle controller under test");
  EXPECT_EQ(std::get<std::string>(db.nodes[1].attributes.at("NodeLayerModules")),
            "CANoeILNLVector.dll");
  ASSERT_EQ(db.value_tables.size(), 1U);
  EXPECT_EQ(db.value_tables[0].name, "GearTable");
  ASSERT_EQ(db.value_tables[0].values.size(), 4U);
  EXPECT_EQ(db.value_tables[0].values[0].text, "P");  // sorted by value
  EXPECT_EQ(db.comment, "Test vehicle network for hilsim's DBC tests");
  EXPECT_EQ(std::get<std::string>(db.attributes.at("BusType")), "CAN FD");
  EXPECT_TRUE(db.warnings.empty()) << db.warnings.front();
}

TEST(DbcParser, MessagesWithIdsLengthsSendersAndTheIndependentSignalsMessageDropped) {
  const Database& db = vehicle();
  ASSERT_EQ(db.messages.size(), 6U);
  const Message& wheels = db.messages[0];
  EXPECT_EQ(wheels.name, "WheelSpeeds");
  EXPECT_EQ(wheels.id, 256U);
  EXPECT_FALSE(wheels.extended);
  EXPECT_EQ(wheels.length, 8U);
  EXPECT_EQ(wheels.sender, "HIL");
  EXPECT_EQ(wheels.transmitters, (std::vector<std::string>{"HIL", "Logger"}));
  EXPECT_EQ(wheels.cycle_time_ms, 10U);
  EXPECT_EQ(wheels.comment, "Wheel speeds sent by the HIL");
  EXPECT_EQ(db.find_message("VECTOR__INDEPENDENT_SIG_MSG"), nullptr);

  const Message* diag = db.find_message(0x18FEF1FE, true);
  ASSERT_NE(diag, nullptr);
  EXPECT_EQ(diag->name, "DiagExt");
  EXPECT_FALSE(diag->fd);
  EXPECT_FALSE(diag->cycle_time_ms.has_value());  // default 0 = not cyclic
  EXPECT_EQ(db.find_message(0x18FEF1FE, false), nullptr);
}

TEST(DbcParser, SignalLayoutScalingRangeUnitReceivers) {
  const Signal& torque = signal("Powertrain", "torque_req");
  EXPECT_EQ(torque.start_bit, 7U);
  EXPECT_EQ(torque.length, 16U);
  EXPECT_EQ(torque.byte_order, ByteOrder::big_endian);
  EXPECT_TRUE(torque.is_signed);
  EXPECT_DOUBLE_EQ(torque.factor, 0.1);
  EXPECT_DOUBLE_EQ(torque.minimum, -3276.8);
  EXPECT_DOUBLE_EQ(torque.maximum, 3276.7);
  EXPECT_EQ(torque.unit, "N*m");
  EXPECT_EQ(torque.receivers, (std::vector<std::string>{"HIL"}));
  EXPECT_EQ(torque.location.line, 48U);
  EXPECT_EQ(torque.location.column, 6U);

  const Signal& speed = signal("WheelSpeeds", "speed_fl");
  EXPECT_EQ(speed.byte_order, ByteOrder::little_endian);
  EXPECT_FALSE(speed.is_signed);
  EXPECT_EQ(speed.receivers, (std::vector<std::string>{"ECU", "Logger"}));
  EXPECT_EQ(speed.comment, "Front left wheel speed,\nmeasured at the hub");  // two lines

  const Signal& temp = signal("Powertrain", "coolant_temp");
  EXPECT_DOUBLE_EQ(temp.offset, -40.0);
  EXPECT_EQ(temp.start_value_raw, 80.0);
}

TEST(DbcParser, ValueDescriptionsAndStartValues) {
  const Signal& gear = signal("Powertrain", "gear");
  ASSERT_EQ(gear.value_descriptions.size(), 4U);
  ASSERT_NE(gear.value_text(3), nullptr);
  EXPECT_EQ(*gear.value_text(3), "D");
  EXPECT_EQ(gear.value_text(9), nullptr);
  EXPECT_EQ(gear.start_value_raw, 2.0);
  EXPECT_EQ(signal("WheelSpeeds", "speed_fl").start_value_raw, 0.0);  // BA_DEF_DEF_
}

TEST(DbcParser, FloatValueTypes) {
  EXPECT_EQ(signal("DiagExt", "level").value_type, ValueType::float32);
  EXPECT_EQ(signal("FdStatus", "position").value_type, ValueType::float64);
  EXPECT_EQ(signal("DiagExt", "counter").value_type, ValueType::integer);
}

TEST(DbcParser, CanFdFrameFormatAndBrsFromAttributes) {
  const Message* fd = vehicle().find_message("FdStatus");
  ASSERT_NE(fd, nullptr);
  EXPECT_TRUE(fd->fd);
  EXPECT_TRUE(fd->brs);  // CANFD_BRS default "1"
  EXPECT_EQ(fd->length, 64U);
  EXPECT_EQ(fd->cycle_time_ms, 100U);
}

TEST(DbcParser, SimpleMultiplexingResolvesToTheOnlyMultiplexor) {
  const Signal& mode = signal("MuxSimple", "mode");
  EXPECT_TRUE(mode.is_multiplexor);
  EXPECT_FALSE(mode.multiplexed());
  const Signal& b = signal("MuxSimple", "b");
  EXPECT_EQ(b.multiplexor, "mode");
  ASSERT_EQ(b.mux_ranges.size(), 1U);
  EXPECT_EQ(b.mux_ranges[0].low, 1U);
  EXPECT_EQ(b.mux_ranges[0].high, 1U);
}

TEST(DbcParser, ExtendedMultiplexingChainsAndRanges) {
  const Signal& mux2 = signal("MuxExt", "mux2");
  EXPECT_TRUE(mux2.is_multiplexor);
  EXPECT_EQ(mux2.multiplexor, "mux1");
  EXPECT_EQ(mux2.mux_indicator, 1U);
  const Signal& c = signal("MuxExt", "sig_c");
  EXPECT_EQ(c.multiplexor, "mux2");
  ASSERT_EQ(c.mux_ranges.size(), 1U);
  EXPECT_EQ(c.mux_ranges[0].low, 3U);
  EXPECT_EQ(c.mux_ranges[0].high, 5U);
  EXPECT_EQ(signal("MuxExt", "sig_d").multiplexor, "mux1");
}

TEST(DbcParser, AttributeDefinitionsKeepTypeRangeEnumAndDefault) {
  const Database& db = vehicle();
  const auto it =
      std::find_if(db.attribute_definitions.begin(), db.attribute_definitions.end(),
                   [](const AttributeDefinition& d) { return d.name == "VFrameFormat"; });
  ASSERT_NE(it, db.attribute_definitions.end());
  EXPECT_EQ(it->object, AttributeObject::message);
  EXPECT_EQ(it->type, AttributeType::enumeration);
  ASSERT_EQ(it->enum_values.size(), 16U);
  EXPECT_EQ(it->enum_values[14], "StandardCAN_FD");
  EXPECT_EQ(std::get<std::string>(*it->default_value), "StandardCAN");
  // BA_ with an ENUM index is stored as its name.
  EXPECT_EQ(std::get<std::string>(db.find_message("FdStatus")->attributes.at("VFrameFormat")),
            "StandardCAN_FD");
  EXPECT_EQ(std::get<std::int64_t>(db.find_message("Powertrain")->attributes.at("GenMsgCycleTime")),
            20);
}

TEST(DbcParser, MinimalFilesAndCommentsParse) {
  const Database db = parse_dbc(
      "// a comment line\n"
      "BU_:\n"
      "BO_ 1 M: 1 Vector__XXX\n"
      " SG_ s : 0|1@1+ (1,0) [0|0] \"\" Vector__XXX // trailing comment\n",
      "min.dbc");
  ASSERT_EQ(db.messages.size(), 1U);
  EXPECT_EQ(db.messages[0].signals[0].receivers, (std::vector<std::string>{"Vector__XXX"}));
  EXPECT_TRUE(parse_dbc("", "empty.dbc").messages.empty());
  // No newline after the last receiver.
  EXPECT_EQ(parse_dbc("BO_ 1 M: 1 X\n SG_ s : 0|1@1+ (1,0) [0|0] \"\" A,B", "eof.dbc")
                .messages[0]
                .signals[0]
                .receivers.size(),
            2U);
}

TEST(DbcParser, EscapedQuotesInStrings) {
  const Database db = parse_dbc("CM_ \"say \\\"hi\\\" \\\\ bye\";\n", "q.dbc");
  EXPECT_EQ(db.comment, "say \"hi\" \\ bye");
}

TEST(DbcParser, ReferencesToUnknownObjectsAreWarningsNotErrors) {
  const Database db = parse_dbc(
      "BO_ 1 M: 1 X\n SG_ s : 0|8@1+ (1,0) [0|0] \"\" X\n"
      "CM_ BO_ 2 \"no such message\";\n"
      "VAL_ 1 nosuch 0 \"zero\";\n"
      "BA_ \"Undefined\" BO_ 1 5;\n",
      "refs.dbc");
  ASSERT_EQ(db.warnings.size(), 3U);
  EXPECT_EQ(db.warnings[0],
            "refs.dbc:3:9: warning: CM_ BO_: no BO_ defines message id 2; statement ignored");
  EXPECT_EQ(db.warnings[1],
            "refs.dbc:4:8: warning: VAL_: message 'M' has no signal 'nosuch'; statement ignored");
  EXPECT_EQ(db.warnings[2],
            "refs.dbc:5:5: warning: BA_ \"Undefined\": no BA_DEF_ defines this attribute");
  EXPECT_EQ(std::get<std::int64_t>(db.messages[0].attributes.at("Undefined")), 5);
}

TEST(DbcParser, LoadReportsAMissingFile) {
  try {
    (void)load_dbc("/nonexistent/x.dbc");
    FAIL() << "expected DbcError";
  } catch (const DbcError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/x.dbc: cannot open the DBC file");
  }
}

}  // namespace
}  // namespace hil::io::can::dbc
