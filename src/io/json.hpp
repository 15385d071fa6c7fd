// A string as a JSON string literal, for the few JSON records apsp writes (the record of a run,
// the tuning cache, benchmarks): quotes and backslashes escaped, control characters as \u00XX,
// so that a record is valid JSON and a cache entry stays on its one line.
#pragma once

#include <cstdio>
#include <string>

namespace apsp {
namespace detail {

inline std::string json_string(const std::string& s) {
  std::string quoted = "\"";
  for (const char c : s) {
    if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
      quoted += escape;
      continue;
    }
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace detail
}  // namespace apsp
