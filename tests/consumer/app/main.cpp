// What a user's program does with the installed application library: writes a graph as an HW3
// input, runs the job of `apsp IN OUT` (apsp::solve: read, plan, solve, write) and compares OUT
// with a plain triple loop. Exit code 0 only when every distance agrees.
#include "io/hw3_io.hpp"
#include "run/pipeline.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  apsp::Graph graph;
  graph.vertices = 90;
  std::mt19937 rng(5);
  for (int i = 0; i < graph.vertices; ++i)
    for (int j = 0; j < graph.vertices; ++j)
      if (i != j && rng() % 30 == 0) graph.edges.push_back({i, j, double(rng() % 1001)});
  apsp::SolveConfig config;
  config.input = "consumer_app.in";
  config.output = "consumer_app.out";
  config.format = apsp::Format::hw3;
  apsp::write_hw3_graph(config.input, graph);
  const apsp::SolveStats stats = apsp::solve(config);

  const int v = graph.vertices;
  const std::int64_t inf = 1073741823;  // HW3's "no path"
  std::vector<std::int64_t> d(std::size_t(v) * v, inf);
  for (int i = 0; i < v; ++i)
    d[std::size_t(i) * v + i] = 0;
  for (const apsp::Edge& e : graph.edges) {
    std::int64_t& x = d[std::size_t(e.src) * v + e.dst];
    if (std::int64_t(e.weight) < x) x = std::int64_t(e.weight);
  }
  for (int k = 0; k < v; ++k)
    for (int i = 0; i < v; ++i)
      for (int j = 0; j < v; ++j) {
        const std::int64_t through = d[std::size_t(i) * v + k] + d[std::size_t(k) * v + j];
        if (through < d[std::size_t(i) * v + j]) d[std::size_t(i) * v + j] = through;
      }
  std::ifstream out(config.output, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  std::vector<std::int32_t> got(std::size_t(v) * v, -1);
  int wrong = bytes.size() == got.size() * sizeof(std::int32_t) ? 0 : -1;
  if (wrong == 0) {
    std::memcpy(got.data(), bytes.data(), bytes.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      wrong += got[i] != (d[i] >= inf ? inf : d[i]);
  }
  std::printf("apsp app consumer: %d x %d distances by %s, %d wrong\n", v, v,
              stats.algorithm.c_str(), wrong);
  return wrong == 0 ? 0 : 1;
}
