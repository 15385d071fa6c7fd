// One host Dijkstra (Dijkstra 1959) for the checks that do not trust the solver: `apsp verify`
// (the sampled rows and columns, verify/verify_output.cpp) and `apsp path` (the true distance a
// path is checked against, run/find_path.cpp; the one search of its predecessor row, pipeline.cpp's
// predecessor_row: distances_from, with Bellman-Ford where weights are negative). Host code only,
// no Kokkos: the fuzzing build compiles verify_output.cpp without one. (`--algorithm sssp` is
// another thing: a bucket queue per thread on a Kokkos Kernels graph, plan/sssp_choice.hpp.)
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>
#include <vector>

namespace apsp {
namespace detail {

// A distance with no path, in the double these checks compute in.
constexpr double unreachable = std::numeric_limits<double>::infinity();

struct Arc {
  std::int32_t to;
  double weight;
};

// Compressed adjacency: arcs of u are arcs[first[u]] .. arcs[first[u+1]-1], sorted by target.
// Parallel edges keep their smallest weight and self-loops are dropped: with no negative weight
// (Dijkstra's input) neither changes a shortest distance, and merged arcs make "d(u, v) <= w"
// one check per pair.
struct ArcLists {
  std::vector<std::int64_t> first;
  std::vector<Arc> arcs;

  std::int32_t vertices() const { return std::int32_t(first.size() - 1); }
  const Arc* begin(std::int32_t u) const { return arcs.data() + first[std::size_t(u)]; }
  const Arc* end(std::int32_t u) const { return arcs.data() + first[std::size_t(u) + 1]; }
};

// The arcs of `edges`, each from its source (or, `reversed`, from its target: the searches to a
// vertex run on the reversed graph).
inline ArcLists build_adjacency(std::int32_t vertices, const std::vector<Edge>& edges,
                                bool reversed) {
  ArcLists g;
  g.first.assign(std::size_t(vertices) + 1, 0);
  for (const Edge& e : edges)
    if (e.src != e.dst) ++g.first[std::size_t(reversed ? e.dst : e.src) + 1];
  for (std::size_t u = 0; u < std::size_t(vertices); ++u)
    g.first[u + 1] += g.first[u];
  g.arcs.resize(std::size_t(g.first.back()));
  std::vector<std::int64_t> next(g.first.begin(), g.first.end() - 1);
  for (const Edge& e : edges) {
    if (e.src == e.dst) continue;
    const std::int32_t from = reversed ? e.dst : e.src, to = reversed ? e.src : e.dst;
    g.arcs[std::size_t(next[std::size_t(from)]++)] = Arc{to, e.weight};
  }
  std::int64_t kept = 0;
  for (std::int32_t u = 0; u < vertices; ++u) {
    Arc* first = g.arcs.data() + g.first[std::size_t(u)];
    Arc* last = g.arcs.data() + g.first[std::size_t(u) + 1];
    std::sort(first, last, [](const Arc& a, const Arc& b) {
      return a.to != b.to ? a.to < b.to : a.weight < b.weight;
    });
    last = std::unique(first, last, [](const Arc& a, const Arc& b) { return a.to == b.to; });
    g.first[std::size_t(u)] = kept;
    for (const Arc* a = first; a != last; ++a)
      g.arcs[std::size_t(kept++)] = *a;
  }
  g.first.back() = kept;
  g.arcs.resize(std::size_t(kept));
  g.arcs.shrink_to_fit();
  return g;
}

// Dijkstra with a binary heap and lazy deletion, in double (exact for whole-number weights
// below 2^53), `unreachable` where there is no path. reached(u, arc) is called each time the arc
// u -> arc.to lowers the distance of arc.to, so that a caller keeps what it needs of each path
// found (its edge count, its length). Ties go to the first path found, the same on every run.
template <class Reached>
std::vector<double> shortest_distances(const ArcLists& g, std::int32_t source, Reached&& reached) {
  std::vector<double> dist(std::size_t(g.vertices()), unreachable);
  using Entry = std::pair<double, std::int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  dist[std::size_t(source)] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[std::size_t(u)]) continue;
    for (const Arc* a = g.begin(u); a != g.end(u); ++a) {
      const double through = d + a->weight;
      if (through < dist[std::size_t(a->to)]) {
        dist[std::size_t(a->to)] = through;
        reached(u, *a);
        heap.push({through, a->to});
      }
    }
  }
  return dist;
}

// The distances from one source, in double, `unreachable` where there is no path (exact for
// whole-number weights), and of each the path found: its edges and the sum of their |w|.
struct SourcePaths {
  std::vector<double> dist, total;
  std::vector<std::int64_t> edges;
};

// Dijkstra, or Bellman-Ford when the graph has negative weights (then a negative cycle that
// `source` reaches is an error). One search on the host, to check a saved path against.
inline SourcePaths distances_from(const Graph& graph, bool negative, std::int64_t source) {
  const std::size_t v = std::size_t(graph.vertices);
  SourcePaths out{std::vector<double>(v, unreachable), std::vector<double>(v, 0),
                  std::vector<std::int64_t>(v, 0)};
  std::vector<double>& dist = out.dist;
  dist[std::size_t(source)] = 0;
  // The path to `to` is now the one to `from` and the edge from -> to.
  const auto extend = [&](std::int64_t from, std::int64_t to, double weight) {
    out.edges[std::size_t(to)] = out.edges[std::size_t(from)] + 1;
    out.total[std::size_t(to)] = out.total[std::size_t(from)] + std::fabs(weight);
  };
  if (!negative) {
    const detail::ArcLists arcs = detail::build_adjacency(graph.vertices, graph.edges, false);
    dist = detail::shortest_distances(
        arcs, std::int32_t(source),
        [&](std::int32_t u, const detail::Arc& a) { extend(u, a.to, a.weight); });
    return out;
  }
  for (std::size_t round = 0; round <= v; ++round) {
    bool changed = false;
    for (const Edge& e : graph.edges) {
      const double from = dist[std::size_t(e.src)];
      if (from != unreachable && from + e.weight < dist[std::size_t(e.dst)]) {
        dist[std::size_t(e.dst)] = from + e.weight;
        extend(e.src, e.dst, e.weight);
        changed = true;
      }
    }
    if (!changed) return out;
  }
  throw Error("a negative cycle can be reached from vertex " + std::to_string(source) +
              ": no shortest path is defined");
}

}  // namespace detail
}  // namespace apsp
