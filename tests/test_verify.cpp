// apsp::verify against outputs of the plain reference: every correct output passes, and each
// kind of corruption is caught at the entry that was corrupted.
#include "expect_error.hpp"
#include "reference.hpp"
#include "temp_dir.hpp"

#include <apsp/error.hpp>

#include "io/hw3_io.hpp"
#include "io/outputs.hpp"
#include "job/verify_output.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

using apsp::VerifyCheck;
constexpr int inf = apsp::hw3_no_path;

class Verify : public apsp_test::TempDirTest {
 protected:
  // Writes the graph and `dist` (its answer, or a corrupted one) and verifies them.
  apsp::VerifyResult verify(const apsp::Graph& g, const std::vector<int>& dist,
                            apsp::VerifyOptions options = {}) {
    apsp::write_hw3_graph(in(), g);
    std::ofstream out(out_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(dist.data()),
              std::streamsize(dist.size() * sizeof(int)));
    out.close();
    return apsp::verify(in(), out_path(), options);
  }

  std::string in() const { return dir_ + "/graph.in"; }
  std::string out_path() const { return dir_ + "/graph.out"; }
};

// A graph with what makes shortest paths interesting: zero weights, parallel edges, self-loops,
// vertices nobody reaches and vertices that reach nobody.
apsp::Graph awkward_graph(int vertices, double density, unsigned seed) {
  apsp::Graph g = apsp_test::random_graph(vertices, density, seed, 20);
  g.edges.push_back({1, 2, 0});
  g.edges.push_back({1, 2, 7});
  g.edges.push_back({2, 2, 0});
  g.edges.push_back({3, 3, 5});
  return g;
}

std::size_t at(const apsp::Graph& g, int i, int j) {
  return std::size_t(i) * g.vertices + j;
}

bool sampled(const apsp::VerifyResult& r, int v) {
  return std::find(r.sampled.begin(), r.sampled.end(), v) != r.sampled.end();
}

// The first vertex that verify does not sample (with the default options) and is not `other`.
int unsampled(const apsp::VerifyResult& r, int vertices, int other = -1) {
  for (int v = 0; v < vertices; ++v)
    if (!sampled(r, v) && v != other) return v;
  return -1;
}

void expect_mismatch(const apsp::VerifyResult& r, VerifyCheck check, int row, int column) {
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(int(r.check), int(check)) << r.message;
  EXPECT_EQ(r.row, row) << r.message;
  EXPECT_EQ(r.column, column) << r.message;
  EXPECT_EQ(r.message.rfind("mismatch at (" + std::to_string(row) + ", " + std::to_string(column) +
                                "): expected ",
                            0),
            0u)
      << r.message;
}

TEST_F(Verify, CorrectOutputsPass) {
  std::vector<apsp::Graph> graphs = {apsp::Graph{1, {}}, apsp::Graph{2, {}},
                                     apsp::Graph{3, {{0, 1, 0}, {1, 2, 1000}, {2, 2, 3}}}};
  for (unsigned seed = 1; seed <= 4; ++seed)
    graphs.push_back(awkward_graph(61, 0.04, seed));
  graphs.push_back(awkward_graph(64, 0.3, 5));
  for (const auto& g : graphs)
    for (const int samples : {0, 1, 2, 8, g.vertices}) {
      apsp::VerifyOptions options;
      options.samples = samples;
      const auto r = verify(g, apsp_test::reference_floyd_warshall(g), options);
      EXPECT_TRUE(r.passed) << "V = " << g.vertices << ", samples " << samples << ": " << r.message;
      EXPECT_EQ(r.sampled.size(), std::size_t(std::min(samples, g.vertices)));
      EXPECT_EQ(r.message.rfind("verified: V = " + std::to_string(g.vertices) + ", ", 0), 0u);
    }
}

TEST_F(Verify, SamplesTheCornersAndTheSameVerticesForTheSameSeed) {
  const auto g = awkward_graph(100, 0.05, 9);
  const auto dist = apsp_test::reference_floyd_warshall(g);
  apsp::VerifyOptions options;
  options.samples = 10;
  const auto a = verify(g, dist, options);
  const auto b = verify(g, dist, options);
  options.seed = 2;
  const auto c = verify(g, dist, options);
  EXPECT_EQ(a.sampled, b.sampled);
  EXPECT_NE(a.sampled, c.sampled);
  for (const auto& r : {a, c}) {
    ASSERT_EQ(r.sampled.size(), 10u);
    EXPECT_TRUE(std::is_sorted(r.sampled.begin(), r.sampled.end()));
    EXPECT_EQ(std::adjacent_find(r.sampled.begin(), r.sampled.end()), r.sampled.end());
    EXPECT_EQ(r.sampled.front(), 0);
    EXPECT_EQ(r.sampled.back(), 99);
  }
}

TEST_F(Verify, CatchesAWrongEntryInASampledRow) {
  const auto g = awkward_graph(61, 0.2, 11);
  auto dist = apsp_test::reference_floyd_warshall(g);
  const int s = 60;  // V-1 is always sampled
  int j = 0;
  while (j == s || dist[at(g, s, j)] == inf || dist[at(g, s, j)] == 0)
    ++j;
  const int right = dist[at(g, s, j)];
  for (const int wrong : {right + 1, right - 1}) {
    dist[at(g, s, j)] = wrong;
    const auto r = verify(g, dist);
    expect_mismatch(r, VerifyCheck::sampled_row, s, j);
    EXPECT_EQ(r.expected, std::to_string(right));
    EXPECT_EQ(r.found, wrong);
  }
}

TEST_F(Verify, CatchesAWrongDiagonalOnAnyRow) {
  const auto g = awkward_graph(61, 0.05, 12);
  auto dist = apsp_test::reference_floyd_warshall(g);
  const int i = unsampled(verify(g, dist), g.vertices);
  dist[at(g, i, i)] = 3;
  expect_mismatch(verify(g, dist), VerifyCheck::diagonal, i, i);
}

TEST_F(Verify, CatchesInfinityInTheWrongPlace) {
  // Two components: 0..4 a cycle, 5..9 a cycle; nothing crosses.
  apsp::Graph g{10, {}};
  for (int c : {0, 5})
    for (int k = 0; k < 5; ++k)
      g.edges.push_back({c + k, c + (k + 1) % 5, 10 + k});
  const auto right = apsp_test::reference_floyd_warshall(g);

  auto dist = right;
  dist[at(g, 0, 7)] = 12;  // 0 cannot reach 7
  auto r = verify(g, dist);
  expect_mismatch(r, VerifyCheck::sampled_row, 0, 7);
  EXPECT_EQ(r.expected, std::to_string(inf));

  dist = right;
  dist[at(g, 0, 3)] = inf;  // but it reaches 3
  r = verify(g, dist);
  expect_mismatch(r, VerifyCheck::sampled_row, 0, 3);
  EXPECT_EQ(r.expected, std::to_string(right[at(g, 0, 3)]));
}

TEST_F(Verify, CatchesValuesThatAreNoDistance) {
  const auto g = awkward_graph(40, 0.1, 13);
  for (const int wrong : {-1, inf + 1, -inf}) {
    auto dist = apsp_test::reference_floyd_warshall(g);
    dist[at(g, 17, 23)] = wrong;
    expect_mismatch(verify(g, dist), VerifyCheck::range, 17, 23);
  }
}

TEST_F(Verify, CatchesARelaxationViolationOnASampledRow) {
  // 0 -> 1 (weight 4) -> 2 (weight 5): d(0, 2) = 9 breaks nothing, 10 breaks relaxation over
  // the edge 1 -> 2; the exact row (checked first) names the entry.
  apsp::Graph g{4, {{0, 1, 4}, {1, 2, 5}, {2, 3, 1}}};
  auto dist = apsp_test::reference_floyd_warshall(g);
  dist[at(g, 0, 2)] = 10;
  const auto r = verify(g, dist);
  expect_mismatch(r, VerifyCheck::sampled_row, 0, 2);
  EXPECT_EQ(r.expected, "9");
}

TEST_F(Verify, CatchesAnEdgeLongerThanItsDistanceOnAnUnsampledRow) {
  const auto g = awkward_graph(61, 0.05, 14);
  auto dist = apsp_test::reference_floyd_warshall(g);
  const auto first = verify(g, dist);
  for (const auto& e : g.edges) {
    if (e.src == e.dst || sampled(first, e.src) || sampled(first, e.dst)) continue;
    dist[at(g, e.src, e.dst)] = e.weight + 1;
    const auto r = verify(g, dist);
    expect_mismatch(r, VerifyCheck::edge, e.src, e.dst);
    EXPECT_EQ(r.expected.rfind("at most ", 0), 0u);
    return;
  }
  FAIL() << "no edge between unsampled vertices";
}

TEST_F(Verify, BoundsUnsampledRowsByTheTriangleInequality) {
  // Strongly connected: every sampled vertex bounds every pair from above.
  const auto g = awkward_graph(50, 0.3, 15);
  const auto right = apsp_test::reference_floyd_warshall(g);
  const auto first = verify(g, right);
  const int i = unsampled(first, g.vertices);
  int j = 0;
  while (sampled(first, j) || j == i || right[at(g, i, j)] == inf)
    ++j;
  // No edge i -> j may carry the bound instead.
  apsp::Graph h = g;
  h.edges.erase(std::remove_if(h.edges.begin(), h.edges.end(),
                               [&](const apsp::Edge& e) { return e.src == i && e.dst == j; }),
                h.edges.end());
  const auto right_h = apsp_test::reference_floyd_warshall(h);

  auto dist = right_h;
  dist[at(h, i, j)] = inf;  // too large
  auto r = verify(h, dist);
  expect_mismatch(r, VerifyCheck::triangle, i, j);
  EXPECT_EQ(r.expected.rfind("at most ", 0), 0u);

  dist = right_h;
  for (int c = 0; c < h.vertices; ++c)
    if (!sampled(first, c)) dist[at(h, i, c)] = std::min(dist[at(h, i, c)], 1);  // too small
  r = verify(h, dist);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(int(r.check), int(VerifyCheck::triangle)) << r.message;
  EXPECT_EQ(r.row, i);
  EXPECT_EQ(r.expected.rfind("at least ", 0), 0u) << r.message;
}

TEST_F(Verify, CatchesAWrongEntryInASampledColumn) {
  const auto g = awkward_graph(61, 0.2, 16);
  auto dist = apsp_test::reference_floyd_warshall(g);
  const int i = unsampled(verify(g, dist), g.vertices);
  ASSERT_NE(dist[at(g, i, 0)], inf);
  dist[at(g, i, 0)] += 1;
  expect_mismatch(verify(g, dist), VerifyCheck::sampled_column, i, 0);
}

// Several read chunks (8 MiB each): a directed cycle, d(i, j) = (j - i) mod V, known in closed
// form so that no reference has to run at this size.
TEST_F(Verify, StreamsOutputsLargerThanOneChunk) {
  const int v = 1500;
  apsp::Graph g{v, {}};
  for (int i = 0; i < v; ++i)
    g.edges.push_back({i, (i + 1) % v, 1});
  std::vector<int> dist(std::size_t(v) * v);
  for (int i = 0; i < v; ++i)
    for (int j = 0; j < v; ++j)
      dist[at(g, i, j)] = (j - i + v) % v;
  EXPECT_TRUE(verify(g, dist).passed);
  dist[at(g, v - 1, 5)] = 7;
  expect_mismatch(verify(g, dist), VerifyCheck::sampled_row, v - 1, 5);
}

TEST_F(Verify, RejectsFilesThatCannotBeChecked) {
  const apsp::Graph g{5, {{0, 1, 3}}};
  const auto dist = apsp_test::reference_floyd_warshall(g);
  auto expect_error = [&](const std::string& part, auto&& call) {
    apsp_test::expect_error_naming(call, {part});
  };
  const int lowest_free = dup(0);
  close(lowest_free);
  expect_error("needs V*V*4 = 100",
               [&] { verify(g, std::vector<int>(dist.begin(), dist.end() - 1)); });
  expect_error("needs V*V*4 = 100", [&] {
    auto longer = dist;
    longer.push_back(0);
    verify(g, longer);
  });
  expect_error("cannot open output", [&] {
    verify(g, dist);
    apsp::verify(in(), dir_ + "/missing.out");
  });
  expect_error("is a directory", [&] { apsp::verify(in(), dir_); });
  expect_error("cannot open input", [&] { apsp::verify(dir_ + "/missing.in", out_path()); });
  expect_error("must not be negative", [&] {
    apsp::VerifyOptions options;
    options.samples = -1;
    verify(g, dist, options);
  });
  const int still_lowest_free = dup(0);
  close(still_lowest_free);
  EXPECT_EQ(still_lowest_free, lowest_free) << "a file descriptor leaked";
}

TEST_F(Verify, RefusesGraphsWithNegativeWeights) {
  const std::string why =
      " < 0; verify checks graphs with non-negative weights only (it samples rows by Dijkstra)";
  // The output is the right size and right for the graph without its negative edge: the
  // weight alone is refused.
  const apsp::Graph g{4, {{0, 1, 3}, {1, 2, 0}, {2, 3, -1}, {3, 0, -1000}}};
  const apsp::Graph positive{4, {{0, 1, 3}, {1, 2, 0}}};
  apsp_test::expect_error_naming([&] { verify(g, apsp_test::reference_floyd_warshall(positive)); },
                                 {"verify: edge 2 (2 -> 3) has weight -1" + why});
  // A text input gets the same message, not the reader's hint at an option verify lacks.
  std::ofstream(dir_ + "/graph.gr") << "p sp 3 2\na 1 2 4\na 3 1 -7\n";
  const auto dist = apsp_test::reference_floyd_warshall(apsp::Graph{3, {{0, 1, 4}}});
  std::ofstream(dir_ + "/graph3.out", std::ios::binary)
      .write(reinterpret_cast<const char*>(dist.data()),
             std::streamsize(dist.size() * sizeof(int)));
  try {
    apsp::verify(dir_ + "/graph.gr", dir_ + "/graph3.out");
    ADD_FAILURE() << "a graph with a negative weight was verified";
  } catch (const apsp::Error& e) {
    EXPECT_EQ(std::string(e.what()), "verify: edge 1 (2 -> 0) has weight -7" + why);
  }
}

}  // namespace
