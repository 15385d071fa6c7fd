// Boost Graph's all-pairs answer on an HW3 graph: johnson_all_pairs_shortest_paths.
//   sparse_boost_johnson IN OUT
// Writes OUT as HW3 distances (to compare with apsp's) and prints the seconds spent in
// johnson_all_pairs_shortest_paths alone (reading, building the graph and writing excluded).
// Parallel edges and self-loops go in as they are: Johnson's Dijkstra runs relax them all.
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/johnson_all_pairs_shortest.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
    return 2;
  }
  std::FILE* in = std::fopen(argv[1], "rb");
  std::int32_t header[2];
  if (!in || std::fread(header, sizeof header, 1, in) != 1) return 2;
  const int v = header[0], e = header[1];
  std::vector<std::int32_t> edges(std::size_t(e) * 3);
  if (e > 0 && std::fread(edges.data(), sizeof(std::int32_t), edges.size(), in) != edges.size())
    return 2;
  std::fclose(in);

  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                            boost::property<boost::edge_weight_t, int>>;
  Graph g(v);
  for (int i = 0; i < e; ++i)
    boost::add_edge(edges[3 * i], edges[3 * i + 1], edges[3 * i + 2], g);
  std::vector<std::vector<int>> d(v, std::vector<int>(v));

  const auto start = std::chrono::steady_clock::now();
  boost::johnson_all_pairs_shortest_paths(g, d);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::FILE* out = std::fopen(argv[2], "wb");
  if (!out) return 2;
  for (auto& row : d) {
    for (int& x : row)
      if (x == std::numeric_limits<int>::max()) x = 1073741823;  // HW3's "no path"
    std::fwrite(row.data(), sizeof(int), row.size(), out);
  }
  std::fclose(out);
  std::printf("%.3f\n", seconds);
  return 0;
}
