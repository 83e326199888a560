// ESRI ASCII grid parser (config/terrain/esri_ascii.hpp): header forms, row order, and error
// messages with file:line and what was expected.

#include "config/terrain/esri_ascii.hpp"

#include <string>

#include <gtest/gtest.h>

namespace hil::config {
namespace {

/// The message of the DemError that parsing `text` throws ("" if it does not throw).
std::string error_of(const std::string& text, const ValueCheck& check = {}) {
  try {
    (void)config::parse_esri_ascii(text, "dem.asc", check);
  } catch (const DemError& e) {
    return e.what();
  }
  return "";
}

TEST(EsriAscii, ReadsHeaderAndStoresSouthRowFirst) {
  const AsciiGrid g = parse_esri_ascii(
      "ncols 3\nnrows 2\nxllcorner 100\nyllcorner 200\ncellsize 0.5\nNODATA_value -9999\n"
      "1 2 3\n4 5 6\n",
      "dem.asc");
  EXPECT_EQ(g.geometry.ncols, 3);
  EXPECT_EQ(g.geometry.nrows, 2);
  EXPECT_DOUBLE_EQ(g.geometry.x0, 100.25);  // corner + half a cell
  EXPECT_DOUBLE_EQ(g.geometry.y0, 200.25);
  EXPECT_DOUBLE_EQ(g.geometry.cellsize, 0.5);
  EXPECT_EQ(g.values, (std::vector<double>{4, 5, 6, 1, 2, 3}));  // file's last row is south
}

TEST(EsriAscii, CenterRegistrationCaseInsensitiveKeysAnyOrderAndCrlf) {
  const AsciiGrid g = parse_esri_ascii(
      "CELLSIZE 2\r\nNROWS 2\r\nNCOLS 2\r\nYLLCENTER -3.5\r\nXLLCENTER 1e1\r\n\r\n"
      "+1.5 -2.5e-1\r\n3 4\r\n\r\n",
      "dem.asc");
  EXPECT_DOUBLE_EQ(g.geometry.x0, 10.0);
  EXPECT_DOUBLE_EQ(g.geometry.y0, -3.5);
  EXPECT_EQ(g.values, (std::vector<double>{3, 4, 1.5, -0.25}));
}

constexpr const char* kHeader = "ncols 4\nnrows 3\nxllcorner 0\nyllcorner 0\ncellsize 1\n";

TEST(EsriAscii, ShortRowNamesLineRowAndNcols) {
  EXPECT_EQ(error_of(std::string(kHeader) + "1 2 3 4\n1 2 3\n1 2 3 4\n"),
            "dem.asc:7: row 2 has 3 values; expected 4 (ncols)");
  EXPECT_EQ(error_of(std::string(kHeader) + "1 2 3 4 5\n"),
            "dem.asc:6: row 1 has 5 values; expected 4 (ncols)");
}

TEST(EsriAscii, WrongRowCountNamesNrows) {
  EXPECT_EQ(error_of(std::string(kHeader) + "1 2 3 4\n1 2 3 4\n"),
            "dem.asc:8: file ends after 2 rows; expected 3 (nrows)");
  EXPECT_EQ(error_of(std::string(kHeader) + "1 2 3 4\n1 2 3 4\n1 2 3 4\n1 2 3 4\n"),
            "dem.asc:9: row 4 found; expected 3 rows (nrows)");
}

TEST(EsriAscii, BadValuesAndNodata) {
  EXPECT_EQ(error_of(std::string(kHeader) + "1 2 3 4\n1 x 3 4\n"),
            "dem.asc:7: row 2 value 2 'x'; expected a finite number");
  EXPECT_EQ(error_of(std::string(kHeader) + "1 2 3 nan\n"),
            "dem.asc:6: row 1 value 4 'nan'; expected a finite number");
  EXPECT_EQ(error_of("NODATA_value -9999\n" + std::string(kHeader) + "1 2 3 4\n1 -9999 3 4\n"),
            "dem.asc:8: row 2 value 2 is NODATA_value; expected a complete grid (fill holes "
            "first, e.g. gdal_fillnodata.py)");
  auto positive = [](double v) { return v > 0 ? std::string() : "must be > 0"; };
  EXPECT_EQ(error_of(std::string(kHeader) + "1 2 3 4\n1 2 0 4\n", positive),
            "dem.asc:7: row 2 value 3 must be > 0");
}

TEST(EsriAscii, HeaderErrors) {
  EXPECT_EQ(error_of("ncols 4\nnrows 3\nxllcorner 0\nyllcorner 0\n1 2 3 4\n"),
            "dem.asc:5: header has no 'cellsize'; expected ncols, nrows, xllcorner|xllcenter, "
            "yllcorner|yllcenter, cellsize[, NODATA_value] before the data rows");
  EXPECT_EQ(error_of("ncols 4\ndx 1\n"),
            "dem.asc:2: unknown header key 'dx' (non-square cells dx/dy are not supported; "
            "resample); expected one of ncols, nrows, xllcorner|xllcenter, yllcorner|yllcenter, "
            "cellsize[, NODATA_value]");
  EXPECT_EQ(error_of("ncols 4\nncols 5\n"),
            "dem.asc:2: header key 'ncols' given twice; expected once");
  EXPECT_EQ(error_of("ncols four\n"),
            "dem.asc:1: header 'ncols' has value 'four'; expected a finite number");
  EXPECT_NE(error_of("ncols 4.5\nnrows 3\nxllcorner 0\nyllcorner 0\ncellsize 1\n")
                .find("ncols is 4.500000; expected an integer from 2 to 1000000"),
            std::string::npos);
  EXPECT_NE(error_of("ncols 4\nnrows 3\nxllcorner 0\nyllcorner 0\ncellsize 0\n1 2 3 4\n")
                .find("dem.asc:5: cellsize is 0.000000; expected 0.001000 to 100000.000000 m"),
            std::string::npos);
  EXPECT_NE(error_of("ncols 100000\nnrows 100000\nxllcorner 0\nyllcorner 0\ncellsize 1\n")
                .find("expected at most 67108864 cells"),
            std::string::npos);
}

TEST(EsriAscii, EmptyInputIsAnErrorNotACrash) {
  EXPECT_NE(error_of("").find("dem.asc:1: header has no 'ncols'"), std::string::npos);
  EXPECT_NE(error_of(std::string("\0\0\xff", 3)).find("dem.asc:1: unknown header key '\?\?\?'"),
            std::string::npos);
}

}  // namespace
}  // namespace hil::config
