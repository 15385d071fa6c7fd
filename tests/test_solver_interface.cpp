// The one solver interface (apsp/solver_interface.hpp): the library's solvers have its shape; a
// fifth solver written here, in one file, has it too and runs through a driver written against
// the interface alone; a type that lacks a member, or promises one in capabilities() that it
// does not have, is not a solver (the trait's value, not a compile error).
#include "platform/config.hpp"
#include "reference.hpp"

#include <apsp/batched.hpp>
#include <apsp/graph.hpp>
#include <apsp/memory.hpp>
#include <apsp/ranks.hpp>
#include <apsp/row_sink.hpp>
#include <apsp/shapes.hpp>
#include <apsp/solver.hpp>
#include <apsp/solver_interface.hpp>
#include <apsp/supernodal.hpp>
#if defined(APSP_HAVE_KOKKOS_KERNELS)
#include <apsp/sssp.hpp>
#endif

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

// A fifth solver: every row by Bellman-Ford on the host (one row per source, V - 1 rounds over
// the edges; non-negative weights), each rank its block of rows, no predecessors. Its rows of a
// list are one search each, so it says rows_of_list and has distance_rows_of.
class BellmanFordSolver {
 public:
  using execution_space = Host;
  using value_type = int;

  static constexpr apsp::Capabilities capabilities() {
    apsp::Capabilities can;
    can.rows_of_list = true;
    return can;
  }

  BellmanFordSolver(const Host& exec, apsp::Ranks& ranks, std::int64_t vertices)
      : exec_(exec), ranks_(ranks), vertices_(vertices) {
    const apsp::RowBlocks blocks{int(vertices), ranks.size()};
    first_row_ = blocks.first(ranks.rank());
    real_rows_ = blocks.count(ranks.rank());
    APSP_CHECK_SOLVER(BellmanFordSolver);
  }

  std::int64_t first_row() const { return first_row_; }
  std::int64_t real_rows() const { return real_rows_; }

  // One row and the edges, in host memory.
  void check_memory(const apsp::MemoryLimits& limits, std::int64_t edges) {
    apsp::MemoryLimits host = limits;
    host.host = true;
    apsp::check_memory(exec_, ranks_, vertices_,
                       apsp::saturating_sum({std::uint64_t(vertices_) * sizeof(int),
                                             std::uint64_t(edges) * sizeof(apsp::Edge)}),
                       "one row and the edges", host);
  }
  void load(const std::vector<apsp::Edge>& edges) { edges_ = edges; }
  void compute() {}

  apsp::RowSeconds distance_rows(const apsp::RowSink<int>& sink, const apsp::BlockDone& done = {}) {
    for (std::int64_t s = first_row_; s < first_row_ + real_rows_; ++s) {
      const std::vector<int> row = search(s);
      sink(s, 1, row.data(), vertices_);
      if (done) done(s, 1);
    }
    apsp::RowSeconds seconds;
    seconds.made = real_rows_;
    return seconds;
  }
  apsp::RowSeconds distance_rows_of(const std::vector<std::int32_t>& vertices,
                                    const apsp::RowSink<int>& sink) {
    for (std::size_t i = 0; i < vertices.size(); ++i) {
      const std::vector<int> row = search(vertices[i]);
      sink(std::int64_t(i), 1, row.data(), vertices_);
    }
    apsp::RowSeconds seconds;
    seconds.made = std::int64_t(vertices.size());
    return seconds;
  }
  apsp::RowSeconds reduce_rows(const apsp::DeviceRowSink<Host, int>& sink,
                               const apsp::BlockDone& done = {}) {
    using Rows = Kokkos::View<int**, Kokkos::LayoutRight, Host::memory_space>;
    return distance_rows(
        [&](std::int64_t first, std::int64_t count, const int* rows, std::int64_t) {
          sink(first, count, Rows(const_cast<int*>(rows), count, vertices_));
        },
        done);
  }

 private:
  std::vector<int> search(std::int64_t source) const {
    std::vector<int> d(std::size_t(vertices_), apsp::Distance<int>::infinity);
    d[std::size_t(source)] = 0;
    for (std::int64_t round = 1; round < vertices_; ++round)
      for (const apsp::Edge& e : edges_)
        if (d[std::size_t(e.src)] != apsp::Distance<int>::infinity)
          d[std::size_t(e.dst)] =
              std::min(d[std::size_t(e.dst)], d[std::size_t(e.src)] + int(e.weight));
    return d;
  }

  Host exec_;
  apsp::Ranks& ranks_;
  std::int64_t vertices_, first_row_ = 0, real_rows_ = 0;
  std::vector<apsp::Edge> edges_;
};

// A driver written against the interface alone: every row of the graph.
template <class S>
std::vector<typename S::value_type> every_row(S& solver, const apsp::Graph& graph) {
  APSP_CHECK_SOLVER(S);
  const std::int64_t v = graph.vertices;
  solver.check_memory({std::uint64_t(1) << 30, 0, "the test's device"},
                      std::int64_t(graph.edges.size()));
  solver.load(graph.edges);
  solver.compute();
  std::vector<typename S::value_type> d(std::size_t(v * v));
  solver.distance_rows([&](std::int64_t first, std::int64_t count,
                           const typename S::value_type* rows, std::int64_t stride) {
    for (std::int64_t i = 0; i < count; ++i)
      std::copy(rows + i * stride, rows + i * stride + v, d.begin() + (first + i) * v);
  });
  return d;
}

TEST(SolverInterface, LibrarySolversAreSolvers) {
  static_assert(apsp::is_solver_v<apsp::Solver<Host, int>>);
  static_assert(apsp::is_solver_v<apsp::Solver<Host, double>>);
  static_assert(apsp::is_solver_v<apsp::SupernodalSolver<Host, int>>);
  static_assert(apsp::Solver<Host, int>::capabilities().predecessors);
  static_assert(!apsp::Solver<Host, int>::capabilities().rows_of_list);
  static_assert(apsp::SupernodalSolver<Host, int>::capabilities().table_columns);
  static_assert(apsp::SupernodalSolver<Host, int>::capabilities().columns_by_supernode);
  static_assert(!apsp::SupernodalSolver<Host, double>::capabilities().columns_by_supernode);
#if defined(APSP_HAVE_KOKKOS_KERNELS)
  static_assert(apsp::is_solver_v<apsp::SsspSolver<Host>>);
  static_assert(!apsp::SsspSolver<Host>::capabilities().predecessors);
  static_assert(!apsp::SsspSolver<Host>::capabilities().negative_weights);
#endif
  static_assert(apsp::is_solver_v<BellmanFordSolver>);
}

TEST(SolverInterface, FifthSolverRunsThroughTheInterface) {
  const apsp::Graph graph = apsp_test::random_graph(37, 0.1, 45, 20);
  const std::vector<int> want = apsp_test::reference_floyd_warshall(graph);
  apsp::OneRank one;
  BellmanFordSolver fifth(Host(), one, graph.vertices);
  EXPECT_EQ(every_row(fifth, graph), want);
  apsp::Solver<Host, int> dense(Host(), one, apsp::make_plan<int>(Host(), graph.vertices));
  EXPECT_EQ(every_row(dense, graph), want);
}

// Parts of a solver, to put together types that lack one.
struct Types {
  using execution_space = Host;
  using value_type = int;
};
struct Abilities {
  static constexpr apsp::Capabilities capabilities() { return {}; }
};
struct AbilitiesNotConstant {
  static apsp::Capabilities capabilities();
};
struct Memory {
  void check_memory(const apsp::MemoryLimits&, std::int64_t);
};
struct MemoryOfLocalEdges {
  void check_memory(const apsp::MemoryLimits&, std::int64_t, const std::vector<apsp::Edge>&);
};
struct LoadCompute {
  void load(const std::vector<apsp::Edge>&);
  void compute();
};
struct Rows {
  std::int64_t first_row() const;
  std::int64_t real_rows() const;
  apsp::RowSeconds distance_rows(const apsp::RowSink<int>&, const apsp::BlockDone& = {});
};
struct Reduce {
  apsp::RowSeconds reduce_rows(const apsp::DeviceRowSink<Host, int>&, const apsp::BlockDone& = {});
};
struct PromisesPaths {
  static constexpr apsp::Capabilities capabilities() {
    apsp::Capabilities can;
    can.predecessors = true;
    return can;
  }
};
struct PromisesTables {
  static constexpr apsp::Capabilities capabilities() {
    apsp::Capabilities can;
    can.rows_of_list = can.table_columns = true;
    return can;
  }
  apsp::RowSeconds distance_rows_of(const std::vector<std::int32_t>&, const apsp::RowSink<int>&);
};

struct Least : Types, Abilities, Memory, LoadCompute, Rows, Reduce {};
struct NoTypes : Abilities, Memory, LoadCompute, Rows, Reduce {};
struct NoCapabilities : Types, Memory, LoadCompute, Rows, Reduce {};
struct CapabilitiesNotConstant : Types, AbilitiesNotConstant, Memory, LoadCompute, Rows, Reduce {};
struct OtherMemoryCheck : Types, Abilities, MemoryOfLocalEdges, LoadCompute, Rows, Reduce {};
struct NoLoad : Types, Abilities, Memory, Rows, Reduce {};
struct NoReduce : Types, Abilities, Memory, LoadCompute, Rows {};
struct PathsWithoutSearch : Types, PromisesPaths, Memory, LoadCompute, Rows, Reduce {};
struct TablesWithoutColumns : Types, PromisesTables, Memory, LoadCompute, Rows, Reduce {};

TEST(SolverInterface, TypesLackingAMemberAreNotSolvers) {
  static_assert(apsp::is_solver_v<Least>);
  static_assert(!apsp::is_solver_v<NoTypes>);
  static_assert(!apsp::is_solver_v<NoCapabilities>);
  static_assert(!apsp::is_solver_v<CapabilitiesNotConstant>);
  static_assert(!apsp::is_solver_v<OtherMemoryCheck>);
  static_assert(!apsp::is_solver_v<NoLoad>);
  static_assert(!apsp::is_solver_v<NoReduce>);
  static_assert(!apsp::is_solver_v<PathsWithoutSearch>);
  static_assert(!apsp::is_solver_v<TablesWithoutColumns>);
  static_assert(!apsp::is_solver_v<apsp::BatchedSolver<Host, int>>);
}

}  // namespace
