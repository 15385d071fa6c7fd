// The vertex named for a negative cycle: one rule for every algorithm, backend and type, the
// smallest vertex with a negative closed walk through it (tests/reference.hpp). Floyd-Warshall's
// own d(v, v) < 0 marks only some of those vertices, which ones depending on its order. Checked:
// the rule's search from any vertex of a negative cycle (apsp::smallest_on_negative_closed_walk)
// against the reference on random graphs; then the dense Solver, the SupernodalSolver under two
// orders, the float32 verdict and the batched solver on graphs where a solver's own find differs
// from it (a cycle far from vertex 0 in one strongly connected component, a one-way chain,
// components of which only some hold a negative cycle) and on random graphs with cycles.
#include "backends.hpp"
#include "reference.hpp"

#include <apsp/batched.hpp>
#include <apsp/negative_cycles.hpp>
#include <apsp/ranks.hpp>
#include <apsp/solver.hpp>
#include <apsp/supernodal.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

// From every vertex of every component that holds a negative cycle (by the reference on the
// component's own arcs), the search names the reference's vertex for the whole graph.
TEST(NegativeClosedWalk, FromAnyVertexOnOneTheSmallest) {
  int with_cycles = 0, answers_elsewhere = 0;
  for (unsigned seed = 0; seed < 600; ++seed) {
    const int v = 1 + int(seed % 37);
    const apsp::Graph g = apsp_test::random_graph(v, 1.5 / v + (seed % 3) * 0.02, seed, 100, -40);
    const std::int64_t want = apsp_test::reference_negative_cycle_vertex(g);
    EXPECT_EQ(apsp::smallest_on_negative_closed_walk(g.vertices, g.edges, -1), -1);
    if (want < 0) continue;
    ++with_cycles;
    const std::vector<std::int32_t> component = apsp::strong_components(g.vertices, g.edges);
    std::vector<int> negative(std::size_t(v), -1);  // per component: holds a negative cycle?
    for (int u = 0; u < v; ++u) {
      const std::int32_t c = component[std::size_t(u)];
      if (negative[std::size_t(c)] < 0) {
        apsp::Graph inside;
        inside.vertices = v;
        for (const apsp::Edge& e : g.edges)
          if (component[std::size_t(e.src)] == c && component[std::size_t(e.dst)] == c)
            inside.edges.push_back(e);
        negative[std::size_t(c)] = apsp_test::reference_negative_cycle_vertex(inside) >= 0;
      }
      if (!negative[std::size_t(c)]) continue;
      const std::int64_t got = apsp::smallest_on_negative_closed_walk(g.vertices, g.edges, u);
      EXPECT_EQ(got, want) << "seed " << seed << ", V = " << v << ", from vertex " << u;
      answers_elsewhere += c != component[std::size_t(want)];
    }
  }
  EXPECT_GT(with_cycles, 100);
  EXPECT_GT(answers_elsewhere, 20);  // the search beyond the first component ran
}

TEST(NegativeClosedWalk, StrongComponentsOfALongPathAndACycle) {
  apsp::Graph g;
  g.vertices = 200000;  // deep enough to overflow a recursive search's stack
  for (int i = 0; i + 1 < g.vertices; ++i)
    g.edges.push_back({i, i + 1, 1});
  g.edges.push_back({g.vertices - 1, 100000, -1000000});
  const std::vector<std::int32_t> component = apsp::strong_components(g.vertices, g.edges);
  EXPECT_NE(component[99999], component[100000]);
  EXPECT_EQ(component[100000], component[std::size_t(g.vertices - 1)]);
  EXPECT_EQ(apsp::smallest_on_negative_closed_walk(g.vertices, g.edges, g.vertices - 1), 100000);
}

// A side x side grid of two-way arcs of weight w.
apsp::Graph grid(int side, int w) {
  apsp::Graph g;
  g.vertices = side * side;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const int v = r * side + c;
      if (c + 1 < side) g.edges.push_back({v, v + 1, w}), g.edges.push_back({v + 1, v, w});
      if (r + 1 < side) g.edges.push_back({v, v + side, w}), g.edges.push_back({v + side, v, w});
    }
  return g;
}

// The graphs, each with the vertex the rule names.
std::vector<std::pair<std::string, apsp::Graph>> cycle_graphs() {
  std::vector<std::pair<std::string, apsp::Graph>> out;
  apsp::Graph arc = grid(12, 10);  // one component: every vertex has a negative closed walk
  arc.edges.push_back({6 * 12 + 6, 6 * 12 + 7, -15});
  out.emplace_back("12 x 12 grid of weight 10, one arc of -15", arc);
  apsp::Graph chain;  // one-way: 0..2 reach the cycle 3 <-> 4 and never come back
  chain.vertices = 10;
  for (int v = 0; v + 1 < 10; ++v)
    chain.edges.push_back({v, v + 1, 1});
  chain.edges.push_back({4, 3, -2});
  out.emplace_back("one-way chain, cycle 3 <-> 4", chain);
  apsp::Graph parts;  // {0, 1}: a negative arc, no negative cycle; {2, 3} and {5, 6}: cycles
  parts.vertices = 8;
  parts.edges = {{0, 1, -5}, {1, 0, 6},  {1, 2, 1}, {2, 3, -4}, {3, 2, 3},
                 {3, 5, 1},  {5, 6, -1}, {6, 5, 0}, {6, 7, 1}};
  out.emplace_back("components, the second and third with cycles", parts);
  apsp::Graph loop = grid(5, 30);  // one loop of -1 does not pay a way to vertex 0 and back
  loop.edges.push_back({24, 24, -1});
  out.emplace_back("5 x 5 grid, a negative self-loop at 24", loop);
  for (unsigned seed = 0; out.size() < 14; ++seed) {
    const int v = 20 + int(seed % 50);
    apsp::Graph g = apsp_test::random_graph(v, 2.0 / v, 1000 + seed, 100, -12);
    if (apsp_test::reference_negative_cycle_vertex(g) >= 0)
      out.emplace_back("random V = " + std::to_string(v) + ", seed " + std::to_string(seed), g);
  }
  return out;
}

template <class C>
class NegativeCycleVertex : public ::testing::Test {};
TYPED_TEST_SUITE(NegativeCycleVertex, apsp_test::BackendsAndTypes, apsp_test::CaseName);

TYPED_TEST(NegativeCycleVertex, EveryAlgorithmNamesTheSmallestOnANegativeClosedWalk) {
  using ExecSpace = typename TypeParam::exec;
  using T = typename TypeParam::value;
  ExecSpace exec;
  for (const auto& item : cycle_graphs()) {
    const std::string& what = item.first;
    const apsp::Graph& graph = item.second;
    const std::int64_t want = apsp_test::reference_negative_cycle_vertex(graph);
    ASSERT_GE(want, 0) << what;
    const std::int64_t v = graph.vertices, e = std::int64_t(graph.edges.size());
    // Dense Floyd-Warshall, the one solver.
    const apsp::Plan plan = apsp::make_plan<T>(exec, v, true);
    apsp::OneRank one;
    apsp::Solver<ExecSpace, T> dense(exec, one, plan);
    dense.check_memory({std::uint64_t(1) << 30, 0, "the test's device"}, e);
    dense.load(graph.edges);
    std::int64_t named = -1;
    try {
      dense.compute();
    } catch (const apsp::NegativeCycleError& error) {
      named = error.vertex();
    }
    EXPECT_EQ(named, want) << what << ": fw";
    // Supernodal, under the identity and a reversed order (the factor's negative diagonal
    // then falls on other vertices), and the verdict the drivers apply to its find.
    std::vector<std::int32_t> reversed(static_cast<std::size_t>(v));
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    for (const auto& order : {std::vector<std::int32_t>{}, reversed}) {
      const apsp::SupernodalPlan sn = apsp::supernodal_symbolic(v, graph.edges, order);
      apsp::SupernodalSolver<ExecSpace, T> solver(exec, one, sn, false, apsp::weight_range(graph));
      solver.load(graph.edges);
      std::int64_t found = -1;
      try {
        solver.compute();
      } catch (const apsp::NegativeCycleError& error) {
        found = error.vertex();
      }
      EXPECT_EQ(found, want) << what << ": supernodal" << (order.empty() ? "" : ", reversed order");
      const auto factor = apsp::supernodal_factor<T>(exec, sn, graph.edges, true);
      EXPECT_EQ(apsp::negative_cycle_verdict<T>(graph, apsp::weight_range(graph),
                                                factor.negative_cycle_vertex())
                    .vertex,
                want)
          << what << ": the verdict on the factor's find";
    }
    // The batched solver (one graph of the batch).
    apsp::batched::DenseBatch<ExecSpace, T> batch("batch", 1, v, v);
    auto host = Kokkos::create_mirror_view(batch);
    for (std::int64_t i = 0; i < v; ++i)
      for (std::int64_t j = 0; j < v; ++j)
        host(0, i, j) = i == j ? T(0) : apsp::Distance<T>::infinity;
    for (const apsp::Edge& edge : graph.edges)
      host(0, edge.src, edge.dst) = std::min(host(0, edge.src, edge.dst), T(edge.weight));
    Kokkos::deep_copy(batch, host);
    const auto cycles = apsp::batched::floyd_warshall(exec, batch, true);
    EXPECT_EQ(apsp::batched::first_negative_cycle(exec, cycles).vertex, want)
        << what << ": batched";
  }
}

}  // namespace
