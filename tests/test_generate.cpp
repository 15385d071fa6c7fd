// apsp::generate_hw3: the same configuration writes the same bytes, here and on every platform
// (golden values computed by an independent Python transcription of splitmix64 and the
// multiply-shift weight draw), and the header's E is the number of edges written. The grid and
// road classes: their structure as generate.hpp describes it, and golden checksums (of this
// implementation: a change of a class changes its bytes and the ratios docs/PERFORMANCE.md
// reports for it).
#include <apsp/error.hpp>
#include "temp_dir.hpp"

#include "io/generate.hpp"
#include "io/hw3_io.hpp"
#include "io/outputs.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

class Generate : public apsp_test::TempDirTest {
 protected:
};

std::uint64_t fnv1a(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : bytes)
    h = (h ^ std::uint8_t(c)) * 0x100000001b3ull;
  return h;
}

apsp::GenerateConfig config(std::int32_t vertices, double density, std::uint64_t seed,
                            int max_weight = 1000) {
  apsp::GenerateConfig c;
  c.vertices = vertices;
  c.density = density;
  c.seed = seed;
  c.max_weight = max_weight;
  return c;
}

TEST_F(Generate, SameConfigurationWritesIdenticalBytes) {
  const auto c = config(150, 0.03, 12345);
  const std::int64_t first = apsp::generate_hw3(c, path("a.in"));
  const std::int64_t second = apsp::generate_hw3(c, path("b.in"));
  EXPECT_EQ(first, second);
  EXPECT_EQ(read_bytes(path("a.in")), read_bytes(path("b.in")));
  apsp::generate_hw3(config(150, 0.03, 12346), path("c.in"));
  EXPECT_NE(read_bytes(path("a.in")), read_bytes(path("c.in"))) << "the seed must matter";
}

TEST_F(Generate, SmallCaseMatchesGoldenEdges) {
  EXPECT_EQ(apsp::generate_hw3(config(6, 0.3, 42), path("g.in")), 9);
  const std::int32_t header[] = {6, 9};
  const std::int32_t edges[][3] = {{0, 2, 278}, {0, 4, 869}, {0, 5, 801}, {1, 3, 493}, {2, 1, 103},
                                   {2, 4, 689}, {3, 0, 600}, {3, 2, 277}, {5, 3, 266}};
  EXPECT_EQ(read_bytes(path("g.in")),
            std::string(reinterpret_cast<const char*>(header), sizeof header) +
                std::string(reinterpret_cast<const char*>(edges), sizeof edges));
}

TEST_F(Generate, LargerCaseMatchesGoldenChecksum) {
  EXPECT_EQ(apsp::generate_hw3(config(100, 0.05, 7), path("g.in")), 474);
  const std::string bytes = read_bytes(path("g.in"));
  EXPECT_EQ(bytes.size(), 8u + 474u * 12u);
  EXPECT_EQ(fnv1a(bytes), 0x7d1ded120bf217e5ull);
}

TEST_F(Generate, HeaderCountsTheEdgesWrittenAndEveryEdgeIsValid) {
  // More edges than one 2^16-edge write buffer.
  const auto c = config(600, 0.25, 99, 17);
  const std::int64_t edges = apsp::generate_hw3(c, path("g.in"));
  EXPECT_GT(edges, 65536);
  const std::string bytes = read_bytes(path("g.in"));
  EXPECT_EQ(bytes.size(), 8u + std::uint64_t(edges) * 12u);
  const apsp::Graph g = apsp::read_hw3(path("g.in"));  // header E and size agree, all in range
  EXPECT_EQ(g.vertices, 600);
  EXPECT_EQ(std::int64_t(g.edges.size()), edges);
  std::set<std::pair<int, int>> pairs;
  for (const auto& e : g.edges) {
    EXPECT_NE(e.src, e.dst);
    EXPECT_LE(e.weight, 17);
    pairs.insert({e.src, e.dst});
  }
  EXPECT_EQ(pairs.size(), g.edges.size()) << "each ordered pair at most once";
  // The expected count is 0.25 * 600 * 599 = 89850, standard deviation ~ 106.
  EXPECT_NEAR(double(edges), 89850.0, 1000.0);
}

TEST_F(Generate, DensityZeroAndOne) {
  EXPECT_EQ(apsp::generate_hw3(config(40, 0.0, 1), path("none.in")), 0);
  EXPECT_EQ(read_bytes(path("none.in")).size(), 8u);
  EXPECT_EQ(apsp::generate_hw3(config(40, 1.0, 1, 0), path("all.in")), 40 * 39);
  const apsp::Graph all = apsp::read_hw3(path("all.in"));
  std::size_t e = 0;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 40; ++j) {
      if (i == j) continue;
      ASSERT_LT(e, all.edges.size());
      EXPECT_EQ(all.edges[e].src, i);
      EXPECT_EQ(all.edges[e].dst, j);
      EXPECT_EQ(all.edges[e].weight, 0);
      ++e;
    }
  EXPECT_EQ(apsp::generate_hw3(config(1, 1.0, 1), path("one.in")), 0);
}

apsp::GenerateConfig structured(apsp::GraphClass graph_class, std::int32_t vertices,
                                std::uint64_t seed) {
  apsp::GenerateConfig c;
  c.graph_class = graph_class;
  c.vertices = vertices;
  c.seed = seed;
  return c;
}

// Undirected weights by pair; checks that each arc has its reverse with the same weight.
std::map<std::pair<int, int>, double> symmetric_pairs(const apsp::Graph& g) {
  std::map<std::pair<int, int>, double> arcs;
  for (const auto& e : g.edges) {
    EXPECT_NE(e.src, e.dst);
    EXPECT_TRUE(arcs.insert({{e.src, e.dst}, e.weight}).second) << "parallel arc";
  }
  std::map<std::pair<int, int>, double> pairs;
  for (const auto& [arc, w] : arcs) {
    const auto back = arcs.find({arc.second, arc.first});
    EXPECT_TRUE(back != arcs.end() && back->second == w) << arc.first << " -> " << arc.second;
    if (arc.first < arc.second) pairs[arc] = w;
  }
  return pairs;
}

int components(std::int32_t vertices, const std::map<std::pair<int, int>, double>& pairs) {
  std::vector<int> parent(static_cast<std::size_t>(vertices));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int a) {
    while (parent[std::size_t(a)] != a)
      a = parent[std::size_t(a)];
    return a;
  };
  int count = vertices;
  for (const auto& [pair, w] : pairs) {
    const int a = find(pair.first), b = find(pair.second);
    if (a != b) parent[std::size_t(a)] = b, --count;
  }
  return count;
}

TEST_F(Generate, StructuredClassesAreReproducible) {
  for (const auto graph_class : {apsp::GraphClass::grid, apsp::GraphClass::road}) {
    const auto c = structured(graph_class, 777, 5);
    EXPECT_EQ(apsp::generate_hw3(c, path("a.in")), apsp::generate_hw3(c, path("b.in")));
    EXPECT_EQ(read_bytes(path("a.in")), read_bytes(path("b.in")));
    apsp::generate_hw3(structured(graph_class, 777, 6), path("c.in"));
    EXPECT_NE(read_bytes(path("a.in")), read_bytes(path("c.in"))) << "the seed must matter";
  }
  apsp::generate_hw3(structured(apsp::GraphClass::grid, 1000, 3), path("grid.in"));
  EXPECT_EQ(fnv1a(read_bytes(path("grid.in"))), 0x3599150e6867c6f5ull);
  apsp::generate_hw3(structured(apsp::GraphClass::road, 1000, 3), path("road.in"));
  EXPECT_EQ(fnv1a(read_bytes(path("road.in"))), 0xcfbbe7ec06edefcdull);
}

TEST_F(Generate, GridIsANearSquareGridWithFewDeletions) {
  // 37 vertices: 7 columns, 6 rows, the last with 2 vertices.
  const apsp::Graph small = [&] {
    apsp::generate_hw3(structured(apsp::GraphClass::grid, 37, 1), path("small.in"));
    return apsp::read_hw3(path("small.in"));
  }();
  EXPECT_EQ(small.vertices, 37);
  for (const auto& [pair, w] : symmetric_pairs(small)) {
    const int u = pair.first, v = pair.second;
    EXPECT_TRUE((v == u + 1 && u % 7 != 6) || v == u + 7) << u << " - " << v;
    EXPECT_GE(w, 1);
    EXPECT_LE(w, 100);
  }
  // 100 x 100: 19800 grid edges, each deleted with probability 0.08 (sd ~ 38).
  const std::int64_t arcs =
      apsp::generate_hw3(structured(apsp::GraphClass::grid, 10000, 2), path("big.in"));
  EXPECT_NEAR(double(arcs) / 2, 0.92 * 19800, 200);
  EXPECT_EQ(apsp::generate_hw3(structured(apsp::GraphClass::grid, 1, 2), path("one.in")), 0);
  EXPECT_EQ(apsp::generate_hw3(structured(apsp::GraphClass::grid, 2, 7), path("two.in")) % 2, 0);
}

TEST_F(Generate, RoadIsConnectedSparseAndWeighedByLength) {
  apsp::generate_hw3(structured(apsp::GraphClass::road, 3000, 4), path("road.in"));
  const apsp::Graph g = apsp::read_hw3(path("road.in"));
  const auto pairs = symmetric_pairs(g);
  EXPECT_EQ(components(g.vertices, pairs), 1);
  const double degree = 2.0 * double(pairs.size()) / g.vertices;
  EXPECT_GT(degree, 2.6);
  EXPECT_LT(degree, 3.1);
  double lightest = 1000, heaviest = 0;
  for (const auto& [pair, w] : pairs)
    lightest = std::min(lightest, w), heaviest = std::max(heaviest, w);
  EXPECT_GE(lightest, 1);
  EXPECT_EQ(heaviest, 1000) << "the longest edge weighs 1000";
  for (const std::int32_t v : {1, 2, 3, 7}) {
    const std::int64_t arcs =
        apsp::generate_hw3(structured(apsp::GraphClass::road, v, 9), path("tiny.in"));
    EXPECT_GE(arcs, 2 * (v - 1)) << "V = " << v << ": a spanning tree at least";
  }
}

TEST_F(Generate, ClassNames) {
  EXPECT_EQ(apsp::graph_class_named("random"), apsp::GraphClass::random);
  EXPECT_EQ(apsp::graph_class_named("grid"), apsp::GraphClass::grid);
  EXPECT_EQ(apsp::graph_class_named("road"), apsp::GraphClass::road);
  EXPECT_EQ(apsp::graph_class_named("Road"), std::nullopt);
}

TEST_F(Generate, RejectsBadConfigurationsWithoutWritingAFile) {
  EXPECT_THROW(apsp::generate_hw3(config(0, 0.5, 1), path("x.in")), apsp::Error);
  EXPECT_THROW(apsp::generate_hw3(config(10, -0.1, 1), path("x.in")), apsp::Error);
  EXPECT_THROW(apsp::generate_hw3(config(10, 1.5, 1), path("x.in")), apsp::Error);
  EXPECT_THROW(apsp::generate_hw3(config(10, 0.5, 1, 1001), path("x.in")), apsp::Error);
  EXPECT_THROW(apsp::generate_hw3(config(10, 0.5, 1, -1), path("x.in")), apsp::Error);
  // A dense V = 60000 graph has ~3.6e9 edges: more than the int32 E of the header.
  EXPECT_THROW(apsp::generate_hw3(config(60000, 1.0, 1), path("x.in")), apsp::Error);
  EXPECT_NE(access(path("x.in").c_str(), F_OK), 0);
}

}  // namespace
