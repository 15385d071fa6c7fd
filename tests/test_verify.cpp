// apsp::verify against outputs of the plain reference: every correct output passes, and each
// kind of corruption is caught at the entry that was corrupted (the exact check: in its row;
// the sampled one, where the exact check is off: at the entry itself).
#include "expect_error.hpp"
#include "io/output_formats.hpp"
#include "reference.hpp"
#include "temp_dir.hpp"

#include <apsp/config.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/plan.hpp>

#include <Kokkos_Core.hpp>

#include "io/generate.hpp"
#include "io/hw3_io.hpp"
#include "io/outputs.hpp"
#include "platform/backends.hpp"
#include "verify/verify_certificate.hpp"
#include "verify/verify_output.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using apsp::VerifyCheck;
constexpr int inf = apsp::hw3_no_path;

// The sampled check alone (the exact one off).
apsp::VerifyOptions sampled_only(int samples = 8) {
  apsp::VerifyOptions options;
  options.samples = samples;
  options.exact_limit = 0;
  return options;
}

class Verify : public apsp_test::TempDirTest {
 protected:
  // Writes the graph and `dist` (its answer, or a corrupted one) and verifies them, with the
  // exact check on the default backend unless `options` names another.
  apsp::VerifyResult verify(const apsp::Graph& g, const std::vector<int>& dist,
                            apsp::VerifyOptions options = {}) {
    apsp::write_hw3_graph(in(), g);
    std::ofstream out(out_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(dist.data()),
              std::streamsize(dist.size() * sizeof(int)));
    out.close();
    return check(in(), out_path(), std::move(options));
  }

  // Real weights: the graph as an edge list, `dist` (no path: +inf) as an .npy of type T.
  template <class T>
  apsp::VerifyResult verify_real(const apsp::Graph& g, const std::vector<double>& dist,
                                 apsp::VerifyOptions options = {}) {
    const std::string graph = dir_ + "/graph.txt", npy = dir_ + "/graph.npy";
    std::FILE* text = std::fopen(graph.c_str(), "w");
    std::fprintf(text, "# vertices %d\n", g.vertices);
    for (const auto& e : g.edges)
      std::fprintf(text, "%d %d %.17g\n", e.src, e.dst, e.weight);
    std::fclose(text);
    std::ofstream out(npy, std::ios::binary | std::ios::trunc);
    out << apsp::npy_header(g.vertices, apsp::Distance<T>::type);
    for (const double x : dist) {
      const T value = T(x);
      out.write(reinterpret_cast<const char*>(&value), sizeof value);
    }
    out.close();
    return check(graph, npy, std::move(options));
  }

  static apsp::VerifyResult check(const std::string& in, const std::string& out,
                                  apsp::VerifyOptions options) {
    if (!options.certificate) options.certificate = apsp::backend_certificate();
    return apsp::verify(in, out, options);
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
    for (const bool exact : {true, false})
      for (const int samples : {0, 1, 2, 8, g.vertices}) {
        apsp::VerifyOptions options = exact ? apsp::VerifyOptions{} : sampled_only();
        options.samples = samples;
        const auto r = verify(g, apsp_test::reference_floyd_warshall(g), options);
        EXPECT_TRUE(r.passed) << "V = " << g.vertices << ", samples " << samples << ": "
                              << r.message;
        EXPECT_EQ(r.exact, exact);
        EXPECT_EQ(r.sampled.size(), exact ? 0u : std::size_t(std::min(samples, g.vertices)));
        EXPECT_EQ(r.message.rfind("verified: V = " + std::to_string(g.vertices) + ", ", 0), 0u);
      }
}

TEST_F(Verify, SaysWhetherEveryRowWasChecked) {
  const auto g = awkward_graph(61, 0.04, 1);
  const auto dist = apsp_test::reference_floyd_warshall(g);
  const std::string e = std::to_string(g.edges.size()), work = std::to_string(61 * g.edges.size());
  auto r = verify(g, dist);
  EXPECT_EQ(r.message, "verified: V = 61, E = " + e +
                           ": every row exact by the shortest-path certificate (V x E = " + work +
                           ", at most 10000000000): zero diagonal, all int32 values in [0, "
                           "1073741823], every edge relaxed in every row, every finite distance "
                           "the length of a path of edges it makes tight");
  apsp::VerifyOptions options;
  options.exact_limit = 61 * g.edges.size() - 1;
  r = verify(g, dist, options);
  EXPECT_FALSE(r.exact);
  EXPECT_EQ(r.message, "verified: V = 61, E = " + e + ": sampled, not every row: V x E = " + work +
                           " is above the exact check's limit of " +
                           std::to_string(options.exact_limit) +
                           " (--exact-limit); 8 sampled rows and columns exact (seed 1): zero "
                           "diagonal, all int32 values in [0, 1073741823], d(u, v) <= w for every "
                           "edge, triangle inequality through the sampled vertices on every row");
  options.exact_limit = 61 * g.edges.size();
  EXPECT_TRUE(verify(g, dist, options).exact);
  options.certificate = [](const apsp::CertificateGraph&) {
    return std::unique_ptr<apsp::RowCertificate>();
  };
  r = verify(g, dist, options);
  EXPECT_FALSE(r.exact);
  EXPECT_NE(r.message.find(": sampled, not every row: this build has no exact check of int32 "
                           "distances; 8 sampled"),
            std::string::npos)
      << r.message;
}

TEST_F(Verify, SamplesTheCornersAndTheSameVerticesForTheSameSeed) {
  const auto g = awkward_graph(100, 0.05, 9);
  const auto dist = apsp_test::reference_floyd_warshall(g);
  apsp::VerifyOptions options = sampled_only(10);
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
    const auto r = verify(g, dist, sampled_only());
    expect_mismatch(r, VerifyCheck::sampled_row, s, j);
    EXPECT_EQ(r.expected, std::to_string(right));
    EXPECT_EQ(r.found, wrong);
  }
}

TEST_F(Verify, CatchesAWrongDiagonalOnAnyRow) {
  const auto g = awkward_graph(61, 0.05, 12);
  auto dist = apsp_test::reference_floyd_warshall(g);
  const int i = unsampled(verify(g, dist, sampled_only()), g.vertices);
  dist[at(g, i, i)] = 3;
  expect_mismatch(verify(g, dist, sampled_only()), VerifyCheck::diagonal, i, i);
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
  auto r = verify(g, dist, sampled_only());
  expect_mismatch(r, VerifyCheck::sampled_row, 0, 7);
  EXPECT_EQ(r.expected, std::to_string(inf));
  r = verify(g, dist);  // the exact check: 7's edge out is not relaxed
  expect_mismatch(r, VerifyCheck::relaxation, 0, 8);
  EXPECT_EQ(r.expected, "at most 24");
  EXPECT_EQ(r.reason, "edge 7 -> 8 of weight 12 from d(0, 7)");
  // The other cycle at distances from 100 on, each edge relaxed: one entry has no tight edge in.
  for (int k = 0, d = 100; k < 5; d += 10 + k, ++k)
    dist[at(g, 0, 5 + k)] = d;
  r = verify(g, dist);
  expect_mismatch(r, VerifyCheck::tight_edge, 0, 5);
  EXPECT_EQ(r.expected, "at least 160");
  EXPECT_EQ(r.reason,
            "d(0, 5) is the least d(0, u) + w of the edges u -> 5: here edge 9 -> 5 of "
            "weight 14");

  dist = right;
  dist[at(g, 0, 3)] = inf;  // but it reaches 3
  r = verify(g, dist, sampled_only());
  expect_mismatch(r, VerifyCheck::sampled_row, 0, 3);
  EXPECT_EQ(r.expected, std::to_string(right[at(g, 0, 3)]));
  r = verify(g, dist);
  expect_mismatch(r, VerifyCheck::relaxation, 0, 3);
  EXPECT_EQ(r.expected, "at most 33");
  EXPECT_EQ(r.reason, "edge 2 -> 3 of weight 12 from d(0, 2)");
}

TEST_F(Verify, NamesNoBoundAboveTheNoPathValue) {
  // 0 cannot reach 7, whose entry is forged finite and so large that it and 7's edge out sum
  // beyond the no-path value: no bound of a distance (issue 43 saw "expected at most
  // 1073741827"). The entry itself is named: no edge into 7 leaves a vertex that 0 reaches.
  apsp::Graph g{10, {}};
  for (int c : {0, 5})
    for (int k = 0; k < 5; ++k)
      g.edges.push_back({c + k, c + (k + 1) % 5, 10 + k});
  auto dist = apsp_test::reference_floyd_warshall(g);
  dist[at(g, 0, 7)] = inf - 1;
  const auto r = verify(g, dist);
  expect_mismatch(r, VerifyCheck::tight_edge, 0, 7);
  EXPECT_EQ(r.expected, std::to_string(inf));
  EXPECT_EQ(r.reason, "no edge into 7 leaves a vertex that 0 reaches");
}

TEST_F(Verify, CatchesValuesThatAreNoDistance) {
  const auto g = awkward_graph(40, 0.1, 13);
  for (const int wrong : {-1, inf + 1, -inf}) {
    auto dist = apsp_test::reference_floyd_warshall(g);
    dist[at(g, 17, 23)] = wrong;
    expect_mismatch(verify(g, dist), VerifyCheck::range, 17, 23);
    expect_mismatch(verify(g, dist, sampled_only()), VerifyCheck::range, 17, 23);
  }
}

TEST_F(Verify, CatchesARelaxationViolationOnASampledRow) {
  // 0 -> 1 (weight 4) -> 2 (weight 5): d(0, 2) = 9 breaks nothing, 10 breaks relaxation over
  // the edge 1 -> 2; the exact row (checked first) names the entry.
  apsp::Graph g{4, {{0, 1, 4}, {1, 2, 5}, {2, 3, 1}}};
  auto dist = apsp_test::reference_floyd_warshall(g);
  dist[at(g, 0, 2)] = 10;
  auto r = verify(g, dist, sampled_only());
  expect_mismatch(r, VerifyCheck::sampled_row, 0, 2);
  EXPECT_EQ(r.expected, "9");
  r = verify(g, dist);
  expect_mismatch(r, VerifyCheck::relaxation, 0, 2);
  EXPECT_EQ(r.expected, "at most 9");
  EXPECT_EQ(
      r.message,
      "mismatch at (0, 2): expected at most 9, found 10 (edge 1 -> 2 of weight 5 from d(0, 1))");
}

TEST_F(Verify, CatchesAnEdgeLongerThanItsDistanceOnAnUnsampledRow) {
  const auto g = awkward_graph(61, 0.05, 14);
  auto dist = apsp_test::reference_floyd_warshall(g);
  const auto first = verify(g, dist, sampled_only());
  for (const auto& e : g.edges) {
    if (e.src == e.dst || sampled(first, e.src) || sampled(first, e.dst)) continue;
    dist[at(g, e.src, e.dst)] = e.weight + 1;
    const auto r = verify(g, dist, sampled_only());
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
  const auto first = verify(g, right, sampled_only());
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
  auto r = verify(h, dist, sampled_only());
  expect_mismatch(r, VerifyCheck::triangle, i, j);
  EXPECT_EQ(r.expected.rfind("at most ", 0), 0u);

  dist = right_h;
  for (int c = 0; c < h.vertices; ++c)
    if (!sampled(first, c)) dist[at(h, i, c)] = std::min(dist[at(h, i, c)], 1);  // too small
  r = verify(h, dist, sampled_only());
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(int(r.check), int(VerifyCheck::triangle)) << r.message;
  EXPECT_EQ(r.row, i);
  EXPECT_EQ(r.expected.rfind("at least ", 0), 0u) << r.message;
}

TEST_F(Verify, CatchesAWrongEntryInASampledColumn) {
  const auto g = awkward_graph(61, 0.2, 16);
  auto dist = apsp_test::reference_floyd_warshall(g);
  const int i = unsampled(verify(g, dist, sampled_only()), g.vertices);
  ASSERT_NE(dist[at(g, i, 0)], inf);
  dist[at(g, i, 0)] += 1;
  expect_mismatch(verify(g, dist, sampled_only()), VerifyCheck::sampled_column, i, 0);
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
  EXPECT_TRUE(verify(g, dist, sampled_only()).passed);
  dist[at(g, v - 1, 5)] = 7;
  expect_mismatch(verify(g, dist, sampled_only()), VerifyCheck::sampled_row, v - 1, 5);
  expect_mismatch(verify(g, dist), VerifyCheck::relaxation, v - 1, 5);
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

// Dijkstra samples no graph with a negative weight: without the exact check, such a graph is
// refused, whatever its output.
TEST_F(Verify, RefusesNegativeWeightsWhereTheCheckIsSampled) {
  const std::string why =
      " < 0, which the sampled check cannot take (it samples rows by Dijkstra), and the exact "
      "check is off (--exact-limit 0)";
  // The output is the right size and right for the graph without its negative edge: the
  // weight alone is refused.
  const apsp::Graph g{4, {{0, 1, 3}, {1, 2, 0}, {2, 3, -1}, {3, 0, -1000}}};
  const apsp::Graph positive{4, {{0, 1, 3}, {1, 2, 0}}};
  apsp_test::expect_error_naming(
      [&] { verify(g, apsp_test::reference_floyd_warshall(positive), sampled_only()); },
      {"verify: edge 2 (2 -> 3) has weight -1" + why});
  // A text input gets the same message, not the reader's hint at an option verify lacks.
  std::ofstream(dir_ + "/graph.gr") << "p sp 3 2\na 1 2 4\na 3 1 -7\n";
  const auto dist = apsp_test::reference_floyd_warshall(apsp::Graph{3, {{0, 1, 4}}});
  std::ofstream(dir_ + "/graph3.out", std::ios::binary)
      .write(reinterpret_cast<const char*>(dist.data()),
             std::streamsize(dist.size() * sizeof(int)));
  try {
    apsp::verify(dir_ + "/graph.gr", dir_ + "/graph3.out", sampled_only());
    ADD_FAILURE() << "a graph with a negative weight was verified";
  } catch (const apsp::Error& e) {
    EXPECT_EQ(std::string(e.what()), "verify: edge 1 (2 -> 0) has weight -7" + why);
  }
  // With the exact check, the output is checked: it is wrong (3 reaches 0 through -7).
  const auto r = check(dir_ + "/graph.gr", dir_ + "/graph3.out", {});
  expect_mismatch(r, VerifyCheck::relaxation, 2, 0);
  EXPECT_EQ(r.expected, "at most -7");
}

// A road-like graph (`apsp generate --class road`) and its true distances, and positions of
// off-diagonal entries chosen by a seeded generator: the corruptions of the next tests land
// anywhere, most of them in rows and columns that no sample covers.
struct Road {
  apsp::Graph graph;
  std::vector<int> dist;
};

Road road(const std::string& dir, int vertices) {
  apsp::GenerateConfig config;
  config.graph_class = apsp::GraphClass::road;
  config.vertices = vertices;
  config.seed = 3;
  apsp::generate_hw3(config, dir + "/road.in");
  Road r;
  r.graph = apsp::read_hw3(dir + "/road.in");
  r.dist = apsp_test::reference_floyd_warshall(r.graph);
  return r;
}

std::vector<std::pair<int, int>> positions(int vertices, int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::pair<int, int>> out;
  while (int(out.size()) < count) {
    const int i = int(rng() % unsigned(vertices)), j = int(rng() % unsigned(vertices));
    if (i != j) out.push_back({i, j});
  }
  return out;
}

// Every entry is checked, whatever the samples: each value raised or lowered by one is found
// in its own row (the rows around it stay right), and lowered by one also with 64 samples.
TEST_F(Verify, CatchesEveryValueChangedByOneOnARoad) {
  const Road r = road(dir_, 400);
  ASSERT_TRUE(verify(r.graph, r.dist).passed);
  for (const int samples : {8, 64})
    for (const auto& [i, j] : positions(r.graph.vertices, 60, 1)) {
      ASSERT_NE(r.dist[at(r.graph, i, j)], inf);
      for (const int change : {1, -1}) {
        if (samples == 64 && change > 0) continue;
        auto dist = r.dist;
        dist[at(r.graph, i, j)] += change;
        apsp::VerifyOptions options;
        options.samples = samples;
        const auto result = verify(r.graph, dist, options);
        EXPECT_FALSE(result.passed) << "d(" << i << ", " << j << ") " << (change > 0 ? "+" : "")
                                    << change << ", " << samples << " samples";
        if (!result.passed) EXPECT_EQ(result.row, i) << result.message;
      }
    }
}

TEST_F(Verify, CatchesEveryBitFlipOnARoad) {
  const Road r = road(dir_, 400);
  std::mt19937 rng(2);
  for (const auto& [i, j] : positions(r.graph.vertices, 60, 2)) {
    const int bit = int(rng() % 32);
    auto dist = r.dist;
    dist[at(r.graph, i, j)] ^= int(1u << bit);
    const auto result = verify(r.graph, dist);
    EXPECT_FALSE(result.passed) << "d(" << i << ", " << j << ") with bit " << bit << " flipped";
    if (!result.passed) EXPECT_EQ(result.row, i) << result.message;
  }
}

// Values too small on a cycle of zero-weight edges satisfy every edge and have a tight edge
// in (the cycle's own), so only a search from the row's vertex over tight edges rejects them.
// Row 8 (nothing reaches 8): one cycle that 8 reaches (2 <-> 3, through 8 -> 0 -> 1 -> 2,
// d = 11, set to 8) and one that it does not (5 <-> 6, entered from 7, which 8 does not
// reach: no path, set to 3). Only the corners are sampled, and neither reaches 8, so the
// sampled check sees neither.
TEST_F(Verify, CatchesValuesTooSmallOnCyclesOfZeroWeight) {
  const int v = 12;
  apsp::Graph g{v,
                {{0, 1, 5},
                 {1, 2, 5},
                 {2, 3, 0},
                 {3, 2, 0},
                 {1, 4, 6},
                 {5, 6, 0},
                 {6, 5, 0},
                 {7, 5, 4},
                 {8, 0, 1},
                 {11, 7, 2}}};
  const auto right = apsp_test::reference_floyd_warshall(g);
  apsp::VerifyOptions corners;
  corners.samples = 2;
  ASSERT_TRUE(verify(g, right, corners).passed);

  auto dist = right;
  ASSERT_EQ(dist[at(g, 8, 2)], 11);
  dist[at(g, 8, 2)] = dist[at(g, 8, 3)] = 8;
  auto r = verify(g, dist, corners);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.row, 8) << r.message;
  EXPECT_EQ(r.column, 2) << r.message;
  EXPECT_EQ(r.message,
            "mismatch at (8, 2): expected more than 8, found 8 (the edges u -> x with d(8, u) + w "
            "= d(8, x) that lead to 2 come from a cycle of weight 0, not from 8)");

  dist = right;
  ASSERT_EQ(dist[at(g, 8, 5)], inf);
  dist[at(g, 8, 5)] = dist[at(g, 8, 6)] = 3;
  r = verify(g, dist, corners);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.row, 8) << r.message;
  EXPECT_EQ(r.column, 5) << r.message;
  EXPECT_EQ(int(r.check), int(VerifyCheck::unreached)) << r.message;

  // Without any edge in, a finite value has no tight edge either.
  dist = right;
  dist[at(g, 8, 10)] = 5;
  expect_mismatch(verify(g, dist, corners), VerifyCheck::tight_edge, 8, 10);
  EXPECT_EQ(verify(g, dist, corners).message,
            "mismatch at (8, 10): expected 1073741823, found 5 (no edge into 10 leaves a vertex "
            "that 8 reaches)");
}

// Negative weights (no negative cycle): the right answer passes, a value changed by one does
// not.
TEST_F(Verify, ChecksGraphsWithNegativeWeights) {
  const apsp::Graph g = apsp_test::potential_graph(70, 0.08, 21);
  const auto right = apsp_test::reference_floyd_warshall(g);
  ASSERT_TRUE(std::any_of(g.edges.begin(), g.edges.end(),
                          [](const apsp::Edge& e) { return e.weight < 0; }));
  const auto ok = verify(g, right);
  EXPECT_TRUE(ok.passed) << ok.message;
  for (const auto& [i, j] : positions(g.vertices, 30, 3)) {
    if (right[at(g, i, j)] == inf) continue;
    for (const int change : {1, -1}) {
      auto dist = right;
      dist[at(g, i, j)] += change;
      const auto r = verify(g, dist);
      EXPECT_FALSE(r.passed) << "d(" << i << ", " << j << ") " << change;
      if (!r.passed) EXPECT_EQ(r.row, i) << r.message;
    }
  }
}

// The same verdicts, at the same entries, on every backend of the build and with blocks of a
// few rows (a mismatch in one block, or a range error later in the same block: file order).
TEST_F(Verify, EveryBackendAndBlockSizeAgree) {
  const Road r = road(dir_, 300);
  std::vector<std::vector<int>> outputs;
  for (const auto& [i, j] : positions(r.graph.vertices, 12, 4)) {
    auto dist = r.dist;
    dist[at(r.graph, i, j)] += (i + j) % 2 ? 1 : -1;
    outputs.push_back(dist);
    dist[at(r.graph, i + (i + 1 < r.graph.vertices ? 1 : -1), j)] = -1;  // a range error
    outputs.push_back(dist);
  }
  outputs.push_back(r.dist);
  for (const auto& dist : outputs) {
    const auto expected = verify(r.graph, dist);
    for (const auto& backend : apsp::backend_names())
      for (const std::uint64_t block : {std::uint64_t(1), std::uint64_t(7 * 300 * 12)}) {
        apsp::VerifyOptions options;
        options.certificate = apsp::backend_certificate(backend, block);
        const auto got = verify(r.graph, dist, options);
        EXPECT_EQ(got.message, expected.message) << backend << ", blocks of " << block << " bytes";
      }
  }
}

// The floats' kernels are not compiled into a minimal build (int32 alone: CMakeLists.txt).
#if !defined(APSP_MINIMAL_INSTANTIATIONS)
// What the solver writes for a graph of real weights, in T.
template <class T>
std::vector<double> solved(const apsp::Graph& g) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  Exec exec;
  const bool negative =
      std::any_of(g.edges.begin(), g.edges.end(), [](const apsp::Edge& e) { return e.weight < 0; });
  const apsp::Plan plan = apsp::make_plan<T>(exec, g.vertices, negative);
  apsp::DistanceMatrix<Exec, T> d("dist", plan.padded, plan.padded);
  apsp::fill_distance_matrix(exec, d, g.edges);
  apsp::floyd_warshall(exec, d, plan);
  std::vector<double> out;
  for (int i = 0; i < g.vertices; ++i)
    for (int j = 0; j < g.vertices; ++j)
      out.push_back(d(i, j) == apsp::Distance<T>::infinity ? std::numeric_limits<double>::infinity()
                                                           : double(d(i, j)));
  return out;
}

// Real weights in [0.1, 100), or with potentials: negative ones, no negative cycle.
apsp::Graph real_graph(int vertices, double density, unsigned seed, bool negative) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1), weight(0.1, 100), potential(0, 50);
  std::vector<double> p(std::size_t(vertices), 0.0);
  if (negative)
    for (double& x : p)
      x = potential(rng);
  apsp::Graph g{vertices, {}};
  for (int i = 0; i < vertices; ++i)
    for (int j = 0; j < vertices; ++j)
      if (i != j && coin(rng) < density)
        g.edges.push_back({i, j, weight(rng) + p[std::size_t(i)] - p[std::size_t(j)]});
  return g;
}

// Float outputs: exact where every sum is (whole-number weights), else the exact check within
// the rounding of the sums and the sampled rows besides (they catch values raised by 0.1%
// everywhere, which keep every edge within the rounding); with negative real weights the exact
// check alone. The solver's outputs pass; a value changed by one does not, in its row.
template <class T>
void check_float_outputs(
    const std::function<apsp::VerifyResult(const apsp::Graph&, const std::vector<double>&)>& run) {
  const auto g = awkward_graph(61, 0.05, 31);
  const auto ints = apsp_test::reference_floyd_warshall(g);
  std::vector<double> whole(ints.begin(), ints.end());
  for (double& x : whole)
    if (x == inf) x = std::numeric_limits<double>::infinity();
  const auto real = real_graph(70, 0.08, 32, false), negative = real_graph(70, 0.08, 33, true);
  struct Case {
    const apsp::Graph& graph;
    std::vector<double> dist;
    std::size_t samples;
  };
  for (const Case& c : {Case{g, whole, 0}, Case{real, solved<T>(real), 8},
                        Case{negative, solved<T>(negative), 0}}) {
    const auto r = run(c.graph, c.dist);
    EXPECT_TRUE(r.passed) << r.message;
    EXPECT_TRUE(r.exact);
    EXPECT_EQ(r.sampled.size(), c.samples) << r.message;
    int tried = 0;
    for (const auto& [i, j] : positions(c.graph.vertices, 40, 5)) {
      const double x = c.dist[at(c.graph, i, j)];
      if (x == std::numeric_limits<double>::infinity() || ++tried > 10) continue;
      for (const double change : {1.0, -1.0}) {
        auto wrong = c.dist;
        wrong[at(c.graph, i, j)] = x + change;
        const auto w = run(c.graph, wrong);
        EXPECT_FALSE(w.passed) << "d(" << i << ", " << j << ") " << change;
        if (!w.passed) EXPECT_EQ(w.row, i) << w.message;
      }
    }
  }
  auto raised = solved<T>(real);
  for (double& x : raised)
    x = double(T(x) * T(1.001));
  EXPECT_FALSE(run(real, raised).passed);
}

TEST_F(Verify, ChecksFloatOutputs) {
  check_float_outputs<float>(
      [&](const apsp::Graph& g, const std::vector<double>& d) { return verify_real<float>(g, d); });
  check_float_outputs<double>([&](const apsp::Graph& g, const std::vector<double>& d) {
    return verify_real<double>(g, d);
  });
}
#endif

}  // namespace
