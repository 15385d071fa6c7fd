// Why include/apsp/paths.hpp builds trees: how often do predecessors read off each pair alone
// loop, with zero-weight cycles, under a blocked Floyd-Warshall order?
//   apsp_predecessor_loops (APSP_ENABLE_BENCHMARKS), or
//   g++ -O2 -std=c++17 -o predecessor_loops bench/predecessor_loops.cpp && ./predecessor_loops
// Random graphs of 2-8 vertices, weights mostly 0, tile sizes 1-3 (tiles in a random order in
// the remaining-tiles phase, as a GPU runs them) and, as the control, one tile (the plain
// order). Two pointer schemes are followed from every reachable pair: next hops propagated in
// the relaxation (next(i,j) = next(i,k)), and predecessors from the via matrix per pair
// (pred(i,j) = pred(via(i,j), j)). Expanding via recursively is checked too (it never fails).
// Prints, per order, how many graphs have at least one pair whose path loops or is wrong.
#include <algorithm>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

namespace {

constexpr int inf = 1 << 30;

struct Run {
  int v = 0, b = 0;
  std::vector<int> w, d, next, via;

  void relax(int i, int j, int k) {
    if (d[i * v + k] >= inf || d[k * v + j] >= inf) return;
    const int t = d[i * v + k] + d[k * v + j];
    if (t < d[i * v + j]) {
      d[i * v + j] = t;
      next[i * v + j] = next[i * v + k];
      via[i * v + j] = k;
    }
  }
  void tile(int ti, int tj, int r) {
    for (int k = r * b; k < std::min(v, r * b + b); ++k)
      for (int i = ti * b; i < std::min(v, ti * b + b); ++i)
        for (int j = tj * b; j < std::min(v, tj * b + b); ++j)
          relax(i, j, k);
  }
  void solve(std::mt19937& rng) {
    const int tiles = (v + b - 1) / b;
    for (int r = 0; r < tiles; ++r) {
      tile(r, r, r);
      for (int t = 0; t < tiles; ++t)
        if (t != r) tile(r, t, r), tile(t, r, r);
      std::vector<std::pair<int, int>> rest;
      for (int i = 0; i < tiles; ++i)
        for (int j = 0; j < tiles; ++j)
          if (i != r && j != r) rest.push_back({i, j});
      std::shuffle(rest.begin(), rest.end(), rng);
      for (const auto& [i, j] : rest)
        tile(i, j, r);
    }
  }
  // Walks `step` from `from` towards `to` (at most v steps); true when it arrives with the
  // distance as length. step(x) returns the neighbour of x on the walk and whether (x, next) or
  // (next, x) is the edge, through `forward`.
  template <class Step>
  bool walk(int from, int to, int expected, bool forward, Step&& step) const {
    long length = 0;
    for (int x = from, steps = 0; x != to; ++steps) {
      const int y = step(x);
      if (y < 0 || steps >= v) return false;
      const int e = forward ? w[x * v + y] : w[y * v + x];
      if (e >= inf) return false;
      length += e;
      x = y;
    }
    return length == expected;
  }
  bool expand_ok(int i, int j) const {
    std::vector<std::pair<int, int>> todo{{i, j}};
    long length = 0;
    while (!todo.empty()) {
      const auto [u, x] = todo.back();
      todo.pop_back();
      const int k = via[u * v + x];
      if (k < 0) {
        if (w[u * v + x] >= inf) return false;
        length += w[u * v + x];
      } else {
        todo.push_back({k, x});
        todo.push_back({u, k});
      }
    }
    return length == d[i * v + j];
  }
};

}  // namespace

int main() {
  std::mt19937 rng(1);
  long graphs[2] = {0, 0}, next_fails[2] = {0, 0}, pred_fails[2] = {0, 0}, expand_fails = 0;
  for (int trial = 0; trial < 400000; ++trial) {
    Run run;
    run.v = 2 + int(rng() % 7);
    const bool plain = trial % 2 == 1;
    run.b = plain ? run.v : 1 + int(rng() % 3);
    const int v = run.v;
    run.w.assign(std::size_t(v * v), inf);
    run.next.assign(std::size_t(v * v), -1);
    run.via.assign(std::size_t(v * v), -1);
    for (int i = 0; i < v; ++i)
      run.w[i * v + i] = 0, run.next[i * v + i] = i;
    for (int e = int(rng() % unsigned(v * v)); e > 0; --e) {
      const int a = int(rng() % unsigned(v)), c = int(rng() % unsigned(v));
      const int weight = rng() % 3 == 0 ? int(rng() % 3) : 0;
      if (a != c && weight < run.w[a * v + c]) run.w[a * v + c] = weight, run.next[a * v + c] = c;
    }
    run.d = run.w;
    run.solve(rng);
    std::vector<int> pred(std::size_t(v * v), -1);
    for (int i = 0; i < v; ++i)
      for (int j = 0; j < v; ++j) {
        if (i == j || run.d[i * v + j] >= inf) continue;
        int x = i;
        while (run.via[x * v + j] >= 0)
          x = run.via[x * v + j];
        pred[i * v + j] = x;
      }
    bool next_bad = false, pred_bad = false;
    for (int i = 0; i < v; ++i)
      for (int j = 0; j < v; ++j) {
        if (i == j || run.d[i * v + j] >= inf) continue;
        const int dist = run.d[i * v + j];
        next_bad |= !run.walk(i, j, dist, true, [&](int x) { return run.next[x * v + j]; });
        pred_bad |= !run.walk(j, i, dist, false, [&](int x) { return pred[i * v + x]; });
        expand_fails += run.expand_ok(i, j) ? 0 : 1;
      }
    ++graphs[plain];
    next_fails[plain] += next_bad;
    pred_fails[plain] += pred_bad;
  }
  for (int plain = 0; plain < 2; ++plain)
    std::printf(
        "%s order: %ld graphs, propagated next hops fail in %ld (%.1f%%), "
        "predecessors per pair fail in %ld (%.1f%%)\n",
        plain ? "plain  " : "blocked", graphs[plain], next_fails[plain],
        100.0 * next_fails[plain] / graphs[plain], pred_fails[plain],
        100.0 * pred_fails[plain] / graphs[plain]);
  std::printf("via expanded recursively: %ld failing pairs\n", expand_fails);
}
