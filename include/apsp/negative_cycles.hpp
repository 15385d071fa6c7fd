// Negative cycles and float rounding. A solver in a type whose sums round (float32 above all)
// can see a negative cycle that the weights do not have (0.1 + 0.2 - 0.3 is below 0 in one
// float32 order) and miss one they have (1 + -1.0000000000000002 < 0, but float32 holds the
// second weight as -1). The host checks here, in double, tell the two apart; the drivers word
// the result (NegativeCycleError carries the facts).
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace apsp {

// A vertex on a negative cycle that `source` reaches, in double arithmetic on the weights as
// given, or -1 where there is none; source < 0: any negative cycle of the graph (every vertex
// a source). Bellman-Ford that stops as soon as a round changes nothing, or as soon as the
// pointers of the last improvements close a cycle (which only a negative cycle does), so it
// costs rounds x E with rounds about the edges of the longest shortest path, not V x E. Gives
// up (returns -2) after `max_relaxations` edge relaxations.
inline std::int64_t negative_cycle_in_double(const Graph& graph, std::int64_t source,
                                             std::uint64_t max_relaxations = std::uint64_t(1)
                                                                             << 32) {
  const std::size_t v = std::size_t(graph.vertices);
  const double unset = std::numeric_limits<double>::infinity();
  std::vector<double> dist(v, source < 0 ? 0.0 : unset);
  std::vector<std::int64_t> parent(v, -1);
  if (source >= 0) dist[std::size_t(source)] = 0;
  std::vector<std::int64_t> seen(v, -1);
  std::uint64_t work = 0;
  for (std::size_t round = 0; round <= v; ++round) {
    bool changed = false;
    for (const Edge& e : graph.edges) {
      const double from = dist[std::size_t(e.src)];
      if (from != unset && from + e.weight < dist[std::size_t(e.dst)]) {
        dist[std::size_t(e.dst)] = from + e.weight;
        parent[std::size_t(e.dst)] = e.src;
        changed = true;
      }
    }
    if (!changed) return -1;
    work += graph.edges.size();
    // A cycle of parent pointers: walk from each vertex, marking the walk with its start.
    for (std::size_t s = 0; s < v; ++s) {
      std::int64_t x = std::int64_t(s);
      while (x >= 0 && seen[std::size_t(x)] < 0) {
        seen[std::size_t(x)] = std::int64_t(s);
        x = parent[std::size_t(x)];
      }
      if (x >= 0 && seen[std::size_t(x)] == std::int64_t(s)) {
        std::int64_t smallest = x;
        for (std::int64_t y = parent[std::size_t(x)]; y != x; y = parent[std::size_t(y)])
          smallest = std::min(smallest, y);
        return smallest;
      }
    }
    std::fill(seen.begin(), seen.end(), -1);
    if (work > max_relaxations) return -2;
  }
  return -2;
}

// Whether the solver in T may differ from double on negative cycles: T is float32, its sums
// round (weights not all whole numbers below 2^24) and some weight is negative. (float64 is
// the check's own arithmetic.)
template <class T>
bool cycles_may_round(const WeightRange& weights, std::int64_t vertices) {
  return std::is_same<T, float>::value && weights.negative() &&
         rounding_slack<T>(vertices, weights.integers, weights.largest_magnitude()) > 0;
}

// The verdict on what the solver in T found: `found` its negative-cycle vertex, or -1. Where
// cycles_may_round, double decides: a cycle it does not confirm from that vertex was made by
// the rounding; one it finds where the solver found none was hidden by it (searched within a
// budget of about 8 E relaxations, at least 2^28: beyond it, the solver's answer stands).
struct CycleVerdict {
  std::int64_t vertex = -1;  // a vertex on a negative cycle, or -1: none
  bool rounding_suspected = false;
  bool made = false;  // (rounding_suspected) made by the rounding, else hidden by it
};

template <class T>
CycleVerdict negative_cycle_verdict(const Graph& graph, const WeightRange& weights,
                                    std::int64_t found) {
  CycleVerdict verdict{found, false, false};
  if (!cycles_may_round<T>(weights, graph.vertices)) return verdict;
  const std::int64_t in_double = negative_cycle_in_double(
      graph, found, std::max<std::uint64_t>(std::uint64_t(1) << 28, 8 * graph.edges.size()));
  if (found >= 0 && in_double == -1) verdict = CycleVerdict{found, true, true};
  if (found < 0 && in_double >= 0) verdict = CycleVerdict{in_double, true, false};
  return verdict;
}

// Throws the verdict's NegativeCycleError (error.hpp), if it has a cycle; `type`: the solver's.
inline void throw_negative_cycle(const CycleVerdict& verdict, DistanceType type) {
  if (verdict.vertex < 0) return;
  throw NegativeCycleError(verdict.vertex,
                           !verdict.rounding_suspected ? NegativeCycleError::none
                           : verdict.made              ? NegativeCycleError::made
                                                       : NegativeCycleError::hidden,
                           distance_type_name(type));
}

}  // namespace apsp
