// The sssp algorithm (Dijkstra from every source) exactly against the plain reference and against
// apsp's Floyd-Warshall, on the host backends; the CSR graph it runs on; and the algorithm
// choice, with and without Kokkos Kernels.
#include "backends.hpp"
#include "platform/config.hpp"
#include "reference.hpp"

#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>

#include "plan/sssp_choice.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

apsp::Graph graph_of(int vertices, std::vector<apsp::Edge> edges) {
  apsp::Graph g;
  g.vertices = vertices;
  g.edges = std::move(edges);
  return g;
}

TEST(AlgorithmChoice, NamesRoundTrip) {
  for (const char* name : {"auto", "fw", "sssp"})
    EXPECT_STREQ(apsp::algorithm_name(*apsp::algorithm_named(name)), name);
  EXPECT_FALSE(apsp::algorithm_named("dijkstra"));
}

TEST(AlgorithmChoice, FwAsked) {
  const auto g = apsp_test::random_graph(50, 0.01, 1);
  EXPECT_EQ(apsp::choose_algorithm(apsp::Algorithm::floyd_warshall, "openmp", true, g),
            apsp::Algorithm::floyd_warshall);
}

TEST(AlgorithmChoice, AutoKeepsFwOnDevicesAndDenseGraphs) {
  const auto sparse = apsp_test::random_graph(200, 0.005, 2);
  const auto dense = apsp_test::random_graph(200, 0.5, 3);
  EXPECT_EQ(apsp::choose_algorithm(apsp::Algorithm::automatic, "cuda", false, sparse),
            apsp::Algorithm::floyd_warshall);
  EXPECT_EQ(apsp::choose_algorithm(apsp::Algorithm::automatic, "openmp", true, dense),
            apsp::Algorithm::floyd_warshall);
  EXPECT_EQ(apsp::choose_algorithm(apsp::Algorithm::automatic, "openmp", true, sparse),
            apsp::sssp_available ? apsp::Algorithm::sssp : apsp::Algorithm::floyd_warshall);
}

TEST(AlgorithmChoice, SsspAskedWhereItCannotRun) {
  const auto g = apsp_test::random_graph(20, 0.1, 4);
  try {
    apsp::choose_algorithm(apsp::Algorithm::sssp, "cuda", false, g);
    FAIL() << "sssp on a device backend must be refused";
  } catch (const apsp::Error& e) {
    const std::string expected =
        apsp::sssp_available ? "runs on host backends only" : "needs Kokkos Kernels";
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
  if (apsp::sssp_available) {
    EXPECT_EQ(apsp::choose_algorithm(apsp::Algorithm::sssp, "serial", true, g),
              apsp::Algorithm::sssp);
  } else {
    try {
      apsp::choose_algorithm(apsp::Algorithm::sssp, "openmp", true, g);
      FAIL() << "sssp without Kokkos Kernels must be refused";
    } catch (const apsp::Error& e) {
      EXPECT_NE(std::string(e.what()).find("--algorithm sssp needs Kokkos Kernels, which this "
                                           "build lacks"),
                std::string::npos)
          << e.what();
    }
  }
}

#if defined(APSP_HAVE_KOKKOS_KERNELS)

TEST(CsrGraph, RowsSortedLightestOfDuplicatesNoSelfLoops) {
  const auto g = graph_of(5, {{0, 3, 9},
                              {0, 1, 4},
                              {0, 3, 2},
                              {0, 3, 7},
                              {2, 2, 0},
                              {2, 0, 5},
                              {4, 4, 1},
                              {4, 1, 0},
                              {4, 1, 0},
                              {1, 0, 1000}});
  const apsp::CsrGraph csr = apsp::make_csr_graph(g);
  ASSERT_EQ(csr.numRows(), 5);
  ASSERT_EQ(csr.numCols(), 5);
  const std::vector<std::size_t> row_map = {0, 2, 3, 4, 4, 5};
  const std::vector<int> columns = {1, 3, 0, 0, 1};
  const std::vector<int> weights = {4, 2, 1000, 5, 0};
  ASSERT_EQ(std::size_t(csr.nnz()), columns.size());
  for (std::size_t i = 0; i < row_map.size(); ++i)
    EXPECT_EQ(csr.graph.row_map(i), row_map[i]);
  for (std::size_t k = 0; k < columns.size(); ++k) {
    EXPECT_EQ(csr.graph.entries(k), columns[k]) << "entry " << k;
    EXPECT_EQ(csr.values(k), weights[k]) << "entry " << k;
  }
}

TEST(CsrGraph, NoEdges) {
  const apsp::CsrGraph csr = apsp::make_csr_graph(graph_of(3, {}));
  EXPECT_EQ(csr.numRows(), 3);
  EXPECT_EQ(csr.nnz(), 0);
}

template <class ExecSpace>
std::vector<int> sssp_matrix(const apsp::Graph& g) {
  std::vector<int> d(std::size_t(g.vertices) * g.vertices, -1);
  std::int64_t expected_source = 0;
  apsp::sssp_all_pairs(ExecSpace(), apsp::make_csr_graph(g),
                       [&](std::int64_t source, const int* row) {
                         EXPECT_EQ(source, expected_source++) << "rows must come in order";
                         std::copy(row, row + g.vertices, d.begin() + source * g.vertices);
                       });
  EXPECT_EQ(expected_source, g.vertices);
  return d;
}

// apsp's own FW, the leading V x V block.
template <class ExecSpace>
std::vector<int> fw_matrix(const apsp::Graph& g) {
  ExecSpace exec;
  const apsp::Plan plan = apsp::make_plan<int>(exec, g.vertices);
  const std::int64_t n = plan.padded;
  apsp::DistanceMatrix<ExecSpace> dist("dist", n, n);
  apsp::fill_distance_matrix(exec, dist, g.edges);
  apsp::floyd_warshall(exec, dist, plan);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
  std::vector<int> d(std::size_t(g.vertices) * g.vertices);
  for (int i = 0; i < g.vertices; ++i)
    for (int j = 0; j < g.vertices; ++j)
      d[std::size_t(i) * g.vertices + j] = host(i, j);
  return d;
}

template <class ExecSpace>
constexpr bool on_host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

template <class ExecSpace>
class Sssp : public ::testing::Test {};
TYPED_TEST_SUITE(Sssp, apsp_test::Backends, apsp_test::BackendName);

TYPED_TEST(Sssp, MatchesReferenceAtSeveralSizesAndDensities) {
  if constexpr (!on_host<TypeParam>) {
    GTEST_SKIP() << "sssp runs on host backends only";
  } else {
    for (int v : {1, 2, 3, 17, 61, 130, 201})
      for (double density : {0.0, 0.01, 0.05, 0.3, 1.0}) {
        const auto g = apsp_test::random_graph(v, density, unsigned(v * 31 + density * 1000));
        EXPECT_EQ(sssp_matrix<TypeParam>(g), apsp_test::reference_floyd_warshall(g))
            << "V = " << v << ", density " << density;
      }
  }
}

// SsspSolver's rows of a list of sources (--sources): unsorted, duplicated, in the list's order.
TYPED_TEST(Sssp, RowsOfAList) {
  if constexpr (!on_host<TypeParam>) {
    GTEST_SKIP() << "sssp runs on host backends only";
  } else {
    const auto g = apsp_test::random_graph(61, 0.05, 7);
    const auto want = apsp_test::reference_floyd_warshall(g);
    const std::vector<std::int32_t> list = {60, 0, 5, 5, 30, 3, 60, 1, 2, 0, 7};
    apsp::OneRank one;
    apsp::SsspSolver<TypeParam> solver(TypeParam(), one, g.vertices);
    auto edges = g.edges;
    solver.load(std::move(edges));
    std::vector<int> got(list.size() * 61, -7);
    std::int64_t next = 0;
    solver.distance_rows_of(
        list, [&](std::int64_t first, std::int64_t count, const int* rows, std::int64_t stride) {
          EXPECT_EQ(first, next);
          next = first + count;
          for (std::int64_t i = 0; i < count; ++i)
            std::copy(rows + i * stride, rows + i * stride + 61, got.begin() + (first + i) * 61);
        });
    EXPECT_EQ(next, std::int64_t(list.size()));
    for (std::size_t k = 0; k < list.size(); ++k)
      for (std::size_t j = 0; j < 61; ++j)
        ASSERT_EQ(got[k * 61 + j], want[std::size_t(list[k]) * 61 + j]) << k << ", " << j;
  }
}

TYPED_TEST(Sssp, BitwiseEqualToFloydWarshall) {
  if constexpr (!on_host<TypeParam>) {
    GTEST_SKIP() << "sssp runs on host backends only";
  } else {
    for (double density : {0.003, 0.02, 0.2}) {
      const auto g = apsp_test::random_graph(333, density, unsigned(density * 1e4));
      EXPECT_EQ(sssp_matrix<TypeParam>(g), fw_matrix<TypeParam>(g)) << "density " << density;
    }
  }
}

TYPED_TEST(Sssp, DuplicatesSelfLoopsZeroWeightsUnreachable) {
  if constexpr (!on_host<TypeParam>) {
    GTEST_SKIP() << "sssp runs on host backends only";
  } else {
    // Small weights make many ties; 0-weight edges and cycles; isolated vertices 40..44.
    auto g = apsp_test::random_graph(45, 0.08, 7, 3);
    for (int i = 0; i < 40; ++i) {
      g.edges.push_back({i, i, 0});
      g.edges.push_back({i, (i * 7 + 3) % 40, 1000});
      g.edges.push_back({i, (i * 7 + 3) % 40, 0});
      g.edges.push_back({i, (i * 7 + 3) % 40, 5});
    }
    g.edges.push_back({44, 44, 0});
    EXPECT_EQ(sssp_matrix<TypeParam>(g), apsp_test::reference_floyd_warshall(g));
  }
}

TYPED_TEST(Sssp, RowsInBlocksFromAnySource) {
  if constexpr (!on_host<TypeParam>) {
    GTEST_SKIP() << "sssp runs on host backends only";
  } else {
    const auto g = apsp_test::random_graph(101, 0.03, 11);
    const auto expected = apsp_test::reference_floyd_warshall(g);
    const apsp::CsrGraph csr = apsp::make_csr_graph(g);
    apsp::DistanceRows rows("rows", 13, 101);
    for (int first : {0, 13, 88}) {
      apsp::sssp_rows(TypeParam(), csr, first, rows);
      for (int i = 0; i < 13; ++i)
        for (int j = 0; j < 101; ++j)
          ASSERT_EQ(rows(i, j), expected[std::size_t(first + i) * 101 + j])
              << "source " << first + i << ", target " << j;
    }
    EXPECT_THROW(apsp::sssp_rows(TypeParam(), csr, 89, rows), apsp::Error);
  }
}

#endif  // APSP_HAVE_KOKKOS_KERNELS

}  // namespace
