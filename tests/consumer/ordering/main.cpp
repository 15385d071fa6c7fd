// What a user's program does with the installed ordering: a nested-dissection order of a 30 x 30
// grid, checked to be a permutation of its vertices and the same on one thread and on two (the
// ordering's promise). Exit code 0 only when it is.
#include <apsp/graph.hpp>
#include <apsp/ordering.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  const int side = 30, v = side * side;
  std::vector<apsp::Edge> edges;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      if (c + 1 < side) edges.push_back({r * side + c, r * side + c + 1, 1.0});
      if (r + 1 < side) edges.push_back({r * side + c, (r + 1) * side + c, 1.0});
    }
  if (!apsp::have_nested_dissection()) {
    std::printf("apsp ordering consumer: no nested dissection in an Apsp::ordering\n");
    return 1;
  }
  const std::vector<std::int32_t> perm = apsp::nested_dissection_order(v, edges, 2);
  std::vector<int> position(v, -1);
  bool permutation = int(perm.size()) == v;
  for (int i = 0; permutation && i < v; ++i) {
    permutation = perm[i] >= 0 && perm[i] < v && position[perm[i]] < 0;
    if (permutation) position[perm[i]] = i;
  }
  const bool same = permutation && apsp::nested_dissection_order(v, edges, 1) == perm;
  std::printf("apsp ordering consumer: %d vertices, permutation %s, same on 1 and 2 threads %s\n",
              v, permutation ? "yes" : "no", same ? "yes" : "no");
  return permutation && same ? 0 : 1;
}
