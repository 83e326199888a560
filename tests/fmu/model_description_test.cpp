// The model-description reader (issue 40): every FMI 2 and FMI 3 variable type with its C type,
// FMI 3 arrays' dimensions (fixed and by a structural parameter), the model-exchange interface,
// the model structure (FMI 2 derivatives by index, FMI 3 by value reference, event indicators),
// clocks' attributes, and located errors for what is wrong in them.

#include <gtest/gtest.h>

#include <string>

#include "io/fmu/model_description.hpp"

namespace hil::io::fmu {
namespace {

std::string fmi3(const std::string& variables, const std::string& structure = "") {
  return "<fmiModelDescription fmiVersion=\"3.0\" modelName=\"m\">\n"
         "<ModelExchange modelIdentifier=\"m\" needsCompletedIntegratorStep=\"true\"/>\n"
         "<ModelVariables>\n" +
         variables + "</ModelVariables>\n<ModelStructure>\n" + structure +
         "</ModelStructure>\n</fmiModelDescription>\n";
}

std::string error_of(const std::string& xml) {
  try {
    (void)parse_model_description(xml, "m.xml");
  } catch (const FmuError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(ModelDescriptionTypes, EveryFmi3TypeWithItsCType) {
  const ModelDescription md = parse_model_description(
      fmi3("<Float32 name=\"f\" valueReference=\"1\"/>\n"
           "<Int8 name=\"i8\" valueReference=\"2\"/>\n"
           "<UInt64 name=\"u64\" valueReference=\"3\" causality=\"structuralParameter\" "
           "variability=\"fixed\" start=\"4\"/>\n"
           "<Boolean name=\"b\" valueReference=\"4\"/>\n"
           "<String name=\"s\" valueReference=\"5\"><Start value=\"hi\"/></String>\n"
           "<Binary name=\"bin\" valueReference=\"6\"/>\n"
           "<Enumeration name=\"e\" valueReference=\"7\" declaredType=\"E\"/>\n"
           "<Float64 name=\"a\" valueReference=\"8\"><Dimension valueReference=\"3\"/>"
           "<Dimension start=\"2\"/></Float64>\n"),
      "m.xml");
  ASSERT_EQ(md.variables.size(), 8U);
  EXPECT_EQ(md.find("f")->value_type, ValueType::float32);
  EXPECT_EQ(md.find("i8")->type, VariableType::integer);
  EXPECT_EQ(md.find("i8")->value_type, ValueType::int8);
  EXPECT_EQ(md.find("u64")->causality, Causality::structural_parameter);
  EXPECT_EQ(md.find("b")->value_type, ValueType::boolean);
  EXPECT_EQ(md.find("s")->start, "hi");
  EXPECT_EQ(md.find("bin")->value_type, ValueType::binary);
  EXPECT_EQ(md.find("e")->value_type, ValueType::int64);  // FMI 3: Int64 calls
  EXPECT_EQ(md.find("e")->declared_type, "E");
  EXPECT_EQ(md.find("a")->size, 8U);  // 4 × 2
  EXPECT_EQ(md.size_of(*md.find("a"), {{3, 5}}), 10U);
  EXPECT_TRUE(md.model_exchange);
  EXPECT_TRUE(md.me.needs_completed_integrator_step);
  EXPECT_EQ(value_bytes(ValueType::boolean, FmiVersion::fmi2), sizeof(int));
  EXPECT_EQ(value_bytes(ValueType::boolean, FmiVersion::fmi3), sizeof(bool));
}

TEST(ModelDescriptionTypes, Fmi2TypesAndDerivativesByIndex) {
  const ModelDescription md = parse_model_description(
      "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"m\" numberOfEventIndicators=\"2\">\n"
      "<ModelExchange modelIdentifier=\"m\"/>\n<ModelVariables>\n"
      "<ScalarVariable name=\"x\" valueReference=\"0\"><Real/></ScalarVariable>\n"
      "<ScalarVariable name=\"der(x)\" valueReference=\"1\"><Real derivative=\"1\"/>"
      "</ScalarVariable>\n"
      "<ScalarVariable name=\"n\" valueReference=\"2\"><Integer/></ScalarVariable>\n"
      "<ScalarVariable name=\"e\" valueReference=\"3\"><Enumeration declaredType=\"E\"/>"
      "</ScalarVariable>\n</ModelVariables>\n"
      "<ModelStructure><Derivatives><Unknown index=\"2\"/></Derivatives></ModelStructure>\n"
      "</fmiModelDescription>\n",
      "m.xml");
  EXPECT_EQ(md.number_of_event_indicators, 2U);
  ASSERT_EQ(md.derivatives.size(), 1U);
  EXPECT_EQ(md.derivatives[0], 1U);
  EXPECT_EQ(md.variables[1].derivative_of, 0U);
  EXPECT_EQ(md.find("n")->value_type, ValueType::int32);
  EXPECT_EQ(md.find("n")->variability, Variability::discrete);
  EXPECT_EQ(md.find("e")->value_type, ValueType::int32);  // FMI 2: Integer calls
}

TEST(ModelDescriptionTypes, Fmi3StructureAndClocks) {
  const ModelDescription md = parse_model_description(
      fmi3("<Float64 name=\"x\" valueReference=\"1\"/>\n"
           "<Float64 name=\"der_x\" valueReference=\"2\" derivative=\"1\"/>\n"
           "<Float64 name=\"z\" valueReference=\"3\"><Dimension start=\"3\"/></Float64>\n"
           "<Clock name=\"c\" valueReference=\"4\" causality=\"input\" "
           "intervalVariability=\"constant\" intervalDecimal=\"0.1\"/>\n"
           "<Int32 name=\"k\" valueReference=\"5\" variability=\"discrete\" clocks=\"4\"/>\n",
           "<ContinuousStateDerivative valueReference=\"2\"/>\n"
           "<EventIndicator valueReference=\"3\"/>\n"),
      "m.xml");
  EXPECT_EQ(md.derivatives, std::vector<std::size_t>{1});
  EXPECT_EQ(md.variables[1].derivative_of, 0U);
  EXPECT_EQ(md.event_indicators, std::vector<std::size_t>{2});
  EXPECT_EQ(md.number_of_event_indicators, 3U);  // an array of three
  const Variable& c = *md.find("c");
  EXPECT_EQ(c.interval_variability, ClockInterval::constant);
  EXPECT_EQ(c.interval_decimal, 0.1);
  EXPECT_EQ(md.find("k")->clocks, std::vector<std::uint32_t>{4});
}

TEST(ModelDescriptionTypes, WhatIsWrongIsLocated) {
  EXPECT_EQ(error_of(fmi3("<Float64 name=\"a\" valueReference=\"1\">\n"
                          "  <Dimension start=\"2\" valueReference=\"1\"/></Float64>\n")),
            "m.xml:5:3: variable \"a\": a <Dimension> has either start or valueReference");
  EXPECT_EQ(error_of(fmi3("<Float64 name=\"a\" valueReference=\"1\">"
                          "<Dimension valueReference=\"9\"/></Float64>\n")),
            "m.xml:4:1: variable \"a\": dimension valueReference 9 is no integer structural "
            "parameter or constant");
  EXPECT_EQ(error_of(fmi3("<Float64 name=\"a\" valueReference=\"1\">"
                          "<Dimension start=\"100000\"/><Dimension start=\"100000\"/>"
                          "</Float64>\n")),
            "m.xml:4:1: variable \"a\": more than 16777216 values");
  EXPECT_EQ(error_of(fmi3("<Int32 name=\"i\" valueReference=\"1\" variability=\"continuous\"/>\n")),
            "m.xml:4:1: variable \"i\" is Int32: only real variables are continuous");
  EXPECT_EQ(error_of(fmi3("<Float64 name=\"a\" valueReference=\"1\"/>\n"
                          "<Float64 name=\"b\" valueReference=\"1\"/>\n")),
            "m.xml:5:1: variable \"b\": valueReference 1 is a's too");
  EXPECT_EQ(error_of(fmi3("<Float64 name=\"a\" valueReference=\"1\"/>\n",
                          "<ContinuousStateDerivative valueReference=\"7\"/>\n")),
            "m.xml:7:1: valueReference=\"7\": no variable has this value reference");
  EXPECT_EQ(error_of(fmi3("<Clock name=\"c\" valueReference=\"1\"/>\n")),
            "m.xml:4:1: clock \"c\" without an intervalVariability");
}

}  // namespace
}  // namespace hil::io::fmu
