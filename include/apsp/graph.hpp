// The graph as the HW3 format describes it: V vertices, E weighted directed edges.
#pragma once

#include <apsp/distance.hpp>

#include <cstdint>
#include <vector>

namespace apsp {

// Distance of a pair with no path (2^30 - 1), as the HW3 format writes it.
constexpr int infinity = Distance<int>::infinity;
// Edge weights are 0..max_weight, or -max_weight..max_weight when negative weights are allowed
// (the readers' allow_negative, the CLI's --allow-negative). With these bounds no sum of two
// distances overflows int32; the solver's signed arithmetic handles both bounds.
constexpr int max_weight = 1000;

// The lightest weight a reader accepts.
constexpr int lowest_weight(bool allow_negative) {
  return allow_negative ? -max_weight : 0;
}

struct Edge {
  std::int32_t src;
  std::int32_t dst;
  std::int32_t weight;
};

struct Graph {
  std::int32_t vertices = 0;
  std::vector<Edge> edges;
};

inline bool has_negative_weight(const Graph& graph) {
  for (const Edge& e : graph.edges)
    if (e.weight < 0) return true;
  return false;
}

}  // namespace apsp
