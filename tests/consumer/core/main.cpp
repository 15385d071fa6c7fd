// What a user's program does with the installed algorithm layer: a graph in memory,
// apsp::floyd_warshall on the default execution space with a plan for the matrix's distance type
// (int32 and float64), the distances compared with a plain triple loop (independent of the
// library). Exit code 0 only when every distance agrees.
#include <apsp/floyd_warshall.hpp>
#include <apsp/version.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

// 150 vertices (not a multiple of any tile), a sparse random graph with unreachable pairs; the
// weights are multiples of `unit` (a power of two), so every sum is exact in T.
template <class T>
int check(double unit) {
  using Exec = Kokkos::DefaultExecutionSpace;
  apsp::Graph graph;
  graph.vertices = 150;
  std::mt19937 rng(11);
  for (int i = 0; i < graph.vertices; ++i)
    for (int j = 0; j < graph.vertices; ++j)
      if (i != j && rng() % 40 == 0) graph.edges.push_back({i, j, double(rng() % 1001) * unit});

  Exec exec;
  const apsp::Plan plan = apsp::make_plan<T>(exec, graph.vertices);
  apsp::DistanceMatrix<Exec, T> dist("dist", plan.padded, plan.padded);
  apsp::fill_distance_matrix(exec, dist, graph.edges);
  apsp::floyd_warshall(exec, dist, plan);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);

  const int v = graph.vertices;
  const double inf = double(apsp::Distance<T>::infinity);
  std::vector<double> d(std::size_t(v) * v, inf);
  for (int i = 0; i < v; ++i)
    d[std::size_t(i) * v + i] = 0;
  for (const apsp::Edge& e : graph.edges) {
    double& x = d[std::size_t(e.src) * v + e.dst];
    if (e.weight < x) x = e.weight;
  }
  for (int k = 0; k < v; ++k)
    for (int i = 0; i < v; ++i)
      for (int j = 0; j < v; ++j) {
        const double through = d[std::size_t(i) * v + k] + d[std::size_t(k) * v + j];
        if (through < d[std::size_t(i) * v + j]) d[std::size_t(i) * v + j] = through;
      }
  int wrong = 0, finite = 0;
  for (int i = 0; i < v; ++i)
    for (int j = 0; j < v; ++j) {
      const double expected = d[std::size_t(i) * v + j];
      wrong += double(host(i, j)) != (expected >= inf ? inf : expected);
      finite += expected < inf;
    }
  std::printf("apsp %s consumer: %d x %d %s distances on %s (%s), %d finite, %d wrong\n",
              APSP_VERSION, v, v, apsp::distance_type_name(plan.distance), Exec::name(),
              plan.shape.name.c_str(), finite, wrong);
  return wrong == 0 && finite > v && finite < v * v ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int int32 = check<int>(1);
  const int float64 = check<double>(0.25);
  return int32 | float64;
}
