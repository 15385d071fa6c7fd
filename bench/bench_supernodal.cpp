// Supernodal against dense Floyd-Warshall on structured sparse graphs, in one run:
//   apsp_bench_supernodal --graph grid|road --vertices V [--dense] [--check] [--block ROWS]
//                         [--small-front N] [--row-threads 1|2|4]
// grid: a sqrt(V) x sqrt(V) grid, weights 1..100, 5% of the edges deleted (mesh class); road: V
// points in the unit square joined within the radius of expected degree 3 (road/power-grid
// class), weight ~ length. Order: geometric nested dissection (recursive coordinate bisection,
// the cut's vertices on one side as separator), written here; the ordering helper's METIS
// order replaces it in the solver. Prints the symbolic predictions, then seconds of symbolic,
// factor and all rows (blocks of ROWS rows into one device buffer, discarded), their sum
// ("compute", ordering excluded and printed apart) and the rows' rate (the plan's predicted row
// updates a second), and with --dense dense FW's compute time; --row-threads: the sweeps'
// threads a row on GPUs (RowSweeps::split; default: the rule apsp::supernodal_rows follows),
// for the timed rows and the checked ones alike;
// --check compares every row with dense FW (int32).
#include <apsp/detail/measure.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/supernodal.hpp>
#include <apsp/supernodal_symbolic.hpp>

#include "platform/backends.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using apsp::detail::Clock;
using apsp::detail::seconds_since;

struct Points {
  std::vector<double> x, y;
};

apsp::Graph grid_graph(int side, unsigned seed, Points& at) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<int> weight(1, 100);
  apsp::Graph g;
  g.vertices = side * side;
  for (int v = 0; v < g.vertices; ++v) {
    at.x.push_back(v % side);
    at.y.push_back(v / side);
  }
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c)
      for (const int d : {1, side}) {
        if ((d == 1 && c + 1 == side) || (d == side && r + 1 == side) || coin(rng) < 0.05) continue;
        const int u = r * side + c, w = weight(rng);
        g.edges.push_back({u, u + d, w});
        g.edges.push_back({u + d, u, w});
      }
  return g;
}

apsp::Graph road_graph(int n, unsigned seed, Points& at) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const double radius = std::sqrt(3.0 / (M_PI * n));
  const int cells = std::max(1, int(1 / radius));
  std::vector<std::vector<int>> bucket(std::size_t(cells) * cells);
  for (int i = 0; i < n; ++i) {
    at.x.push_back(u(rng));
    at.y.push_back(u(rng));
    bucket[std::size_t(std::min(cells - 1, int(at.y[i] * cells)) * cells +
                       std::min(cells - 1, int(at.x[i] * cells)))]
        .push_back(i);
  }
  apsp::Graph g;
  g.vertices = n;
  for (int i = 0; i < n; ++i) {
    const int cx = std::min(cells - 1, int(at.x[i] * cells)),
              cy = std::min(cells - 1, int(at.y[i] * cells));
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int bx = cx + dx, by = cy + dy;
        if (bx < 0 || by < 0 || bx >= cells || by >= cells) continue;
        for (const int j : bucket[std::size_t(by * cells + bx)]) {
          if (j <= i) continue;
          const double d = std::hypot(at.x[i] - at.x[j], at.y[i] - at.y[j]);
          if (d >= radius) continue;
          const int w = 1 + int(99 * d / radius);
          g.edges.push_back({i, j, w});
          g.edges.push_back({j, i, w});
        }
      }
  }
  return g;
}

// Geometric nested dissection: split at the median of the wider coordinate; the vertices of the
// lower half with a neighbour in the upper half are the separator, numbered after both halves.
struct Dissection {
  const Points& at;
  const std::vector<std::int64_t>& start;
  const std::vector<std::int32_t>& adj;
  std::vector<char> side;
  std::vector<std::int32_t> order;

  void run(std::vector<std::int32_t> part) {
    if (part.size() <= 32) {
      order.insert(order.end(), part.begin(), part.end());
      return;
    }
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (const int v : part) {
      x0 = std::min(x0, at.x[v]), x1 = std::max(x1, at.x[v]);
      y0 = std::min(y0, at.y[v]), y1 = std::max(y1, at.y[v]);
    }
    const std::vector<double>& key = x1 - x0 >= y1 - y0 ? at.x : at.y;
    const std::size_t half = part.size() / 2;
    std::nth_element(part.begin(), part.begin() + half, part.end(),
                     [&](int a, int b) { return key[a] < key[b]; });
    for (std::size_t i = 0; i < part.size(); ++i)
      side[part[i]] = i < half ? 1 : 2;
    std::vector<std::int32_t> low, high, separator;
    for (std::size_t i = 0; i < part.size(); ++i) {
      const int v = part[i];
      bool cut = false;
      if (side[v] == 1)
        for (std::int64_t e = start[v]; e < start[v + 1] && !cut; ++e)
          cut = side[adj[e]] == 2;
      (cut ? separator : (side[v] == 1 ? low : high)).push_back(v);
    }
    for (const int v : part)
      side[v] = 0;
    if (low.empty() || high.empty()) {  // nothing to split further
      order.insert(order.end(), part.begin(), part.end());
      return;
    }
    run(std::move(low));
    run(std::move(high));
    order.insert(order.end(), separator.begin(), separator.end());
  }
};

std::vector<std::int32_t> dissection(const apsp::Graph& g, const Points& at) {
  std::vector<std::int64_t> start(std::size_t(g.vertices) + 1, 0);
  for (const apsp::Edge& e : g.edges)
    ++start[std::size_t(e.src) + 1];
  for (int v = 0; v < g.vertices; ++v)
    start[v + 1] += start[v];
  std::vector<std::int32_t> adj(g.edges.size());
  std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
  for (const apsp::Edge& e : g.edges)
    adj[std::size_t(fill[e.src]++)] = e.dst;  // both directions are in the list
  Dissection d{at, start, adj, std::vector<char>(std::size_t(g.vertices), 0), {}};
  std::vector<std::int32_t> all(std::size_t(g.vertices));
  std::iota(all.begin(), all.end(), 0);
  d.run(all);
  return d.order;
}

}  // namespace

int main(int argc, char** argv) {
  std::string kind = "grid";
  int vertices = 5041, block = 0, repeats = 3, row_threads = 0;
  bool run_dense = false, check = false;
  apsp::SupernodalOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--graph" && i + 1 < argc)
      kind = argv[++i];
    else if (a == "--vertices" && i + 1 < argc)
      vertices = std::atoi(argv[++i]);
    else if (a == "--block" && i + 1 < argc)
      block = std::atoi(argv[++i]);
    else if (a == "--repeats" && i + 1 < argc)
      repeats = std::atoi(argv[++i]);
    else if (a == "--small" && i + 1 < argc)
      options.small_supernode = std::atoi(argv[++i]);
    else if (a == "--fraction" && i + 1 < argc)
      options.relaxed_fraction = std::atof(argv[++i]);
    else if (a == "--tile" && i + 1 < argc)
      options.tile = std::atoi(argv[++i]);
    else if (a == "--small-front" && i + 1 < argc)
      options.small_front = std::atoi(argv[++i]);
    else if (a == "--row-threads" && i + 1 < argc)
      row_threads = std::atoi(argv[++i]);
    else if (a == "--dense")
      run_dense = true;
    else if (a == "--check")
      check = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--graph grid|road] [--vertices V] [--block ROWS] "
                   "[--repeats N] [--small COLUMNS] [--fraction F] [--tile B] [--small-front N] "
                   "[--row-threads 1|2|4] [--dense] [--check]\n",
                   argv[0]);
      return 2;
    }
  }
  Kokkos::ScopeGuard guard(argc, argv);
  using Exec = Kokkos::DefaultExecutionSpace;
  using T = int;
  Exec exec;
  std::printf("Kokkos %d.%d.%d, %s, concurrency %d\n", KOKKOS_VERSION / 10000,
              KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100, Exec::name(), exec.concurrency());

  Points at;
  const apsp::Graph g = kind == "road" ? road_graph(vertices, 1, at)
                                       : grid_graph(int(std::lround(std::sqrt(vertices))), 1, at);
  const std::int64_t v = g.vertices;
  auto t0 = Clock::now();
  const std::vector<std::int32_t> perm = dissection(g, at);
  const double ordering = seconds_since(t0);
  constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
  if (block <= 0) {
    // 256 MiB of rows on the host; 4 GiB on a device, where a block's rows are the parallelism
    // of the row sweeps (one thread a row).
    const std::int64_t elements = std::int64_t(1) << (host ? 26 : 30);
    block = int(std::max<std::int64_t>(1, std::min<std::int64_t>(v, elements / v)));
  }
  std::printf(
      "graph %s: V = %lld, E = %zu; geometric nested dissection %.4f s; row block %d, threads a "
      "row %d (0: the rule's)\n",
      kind.c_str(), (long long)v, g.edges.size(), ordering, block, row_threads);

  // Rows [first, first + out.extent(0)) in `order`, at --row-threads where given.
  const auto make_rows = [&](const apsp::SupernodalFactor<Exec, T>& factor, std::int64_t first,
                             const apsp::DistanceMatrix<Exec, T>& out, apsp::RowOrder order) {
    if (row_threads > 0)
      apsp::detail::supernodal_rows<host>(exec, factor, first, out, order, nullptr, row_threads);
    else
      apsp::supernodal_rows(exec, factor, first, out, order);
  };
  double best[4] = {1e30, 1e30, 1e30, 1e30};
  double row_updates = 0;
  apsp::DistanceMatrix<Exec, T> rows("rows", block, v);
  for (int rep = 0; rep < repeats; ++rep) {
    t0 = Clock::now();
    const apsp::SupernodalPlan plan = apsp::supernodal_symbolic(v, g.edges, perm, options);
    const double symbolic = seconds_since(t0);
    row_updates = plan.prediction.row_updates;
    if (rep == 0) {
      const auto& p = plan.prediction;
      std::printf(
          "plan: %lld supernodes in %lld levels, %lld with fronts up to %d; largest %lld "
          "columns, border %lld, front %lld; factor %.1f MB (+ fronts %.1f MB, pool %.1f MB of "
          "them); updates factor %.3g + rows %.3g = %.3g, dense %.3g (%.0fx)\n",
          (long long)p.supernodes, (long long)p.levels, (long long)p.small_fronts, plan.small_front,
          (long long)p.largest_supernode, (long long)p.largest_border, (long long)p.largest_front,
          p.factor_values * 4e-6, p.front_values * 4e-6, p.pool_values * 4e-6, p.factor_updates,
          p.row_updates, p.updates(), p.dense_updates, p.dense_updates / p.updates());
    }
    t0 = Clock::now();
    const auto factor = apsp::supernodal_factor<T>(exec, plan, g.edges, false);
    exec.fence();
    const double factored = seconds_since(t0);
    t0 = Clock::now();
    for (std::int64_t first = 0; first < v; first += block) {
      const std::int64_t count = std::min<std::int64_t>(block, v - first);
      make_rows(factor, first, apsp::DistanceMatrix<Exec, T>(rows.data(), count, v),
                apsp::RowOrder::plan);
    }
    exec.fence();
    const double swept = seconds_since(t0);
    const double times[4] = {symbolic, factored, swept, symbolic + factored + swept};
    for (int i = 0; i < 4; ++i)
      best[i] = std::min(best[i], times[i]);
    std::printf("run %d: symbolic %.4f s, factor %.4f s, rows %.4f s, compute %.4f s\n", rep,
                symbolic, factored, swept, times[3]);
  }
  std::printf(
      "best: symbolic %.4f s, factor %.4f s, rows %.4f s (%.3g G updates/s), compute %.4f s "
      "(+ ordering %.4f s)\n",
      best[0], best[1], best[2], row_updates / best[2] * 1e-9, best[3], ordering);

  if (run_dense || check) {
    const apsp::Plan plan = apsp::make_plan<T>(exec, v);
    apsp::DistanceMatrix<Exec, T> dist("dist", plan.padded, plan.padded);
    apsp::fill_distance_matrix(exec, dist, g.edges);
    exec.fence();
    t0 = Clock::now();
    apsp::floyd_warshall(exec, dist, plan);
    exec.fence();
    const double dense = seconds_since(t0);
    std::printf("dense FW: %.4f s compute (%.1f x the supernodal compute)\n", dense,
                dense / best[3]);
    if (check) {
      const auto factor = apsp::supernodal_factor<T>(
          exec, apsp::supernodal_symbolic(v, g.edges, perm, options), g.edges, false);
      auto host_dense = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
      std::int64_t wrong = 0;
      for (std::int64_t first = 0; first < v; first += block) {
        const std::int64_t count = std::min<std::int64_t>(block, v - first);
        apsp::DistanceMatrix<Exec, T> part(rows.data(), count, v);
        make_rows(factor, first, part, apsp::RowOrder::user);
        auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), part);
        for (std::int64_t r = 0; r < count; ++r)
          for (std::int64_t j = 0; j < v; ++j)
            wrong += host(r, j) != host_dense(first + r, j);
      }
      std::printf("check against dense FW: %lld entries differ\n", (long long)wrong);
      if (wrong) return 1;
    }
  }
  return 0;
}
