// What a user's program does with the installed library: a graph in memory, apsp::floyd_warshall
// on the default execution space, the distances compared with a plain triple loop (Dijkstra-free
// and independent of the library). Exit code 0 only when every distance agrees.
#include <apsp/floyd_warshall.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  using Exec = Kokkos::DefaultExecutionSpace;
  // 150 vertices (not a multiple of any tile), a sparse random graph with unreachable pairs.
  apsp::Graph graph;
  graph.vertices = 150;
  std::mt19937 rng(11);
  for (int i = 0; i < graph.vertices; ++i)
    for (int j = 0; j < graph.vertices; ++j)
      if (i != j && rng() % 40 == 0) graph.edges.push_back({i, j, int(rng() % 1001)});

  Exec exec;
  const apsp::Plan plan = apsp::make_plan<int>(exec, graph.vertices);
  apsp::DistanceMatrix<Exec> dist("dist", plan.padded, plan.padded);
  apsp::fill_distance_matrix(exec, dist, graph.edges);
  apsp::floyd_warshall(exec, dist, plan);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);

  const int v = graph.vertices;
  std::vector<std::int64_t> d(std::size_t(v) * v, apsp::Distance<int>::infinity);
  for (int i = 0; i < v; ++i)
    d[std::size_t(i) * v + i] = 0;
  for (const apsp::Edge& e : graph.edges) {
    std::int64_t& x = d[std::size_t(e.src) * v + e.dst];
    if (e.weight < x) x = e.weight;
  }
  for (int k = 0; k < v; ++k)
    for (int i = 0; i < v; ++i)
      for (int j = 0; j < v; ++j) {
        const std::int64_t through = d[std::size_t(i) * v + k] + d[std::size_t(k) * v + j];
        if (through < d[std::size_t(i) * v + j]) d[std::size_t(i) * v + j] = through;
      }
  int wrong = 0, finite = 0;
  for (int i = 0; i < v; ++i)
    for (int j = 0; j < v; ++j) {
      const std::int64_t expected = d[std::size_t(i) * v + j];
      wrong +=
          host(i, j) !=
          (expected >= apsp::Distance<int>::infinity ? apsp::Distance<int>::infinity : expected);
      finite += expected < apsp::Distance<int>::infinity;
    }
  std::printf("apsp consumer: %d x %d distances on %s (%s), %d finite, %d wrong\n", v, v,
              Exec::name(), plan.shape.name.c_str(), finite, wrong);
  return wrong == 0 && finite > v && finite < v * v ? 0 : 1;
}
