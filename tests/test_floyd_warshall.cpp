// The blocked solver against the plain reference and against closed forms, exactly, on every
// backend and every tile shape the device allows.
#include "backends.hpp"
#include "reference.hpp"

#include <apsp/detail/instances.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

// The whole N x N matrix after the solve, padding included.
template <class ExecSpace>
std::vector<int> solve_padded(const apsp::Graph& g, const apsp::ShapeChoice& shape,
                              std::int64_t* padded = nullptr) {
  ExecSpace exec;
  apsp::ShapeRequest request;
  request.shape = shape.index;  // -1 (a default ShapeChoice): the backend's default
  const apsp::Plan plan = apsp::make_plan<int>(exec, g.vertices, false, request);
  const std::int64_t n = plan.padded;
  apsp::DistanceMatrix<ExecSpace> dist("dist", n, n);
  apsp::fill_distance_matrix(exec, dist, g.edges);
  apsp::floyd_warshall(exec, dist, plan);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
  if (padded) *padded = n;
  return std::vector<int>(host.data(), host.data() + n * n);
}

// The leading V x V block: what the HW3 output holds.
template <class ExecSpace>
std::vector<int> solve(const apsp::Graph& g, const apsp::ShapeChoice& shape) {
  std::int64_t n = 0;
  const std::vector<int> all = solve_padded<ExecSpace>(g, shape, &n);
  std::vector<int> out(std::size_t(g.vertices) * g.vertices);
  for (int i = 0; i < g.vertices; ++i)
    std::copy(all.begin() + i * n, all.begin() + i * n + g.vertices,
              out.begin() + std::size_t(i) * g.vertices);
  return out;
}

template <class ExecSpace>
std::vector<apsp::ShapeChoice> shapes_of() {
  return apsp::available_shapes(ExecSpace());
}

int at(const std::vector<int>& d, int v, int i, int j) {
  return d[std::size_t(i) * v + j];
}

template <class ExecSpace>
class FloydWarshall : public ::testing::Test {};
TYPED_TEST_SUITE(FloydWarshall, apsp_test::Backends, apsp_test::BackendName);

TYPED_TEST(FloydWarshall, MatchesReferenceForEveryShapeAndPaddedSize) {
  const auto shapes = apsp::available_shapes(TypeParam());
  ASSERT_FALSE(shapes.empty());
  for (const auto& shape : shapes) {
    for (int v : {1, 2, 31, 63, 64, 65, 127, 200}) {
      const auto g = apsp_test::random_graph(v, 0.05, unsigned(v * 7 + shape.tile));
      EXPECT_EQ(solve<TypeParam>(g, shape), apsp_test::reference_floyd_warshall(g))
          << "V = " << v << ", " << shape.name;
    }
  }
}

TYPED_TEST(FloydWarshall, PaddingStaysIsolated) {
  for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>()) {
    const int tile = shape.tile;
    const auto g = apsp_test::random_graph(tile + 3, 0.2, unsigned(tile));
    std::int64_t n = 0;
    const std::vector<int> d = solve_padded<TypeParam>(g, shape, &n);
    ASSERT_EQ(n, 2 * tile);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        if (i >= g.vertices || j >= g.vertices)
          ASSERT_EQ(d[std::size_t(i * n + j)], i == j ? 0 : apsp::Distance<int>::infinity)
              << "(" << i << ", " << j << "), tile " << tile;
  }
}

TYPED_TEST(FloydWarshall, NoEdgesLeavesInfinityOffTheDiagonal) {
  for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>())
    for (int v : {1, 5, 64, 100, 129}) {
      apsp::Graph g;
      g.vertices = v;
      const std::vector<int> d = solve<TypeParam>(g, shape);
      for (int i = 0; i < v; ++i)
        for (int j = 0; j < v; ++j)
          ASSERT_EQ(at(d, v, i, j), i == j ? 0 : apsp::Distance<int>::infinity)
              << "(" << i << ", " << j << "), V = " << v << ", shape " << shape.name;
    }
}

TYPED_TEST(FloydWarshall, ZeroWeightEdges) {
  // A zero-weight cycle through three tiles, and a zero-weight tail off it.
  apsp::Graph cycle;
  cycle.vertices = 150;
  cycle.edges = {{5, 70, 0}, {70, 140, 0}, {140, 5, 0}, {140, 149, 0}, {149, 0, 3}};
  for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>()) {
    const int tile = shape.tile;
    const std::vector<int> d = solve<TypeParam>(cycle, shape);
    for (int a : {5, 70, 140}) {
      for (int b : {5, 70, 140, 149})
        EXPECT_EQ(at(d, 150, a, b), 0) << a << " -> " << b;
      EXPECT_EQ(at(d, 150, a, 0), 3);
      EXPECT_EQ(at(d, 150, 149, a), apsp::Distance<int>::infinity);
    }
    EXPECT_EQ(d, apsp_test::reference_floyd_warshall(cycle)) << "tile " << tile;
    // Random graphs whose every weight is 0, or 0 and 1.
    for (int max_weight : {0, 1}) {
      const auto g = apsp_test::random_graph(90, 0.03, unsigned(tile + max_weight), max_weight);
      EXPECT_EQ(solve<TypeParam>(g, shape), apsp_test::reference_floyd_warshall(g))
          << "tile " << tile << ", weights 0.." << max_weight;
    }
  }
}

TYPED_TEST(FloydWarshall, UnreachablePairsStayInfinite) {
  // Two rings, 0..59 and 60..99, and one bridge from the first to the second.
  apsp::Graph g;
  g.vertices = 100;
  for (int i = 0; i < 60; ++i)
    g.edges.push_back({i, (i + 1) % 60, 2});
  for (int i = 60; i < 100; ++i)
    g.edges.push_back({i, i + 1 < 100 ? i + 1 : 60, 3});
  g.edges.push_back({10, 90, 1000});
  for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>()) {
    const int tile = shape.tile;
    const std::vector<int> d = solve<TypeParam>(g, shape);
    for (int i = 0; i < 100; ++i)
      for (int j = 0; j < 100; ++j) {
        const bool first_i = i < 60, first_j = j < 60;
        if (!first_i && first_j) {
          ASSERT_EQ(at(d, 100, i, j), apsp::Distance<int>::infinity)
              << i << " -> " << j << ", shape " << shape.name;
        } else {
          ASSERT_LT(at(d, 100, i, j), apsp::Distance<int>::infinity)
              << i << " -> " << j << ", shape " << shape.name;
        }
      }
    EXPECT_EQ(at(d, 100, 10, 90), 1000);
    EXPECT_EQ(at(d, 100, 9, 61), 2 + 1000 + 3 * 11);  // 9, 10, 90 .. 99, 60, 61
    EXPECT_EQ(d, apsp_test::reference_floyd_warshall(g)) << "tile " << tile;
  }
}

TYPED_TEST(FloydWarshall, DuplicateEdgesKeepTheMinimum) {
  // Many copies of a few pairs, the lightest in a random place among them: on a parallel
  // backend the copies are scattered concurrently.
  apsp::Graph g;
  g.vertices = 70;
  std::mt19937 rng(5);
  for (int copy = 0; copy < 300; ++copy) {
    g.edges.push_back({3, 68, 1000 - copy});     // lightest: 701
    g.edges.push_back({68, 3, 500 + copy % 7});  // lightest: 500
    g.edges.push_back({64, 63, 999});
  }
  g.edges.push_back({64, 63, 4});
  g.edges.push_back({68, 64, 1});
  std::shuffle(g.edges.begin(), g.edges.end(), rng);
  for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>()) {
    const int tile = shape.tile;
    const std::vector<int> d = solve<TypeParam>(g, shape);
    EXPECT_EQ(at(d, 70, 3, 68), 701);
    EXPECT_EQ(at(d, 70, 68, 3), 500);
    EXPECT_EQ(at(d, 70, 64, 63), 4);
    EXPECT_EQ(at(d, 70, 3, 63), 701 + 1 + 4);
    EXPECT_EQ(d, apsp_test::reference_floyd_warshall(g)) << "tile " << tile;
  }
}

TYPED_TEST(FloydWarshall, SelfLoopsKeepTheDiagonalAtZero) {
  apsp::Graph g;
  g.vertices = 67;
  for (int i = 0; i < 67; ++i) {
    g.edges.push_back({i, i, 1 + i});  // heavier than 0: ignored
    g.edges.push_back({i, (i + 1) % 67, 1});
  }
  g.edges.push_back({66, 66, 0});
  for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>()) {
    const int tile = shape.tile;
    const std::vector<int> d = solve<TypeParam>(g, shape);
    for (int i = 0; i < 67; ++i) {
      EXPECT_EQ(at(d, 67, i, i), 0) << "vertex " << i << ", shape " << shape.name;
      for (int j = 0; j < 67; ++j)
        ASSERT_EQ(at(d, 67, i, j), (j - i + 67) % 67);
    }
  }
}

TYPED_TEST(FloydWarshall, RandomGraphsOfManyDensitiesAndSizes) {
  const std::vector<apsp::ShapeChoice> shapes = shapes_of<TypeParam>();
  unsigned seed = 100;
  for (double density : {0.0, 0.003, 0.02, 0.1, 0.5, 1.0})
    for (int v : {3, 33, 77, 100, 129, 190}) {
      const auto g = apsp_test::random_graph(v, density, ++seed);
      const std::vector<int> expected = apsp_test::reference_floyd_warshall(g);
      for (const apsp::ShapeChoice& shape : shapes)
        ASSERT_EQ(solve<TypeParam>(g, shape), expected)
            << "V = " << v << ", density " << density << ", seed " << seed << ", shape "
            << shape.name;
    }
}

TYPED_TEST(FloydWarshall, ManyRandomGraphsOfRandomSizes) {
  // Sizes 1..260, densities from none to complete (log-uniform in between), sometimes weights
  // 0..3 for many ties; the tile cycles through every available shape.
  const std::vector<apsp::ShapeChoice> shapes = shapes_of<TypeParam>();
  std::mt19937 rng(2024);
  for (int graph = 0; graph < 60; ++graph) {
    const int v = 1 + int(rng() % 260);
    const double density = graph % 10 == 0   ? 0.0
                           : graph % 10 == 1 ? 1.0
                                             : std::pow(10.0, -3.0 + 2.7 * (rng() % 1000) / 1000.0);
    const int max_weight = graph % 3 == 0 ? 3 : 1000;
    const unsigned seed = unsigned(rng());
    const apsp::ShapeChoice& shape = shapes[std::size_t(graph) % shapes.size()];
    const auto g = apsp_test::random_graph(v, density, seed, max_weight);
    ASSERT_EQ(solve<TypeParam>(g, shape), apsp_test::reference_floyd_warshall(g))
        << "V = " << v << ", density " << density << ", seed " << seed << ", weights 0.."
        << max_weight << ", shape " << shape.name;
  }
}

// A path through every vertex in a given order, so the shortest paths are known in closed form:
// dist(order[a], order[b]) = sum of the weights from a to b when a <= b, no path when a > b.
// Paths with hundreds of edges cross every tile many times; a round done out of order, or a
// panel that does not wait for its pivot tile, loses them.
template <class ExecSpace>
void expect_chain_distances(const std::vector<int>& order, const std::string& what) {
  const int v = int(order.size());
  apsp::Graph g;
  g.vertices = v;
  std::vector<std::int64_t> prefix(v, 0);
  for (int a = 0; a + 1 < v; ++a) {
    const int w = (a * 37) % 1001;
    g.edges.push_back({order[a], order[a + 1], w});
    prefix[a + 1] = prefix[a] + w;
  }
  for (const apsp::ShapeChoice& shape : shapes_of<ExecSpace>()) {
    const int tile = shape.tile;
    const std::vector<int> d = solve<ExecSpace>(g, shape);
    for (int a = 0; a < v; ++a)
      for (int b = 0; b < v; ++b) {
        const std::int64_t expected =
            a <= b ? prefix[b] - prefix[a] : apsp::Distance<int>::infinity;
        ASSERT_EQ(at(d, v, order[a], order[b]), expected)
            << what << ": position " << a << " -> " << b << ", shape " << shape.name;
      }
  }
}

TYPED_TEST(FloydWarshall, ChainsAcrossManyTiles) {
  const int v = 517;
  std::vector<int> order(v);
  std::iota(order.begin(), order.end(), 0);
  expect_chain_distances<TypeParam>(order, "increasing chain");
  std::reverse(order.begin(), order.end());
  expect_chain_distances<TypeParam>(order, "decreasing chain");
  std::shuffle(order.begin(), order.end(), std::mt19937(11));
  expect_chain_distances<TypeParam>(order, "shuffled chain");
}

TYPED_TEST(FloydWarshall, ReportsProgressUpToTheLastRound) {
  for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>()) {
    const int tile = shape.tile;
    TypeParam exec;
    apsp::ShapeRequest request;
    request.shape = shape.index;
    std::vector<std::pair<int, int>> calls;
    const std::int64_t n = 5 * tile;
    const apsp::Plan plan = apsp::make_plan<int>(exec, n, false, request);
    apsp::DistanceMatrix<TypeParam> dist("dist", n, n);
    apsp::fill_distance_matrix(exec, dist, {});
    apsp::floyd_warshall(exec, dist, plan,
                         [&](int done, int total) { calls.emplace_back(done, total); });
    ASSERT_EQ(calls.size(), 5u) << "tile " << tile;
    for (int r = 0; r < 5; ++r)
      EXPECT_EQ(calls[r], std::make_pair(r + 1, 5));
  }
}

TYPED_TEST(FloydWarshall, ChoosesTheFirstAvailableShapeByDefault) {
  TypeParam exec;
  const auto shapes = apsp::available_shapes(exec);
  ASSERT_FALSE(shapes.empty());
  const auto chosen = apsp::choose_shape(exec);
  EXPECT_EQ(chosen.index, shapes.front().index);
  EXPECT_EQ(chosen.tile, shapes.front().tile);
  EXPECT_EQ(apsp::padded_size(1, chosen), chosen.tile);
  EXPECT_EQ(apsp::padded_size(chosen.tile, chosen), chosen.tile);
  EXPECT_EQ(apsp::padded_size(chosen.tile + 1, chosen), 2 * chosen.tile);
  const auto g = apsp_test::random_graph(70, 0.05, 3);
  EXPECT_EQ(solve<TypeParam>(g, apsp::ShapeChoice{}), apsp_test::reference_floyd_warshall(g));
}

TYPED_TEST(FloydWarshall, RejectsAnUnavailableTileSize) {
  apsp::ShapeRequest request;
  request.tile = 48;
  try {
    apsp::choose_shape(TypeParam(), request);
    ADD_FAILURE() << "tile 48 was accepted";
  } catch (const apsp::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("tile size 48 is not available"), std::string::npos) << message;
    for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>())
      EXPECT_NE(message.find(std::to_string(shape.tile)), std::string::npos) << message;
  }
}

TYPED_TEST(FloydWarshall, RejectsMatricesThatDoNotFitTheTile) {
  TypeParam exec;
  const apsp::Plan plan = apsp::make_plan<int>(exec, 1);
  const int tile = plan.shape.tile;
  apsp::DistanceMatrix<TypeParam> not_square("dist", tile, 2 * tile);
  try {
    apsp::floyd_warshall(exec, not_square, plan);
    ADD_FAILURE() << "a non-square matrix was accepted";
  } catch (const apsp::Error& e) {
    EXPECT_NE(std::string(e.what()).find("must be square"), std::string::npos) << e.what();
  }
  apsp::DistanceMatrix<TypeParam> unpadded("dist", tile + 1, tile + 1);
  try {
    apsp::floyd_warshall(exec, unpadded, plan);
    ADD_FAILURE() << "a matrix that is not a multiple of the tile was accepted";
  } catch (const apsp::Error& e) {
    EXPECT_NE(std::string(e.what()).find("padded size"), std::string::npos) << e.what();
  }
}

// Larger graphs than the plain reference can afford: every backend and shape of the build must
// give the host backend's bits (on a GPU build: the GPU against the CPU).
TYPED_TEST(FloydWarshall, MatchesTheHostBackendBitwiseOnLargerGraphs) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  for (int v : {1000, 1531}) {
    const auto g = apsp_test::random_graph(v, 4.0 / v, unsigned(v));
    const std::vector<int> host = solve<Host>(g, apsp::ShapeChoice{});
    for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>())
      if (shape.tile >= 32)  // the tiny test shape would take minutes here
        ASSERT_EQ(solve<TypeParam>(g, shape), host) << "V = " << v << ", shape " << shape.name;
  }
}

// The lookahead of one process (round r + 1's pivot closed beside round r's tiles; on host
// backends one instance runs the same launches in order) changes no bit: every shape, sizes
// that are not multiples of the tile, plain and negative arithmetic.
TYPED_TEST(FloydWarshall, LookaheadChangesNoBit) {
  TypeParam exec;
  apsp::OneRank one;
  for (const apsp::ShapeChoice& shape : shapes_of<TypeParam>())
    for (int v : {1, 70, 300}) {
      if (shape.tile < 32 && v > 70) continue;  // the tiny test shape: many rounds, slow
      const auto g = apsp_test::random_graph(v, 4.0 / v, unsigned(v + shape.index));
      const std::vector<int> expected = apsp_test::reference_floyd_warshall(g);
      for (bool negative : {false, true}) {
        apsp::ShapeRequest request;
        request.shape = shape.index;
        const apsp::Plan plan = apsp::make_plan<int>(exec, g.vertices, negative, request);
        const std::int64_t n = plan.padded;
        std::vector<int> results[2];
        for (bool lookahead : {false, true}) {
          apsp::DistanceMatrix<TypeParam> dist("dist", n, n);
          apsp::fill_distance_matrix(exec, dist, g.edges);
          apsp::RoundHooks hooks;
          hooks.lookahead = lookahead;
          apsp::detail::floyd_warshall_rows(one, exec, dist, plan, hooks);
          const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
          results[lookahead].assign(host.data(), host.data() + n * n);
        }
        const std::string what =
            "V = " + std::to_string(v) + ", shape " + shape.name + (negative ? ", negative" : "");
        ASSERT_EQ(results[1], results[0]) << what;
        int wrong = 0;
        for (int i = 0; i < v; ++i)
          for (int j = 0; j < v; ++j)
            wrong += results[1][std::size_t(i * n + j)] != at(expected, v, i, j);
        EXPECT_EQ(wrong, 0) << what;
      }
    }
}

}  // namespace

namespace {

// The lookahead's two instances (detail/instances.hpp): where a backend runs them concurrently
// (streams), each calling thread has a pair of its own, kept for its next solves; elsewhere
// both are the caller's instance.
template <class ExecSpace>
class LookaheadInstances : public ::testing::Test {};
TYPED_TEST_SUITE(LookaheadInstances, apsp_test::Backends, apsp_test::BackendName);

TYPED_TEST(LookaheadInstances, OnePairPerThread) {
  using Instances = apsp::detail::Instances<TypeParam>;
  if (!Instances::concurrent) GTEST_SKIP() << "one instance: the caller's";
  const TypeParam exec;
  const auto mains = [&] {
    const Instances one(exec), again(exec);
    EXPECT_EQ(&one.main(), &again.main());  // kept, not made again
    EXPECT_NE(&one.main(), &one.side());
    return &one.main();
  };
  const TypeParam* here = mains();
  const TypeParam* there = nullptr;
  std::thread([&] { there = mains(); }).join();
  EXPECT_NE(here, there);
  EXPECT_EQ(here, mains());
}

}  // namespace
