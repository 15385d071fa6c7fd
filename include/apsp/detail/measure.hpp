// Sizes and times, as every layer reports them: saturating byte counts, "6.40 GiB", one clock.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

namespace apsp {
namespace detail {

// "512.00 MiB", "6.40 GiB".
inline std::string size_text(std::uint64_t bytes) {
  char text[32];
  const double mib = double(bytes) / (1024.0 * 1024.0);
  if (mib < 1024)
    std::snprintf(text, sizeof text, "%.2f MiB", mib);
  else
    std::snprintf(text, sizeof text, "%.2f GiB", mib / 1024.0);
  return text;
}

// Memory sizes add up to "too much", never wrap (V near 2^31 makes V^2 * 4 bytes reach 2^64).
inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}
inline std::uint64_t saturating_sum(const std::vector<std::uint64_t>& sizes) {
  std::uint64_t sum = 0;
  for (const std::uint64_t s : sizes)
    sum = saturating_add(sum, s);
  return sum;
}

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace detail
}  // namespace apsp
