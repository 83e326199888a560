#pragma once
// The model-exchange tests' reading of `fmu simulate`'s and `hilsim export`'s CSV: a header of
// names (quoted or not), then rows of numbers; columns by name.

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace hil::fmu_testing {

struct Csv {
  std::map<std::string, std::vector<double>> columns;
  [[nodiscard]] const std::vector<double>& operator[](const std::string& name) const {
    return columns.at(name);
  }
  [[nodiscard]] std::size_t rows() const {
    return columns.empty() ? 0 : columns.begin()->second.size();
  }
};

inline Csv parse_csv(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> names;
  Csv csv;
  const auto fields = [](const std::string& l) {
    std::vector<std::string> out;
    std::stringstream s(l);
    for (std::string f; std::getline(s, f, ',');) {
      if (f.size() >= 2 && f.front() == '"' && f.back() == '"') f = f.substr(1, f.size() - 2);
      out.push_back(f);
    }
    return out;
  };
  if (std::getline(in, line)) names = fields(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> f = fields(line);
    for (std::size_t i = 0; i < f.size() && i < names.size(); ++i) {
      csv.columns[names[i]].push_back(std::stod(f[i]));
    }
  }
  return csv;
}

}  // namespace hil::fmu_testing
