// Predecessors and negative weights, exactly, on every backend and every tile shape the device
// allows: distances against the plain reference, predecessor rows against an independent
// reference of the rule (paths.hpp: fewest edges among shortest paths, then the smallest
// predecessor), so that every shape and backend gives the same rows, and every predecessor path
// walked edge by edge back to its source, its length equal to the distance. Zero weights make
// zero-weight cycles, where naive predecessors loop, and many tied shortest paths.
#include "backends.hpp"
#include "reference.hpp"

#include <apsp/floyd_warshall.hpp>
#include <apsp/paths.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Solved {
  std::vector<int> dist;  // V x V
  std::vector<int> pred;  // V x V, empty without paths
};

// Solves g with the given shape; with paths, the predecessor rows come in batches of `batch`
// from the rows [first, V) of the distance matrix alone (as a rank holding them computes them).
template <class ExecSpace>
Solved solve(const apsp::Graph& g, const apsp::ShapeChoice& shape, bool paths, bool negative,
             std::int64_t batch = 3, std::int64_t first = 0) {
  ExecSpace exec;
  apsp::ShapeRequest request;
  request.shape = shape.index;
  const std::int64_t v = g.vertices;
  const apsp::Plan plan = apsp::make_plan<int>(exec, v, negative, request);
  const std::int64_t n = plan.padded;
  apsp::DistanceMatrix<ExecSpace> dist("dist", n, n);
  const auto edges = apsp::upload_edges(exec, g.edges);
  apsp::fill_distance_matrix(exec, dist, edges);
  apsp::floyd_warshall(exec, dist, plan);
  Solved out;
  if (paths) {
    const auto path_edges = apsp::select_path_edges(exec, dist, v, edges);
    apsp::DistanceMatrix<ExecSpace> block("block", n - first, n);
    Kokkos::deep_copy(block, Kokkos::subview(dist, std::make_pair(first, n), Kokkos::ALL));
    apsp::PredecessorRows<ExecSpace> rows(exec, block, first, v, path_edges, batch);
    out.pred.assign(std::size_t(first * v), apsp::no_vertex);
    for (std::int64_t r = first; r < v; r += batch) {
      const std::int64_t count = std::min(batch, v - r);
      const auto host =
          Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.compute(r, count));
      for (std::int64_t x = 0; x < count; ++x)
        out.pred.insert(out.pred.end(), &host(x, 0), &host(x, 0) + v);
    }
  }
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
  for (std::int64_t i = 0; i < v; ++i)
    out.dist.insert(out.dist.end(), &host(i, 0), &host(i, 0) + v);
  return out;
}

// The rule of paths.hpp, from the reference distances: per source, breadth-first levels over
// the tight edges, then for each vertex the smallest tight in-neighbour one level down.
std::vector<int> reference_predecessors(const apsp::Graph& g, const std::vector<int>& d) {
  const int v = g.vertices;
  std::map<std::pair<int, int>, int> lightest;
  for (const auto& e : g.edges)
    if (e.src != e.dst) {
      auto it = lightest.emplace(std::make_pair(e.src, e.dst), int(e.weight)).first;
      it->second = std::min(it->second, int(e.weight));
    }
  std::vector<int> pred(std::size_t(v) * v, apsp::no_vertex);
  for (int i = 0; i < v; ++i) {
    const auto dist = [&](int x) { return d[std::size_t(i) * v + x]; };
    const auto tight = [&](int u, int j, int w) {
      return dist(u) != apsp::Distance<int>::infinity && dist(u) + w == dist(j);
    };
    std::vector<int> level(std::size_t(v), -1), queue{i};
    level[std::size_t(i)] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (const auto& [edge, w] : lightest) {
        const auto [u, j] = edge;
        if (u == queue[head] && level[std::size_t(j)] < 0 && tight(u, j, w)) {
          level[std::size_t(j)] = level[std::size_t(u)] + 1;
          queue.push_back(j);
        }
      }
    for (const auto& [edge, w] : lightest) {
      const auto [u, j] = edge;  // in order of u: the first that fits is the smallest
      int& p = pred[std::size_t(i) * v + j];
      if (p == apsp::no_vertex && j != i && level[std::size_t(u)] >= 0 &&
          level[std::size_t(u)] + 1 == level[std::size_t(j)] && tight(u, j, w))
        p = u;
    }
  }
  return pred;
}

// Walks every predecessor path back to its source; returns "" or the first problem.
std::string check_paths(const apsp::Graph& g, const Solved& s) {
  const int v = g.vertices;
  std::map<std::pair<int, int>, int> lightest;
  for (const auto& e : g.edges) {
    auto it = lightest.find({e.src, e.dst});
    if (it == lightest.end())
      lightest[{e.src, e.dst}] = int(e.weight);
    else
      it->second = std::min(it->second, int(e.weight));
  }
  for (int i = 0; i < v; ++i)
    for (int j = 0; j < v; ++j) {
      const int d = s.dist[std::size_t(i) * v + j];
      const int p = s.pred[std::size_t(i) * v + j];
      const std::string pair = "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
      if (i == j || d == apsp::Distance<int>::infinity) {
        if (p != apsp::no_vertex) return pair + ": predecessor " + std::to_string(p) + ", want -1";
        continue;
      }
      std::int64_t length = 0;
      int steps = 0;
      for (int x = j; x != i; ++steps) {
        const int before = s.pred[std::size_t(i) * v + x];
        if (steps >= v) return pair + ": the predecessors loop";
        const auto edge = lightest.find({before, x});
        if (edge == lightest.end())
          return pair + ": " + std::to_string(before) + " -> " + std::to_string(x) +
                 " is not an edge";
        length += edge->second;
        x = before;
      }
      if (length != d)
        return pair + ": path length " + std::to_string(length) + ", distance " + std::to_string(d);
    }
  return "";
}

// Weights 0..3, mostly 0: many zero-weight cycles and ties.
apsp::Graph zero_heavy_graph(int vertices, double density, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  apsp::Graph g;
  g.vertices = vertices;
  for (int i = 0; i < vertices; ++i)
    for (int j = 0; j < vertices; ++j)
      if (coin(rng) < density) g.edges.push_back({i, j, coin(rng) < 0.7 ? 0 : int(rng() % 4)});
  return g;
}

template <class ExecSpace>
class Paths : public ::testing::Test {};
TYPED_TEST_SUITE(Paths, apsp_test::Backends, apsp_test::BackendName);

TYPED_TEST(Paths, PredecessorsFollowTheRuleWithZeroWeightCyclesAndTies) {
  for (const auto& shape : apsp::available_shapes(TypeParam())) {
    for (int v : {1, 2, 7, 33, 65, 130}) {
      for (double density : {0.05, 0.3}) {
        const auto g = zero_heavy_graph(v, density, unsigned(v * 31) + (density > 0.1 ? 1 : 0));
        const Solved s = solve<TypeParam>(g, shape, true, false);
        ASSERT_EQ(s.dist, apsp_test::reference_floyd_warshall(g))
            << "V = " << v << ", " << shape.name;
        EXPECT_EQ(check_paths(g, s), "")
            << "V = " << v << ", density " << density << ", " << shape.name;
        EXPECT_EQ(s.pred, reference_predecessors(g, s.dist))
            << "V = " << v << ", density " << density << ", " << shape.name;
      }
    }
  }
}

// All weights 0 on a complete graph: every pair is one edge away, every vertex on a zero cycle.
TYPED_TEST(Paths, PredecessorsOfAZeroWeightCliqueAreTheSources) {
  apsp::Graph g;
  g.vertices = 40;
  for (int i = 0; i < g.vertices; ++i)
    for (int j = 0; j < g.vertices; ++j)
      g.edges.push_back({i, j, 0});
  const Solved s = solve<TypeParam>(g, apsp::available_shapes(TypeParam()).front(), true, false);
  for (int i = 0; i < g.vertices; ++i)
    for (int j = 0; j < g.vertices; ++j)
      ASSERT_EQ(s.pred[std::size_t(i * g.vertices + j)], i == j ? apsp::no_vertex : i)
          << i << " -> " << j;
}

// A row block (rows [first, V), as the rank holding them sees them) and the batch size change
// nothing.
TYPED_TEST(Paths, PredecessorRowsOfARowBlockAreTheSame) {
  const auto shape = apsp::available_shapes(TypeParam()).front();
  const auto g = zero_heavy_graph(150, 0.04, 5);
  const Solved whole = solve<TypeParam>(g, shape, true, false, 150);
  EXPECT_EQ(check_paths(g, whole), "");
  for (const std::int64_t first : {1, 37, 149}) {
    const Solved block = solve<TypeParam>(g, shape, true, false, 4, first);
    const std::size_t skip = std::size_t(first * g.vertices);
    EXPECT_TRUE(std::equal(block.pred.begin() + skip, block.pred.end(), whole.pred.begin() + skip))
        << "rows from " << first;
  }
}

TYPED_TEST(Paths, NegativeWeightsMatchTheReference) {
  for (const auto& shape : apsp::available_shapes(TypeParam())) {
    for (int v : {1, 5, 40, 97}) {
      const auto g = apsp_test::potential_graph(v, 0.1, unsigned(v + 13 * shape.index));
      const auto expected = apsp_test::reference_floyd_warshall(g);
      const Solved s = solve<TypeParam>(g, shape, true, true);
      EXPECT_EQ(s.dist, expected) << "V = " << v << ", " << shape.name;
      EXPECT_EQ(check_paths(g, s), "") << "V = " << v << ", " << shape.name;
      EXPECT_EQ(s.pred, reference_predecessors(g, expected)) << "V = " << v << ", " << shape.name;
    }
  }
}

// Unreachable pairs stay infinite with negative weights: infinity plus a negative weight must
// not look like a path.
TYPED_TEST(Paths, NegativeWeightsKeepUnreachablePairsInfinite) {
  apsp::Graph g;
  g.vertices = 3;
  g.edges = {{1, 2, -1000}};
  for (const auto& shape : apsp::available_shapes(TypeParam())) {
    const Solved s = solve<TypeParam>(g, shape, false, true);
    EXPECT_EQ(s.dist,
              (std::vector<int>{0, apsp::Distance<int>::infinity, apsp::Distance<int>::infinity,  //
                                apsp::Distance<int>::infinity, 0, -1000,                          //
                                apsp::Distance<int>::infinity, apsp::Distance<int>::infinity, 0}))
        << shape.name;
  }
}

// The smallest vertex on a negative cycle is found; vertices outside the cycle's strongly
// connected component keep dist(v, v) = 0.
TYPED_TEST(Paths, NegativeCycleIsFound) {
  for (const auto& shape : apsp::available_shapes(TypeParam())) {
    for (const bool self_loop : {false, true}) {
      // Edges only go from lower to higher vertices, except the cycle's.
      apsp::Graph g = apsp_test::random_graph(70, 0.1, unsigned(shape.index));
      std::vector<apsp::Edge> forward;
      for (const auto& e : g.edges)
        if (e.src < e.dst) forward.push_back(e);
      g.edges = forward;
      if (self_loop) {
        g.edges.push_back({41, 41, -1});
      } else {
        g.edges.push_back({37, 52, -1000});
        g.edges.push_back({52, 37, 999});
      }
      TypeParam exec;
      apsp::ShapeRequest request;
      request.shape = shape.index;
      const apsp::Plan plan = apsp::make_plan<int>(exec, g.vertices, true, request);
      const std::int64_t n = plan.padded;
      apsp::DistanceMatrix<TypeParam> dist("dist", n, n);
      apsp::fill_distance_matrix(exec, dist, g.edges);
      apsp::floyd_warshall(exec, dist, plan);
      EXPECT_EQ(apsp::negative_cycle_vertex(exec, dist, 0, g.vertices), self_loop ? 41 : 37)
          << shape.name;
      // Rows 38.. of the matrix alone (as a rank holding them sees them): 52.
      if (!self_loop) {
        const auto rows = Kokkos::subview(dist, std::make_pair(std::int64_t(38), n), Kokkos::ALL);
        apsp::DistanceMatrix<TypeParam> tail("tail", n - 38, n);
        Kokkos::deep_copy(tail, rows);
        EXPECT_EQ(apsp::negative_cycle_vertex(exec, tail, 38, g.vertices), 52) << shape.name;
      }
    }
  }
}

TEST(PathBounds, AreCheckedOnInput) {
  using apsp::path_bounds_problem;
  // V - 1 weights of 1000: V <= 536871 with negative weights, V <= 1073742 without.
  const auto path = [](double v) { return (v - 1) * 1000; };
  EXPECT_EQ(path_bounds_problem<int>(536871, path(536871), true), "");
  EXPECT_NE(path_bounds_problem<int>(536872, path(536872), true), "");
  EXPECT_EQ(path_bounds_problem<int>(536872, path(536872), false), "");
  EXPECT_EQ(path_bounds_problem<int>(1073742, path(1073742), false), "");
  EXPECT_NE(path_bounds_problem<int>(1073743, path(1073743), false), "");
  EXPECT_EQ(path_bounds_problem<int>(11, 1073741820, false), "");
  EXPECT_NE(path_bounds_problem<int>(11, 1073741830, false), "");
  EXPECT_NE(path_bounds_problem<int>(1, 2e9, false), "");
  EXPECT_EQ(path_bounds_problem<float>(1000000, 1e36, true), "");
  EXPECT_NE(path_bounds_problem<float>(1000000, 1e38, true), "");
  EXPECT_EQ(path_bounds_problem<double>(1000000, 1e306, true), "");
  // Without negative weights the floats hold paths up to nearly their largest value (less the
  // rounding of a path's sum); with them a quarter of it.
  EXPECT_EQ(path_bounds_problem<double>(2, 1e308, false), "");
  EXPECT_NE(path_bounds_problem<double>(2, 1e308, true), "");
  EXPECT_EQ(path_bounds_problem<double>(1000, 1.79e308, false), "");
  EXPECT_NE(path_bounds_problem<double>(1000, HUGE_VAL, false), "");
  EXPECT_EQ(path_bounds_problem<float>(2, 3.4e38, false), "");
  EXPECT_NE(path_bounds_problem<float>(1000000, 3.4e38, false), "");
}

// The bound on a shortest path: the sum of the V - 1 largest |w| (an edge alone counts), not
// V - 1 times the largest; self-loops of weight >= 0 never count.
TEST(PathBounds, SumTheLargestWeights) {
  const auto longest = [](std::int32_t v, std::vector<apsp::Edge> edges) {
    return apsp::weight_range(apsp::Graph{v, std::move(edges)}).longest_path;
  };
  EXPECT_EQ(longest(2, {{0, 1, 1e308}}), 1e308);
  EXPECT_EQ(longest(10, {{0, 1, 134217728}, {8, 9, 1}}), 134217729);
  EXPECT_EQ(longest(3, {{0, 1, 5}, {1, 2, -7}, {2, 0, 6}, {0, 2, 2}, {1, 1, 1e308}}), 13);
  EXPECT_EQ(longest(1, {{0, 0, -4}}), 4);
  EXPECT_EQ(longest(1, {}), 0);
  EXPECT_TRUE(std::isinf(longest(3, {{0, 1, 1e308}, {1, 2, 1e308}})));
  // More edges than twice the count: the buffer is cut back to the largest while they come.
  std::vector<apsp::Edge> many;
  for (int w = 0; w < 1000; ++w)
    many.push_back({w % 5, (w + 1) % 5, double((w * 7919) % 1000)});
  EXPECT_EQ(longest(5, many), 999 + 998 + 997 + 996);
  apsp::LargestMagnitudes none(0);
  none.add(5);
  EXPECT_EQ(none.sum(), 0);
}

// A graph of V vertices whose V - 1 heaviest weights all have the largest magnitude.
apsp::WeightRange heaviest(double lowest, double highest, bool integers, std::int64_t vertices) {
  apsp::WeightRange range{lowest, highest, integers};
  range.longest_path = double(std::max<std::int64_t>(vertices - 1, 1)) * range.largest_magnitude();
  return range;
}

TEST(DistanceType, AutoKeepsIntegersExactAndTakesFloat64Otherwise) {
  using apsp::DistanceType;
  EXPECT_EQ(apsp::choose_distance_type(std::nullopt, 40000, heaviest(-1000, 1000, true, 40000)),
            DistanceType::int32);
  // Beyond int32 with negative weights: float64, or an error suggesting it when int32 is asked
  // for (a typed error: each driver names its own option; the library names none).
  const apsp::WeightRange integers = heaviest(-1000, 1000, true, 600000);
  EXPECT_EQ(apsp::choose_distance_type(std::nullopt, 600000, integers), DistanceType::float64);
  try {
    apsp::choose_distance_type(DistanceType::int32, 600000, integers);
    ADD_FAILURE() << "int32 cannot hold these paths";
  } catch (const apsp::DistanceTypeError& e) {
    EXPECT_EQ(e.facts().kind, apsp::ErrorFacts::Kind::distance_type);
    EXPECT_EQ(e.facts().suggested_type, int(DistanceType::float64));
    EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << e.what();
  }
  const apsp::WeightRange real = heaviest(0, 2.5, false, 10);
  EXPECT_EQ(apsp::choose_distance_type(std::nullopt, 10, real), DistanceType::float64);
  EXPECT_EQ(apsp::choose_distance_type(DistanceType::float32, 10, real), DistanceType::float32);
  EXPECT_THROW(apsp::choose_distance_type(DistanceType::int32, 10, real), apsp::Error);
  EXPECT_EQ(apsp::choose_distance_type(std::nullopt, 1, apsp::WeightRange{}), DistanceType::int32);
  EXPECT_THROW(apsp::choose_distance_type(DistanceType::float32, 10, heaviest(0, 1e38, true, 10)),
               apsp::Error);
  // One edge of 1e308 on two vertices: float64 holds its one path (SciPy answers it too); two in
  // a row do not fit.
  const apsp::Graph one{2, {{0, 1, 1e308}}}, two{3, {{0, 1, 1e308}, {1, 2, 1e308}}};
  EXPECT_EQ(apsp::choose_distance_type(std::nullopt, 2, apsp::weight_range(one)),
            DistanceType::float64);
  EXPECT_THROW(apsp::choose_distance_type(std::nullopt, 3, apsp::weight_range(two)),
               apsp::DistanceTypeError);
}

}  // namespace
