// Independent references for the tests: plain O(V^3) Floyd-Warshall on the host, and a
// random graph maker. Nothing here shares code with the solver.
#pragma once

#include <apsp/graph.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace apsp_test {

inline std::vector<int> reference_floyd_warshall(const apsp::Graph& g) {
  const std::int64_t v = g.vertices;
  std::vector<int> d(std::size_t(v * v), apsp::Distance<int>::infinity);
  for (std::int64_t i = 0; i < v; ++i)
    d[std::size_t(i * v + i)] = 0;
  for (const auto& e : g.edges) {
    int& x = d[std::size_t(std::int64_t(e.src) * v + e.dst)];
    if (e.src != e.dst && e.weight < x) x = int(e.weight);  // whole-number weights (HW3)
  }
  for (std::int64_t k = 0; k < v; ++k)
    for (std::int64_t i = 0; i < v; ++i) {
      const int dik = d[std::size_t(i * v + k)];
      if (dik == apsp::Distance<int>::infinity) continue;
      for (std::int64_t j = 0; j < v; ++j) {
        const int dkj = d[std::size_t(k * v + j)];
        if (dkj != apsp::Distance<int>::infinity && dik + dkj < d[std::size_t(i * v + j)])
          d[std::size_t(i * v + j)] = dik + dkj;
      }
    }
  return d;
}

// The smallest vertex v with a negative closed walk through it, or -1. Plain Floyd-Warshall in
// double, unclamped (values on a cycle may fall towards -infinity; only signs and finiteness
// are read), leaves d(u, u) < 0 on at least one vertex of every negative simple cycle (once all
// its vertices were pivots, d(u, u) is at most its weight) and only on vertices of a negative
// closed walk; v has one exactly when such a u and v reach each other. O(V^3): small graphs.
inline std::int64_t reference_negative_cycle_vertex(const apsp::Graph& g) {
  const std::int64_t v = g.vertices;
  const double none = std::numeric_limits<double>::infinity();
  std::vector<double> d(std::size_t(v * v), none);
  for (std::int64_t i = 0; i < v; ++i)
    d[std::size_t(i * v + i)] = 0;
  for (const auto& e : g.edges) {
    double& x = d[std::size_t(std::int64_t(e.src) * v + e.dst)];
    x = std::min(x, e.weight);
  }
  for (std::int64_t k = 0; k < v; ++k)
    for (std::int64_t i = 0; i < v; ++i) {
      const double dik = d[std::size_t(i * v + k)];
      if (dik == none) continue;
      for (std::int64_t j = 0; j < v; ++j) {
        const double dkj = d[std::size_t(k * v + j)];
        if (dkj != none) d[std::size_t(i * v + j)] = std::min(d[std::size_t(i * v + j)], dik + dkj);
      }
    }
  for (std::int64_t x = 0; x < v; ++x)
    for (std::int64_t u = 0; u < v; ++u)
      if (d[std::size_t(u * v + u)] < 0 && d[std::size_t(x * v + u)] != none &&
          d[std::size_t(u * v + x)] != none)
        return x;
  return -1;
}

// A random directed graph: each ordered pair an arc with probability `density`, its weight
// uniform in [min_weight, max_weight].
inline apsp::Graph random_graph(int vertices, double density, unsigned seed, int max_weight = 1000,
                                int min_weight = 0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<int> weight(min_weight, max_weight);
  apsp::Graph g;
  g.vertices = vertices;
  for (int i = 0; i < vertices; ++i)
    for (int j = 0; j < vertices; ++j)
      if (coin(rng) < density) g.edges.push_back({i, j, weight(rng)});
  return g;
}

// Negative weights without negative cycles: w = w0 + p(u) - p(v) with w0 >= 0 changes every
// cycle's weight by nothing. Potentials p in [0, potentials), w0 zero with probability
// `zero_share`, else in [0, w0_values).
inline apsp::Graph potential_graph(int vertices, double density, unsigned seed,
                                   int potentials = 301, double zero_share = 0.3,
                                   int w0_values = 401) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  std::vector<int> potential(static_cast<std::size_t>(vertices));
  for (int& p : potential)
    p = int(rng() % unsigned(potentials));
  apsp::Graph g;
  g.vertices = vertices;
  for (int i = 0; i < vertices; ++i)
    for (int j = 0; j < vertices; ++j)
      if (coin(rng) < density) {
        const int w0 = coin(rng) < zero_share ? 0 : int(rng() % unsigned(w0_values));
        g.edges.push_back({i, j, w0 + potential[std::size_t(i)] - potential[std::size_t(j)]});
      }
  return g;
}

}  // namespace apsp_test
