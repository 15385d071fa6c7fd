// What a user's program does with the installed sssp: every distance of a directed ring of 50
// vertices with weights 1..50 (edge i -> i+1 weighs i+1), checked against the sums along the
// ring. Exit code 0 only when every one matches.
#include <apsp/graph.hpp>
#include <apsp/sssp.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int v = 50;
  apsp::Graph graph;
  graph.vertices = v;
  for (int i = 0; i < v; ++i)
    graph.edges.push_back({i, (i + 1) % v, double(i + 1)});
  std::int64_t wrong = 0, rows = 0;
  apsp::sssp_all_pairs(Kokkos::DefaultHostExecutionSpace(), apsp::make_csr_graph(graph),
                       [&](std::int64_t source, const int* row) {
                         ++rows;
                         int expected = 0;
                         for (int k = 0; k < v; ++k) {
                           const int j = int((source + k) % v);
                           if (row[j] != expected) ++wrong;
                           expected += j + 1;
                         }
                       });
  std::printf("apsp sssp consumer: %lld rows of %d vertices, %lld distances wrong\n",
              (long long)rows, v, (long long)wrong);
  return rows == v && wrong == 0 ? 0 : 1;
}
