// Negative weights at the plain rate: the remaining tiles add and take the minimum only and map
// the range once per store (detail/blocked_kernels.hpp, "Negative weights"). Checked here: the
// arithmetic step of the proof on the boundary values of the range; then, on every backend and
// every tile shape the device allows, exact distances on long chains of -1000 and on zero-weight
// cycles; on negative cycles of every length, exact distances between the pairs that no walk
// through the cycle joins, a finite value (a negative one on the cycle's diagonal) for the pairs
// that one joins, every value inside the range, and the smallest vertex of the cycle reported.
#include "backends.hpp"
#include "io/hw3_io.hpp"
#include "reference.hpp"

#include <apsp/floyd_warshall.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

constexpr int F = apsp::detail::negative_floor;
constexpr int T = apsp::detail::negative_threshold;
constexpr int INF = apsp::Distance<int>::infinity;

// Steps 1-3 of the proof, for one update: with a, b and d in [F, T) u {INF}, the sum never
// overflows, and S(min(d, a + b)) equals min(d, sat(a, b)) unless sat(a, b) is finite and >= T
// (which step 4 shows never happens in a run).
TEST(NegativeWeightsRange, OneAddMinThenTheRangeIsTheSaturatingRelaxation) {
  using Ranged = apsp::detail::RangedRelaxation<int>;
  using Saturating = apsp::detail::Relaxation<int, true>;
  static_assert(std::is_same_v<Saturating::product, Ranged>, "negative runs use the ranged one");
  const std::vector<int> values = {
      F, F + 1, -2 * apsp::hw3_max_weight, -1, 0, 1, 999, T / 2, T - 2, T - 1, INF};
  int differences = 0;
  for (const int a : values)
    for (const int b : values)
      for (const int d : values) {
        const std::int64_t exact = std::int64_t(a) + b;
        ASSERT_GE(exact, std::numeric_limits<int>::min());
        ASSERT_LE(exact, std::numeric_limits<int>::max());
        int ranged = d, saturating = d;
        Ranged::relax(ranged, a, b);
        ranged = Ranged::finish(ranged);
        Saturating::relax(saturating, a, b);
        const int sat = Saturating::through(a, b);
        if (a != INF && b != INF && sat >= T) {
          // The one case the run never meets; the ranged result reads it as no path.
          EXPECT_EQ(ranged, d < T ? d : INF);
          ++differences;
          continue;
        }
        EXPECT_EQ(ranged, saturating) << "a = " << a << ", b = " << b << ", d = " << d;
      }
  EXPECT_GT(differences, 0);  // the exception above is reached, so the check is not vacuous
  EXPECT_EQ(Ranged::finish(INF), INF);
  EXPECT_EQ(Ranged::finish(T), INF);
  EXPECT_EQ(Ranged::finish(T - 1), T - 1);
  EXPECT_EQ(Ranged::finish(F), F);
  EXPECT_EQ(Ranged::finish(F - 1), F);
  EXPECT_EQ(Ranged::finish(2 * F), F);
  EXPECT_EQ(INF + F, T);
}

// The whole padded matrix after a solve.
template <class ExecSpace>
std::vector<int> solve_padded(const apsp::Graph& g, int shape, std::int64_t* n_out,
                              std::int64_t* cycle_vertex) {
  ExecSpace exec;
  apsp::ShapeRequest request;
  request.shape = shape;
  const apsp::Plan plan = apsp::make_plan<int>(exec, g.vertices, true, request);
  const std::int64_t n = plan.padded;
  apsp::DistanceMatrix<ExecSpace> dist("dist", n, n);
  apsp::fill_distance_matrix(exec, dist, g.edges);
  apsp::floyd_warshall(exec, dist, plan);
  *cycle_vertex = apsp::negative_cycle_vertex(exec, dist, 0, g.vertices);
  *n_out = n;
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
  return std::vector<int>(host.data(), host.data() + n * n);
}

// The leading V x V block of an n x n matrix.
std::vector<int> leading(const std::vector<int>& m, std::int64_t n, std::int64_t v) {
  std::vector<int> out;
  for (std::int64_t i = 0; i < v; ++i)
    out.insert(out.end(), m.begin() + i * n, m.begin() + i * n + v);
  return out;
}

// "" or the first stored value outside [F, T) u {INF}.
std::string outside_the_range(const std::vector<int>& m) {
  for (std::size_t e = 0; e < m.size(); ++e)
    if (m[e] != INF && (m[e] < F || m[e] >= T))
      return "entry " + std::to_string(e) + " = " + std::to_string(m[e]);
  return "";
}

template <class ExecSpace>
class NegativeWeights : public ::testing::Test {};
TYPED_TEST_SUITE(NegativeWeights, apsp_test::Backends, apsp_test::BackendName);

// i -> i + 1 of weight -1000 (distances down to -1000 * (V - 1)), optionally i + 1 -> i of
// weight 1000 (a zero-weight cycle on every pair, distances up to 1000 * (V - 1)).
TYPED_TEST(NegativeWeights, ChainsOfMinus1000AreExact) {
  for (const auto& shape : apsp::available_shapes(TypeParam())) {
    for (int v : {1, 2, 31, 63, 65, 97, 130, 200}) {
      for (const bool back : {false, true}) {
        apsp::Graph g;
        g.vertices = v;
        for (int i = 0; i + 1 < v; ++i) {
          g.edges.push_back({i, i + 1, -apsp::hw3_max_weight});
          if (back) g.edges.push_back({i + 1, i, apsp::hw3_max_weight});
        }
        std::int64_t n = 0, cycle = 0;
        const auto m = solve_padded<TypeParam>(g, shape.index, &n, &cycle);
        const auto d = leading(m, n, v);
        std::vector<int> expected(std::size_t(v) * v, INF);
        for (int i = 0; i < v; ++i)
          for (int j = 0; j < v; ++j)
            if (j >= i || back) expected[std::size_t(i) * v + j] = -apsp::hw3_max_weight * (j - i);
        EXPECT_EQ(d, expected) << "V = " << v << (back ? " with back edges, " : ", ") << shape.name;
        EXPECT_EQ(d, apsp_test::reference_floyd_warshall(g));
        EXPECT_EQ(cycle, -1) << "V = " << v << ", " << shape.name;
        EXPECT_EQ(outside_the_range(m), "") << "V = " << v << ", " << shape.name;
      }
    }
  }
}

// Random graphs whose cycles all weigh 0 (weights w0 + p(u) - p(v), mostly w0 = 0), with
// negative weights down to -1000 and unreachable pairs.
TYPED_TEST(NegativeWeights, ZeroWeightCyclesAreExact) {
  for (const auto& shape : apsp::available_shapes(TypeParam())) {
    for (int v : {5, 64, 66, 100, 129}) {
      for (double density : {0.02, 0.1, 0.5}) {
        const apsp::Graph g =
            apsp_test::potential_graph(v, density, unsigned(v * 7 + shape.index), 501, 0.8, 500);
        std::int64_t n = 0, cycle = 0;
        const auto m = solve_padded<TypeParam>(g, shape.index, &n, &cycle);
        EXPECT_EQ(leading(m, n, v), apsp_test::reference_floyd_warshall(g))
            << "V = " << v << ", density " << density << ", " << shape.name;
        EXPECT_EQ(cycle, -1);
        EXPECT_EQ(outside_the_range(m), "") << shape.name;
      }
    }
  }
}

// A negative cycle of every length 1..70 over vertices scattered across the tiles of V = 100,
// in a forward-only random graph (so no other vertex below the cycle's smallest joins its
// strongly connected component): the light cycle (-1 in all) and the heavy one (-1000 per edge,
// whose values reach the floor within a few rounds). Checked against what every correct
// Floyd-Warshall stores, whatever its order: a pair (i, j) that no walk through the cycle joins
// has its exact distance (that of the graph without the cycle's vertices, or 0 on the
// diagonal); a pair that one joins has a finite value (Floyd-Warshall bounds it by a simple
// path's weight), a cycle vertex a negative d(c, c); every value lies in the range, and the
// smallest vertex of the cycle is reported.
TYPED_TEST(NegativeWeights, NegativeCyclesOfEveryLength) {
  const int v = 100;
  for (const auto& shape : apsp::available_shapes(TypeParam())) {
    int floors = 0;
    for (int length = 1; length <= 70; ++length) {
      const bool heavy = length % 2 == 0;
      std::mt19937 rng(unsigned(length * 101 + shape.index));
      apsp::Graph g = apsp_test::random_graph(v, 0.03, unsigned(length + 1000 * shape.index));
      g.edges.erase(std::remove_if(g.edges.begin(), g.edges.end(),
                                   [](const apsp::Edge& e) { return e.src >= e.dst; }),
                    g.edges.end());
      const apsp::Graph acyclic = g;  // forward edges only: no cycle at all
      std::vector<int> order(static_cast<std::size_t>(v));
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      order.resize(std::size_t(length));
      std::vector<char> on_cycle(std::size_t(v), 0);
      for (int c = 0; c < length; ++c) {
        const int from = order[std::size_t(c)], to = order[std::size_t((c + 1) % length)];
        on_cycle[std::size_t(from)] = 1;
        // Light: 1000, -1000, 1000, ... closed by whatever makes the sum -1.
        int w = heavy ? -apsp::hw3_max_weight
                      : (c % 2 == 0 ? apsp::hw3_max_weight : -apsp::hw3_max_weight);
        if (!heavy && c == length - 1) w = -1;  // length is odd: the others sum to 0
        g.edges.push_back({from, to, w});
      }
      if (!heavy) {
        std::int64_t sum = 0;
        for (int c = 0; c < length; ++c)
          sum += g.edges[g.edges.size() - std::size_t(length) + std::size_t(c)].weight;
        ASSERT_LT(sum, 0) << "length " << length;
      }
      // Pairs joined through the cycle: i reaches a cycle vertex that reaches j (in g). The
      // others' walks avoid every cycle vertex: their distances are those of the forward graph
      // without the cycle's vertices.
      apsp::Graph outside;
      outside.vertices = v;
      for (const apsp::Edge& e : acyclic.edges)
        if (!on_cycle[std::size_t(e.src)] && !on_cycle[std::size_t(e.dst)])
          outside.edges.push_back(e);
      const std::vector<int> exact = apsp_test::reference_floyd_warshall(outside);
      std::vector<char> reach(std::size_t(v) * v, 0);  // reach(i, j): a walk i -> j in g
      for (int i = 0; i < v; ++i)
        reach[std::size_t(i) * v + i] = 1;
      for (const apsp::Edge& e : g.edges)
        reach[std::size_t(e.src) * v + e.dst] = 1;
      for (int k = 0; k < v; ++k)
        for (int i = 0; i < v; ++i)
          if (reach[std::size_t(i) * v + k])
            for (int j = 0; j < v; ++j)
              if (reach[std::size_t(k) * v + j]) reach[std::size_t(i) * v + j] = 1;
      const int smallest = *std::min_element(order.begin(), order.end());
      std::int64_t n = 0, cycle = 0;
      const auto m = solve_padded<TypeParam>(g, shape.index, &n, &cycle);
      const auto d = leading(m, n, v);
      const std::string what = "length " + std::to_string(length) + ", " + shape.name;
      EXPECT_EQ(cycle, smallest) << what;
      EXPECT_EQ(outside_the_range(m), "") << what;
      int wrong = 0;
      for (int i = 0; i < v; ++i)
        for (int j = 0; j < v; ++j) {
          const std::size_t at = std::size_t(i) * v + j;
          const bool joined =
              reach[std::size_t(i) * v + smallest] && reach[std::size_t(smallest) * v + j];
          if (joined)
            wrong += d[at] == INF || (i == j && on_cycle[std::size_t(i)] && d[at] >= 0);
          else
            wrong += d[at] != exact[at];
        }
      EXPECT_EQ(wrong, 0) << what;
      if (std::find(m.begin(), m.end(), F) != m.end()) ++floors;
    }
    // The clamp acts (so the ranged store's floor is exercised, not only the exact range).
    EXPECT_GT(floors, 0) << shape.name;
  }
}

}  // namespace
