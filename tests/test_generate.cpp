// apsp::generate_hw3: the same configuration writes the same bytes, here and on every platform
// (golden values computed by an independent Python transcription of splitmix64 and the
// multiply-shift weight draw), and the header's E is the number of edges written.
#include <apsp/error.hpp>
#include <apsp/generate.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/outputs.hpp>
#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>

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
