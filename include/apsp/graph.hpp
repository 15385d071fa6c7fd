// The graph as the HW3 format describes it: V vertices, E weighted directed edges.
#pragma once

#include <cstdint>
#include <vector>

namespace apsp {

// Distance of a pair with no path (2^30 - 1), as the HW3 format writes it.
constexpr int infinity = 1073741823;
// Edge weights are 0..max_weight. With these bounds no sum of two distances overflows int32.
constexpr int max_weight = 1000;

struct Edge {
  std::int32_t src;
  std::int32_t dst;
  std::int32_t weight;
};

struct Graph {
  std::int32_t vertices = 0;
  std::vector<Edge> edges;
};

}  // namespace apsp
