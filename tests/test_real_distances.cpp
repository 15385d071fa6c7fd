// The one blocked algorithm on float and double distances, on every backend and every shape the
// device allows for the type: integer weights exactly as the int32 reference, real weights
// within rounding of an independent double reference (plain Floyd-Warshall in long double),
// negative weights and negative cycles, the shapes' padding.
#include "backends.hpp"
#include "reference.hpp"

#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/graph.hpp>
#include <apsp/paths.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

struct RealEdge {
  int src, dst;
  double weight;
};

// Plain Floyd-Warshall in long double on V x V: the independent reference (+inf: no path).
std::vector<long double> reference(int v, const std::vector<RealEdge>& edges) {
  const long double inf = std::numeric_limits<long double>::infinity();
  std::vector<long double> d(std::size_t(v) * v, inf);
  for (int i = 0; i < v; ++i)
    d[std::size_t(i) * v + i] = 0;
  for (const RealEdge& e : edges) {
    long double& x = d[std::size_t(e.src) * v + e.dst];
    if (e.weight < x) x = e.weight;  // a negative self-loop is a negative cycle
  }
  for (int k = 0; k < v; ++k)
    for (int i = 0; i < v; ++i)
      for (int j = 0; j < v; ++j) {
        const long double through = d[std::size_t(i) * v + k] + d[std::size_t(k) * v + j];
        if (through < d[std::size_t(i) * v + j]) d[std::size_t(i) * v + j] = through;
      }
  return d;
}

// The solver on T: returns the whole padded matrix and the negative-cycle vertex.
template <class ExecSpace, class T>
std::vector<T> solve(int v, const std::vector<RealEdge>& edges, int shape, bool negative,
                     std::int64_t* padded, std::int64_t* cycle) {
  ExecSpace exec;
  apsp::ShapeRequest request;
  request.shape = shape;
  const apsp::Plan plan = apsp::make_plan<T>(exec, v, negative, request);
  const std::int64_t n = plan.padded;
  apsp::DistanceMatrix<ExecSpace, T> dist("dist", n, n);
  auto host = Kokkos::create_mirror_view(dist);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      host(i, j) = i == j ? T(0) : apsp::Distance<T>::infinity;
  for (const RealEdge& e : edges)
    host(e.src, e.dst) = std::min(host(e.src, e.dst), T(e.weight));
  Kokkos::deep_copy(dist, host);
  apsp::floyd_warshall(exec, dist, plan);
  *cycle = negative ? apsp::negative_cycle_vertex(exec, dist, 0, v) : -1;
  Kokkos::deep_copy(host, dist);
  *padded = n;
  return std::vector<T>(host.data(), host.data() + n * n);
}

std::vector<RealEdge> random_edges(int v, double density, unsigned seed, bool integer,
                                   bool negative) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1), real(0, 1000);
  std::vector<int> potential(static_cast<std::size_t>(v));
  for (int& p : potential)
    p = negative ? int(rng() % 501) : 0;
  std::vector<RealEdge> edges;
  for (int i = 0; i < v; ++i)
    for (int j = 0; j < v; ++j)
      if (coin(rng) < density) {
        // With negative weights, w + p(i) - p(j): every cycle keeps its weight (>= 0).
        const double w = integer ? double(rng() % 1001) : real(rng);
        edges.push_back({i, j, w + potential[std::size_t(i)] - potential[std::size_t(j)]});
      }
  return edges;
}

template <class ExecSpace>
class RealDistances : public ::testing::Test {};
TYPED_TEST_SUITE(RealDistances, apsp_test::Backends, apsp_test::BackendName);

template <class ExecSpace, class T>
void check_random_graphs() {
  const std::string type = apsp::distance_type_name(apsp::Distance<T>::type);
  const auto shapes = apsp::available_shapes(ExecSpace(), apsp::Distance<T>::type);
  ASSERT_FALSE(shapes.empty()) << type;
  for (const auto& shape : shapes)
    for (const int v : {1, 31, 65, 130})
      for (const bool integer : {true, false})
        for (const bool negative : {false, true}) {
          const auto edges =
              random_edges(v, 0.08, unsigned(v * 13 + shape.index), integer, negative);
          std::int64_t n = 0, cycle = 0;
          const auto d = solve<ExecSpace, T>(v, edges, shape.index, negative, &n, &cycle);
          const auto expected = reference(v, edges);
          const std::string where = type + ", V = " + std::to_string(v) +
                                    (integer ? ", integer" : ", real") +
                                    (negative ? " negative" : "") + " weights, " + shape.name;
          EXPECT_EQ(cycle, -1) << where;
          // Integer distances (below 2^24) are exact in float and double. A real distance sums
          // at most V - 1 weights of magnitude <= 1500: each of its V - 1 roundings errs by at
          // most eps times a partial sum, so by at most V * (V * 1500) * eps in all.
          const double tolerance = double(std::numeric_limits<T>::epsilon()) * v * v * 1500.0;
          int wrong = 0;
          for (int i = 0; i < v; ++i)
            for (int j = 0; j < v; ++j) {
              const long double want = expected[std::size_t(i) * v + j];
              const T got = d[std::size_t(i) * n + j];
              const bool ok = std::isinf(want)
                                  ? got == apsp::Distance<T>::infinity
                                  : (integer ? got == T(want)
                                             : std::fabs(double(got) - double(want)) <= tolerance);
              if (!ok && wrong++ < 3)
                ADD_FAILURE() << where << ": d(" << i << ", " << j << ") = " << got << ", expected "
                              << double(want);
            }
          // The padding stays isolated: 0 on the diagonal, infinity elsewhere.
          for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j)
              if (i >= v || j >= v)
                ASSERT_EQ(d[std::size_t(i * n + j)], i == j ? T(0) : apsp::Distance<T>::infinity)
                    << where;
        }
}

TYPED_TEST(RealDistances, Float64MatchesTheReferenceOnEveryShape) {
  check_random_graphs<TypeParam, double>();
}
TYPED_TEST(RealDistances, Float32MatchesTheReferenceOnEveryShape) {
  check_random_graphs<TypeParam, float>();
}

// Integer weights: float and double give the int32 solver's distances exactly (integers below
// 2^24), on the same graphs.
TYPED_TEST(RealDistances, IntegerWeightsGiveTheInt32DistancesExactly) {
  for (const int v : {64, 100}) {
    const apsp::Graph g = apsp_test::random_graph(v, 0.1, unsigned(v));
    std::vector<RealEdge> edges;
    for (const apsp::Edge& e : g.edges)
      edges.push_back({e.src, e.dst, double(e.weight)});
    const std::vector<int> exact = apsp_test::reference_floyd_warshall(g);
    std::int64_t n = 0, cycle = 0;
    const auto f = solve<TypeParam, float>(v, edges, -1, false, &n, &cycle);
    const std::int64_t nf = n;
    const auto d = solve<TypeParam, double>(v, edges, -1, false, &n, &cycle);
    for (int i = 0; i < v; ++i)
      for (int j = 0; j < v; ++j) {
        const int want = exact[std::size_t(i) * v + j];
        const double as_real = want == apsp::Distance<int>::infinity ? HUGE_VAL : double(want);
        ASSERT_EQ(double(f[std::size_t(i * nf + j)]), as_real) << "float32 " << i << " " << j;
        ASSERT_EQ(d[std::size_t(i * n + j)], as_real) << "float64 " << i << " " << j;
      }
  }
}

// A negative cycle: its smallest vertex is reported, values stay finite or +inf (never NaN or
// -inf: the floor holds them). The other edges go forward only, so no vertex below the cycle's
// smallest joins its strongly connected component.
TYPED_TEST(RealDistances, NegativeCyclesAreReportedAndValuesStayInRange) {
  for (const double weight : {-0.5, -1e6}) {
    const int v = 70;
    std::vector<RealEdge> edges;
    for (const RealEdge& e : random_edges(v, 0.05, 7, false, false))
      if (e.src < e.dst) edges.push_back(e);
    const int cycle_vertices[] = {9, 40, 66, 12};
    for (int c = 0; c < 4; ++c)
      edges.push_back({cycle_vertices[c], cycle_vertices[(c + 1) % 4], weight});
    std::int64_t n = 0, cycle = 0;
    const auto d = solve<TypeParam, double>(v, edges, -1, true, &n, &cycle);
    EXPECT_EQ(cycle, 9) << weight;
    for (const double x : d) {
      ASSERT_FALSE(std::isnan(x)) << weight;
      ASSERT_GE(x, apsp::Distance<double>::floor) << weight;
    }
  }
}

// Predecessor rows of float64 distances with real (and negative) weights: with the slack of
// Tightness, every row is a tree whose paths are within rounding of the distances, and every
// reachable vertex has a predecessor.
TYPED_TEST(RealDistances, PredecessorRowsOfRealWeightsAreShortestPathTrees) {
  using Exec = TypeParam;
  for (const bool negative : {false, true}) {
    const int v = 90;
    const auto edges = random_edges(v, 0.06, 11, false, negative);
    Exec exec;
    const apsp::Plan plan = apsp::make_plan<double>(exec, v, negative);
    const std::int64_t n = plan.padded;
    apsp::DistanceMatrix<Exec, double> dist("dist", n, n);
    Kokkos::View<RealEdge*, typename Exec::memory_space> device_edges("edges", edges.size());
    Kokkos::deep_copy(
        device_edges,
        Kokkos::View<const RealEdge*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            edges.data(), edges.size()));
    apsp::fill_distance_matrix(exec, dist, device_edges);
    apsp::floyd_warshall(exec, dist, plan);
    const apsp::Tightness<double> rule{4.0 * v * std::numeric_limits<double>::epsilon()};
    apsp::PredecessorRows<Exec, double> rows(
        exec, dist, 0, v, apsp::select_path_edges(exec, dist, v, device_edges, rule), v, rule);
    const auto pred = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.compute(0, v));
    const auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
    std::vector<double> weight(std::size_t(v) * v, HUGE_VAL);
    for (const RealEdge& e : edges)
      weight[std::size_t(e.src) * v + e.dst] =
          std::min(weight[std::size_t(e.src) * v + e.dst], e.weight);
    for (int i = 0; i < v; ++i)
      for (int j = 0; j < v; ++j) {
        if (i == j || d(i, j) == HUGE_VAL) {
          ASSERT_EQ(pred(i, j), apsp::no_vertex) << i << " " << j;
          continue;
        }
        double length = 0;
        int at = j, steps = 0;
        while (at != i) {
          const int u = pred(i, at);
          ASSERT_GE(u, 0) << "row " << i << ": no predecessor of " << at;
          length += weight[std::size_t(u) * v + at];
          at = u;
          ASSERT_LT(++steps, v) << "row " << i << " loops";
        }
        ASSERT_NEAR(length, d(i, j), 1e-9 * (1 + std::fabs(d(i, j)))) << i << " -> " << j;
      }
  }
}

// The distances and the predecessor rows [0, rows) of a graph in T, with tightness_for's rule
// (real weights); false where there is a negative cycle.
template <class ExecSpace, class T>
bool solve_with_predecessors(int v, const std::vector<RealEdge>& edges, int rows,
                             std::vector<T>& dist, std::vector<int>& pred) {
  ExecSpace exec;
  bool negative = false;
  double largest = 0;
  for (const RealEdge& e : edges) {
    negative = negative || e.weight < 0;
    largest = std::max(largest, std::fabs(e.weight));
  }
  const apsp::Plan plan = apsp::make_plan<T>(exec, v, negative);
  const std::int64_t n = plan.padded;
  apsp::DistanceMatrix<ExecSpace, T> d("dist", n, n);
  Kokkos::View<RealEdge*, typename ExecSpace::memory_space> device_edges("edges", edges.size());
  Kokkos::deep_copy(
      device_edges,
      Kokkos::View<const RealEdge*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
          edges.data(), edges.size()));
  apsp::fill_distance_matrix(exec, d, device_edges);
  apsp::floyd_warshall(exec, d, plan);
  if (negative && apsp::negative_cycle_vertex(exec, d, 0, v) >= 0) return false;
  const apsp::Tightness<T> rule = apsp::tightness_for<T>(v, false, largest);
  apsp::PredecessorRows<ExecSpace, T> predecessors(
      exec, d, 0, v, apsp::select_path_edges(exec, d, v, device_edges, rule), rows, rule);
  const auto p =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), predecessors.compute(0, rows));
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  dist.assign(std::size_t(rows) * v, T(0));
  pred.assign(std::size_t(rows) * v, 0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < v; ++j) {
      dist[std::size_t(i) * v + j] = h(i, j);
      pred[std::size_t(i) * v + j] = p(i, j);
    }
  return true;
}

// Every reported path of m edges is within the rounding of a sum of its own edges:
// |length - d| <= (m - 1) u sum |w|, u the unit roundoff of T, the weights as T holds them
// summed in long double; every reachable vertex has one. Returns the pairs that break it.
template <class T>
int paths_beyond_rounding(int v, const std::vector<RealEdge>& edges, int rows,
                          const std::vector<T>& dist, const std::vector<int>& pred) {
  std::vector<double> weight(std::size_t(v) * v, HUGE_VAL);
  for (const RealEdge& e : edges)
    weight[std::size_t(e.src) * v + e.dst] =
        std::min(weight[std::size_t(e.src) * v + e.dst], double(T(e.weight)));
  const long double unit = std::numeric_limits<T>::epsilon() / 2;
  int beyond = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < v; ++j) {
      const T d = dist[std::size_t(i) * v + j];
      const int* p = &pred[std::size_t(i) * v];
      if (i == j || d == apsp::Distance<T>::infinity) {
        EXPECT_EQ(p[j], apsp::no_vertex) << i << " -> " << j;
        continue;
      }
      long double length = 0, total = 0;
      int at = j, m = 0;
      while (at != i) {
        const int u = p[at];
        if (u < 0 || ++m >= v) {
          ADD_FAILURE() << "row " << i << ": no path to " << j;
          return beyond + 1;
        }
        length += weight[std::size_t(u) * v + at];
        total += std::fabs(weight[std::size_t(u) * v + at]);
        at = u;
      }
      if (std::fabs(length - d) > (m - 1) * unit * total && beyond++ < 3)
        ADD_FAILURE() << "path " << i << " -> " << j << " of " << m << " edges has length "
                      << double(length) << ", d = " << double(d);
    }
  return beyond;
}

// Issue 26: the fewest-edges rule must not pick a longer path that a slack relative to the
// distances lets pass (float32: the 1.0005 edge for a distance of 1; float64: 1e15 and
// -999999999999990, length 10, for a distance of 0.5), nor paths up to 0.33% too long on
// random graphs.
TYPED_TEST(RealDistances, PredecessorPathsAreWithinTheRoundingOfTheirOwnSums) {
  std::vector<float> f;
  std::vector<double> d;
  std::vector<int> pred;
  ASSERT_TRUE((solve_with_predecessors<TypeParam, float>(
      1000, {{0, 2, 1.0005}, {0, 1, 0.5}, {1, 2, 0.5}}, 1, f, pred)));
  EXPECT_EQ(pred[2], 1);
  const std::vector<RealEdge> cancelling = {
      {0, 1, 1e15}, {1, 2, -999999999999990}, {0, 3, 0.25}, {3, 4, 0.25}, {4, 2, 0}};
  ASSERT_TRUE((solve_with_predecessors<TypeParam, double>(5, cancelling, 5, d, pred)));
  EXPECT_EQ(d[2], 0.5);
  EXPECT_EQ(pred[2], 4);
  EXPECT_EQ(paths_beyond_rounding(5, cancelling, 5, d, pred), 0);
  for (const bool negative : {false, true}) {
    const int v = 300;
    const auto edges = random_edges(v, 0.05, 26, false, negative);
    ASSERT_TRUE((solve_with_predecessors<TypeParam, float>(v, edges, v, f, pred)));
    EXPECT_EQ(paths_beyond_rounding(v, edges, v, f, pred), 0) << "float32" << negative;
    ASSERT_TRUE((solve_with_predecessors<TypeParam, double>(v, edges, v, d, pred)));
    EXPECT_EQ(paths_beyond_rounding(v, edges, v, d, pred), 0) << "float64" << negative;
  }
}

// Paths up to nearly the type's largest value, without negative weights: the types take them
// (the V - 1 heaviest weights sum below path_limit) and every shape gives them exactly, though
// the walks round a cycle sum beyond the largest value (+inf, which lowers nothing). Two in a
// row beyond it are refused.
template <class ExecSpace, class T>
void check_heavy_paths() {
  const std::string type = apsp::distance_type_name(apsp::Distance<T>::type);
  const double heavy = double(T(0.45 * double(std::numeric_limits<T>::max())));
  const double heavier = double(T(0.75 * double(std::numeric_limits<T>::max())));
  const std::vector<std::pair<int, std::vector<RealEdge>>> graphs = {
      {2, {{0, 1, heavier}, {1, 0, heavy}}},
      {3, {{0, 1, heavy}, {1, 2, heavy}, {2, 0, heavy}}},
  };
  for (const auto& [v, edges] : graphs) {
    apsp::Graph g;
    g.vertices = v;
    for (const RealEdge& e : edges)
      g.edges.push_back({e.src, e.dst, e.weight});
    ASSERT_EQ(apsp::choose_distance_type(apsp::Distance<T>::type, v, apsp::weight_range(g)),
              apsp::Distance<T>::type)
        << type << ", V = " << v;
    const auto expected = reference(v, edges);
    for (const auto& shape : apsp::available_shapes(ExecSpace(), apsp::Distance<T>::type)) {
      std::int64_t n = 0, cycle = 0;
      const auto d = solve<ExecSpace, T>(v, edges, shape.index, false, &n, &cycle);
      for (int i = 0; i < v; ++i)
        for (int j = 0; j < v; ++j)
          ASSERT_EQ(double(d[std::size_t(i * n + j)]), double(expected[std::size_t(i * v + j)]))
              << type << ", V = " << v << ", d(" << i << ", " << j << "), " << shape.name;
    }
  }
  const apsp::Graph too_long{3, {{0, 1, heavier}, {1, 2, heavier}}};
  EXPECT_THROW(apsp::choose_distance_type(apsp::Distance<T>::type, 3, apsp::weight_range(too_long)),
               apsp::DistanceTypeError)
      << type;
}

TYPED_TEST(RealDistances, PathsUpToTheLargestValueAreExact) {
  check_heavy_paths<TypeParam, double>();
  check_heavy_paths<TypeParam, float>();
}

TYPED_TEST(RealDistances, APlanForAnotherTypeIsRefused) {
  TypeParam exec;
  const apsp::Plan plan = apsp::make_plan<int>(exec, 10);
  apsp::DistanceMatrix<TypeParam, double> dist("dist", plan.padded, plan.padded);
  EXPECT_THROW(apsp::floyd_warshall(exec, dist, plan), apsp::Error);
}

// make_plan takes the distance type in the call and has no default one: a plan made without it
// would be an int32 plan that a float64 matrix refuses at run time.
template <class ExecSpace, class = void>
struct UntypedPlan : std::false_type {};
template <class ExecSpace>
struct UntypedPlan<ExecSpace, decltype(void(apsp::make_plan(ExecSpace(), std::int64_t(10))))>
    : std::true_type {};
static_assert(!UntypedPlan<Kokkos::DefaultHostExecutionSpace>::value,
              "make_plan without a distance type");

TYPED_TEST(RealDistances, APlanMadeForDoubleSolvesADoubleMatrix) {
  TypeParam exec;
  const std::vector<RealEdge> edges = {{0, 1, 0.5}, {1, 2, 0.25}, {0, 2, 1.0}};
  const apsp::Plan plan = apsp::make_plan<double>(exec, 3);
  EXPECT_EQ(plan.distance, apsp::DistanceType::float64);
  apsp::DistanceMatrix<TypeParam, double> dist("dist", plan.padded, plan.padded);
  Kokkos::View<RealEdge*, typename TypeParam::memory_space> device_edges("edges", edges.size());
  Kokkos::deep_copy(
      device_edges,
      Kokkos::View<const RealEdge*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
          edges.data(), edges.size()));
  apsp::fill_distance_matrix(exec, dist, device_edges);
  apsp::floyd_warshall(exec, dist, plan);
  const auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
  EXPECT_EQ(d(0, 2), 0.75);
  EXPECT_EQ(d(2, 0), apsp::Distance<double>::infinity);
}

}  // namespace
