// Graph generators whose output is byte-identical on every platform: their own integer random
// numbers (splitmix64), no implementation-defined standard distributions, floating point only
// in correctly rounded IEEE operations (sqrt, *, /) on exact integers.
//
// Three classes (GraphClass), their parameters fixed here, before any tuning of the solvers:
// - random: each ordered pair (i, j), i != j, is an edge with probability `density`, weights
//   uniform in [0, max_weight]. Expander-like: no ordering reduces Floyd-Warshall's work.
// - grid: a near-square 2D grid of `vertices` vertices (ceil(sqrt(V)) columns, row-major
//   numbering, the last row partly filled), 4-neighbour edges in both directions with the same
//   weight, uniform in [1, 100]; each undirected edge deleted with probability 8%. A mesh-class
//   graph: separators of O(sqrt(V)) vertices.
// - road: a road-like random geometric graph: `vertices` points uniform in the unit square
//   (random numbering, as real networks' files have no locality guarantee); the candidate edges
//   join each point to its 6 nearest neighbours; kept: a minimum spanning forest of the
//   candidates (so the graph is connected wherever the candidates are, almost always), plus each
//   candidate between a point and one of its 3 nearest neighbours with probability 1/2;
//   average degree ~2.9 (road networks: 2.5-3). Both directions, weight = the Euclidean length
//   scaled so that the longest edge weighs 1000, rounded, at least 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace apsp {

enum class GraphClass { random, grid, road };

// "random", "grid", "road"; nullopt for anything else.
std::optional<GraphClass> graph_class_named(const std::string& name);

struct GenerateConfig {
  GraphClass graph_class = GraphClass::random;
  std::int32_t vertices = 0;
  double density = 0;  // random: probability of each ordered pair (i, j), i != j
  std::uint64_t seed = 1;
  int max_weight = 1000;  // random only
};

// Writes the HW3 input file (atomically); returns the number of edges.
std::int64_t generate_hw3(const GenerateConfig& config, const std::string& path);

}  // namespace apsp
