// A string as a JSON string literal, for the few JSON records apsp writes (the record of a run,
// benchmarks).
#pragma once

#include <string>

namespace apsp {
namespace detail {

inline std::string json_string(const std::string& s) {
  std::string quoted = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace detail
}  // namespace apsp
