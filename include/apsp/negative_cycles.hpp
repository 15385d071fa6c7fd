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

// The strongly connected components of a graph of `vertices` vertices: component[v] for each,
// numbered from 0. Tarjan's algorithm, iterative (a path of a million vertices must not
// overflow the call stack).
inline std::vector<std::int32_t> strong_components(std::int32_t vertices,
                                                   const std::vector<Edge>& edges) {
  const std::size_t v = std::size_t(std::max(vertices, 0));
  std::vector<std::size_t> start(v + 1, 0);  // out-edges of u: head[start[u] .. start[u + 1])
  for (const Edge& e : edges)
    ++start[std::size_t(e.src) + 1];
  for (std::size_t u = 0; u < v; ++u)
    start[u + 1] += start[u];
  std::vector<std::int32_t> head(edges.size());
  {
    std::vector<std::size_t> at(start.begin(), start.end() - 1);
    for (const Edge& e : edges)
      head[at[std::size_t(e.src)]++] = e.dst;
  }
  const std::int32_t unvisited = -1;
  std::vector<std::int32_t> order(v, unvisited), low(v, 0), component(v, -1);
  std::vector<std::size_t> next(v, 0);   // the next out-edge of u to follow
  std::vector<std::int32_t> open, path;  // visited, not yet in a component; the search's path
  std::int32_t visited = 0, components = 0;
  const auto visit = [&](std::int32_t u) {
    order[std::size_t(u)] = low[std::size_t(u)] = visited++;
    next[std::size_t(u)] = start[std::size_t(u)];
    open.push_back(u);
    path.push_back(u);
  };
  for (std::int32_t root = 0; root < std::int32_t(v); ++root) {
    if (order[std::size_t(root)] != unvisited) continue;
    visit(root);
    while (!path.empty()) {
      const std::size_t u = std::size_t(path.back());
      if (next[u] < start[u + 1]) {
        const std::int32_t w = head[next[u]++];
        if (order[std::size_t(w)] == unvisited)
          visit(w);
        else if (component[std::size_t(w)] < 0)  // w is open: on the path or below it
          low[u] = std::min(low[u], order[std::size_t(w)]);
        continue;
      }
      path.pop_back();
      if (!path.empty())
        low[std::size_t(path.back())] = std::min(low[std::size_t(path.back())], low[u]);
      if (low[u] == order[u]) {  // u is the first vertex of its component: close it
        std::int32_t w;
        do {
          w = open.back();
          open.pop_back();
          component[std::size_t(w)] = components;
        } while (std::size_t(w) != u);
        ++components;
      }
    }
  }
  return component;
}

namespace detail {

// The smallest vertex of the lowest strongly connected component (`component`, numbered as
// strong_components numbers them) that holds a negative cycle and whose smallest vertex is
// below `below`, or -1. Only components with a negative arc inside can: each is searched by
// Bellman-Ford on its own arcs, in double on the weights as given, smallest first.
inline std::int64_t lowest_negative_component(std::int32_t vertices, const std::vector<Edge>& edges,
                                              const std::vector<std::int32_t>& component,
                                              std::int64_t below) {
  const std::size_t count =
      vertices > 0 ? std::size_t(*std::max_element(component.begin(), component.end())) + 1 : 0;
  std::vector<std::int32_t> smallest(count, vertices);  // each component's smallest vertex
  for (std::int32_t u = vertices - 1; u >= 0; --u)
    smallest[std::size_t(component[std::size_t(u)])] = u;
  // The components that could hold the answer, as graphs of their own.
  std::vector<std::int32_t> candidates;
  std::vector<std::int32_t> slot(count, -1);  // a candidate's place in `inside`
  for (const Edge& e : edges) {
    const std::int32_t c = component[std::size_t(e.src)];
    if (e.weight < 0 && c == component[std::size_t(e.dst)] && smallest[std::size_t(c)] < below &&
        slot[std::size_t(c)] < 0) {
      slot[std::size_t(c)] = std::int32_t(candidates.size());
      candidates.push_back(c);
    }
  }
  if (candidates.empty()) return -1;
  std::vector<Graph> inside(candidates.size());
  std::vector<std::int32_t> local(std::size_t(vertices), -1);  // a vertex's number in `inside`
  for (std::int32_t u = 0; u < vertices; ++u) {
    const std::int32_t at = slot[std::size_t(component[std::size_t(u)])];
    if (at >= 0) local[std::size_t(u)] = inside[std::size_t(at)].vertices++;
  }
  for (const Edge& e : edges) {
    const std::int32_t at = slot[std::size_t(component[std::size_t(e.src)])];
    if (at >= 0 && component[std::size_t(e.src)] == component[std::size_t(e.dst)])
      inside[std::size_t(at)].edges.push_back(
          Edge{local[std::size_t(e.src)], local[std::size_t(e.dst)], e.weight});
  }
  std::vector<std::size_t> by_smallest(candidates.size());
  for (std::size_t i = 0; i < by_smallest.size(); ++i)
    by_smallest[i] = i;
  std::sort(by_smallest.begin(), by_smallest.end(), [&](std::size_t a, std::size_t b) {
    return smallest[std::size_t(candidates[a])] < smallest[std::size_t(candidates[b])];
  });
  // Without a budget Bellman-Ford ends: -1 (no negative cycle) or a cycle (>= 0, or -2 when
  // V + 1 rounds all changed something, which only a negative cycle does).
  for (const std::size_t i : by_smallest)
    if (negative_cycle_in_double(inside[i], -1, std::numeric_limits<std::uint64_t>::max()) != -1)
      return smallest[std::size_t(candidates[i])];
  return -1;
}

}  // namespace detail

// The vertex that every algorithm names for a negative cycle: the smallest vertex with a
// negative closed walk through it (where Floyd-Warshall's d(v, v) < 0 marks only some, which
// ones depending on its order). A closed walk stays inside one strongly connected component,
// and a component that holds one negative cycle holds a negative closed walk through each of
// its vertices (to the cycle, round it often enough, and back): so the answer is the smallest
// vertex of the lowest component that holds a negative cycle.
// From `on_walk`, one vertex known to have one (a solver's find), or -1 (returned as it is):
// its component's smallest vertex, unless a lower component holds a cycle too. Without such
// lower components with a negative arc, the cost is one pass over the edges.
inline std::int64_t smallest_on_negative_closed_walk(std::int32_t vertices,
                                                     const std::vector<Edge>& edges,
                                                     std::int64_t on_walk) {
  if (on_walk < 0) return on_walk;
  const std::vector<std::int32_t> component = strong_components(vertices, edges);
  std::int32_t found = std::int32_t(on_walk);
  for (std::int32_t u = 0; u < found; ++u)
    if (component[std::size_t(u)] == component[std::size_t(on_walk)]) found = u;
  const std::int64_t lower = detail::lowest_negative_component(vertices, edges, component, found);
  return lower >= 0 ? lower : found;
}

// The same without a find: every component with a negative arc is searched; -1: no negative
// cycle at all.
inline std::int64_t negative_closed_walk_vertex(std::int32_t vertices,
                                                const std::vector<Edge>& edges) {
  return detail::lowest_negative_component(vertices, edges, strong_components(vertices, edges),
                                           vertices);
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
// The vertex is then the one every algorithm names (smallest_on_negative_closed_walk), except for a
// cycle made by the rounding: the solver's own.
struct CycleVerdict {
  std::int64_t vertex = -1;  // the vertex named for a negative cycle, or -1: none
  bool rounding_suspected = false;
  bool made = false;  // (rounding_suspected) made by the rounding, else hidden by it
};

template <class T>
CycleVerdict negative_cycle_verdict(const Graph& graph, const WeightRange& weights,
                                    std::int64_t found) {
  CycleVerdict verdict{found, false, false};
  if (cycles_may_round<T>(weights, graph.vertices)) {
    const std::int64_t in_double = negative_cycle_in_double(
        graph, found, std::max<std::uint64_t>(std::uint64_t(1) << 28, 8 * graph.edges.size()));
    if (found >= 0 && in_double == -1) verdict = CycleVerdict{found, true, true};
    if (found < 0 && in_double >= 0) verdict = CycleVerdict{in_double, true, false};
  }
  if (!verdict.made)
    verdict.vertex = smallest_on_negative_closed_walk(graph.vertices, graph.edges, verdict.vertex);
  return verdict;
}

// Throws the verdict's NegativeCycleError (error.hpp), if it has a cycle; `type`: the solver's;
// `graph`: which graph of a batch, -1 for a graph alone.
inline void throw_negative_cycle(const CycleVerdict& verdict, DistanceType type,
                                 std::int64_t graph = -1) {
  if (verdict.vertex < 0) return;
  throw NegativeCycleError(verdict.vertex,
                           !verdict.rounding_suspected ? NegativeCycleError::none
                           : verdict.made              ? NegativeCycleError::made
                                                       : NegativeCycleError::hidden,
                           distance_type_name(type), graph);
}

}  // namespace apsp
