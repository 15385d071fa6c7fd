// A random graph generator whose output is byte-identical on every platform: its own integer
// random numbers (splitmix64), no floating point after the density is turned into a threshold,
// no implementation-defined standard distributions.
#pragma once

#include <cstdint>
#include <string>

namespace apsp {

struct GenerateConfig {
  std::int32_t vertices = 0;
  double density = 0;  // probability of each ordered pair (i, j), i != j
  std::uint64_t seed = 1;
  int max_weight = 1000;
};

// Writes the HW3 input file (atomically); returns the number of edges.
std::int64_t generate_hw3(const GenerateConfig& config, const std::string& path);

}  // namespace apsp
