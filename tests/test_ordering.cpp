// apsp::nested_dissection_order: a permutation of 0..V-1 in METIS' convention (perm[new] = old)
// on every shape of input, the same order for the same graph on any number of threads, and the
// directed structure ordered as its symmetrization. Skipped in a build without METIS, where the
// call must throw.
#include <apsp/ordering.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <thread>
#include <vector>

namespace {

void expect_permutation(const std::vector<std::int32_t>& perm, std::int64_t vertices) {
  ASSERT_EQ(std::int64_t(perm.size()), vertices);
  std::vector<std::int32_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::int64_t i = 0; i < vertices; ++i)
    ASSERT_EQ(sorted[std::size_t(i)], i);
}

std::vector<apsp::Edge> grid(std::int32_t rows, std::int32_t columns) {
  std::vector<apsp::Edge> edges;
  for (std::int32_t r = 0; r < rows; ++r)
    for (std::int32_t c = 0; c < columns; ++c) {
      const std::int32_t v = r * columns + c;
      if (c + 1 < columns) edges.push_back({v, v + 1, 1});
      if (r + 1 < rows) edges.push_back({v + columns, v, 1});
    }
  return edges;
}

// Symbolic elimination in the order: the fill of Gaussian elimination on the symmetric structure
// (edges among the later neighbours of each eliminated vertex), counted without weights.
std::int64_t fill_edges(std::int32_t vertices, const std::vector<apsp::Edge>& edges,
                        const std::vector<std::int32_t>& perm) {
  std::vector<std::int32_t> position(static_cast<std::size_t>(vertices));
  for (std::int32_t i = 0; i < vertices; ++i)
    position[std::size_t(perm[std::size_t(i)])] = i;
  const auto n = static_cast<std::size_t>(vertices);
  std::vector<std::vector<bool>> adjacent(n, std::vector<bool>(n));
  for (const auto& e : edges) {
    const auto a = std::size_t(position[std::size_t(e.src)]);
    const auto b = std::size_t(position[std::size_t(e.dst)]);
    adjacent[a][b] = adjacent[b][a] = a != b;
  }
  std::int64_t total = 0;
  for (std::int32_t k = 0; k < vertices; ++k) {
    std::vector<std::int32_t> later;
    for (std::int32_t j = k + 1; j < vertices; ++j)
      if (adjacent[std::size_t(k)][std::size_t(j)]) later.push_back(j);
    for (const auto a : later)
      for (const auto b : later)
        adjacent[std::size_t(a)][std::size_t(b)] = a != b;
    total += std::int64_t(later.size());
  }
  return total;
}

class Ordering : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!apsp::have_nested_dissection()) GTEST_SKIP() << "this build has no METIS";
  }
};

TEST(OrderingWithoutMetis, ThrowsATypedErrorWhenUnavailable) {
  if (apsp::have_nested_dissection()) GTEST_SKIP() << "this build has METIS";
  EXPECT_THROW(apsp::nested_dissection_order(3, {{0, 1, 1}}), apsp::OrderingUnavailable);
}

TEST_F(Ordering, EmptyAndOneVertex) {
  EXPECT_TRUE(apsp::nested_dissection_order(0, {}).empty());
  EXPECT_EQ(apsp::nested_dissection_order(1, {}), std::vector<std::int32_t>{0});
  EXPECT_EQ(apsp::nested_dissection_order(1, {{0, 0, 5}}), std::vector<std::int32_t>{0});
}

TEST_F(Ordering, NoEdgesOrOnlySelfLoopsKeepsTheVertices) {
  expect_permutation(apsp::nested_dissection_order(7, {}), 7);
  expect_permutation(apsp::nested_dissection_order(4, {{2, 2, 1}, {3, 3, 1}}), 4);
}

TEST_F(Ordering, GridsAndPaths) {
  for (const auto& [rows, columns] : std::vector<std::pair<int, int>>{
           {1, 2}, {1, 3}, {1, 100}, {2, 2}, {7, 9}, {30, 30}, {64, 65}}) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(columns));
    expect_permutation(apsp::nested_dissection_order(rows * columns, grid(rows, columns)),
                       rows * columns);
  }
}

TEST_F(Ordering, DisconnectedGraphsAndIsolatedVertices) {
  // Two grids, a path and isolated vertices in between, numbered in a mixed way.
  std::vector<apsp::Edge> edges;
  for (const auto& e : grid(10, 10))
    edges.push_back({2 * e.src, 2 * e.dst, 1});
  for (const auto& e : grid(5, 20))
    edges.push_back({2 * e.src + 1, 2 * e.dst + 1, 1});
  for (std::int32_t v = 200; v + 1 < 250; ++v)
    edges.push_back({v, v + 1, 1});
  const auto perm = apsp::nested_dissection_order(260, edges);
  expect_permutation(perm, 260);
  for (std::int32_t i = 0; i < 10; ++i)
    EXPECT_GE(perm[std::size_t(i)], 250) << "isolated first";
}

TEST_F(Ordering, StarCentreIsEliminatedLast) {
  // perm[new] = old: the centre (old 0) at the last new position; every other order fills.
  std::vector<apsp::Edge> star;
  for (std::int32_t v = 1; v < 40; ++v)
    star.push_back({0, v, 1});
  const auto perm = apsp::nested_dissection_order(40, star);
  expect_permutation(perm, 40);
  EXPECT_EQ(perm.back(), 0);
}

TEST_F(Ordering, FewerFillEdgesThanTheNaturalOrderOnAGrid) {
  const auto edges = grid(24, 24);
  std::vector<std::int32_t> natural(24 * 24);
  std::iota(natural.begin(), natural.end(), 0);
  const auto perm = apsp::nested_dissection_order(24 * 24, edges);
  EXPECT_LT(fill_edges(24 * 24, edges, perm), fill_edges(24 * 24, edges, natural));
}

TEST_F(Ordering, DirectedArcsOrderedAsTheirSymmetrization) {
  // One-way arcs, both-way arcs, parallel arcs and self-loops: the same undirected structure.
  const auto undirected = grid(12, 13);
  std::vector<apsp::Edge> directed, both;
  for (std::size_t i = 0; i < undirected.size(); ++i) {
    const auto& e = undirected[i];
    if (i % 2)
      directed.push_back({e.dst, e.src, 3});
    else
      directed.push_back({e.src, e.dst, 2});
    if (i % 5 == 0) directed.push_back({e.src, e.dst, 7});
    both.push_back({e.src, e.dst, 1});
    both.push_back({e.dst, e.src, 1});
  }
  directed.push_back({4, 4, 1});
  EXPECT_EQ(apsp::nested_dissection_order(12 * 13, directed),
            apsp::nested_dissection_order(12 * 13, both));
}

TEST_F(Ordering, DeterministicAndWeightsIgnored) {
  auto edges = grid(40, 41);
  const auto first = apsp::nested_dissection_order(40 * 41, edges);
  for (auto& e : edges)
    e.weight = 1000 - e.weight;
  EXPECT_EQ(apsp::nested_dissection_order(40 * 41, edges), first);
}

TEST_F(Ordering, SameOrderOnOneAndManyThreads) {
  // Large enough for several levels of separators above METIS_NodeND's parts (4096 vertices),
  // with isolated vertices and a second component.
  auto edges = grid(120, 130);
  for (std::int32_t v = 15600; v + 1 < 16000; ++v)
    edges.push_back({v, v + 1, 1});
  const std::int64_t vertices = 16100;
  const auto one = apsp::nested_dissection_order(vertices, edges, 1);
  expect_permutation(one, vertices);
  for (std::int32_t i = 0; i < 100; ++i)
    EXPECT_GE(one[std::size_t(i)], 16000) << "isolated first";
  for (const int threads : {2, 3, 8, 0}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    EXPECT_EQ(apsp::nested_dissection_order(vertices, edges, threads), one);
  }
}

TEST_F(Ordering, ConcurrentCallsGiveTheirSerialOrders) {
  // Callers on several threads at once (each ordering on several threads): the orders of the
  // calls one at a time.
  const std::vector<std::pair<int, int>> shapes = {{90, 91}, {64, 65}, {100, 47}, {7, 9}};
  std::vector<std::vector<std::int32_t>> serial, concurrent(shapes.size());
  for (const auto& [rows, columns] : shapes)
    serial.push_back(apsp::nested_dissection_order(rows * columns, grid(rows, columns), 1));
  std::vector<std::thread> callers;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    callers.emplace_back([&, i] {
      const auto [rows, columns] = shapes[i];
      concurrent[i] = apsp::nested_dissection_order(rows * columns, grid(rows, columns), 4);
    });
  for (auto& caller : callers)
    caller.join();
  EXPECT_EQ(concurrent, serial);
}

#if defined(__GLIBC__)
TEST_F(Ordering, MetisRandomNumbersAreGlibcsSequence) {
  // The per-thread rand() that METIS calls here (ordering.cpp) draws glibc's sequence: METIS
  // orders as it would with the C library's rand() alone.
  for (const unsigned seed : {0u, 1u, 4321u, 2147483647u, 4000000000u}) {
    SCOPED_TRACE(seed);
    char state[128];
    random_data glibc{};
    initstate_r(seed, state, sizeof state, &glibc);
    std::srand(seed);
    for (int i = 0; i < 1000; ++i) {
      std::int32_t expected = 0;
      random_r(&glibc, &expected);
      ASSERT_EQ(std::rand(), expected) << "draw " << i;
    }
  }
}
#endif

TEST_F(Ordering, RejectsEdgesOutOfRange) {
  EXPECT_THROW(apsp::nested_dissection_order(3, {{0, 3, 1}}), apsp::Error);
  EXPECT_THROW(apsp::nested_dissection_order(3, {{-1, 0, 1}}), apsp::Error);
  EXPECT_THROW(apsp::nested_dissection_order(-1, {}), apsp::Error);
}

}  // namespace
