// Supernodal Floyd-Warshall (apsp/supernodal.hpp) against dense Floyd-Warshall on the same
// backend, exactly (integer weights: every type sums them exactly here), on every backend of the
// build and every distance type: structured sparse graphs (grids with deletions, random
// geometric graphs, trees, paths, stars), disconnected and directed asymmetric graphs, negative
// weights and negative cycles, tiny V, under the identity, random and nested-dissection orders;
// the host-vector and the portable row kernels, both row orders, several tiles, small fronts
// (a level at a time in scratch) and the blocked kernels' fronts alone and mixed; the solve of
// the drivers (SupernodalSolver) with predecessor rows, against the dense Solver's.
#include "backends.hpp"
#include "reference.hpp"

#include <apsp/floyd_warshall.hpp>
#include <apsp/measures.hpp>
#include <apsp/ranks.hpp>
#include <apsp/solver.hpp>
#include <apsp/supernodal.hpp>
#include <apsp/supernodal_plan.hpp>
#include <apsp/supernodal_symbolic.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

// ---- graphs ----

std::int32_t weight(std::mt19937& rng, int low = 1, int high = 100) {
  return std::uniform_int_distribution<int>(low, high)(rng);
}

// A w x h grid, each edge kept with probability 1 - deleted; both directions with the same
// weight, or (directed) independent weights and some edges one-way.
apsp::Graph grid(int w, int h, unsigned seed, double deleted = 0, bool directed = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  apsp::Graph g;
  g.vertices = w * h;
  const auto link = [&](int a, int b) {
    if (coin(rng) < deleted) return;
    const int x = weight(rng);
    if (!directed) {
      g.edges.push_back({a, b, x});
      g.edges.push_back({b, a, x});
    } else {
      if (coin(rng) < 0.8) g.edges.push_back({a, b, x});
      if (coin(rng) < 0.8) g.edges.push_back({b, a, weight(rng)});
    }
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (x + 1 < w) link(y * w + x, y * w + x + 1);
      if (y + 1 < h) link(y * w + x, (y + 1) * w + x);
    }
  return g;
}

// Points in the unit square joined within `radius` (both directions, weight ~ length).
apsp::Graph geometric(int n, double radius, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = u(rng), y[i] = u(rng);
  apsp::Graph g;
  g.vertices = n;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const double d = std::hypot(x[i] - x[j], y[i] - y[j]);
      if (d < radius) {
        const int w = 1 + int(100 * d / radius);
        g.edges.push_back({i, j, w});
        g.edges.push_back({j, i, w});
      }
    }
  return g;
}

apsp::Graph random_tree(int n, unsigned seed) {
  std::mt19937 rng(seed);
  apsp::Graph g;
  g.vertices = n;
  for (int i = 1; i < n; ++i) {
    const int p = std::uniform_int_distribution<int>(0, i - 1)(rng);
    g.edges.push_back({i, p, weight(rng)});
    g.edges.push_back({p, i, weight(rng)});
  }
  return g;
}

apsp::Graph path(int n, unsigned seed) {
  std::mt19937 rng(seed);
  apsp::Graph g;
  g.vertices = n;
  for (int i = 0; i + 1 < n; ++i) {
    g.edges.push_back({i, i + 1, weight(rng)});
    g.edges.push_back({i + 1, i, weight(rng)});
  }
  return g;
}

apsp::Graph star(int n, unsigned seed) {
  std::mt19937 rng(seed);
  apsp::Graph g;
  g.vertices = n;
  for (int i = 1; i < n; ++i) {
    g.edges.push_back({0, i, weight(rng)});
    g.edges.push_back({i, 0, weight(rng)});
  }
  return g;
}

// a and b side by side, no edge between them.
apsp::Graph disjoint(const apsp::Graph& a, const apsp::Graph& b) {
  apsp::Graph g = a;
  g.vertices = a.vertices + b.vertices;
  for (apsp::Edge e : b.edges) {
    e.src += a.vertices;
    e.dst += a.vertices;
    g.edges.push_back(e);
  }
  return g;
}

// g with each edge's mirror of the same weight beside it (symmetric); `zeros` of its weights 0.
apsp::Graph mirrored(const apsp::Graph& g, int zeros = 0) {
  apsp::Graph m;
  m.vertices = g.vertices;
  for (const apsp::Edge& e : g.edges) {
    const double w = zeros-- > 0 ? 0.0 : e.weight;
    m.edges.push_back({e.src, e.dst, w});
    m.edges.push_back({e.dst, e.src, w});
  }
  return m;
}

// Negative weights without a negative cycle: w(u,v) + p(u) - p(v) keeps every cycle's weight.
apsp::Graph with_potentials(apsp::Graph g, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<int> p(std::size_t(g.vertices));
  for (int& x : p)
    x = weight(rng, 0, 150);
  for (apsp::Edge& e : g.edges)
    e.weight += p[std::size_t(e.src)] - p[std::size_t(e.dst)];
  return g;
}

// ---- orders (perm[new] = old) ----

std::vector<std::int32_t> random_order(int n, unsigned seed) {
  std::vector<std::int32_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(seed));
  return perm;
}

// Nested dissection of a w x h grid by recursive bisection: each half, then the line between.
void dissect(int x0, int x1, int y0, int y1, int w, std::vector<std::int32_t>& out) {
  if (x1 <= x0 || y1 <= y0) return;
  if ((x1 - x0) * (y1 - y0) <= 6) {
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x)
        out.push_back(y * w + x);
    return;
  }
  if (x1 - x0 >= y1 - y0) {
    const int mid = (x0 + x1) / 2;
    dissect(x0, mid, y0, y1, w, out);
    dissect(mid + 1, x1, y0, y1, w, out);
    for (int y = y0; y < y1; ++y)
      out.push_back(y * w + mid);
  } else {
    const int mid = (y0 + y1) / 2;
    dissect(x0, x1, y0, mid, w, out);
    dissect(x0, x1, mid + 1, y1, w, out);
    for (int x = x0; x < x1; ++x)
      out.push_back(mid * w + x);
  }
}
std::vector<std::int32_t> grid_dissection(int w, int h) {
  std::vector<std::int32_t> out;
  dissect(0, w, 0, h, w, out);
  return out;
}

// ---- solving ----

template <class ExecSpace, class T>
struct Dense {
  std::vector<T> d;
  std::int64_t cycle = -1;
};

template <class ExecSpace, class T>
Dense<ExecSpace, T> dense(const apsp::Graph& g, bool negative) {
  ExecSpace exec;
  const apsp::Plan plan = apsp::make_plan<T>(exec, g.vertices, negative);
  apsp::DistanceMatrix<ExecSpace, T> dist("dist", plan.padded, plan.padded);
  apsp::fill_distance_matrix(exec, dist, g.edges);
  apsp::floyd_warshall(exec, dist, plan);
  Dense<ExecSpace, T> out;
  out.cycle = apsp::negative_cycle_vertex(exec, dist, 0, g.vertices);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
  for (int i = 0; i < g.vertices; ++i)
    for (int j = 0; j < g.vertices; ++j)
      out.d.push_back(host(i, j));
  return out;
}

// All rows in blocks of `block`, user order (or the plan's, mapped back), host-vector sweeps
// (the threads a row that apsp::supernodal_rows picks on GPUs: four where the rows are few) or
// portable ones (`split` threads a row on GPUs).
template <class ExecSpace, class T>
std::vector<T> supernodal_all(const apsp::SupernodalFactor<ExecSpace, T>& factor, int block,
                              apsp::RowOrder order, bool host_path, int split = 1) {
  ExecSpace exec;
  const std::int64_t v = factor.plan().vertices;
  std::vector<T> out(std::size_t(v * v));
  for (std::int64_t first = 0; first < v; first += block) {
    const std::int64_t count = std::min<std::int64_t>(block, v - first);
    apsp::DistanceMatrix<ExecSpace, T> rows("rows", count, v + 3);  // wider than V: allowed
    if (host_path)
      apsp::supernodal_rows(exec, factor, first, rows, order);
    else
      apsp::detail::supernodal_rows<false>(exec, factor, first, rows, order, nullptr, split);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows);
    const auto& perm = factor.plan().perm;
    for (std::int64_t r = 0; r < count; ++r)
      for (std::int64_t j = 0; j < v; ++j) {
        const std::int64_t i = order == apsp::RowOrder::user ? first + r : perm[first + r];
        const std::int64_t c = order == apsp::RowOrder::user ? j : perm[j];
        out[std::size_t(i * v + c)] = host(r, j);
      }
  }
  return out;
}

template <class C>
class Supernodal : public ::testing::Test {
 public:
  using ExecSpace = typename C::exec;
  using T = typename C::value;

  // Supernodal against dense on g under `perm`, every way of asking for rows.
  // `schedule` > 0: the factor closes the fronts in the schedule of that many vertices instead
  // of the plan's (as on a device whose scratch holds fewer than plan.small_front).
  void check(const apsp::Graph& g, const std::vector<std::int32_t>& perm, const std::string& what,
             apsp::SupernodalOptions options = {}, int schedule = 0) {
    const bool negative = apsp::weight_range(g).negative();
    const auto reference = dense<ExecSpace, T>(g, negative);
    apsp::SupernodalPlan plan = apsp::supernodal_symbolic(g.vertices, g.edges, perm, options);
    if (schedule > 0) plan.schedule = apsp::detail::front_schedule(plan, schedule);
    ExecSpace exec;
    const auto factor = apsp::supernodal_factor<T>(exec, plan, g.edges, negative);
    ASSERT_EQ(reference.cycle >= 0, factor.negative_cycle_vertex() >= 0) << what;
    if (reference.cycle >= 0) {  // the vertex every algorithm names (test_negative_cycles.cpp)
      apsp::OneRank one;
      apsp::SupernodalSolver<ExecSpace, T> solver(exec, one, plan, false, apsp::weight_range(g));
      solver.load(g.edges);
      std::int64_t named = -1;
      try {
        solver.compute();
      } catch (const apsp::NegativeCycleError& error) {
        named = error.vertex();
      }
      EXPECT_EQ(named, apsp_test::reference_negative_cycle_vertex(g)) << what;
      return;
    }
    EXPECT_EQ(supernodal_all(factor, 7, apsp::RowOrder::user, true), reference.d) << what;
    EXPECT_EQ(supernodal_all(factor, 64, apsp::RowOrder::plan, true), reference.d) << what;
    EXPECT_EQ(supernodal_all(factor, 13, apsp::RowOrder::user, false, 2), reference.d) << what;
  }

  // Under the identity, a random order and, when given, another (nested dissection).
  void check_orders(const apsp::Graph& g, const std::string& what,
                    const std::vector<std::int32_t>& nested = {}) {
    check(g, {}, what + ", identity");
    check(g, random_order(g.vertices, unsigned(g.vertices)), what + ", random order");
    if (!nested.empty()) check(g, nested, what + ", nested dissection");
  }
};
TYPED_TEST_SUITE(Supernodal, apsp_test::BackendsAndTypes, apsp_test::CaseName);

TYPED_TEST(Supernodal, TinyGraphs) {
  for (int v : {0, 1, 2, 3}) {
    apsp::Graph g = path(v, 3);
    this->check_orders(g, "path V = " + std::to_string(v));
  }
  apsp::Graph loop;
  loop.vertices = 2;
  loop.edges = {{0, 0, 5}, {0, 1, 7}, {0, 1, 3}};  // a self-loop and a heavier duplicate
  this->check_orders(loop, "duplicates and a self-loop");
}

TYPED_TEST(Supernodal, Grids) {
  this->check_orders(grid(17, 13, 1), "grid 17 x 13", grid_dissection(17, 13));
  this->check_orders(grid(15, 15, 2, 0.2), "grid 15 x 15, 20% deleted", grid_dissection(15, 15));
  this->check_orders(grid(12, 10, 3, 0.1, true), "directed grid", grid_dissection(12, 10));
}

TYPED_TEST(Supernodal, GeometricTreesPathsStars) {
  this->check_orders(geometric(120, 0.15, 4), "geometric 120");
  this->check_orders(random_tree(90, 5), "tree 90");
  this->check_orders(path(70, 6), "path 70");
  this->check_orders(star(40, 7), "star 40");
}

TYPED_TEST(Supernodal, DisconnectedAndDirected) {
  this->check_orders(disjoint(grid(8, 9, 8), random_tree(40, 9)), "grid and tree");
  apsp::Graph isolated;
  isolated.vertices = 30;  // no edges at all
  this->check_orders(isolated, "30 isolated vertices");
  apsp::Graph one_way = path(60, 10);
  one_way.edges.erase(std::remove_if(one_way.edges.begin(), one_way.edges.end(),
                                     [](const apsp::Edge& e) { return e.src > e.dst; }),
                      one_way.edges.end());
  this->check_orders(one_way, "one-way path");
}

TYPED_TEST(Supernodal, TilesAndAmalgamation) {
  using ExecSpace = typename TestFixture::ExecSpace;
  const apsp::Graph g = grid(21, 11, 11, 0.05);
  std::vector<int> tiles;  // every tile of the device's shapes, each once
  for (const apsp::ShapeChoice& shape :
       apsp::available_shapes<ExecSpace, typename TestFixture::T>(ExecSpace()))
    if (std::find(tiles.begin(), tiles.end(), shape.tile) == tiles.end())
      tiles.push_back(shape.tile);
  ASSERT_FALSE(tiles.empty());
  for (const int tile : tiles) {
    for (const int small : {1, 200}) {
      apsp::SupernodalOptions options;
      options.tile = tile;
      options.small_supernode = small;
      options.relaxed_fraction = small == 1 ? 0 : 0.3;
      this->check(g, grid_dissection(21, 11),
                  "tile " + std::to_string(tile) + ", small " + std::to_string(small), options);
    }
  }
}

TYPED_TEST(Supernodal, NegativeWeights) {
  this->check_orders(with_potentials(grid(11, 9, 12, 0.1, true), 13), "grid, potentials",
                     grid_dissection(11, 9));
  this->check_orders(with_potentials(random_tree(60, 14), 15), "tree, potentials");
}

TYPED_TEST(Supernodal, NegativeCycles) {
  // Inside a subtree: a two-cycle between neighbours of the grid's corner (a leaf of the
  // dissection); through a separator: across the middle column; in one component of two.
  apsp::Graph corner = grid(9, 9, 16);
  corner.edges.push_back({0, 1, -60});
  corner.edges.push_back({1, 0, -60});
  this->check_orders(corner, "cycle in a leaf", grid_dissection(9, 9));
  apsp::Graph across = grid(9, 9, 17);
  across.edges.push_back({3, 4, -300});
  across.edges.push_back({4, 5, -300});
  across.edges.push_back({5, 3, 100});
  this->check_orders(across, "cycle through the separator", grid_dissection(9, 9));
  apsp::Graph two = disjoint(path(20, 18), grid(5, 5, 19));
  two.edges.push_back({22, 22, -1});  // a negative self-loop in the second component
  this->check_orders(two, "cycle in one component");
}

// Small fronts (a team each in scratch, a tree level at a time) beside the blocked kernels'
// fronts: none small, some (so that small and large parents meet children of every kind:
// small, large with a pooled Schur complement, large with a front kept), all; with negative
// weights and with negative cycles, in a leaf and through the top separator.
TYPED_TEST(Supernodal, SmallFronts) {
  using ExecSpace = typename TestFixture::ExecSpace;
  const apsp::Graph g = grid(23, 19, 23, 0.05);
  const apsp::Graph directed = with_potentials(grid(13, 11, 24, 0.1, true), 25);
  apsp::Graph leaf = grid(13, 11, 26);
  leaf.edges.push_back({0, 1, -60});
  leaf.edges.push_back({1, 0, -60});
  apsp::Graph top = grid(13, 11, 27);
  top.edges.push_back({5 * 13 + 6, 6 * 13 + 6, -300});
  top.edges.push_back({6 * 13 + 6, 5 * 13 + 6, 100});
  std::vector<int> tiles{32};
  for (const apsp::ShapeChoice& shape :
       apsp::available_shapes<ExecSpace, typename TestFixture::T>(ExecSpace()))
    if (shape.tile == 4) tiles.push_back(4);
  for (const int tile : tiles)
    for (const int small : {0, 8, 16, 20, 4096}) {
      apsp::SupernodalOptions options;
      options.tile = tile;
      options.small_front = small;
      const std::string what =
          "tile " + std::to_string(tile) + ", small fronts up to " + std::to_string(small);
      this->check(g, grid_dissection(23, 19), "grid, " + what, options);
      this->check(geometric(150, 0.14, 28), {}, "geometric, identity, " + what, options);
      this->check(directed, grid_dissection(13, 11), "negative weights, " + what, options);
      this->check(leaf, grid_dissection(13, 11), "cycle in a leaf, " + what, options);
      this->check(top, grid_dissection(13, 11), "cycle through the top separator, " + what,
                  options);
    }
  // Fewer small fronts than the plan's pool expects: pooled Schur complements of large fronts.
  apsp::SupernodalOptions twenty;
  twenty.small_front = 20;
  for (const int fewer : {4, 12})
    this->check(g, grid_dissection(23, 19), "grid, the schedule of " + std::to_string(fewer),
                twenty, fewer);
}

TYPED_TEST(Supernodal, RealWeightsWithinRounding) {
  using T = typename TestFixture::T;
  using ExecSpace = typename TestFixture::ExecSpace;
  if (std::is_integral<T>::value)
    GTEST_SKIP() << "integer weights sum exactly in every type: the exact tests cover them";
  apsp::Graph g = grid(14, 12, 20, 0.1);
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> u(0.01, 10);
  for (apsp::Edge& e : g.edges)
    e.weight = u(rng);
  const auto reference = dense<ExecSpace, T>(g, false);
  ExecSpace exec;
  const auto factor = apsp::supernodal_factor<T>(
      exec, apsp::supernodal_symbolic(g.vertices, g.edges, grid_dissection(14, 12)), g.edges,
      false);
  const auto got = supernodal_all(factor, 32, apsp::RowOrder::user, true);
  // Both sum at most V - 1 rounded terms of magnitude <= 10: the rule of apsp verify.
  const double slack = apsp::rounding_slack<T>(g.vertices, false, 10) * (g.vertices - 1) * 10;
  for (std::size_t e = 0; e < got.size(); ++e) {
    if (std::isinf(reference.d[e])) {
      EXPECT_TRUE(std::isinf(got[e]));
      continue;
    }
    EXPECT_NEAR(double(got[e]), double(reference.d[e]), 2 * slack) << "entry " << e;
  }
}

// The rows a RowSink hands over, into a V x V vector.
template <class V>
apsp::RowSink<V> into(std::vector<V>& out, std::int64_t n) {
  out.assign(std::size_t(n * n), V(-7));
  return [&out, n](std::int64_t first, std::int64_t count, const V* rows, std::int64_t stride) {
    for (std::int64_t r = 0; r < count; ++r)
      std::copy(rows + r * stride, rows + r * stride + n, out.begin() + (first + r) * n);
  };
}

// SupernodalSolver against the dense Solver on g: the same distance rows and predecessor rows
// (the rule is a function of the graph), in blocks of 7 rows and of all V; a range of
// predecessor rows alone.
template <class ExecSpace, class T>
void check_solver(const apsp::Graph& g, const std::vector<std::int32_t>& perm,
                  const std::string& what) {
  ExecSpace exec;
  const std::int64_t v = g.vertices, e = std::int64_t(g.edges.size());
  const bool negative = apsp::weight_range(g).negative();
  apsp::Plan plan = apsp::make_plan<T>(exec, v, negative);
  plan.predecessors = true;
  apsp::OneRank one;
  apsp::Solver<ExecSpace, T> dense(exec, one, plan);
  dense.check_memory({std::uint64_t(1) << 30, 0, "the test's device"}, e);
  dense.load(g.edges);
  dense.compute();
  std::vector<T> want_d, got_d;
  std::vector<int> want_p, got_p, part;
  dense.distance_rows(into(want_d, v));
  dense.select_paths();
  dense.predecessor_rows(into(want_p, v));
  // The dense solver's ranges: from a row to the last by default, and a count of rows.
  for (const auto& [from, count] : {std::pair<std::int64_t, std::int64_t>{v / 2, -1}, {v / 3, 5}}) {
    dense.predecessor_rows(into(part, v), from, count);
    const std::int64_t to = count < 0 ? v : from + count;
    for (std::int64_t i = 0; i < v; ++i)
      for (std::int64_t j = 0; j < v; ++j) {
        const std::size_t at = std::size_t(i * v + j);
        ASSERT_EQ(part[at], i >= from && i < to ? want_p[at] : -7)
            << what << ": dense rows from " << from << ", count " << count << ": " << i << ", "
            << j;
      }
  }
  EXPECT_THROW(dense.predecessor_rows(into(part, v), v - 1, 2), apsp::Error);
  const apsp::SupernodalPlan sn = apsp::supernodal_symbolic(v, g.edges, perm);
  {  // Its own memory: the least is the fixed part and one row, refused below it.
    apsp::SupernodalSolver<ExecSpace, T> solver(exec, one, sn, true, apsp::weight_range(g));
    const std::uint64_t least = solver.device_bytes(e);
    const auto refused = [&](const apsp::MemoryLimits& limits) {
      try {
        solver.check_memory(limits, e);
      } catch (const apsp::Error& error) {  // agreed on the ranks: its facts say memory
        return error.facts().kind == apsp::ErrorFacts::Kind::memory &&
               error.facts().needed == least && error.facts().capped == (limits.cap > 0);
      }
      return false;
    };
    EXPECT_TRUE(refused({least - 1, 0, "the test's device"})) << what;
    EXPECT_TRUE(refused({least, least - 1, "the test's device"})) << what;
    solver.check_memory({least, 0, "the test's device"}, e);
    EXPECT_EQ(solver.block_rows(), 1) << what;
  }
  for (const std::int64_t block : {std::int64_t(7), v}) {
    apsp::SupernodalSolver<ExecSpace, T> solver(exec, one, sn, true, apsp::weight_range(g));
    solver.check_memory({std::uint64_t(1) << 30, 0, "the test's device"}, e);
    EXPECT_EQ(solver.block_rows(), v) << what;  // the memory holds every row
    solver.set_block_rows(block);
    solver.load(g.edges);
    solver.compute();
    std::int64_t blocks = 0;
    solver.distance_rows(into(got_d, v), [&](std::int64_t, std::int64_t) { ++blocks; });
    EXPECT_EQ(blocks, solver.blocks()) << what;
    EXPECT_EQ(got_d, want_d) << what << ", blocks of " << block;
    solver.select_paths();
    solver.predecessor_rows(into(got_p, v));
    EXPECT_EQ(got_p, want_p) << what << ", blocks of " << block;
    const std::int64_t from = v / 3, to = std::min(v, from + 9);
    solver.predecessor_rows(into(part, v), from, to - from);
    for (std::int64_t i = 0; i < v; ++i)
      for (std::int64_t j = 0; j < v; ++j) {
        const std::size_t at = std::size_t(i * v + j);
        ASSERT_EQ(part[at], i >= from && i < to ? want_p[at] : -7)
            << what << ": " << i << ", " << j;
      }
  }
}

TYPED_TEST(Supernodal, SolverWithPredecessors) {
  using T = typename TestFixture::T;
  using ExecSpace = typename TestFixture::ExecSpace;
  check_solver<ExecSpace, T>(grid(17, 13, 31, 0.1), grid_dissection(17, 13), "grid");
  check_solver<ExecSpace, T>(with_potentials(grid(11, 9, 32, 0.1, true), 33),
                             grid_dissection(11, 9), "directed grid, potentials");
  check_solver<ExecSpace, T>(disjoint(grid(8, 9, 34), random_tree(40, 35)), {}, "grid and tree");
}

// A list's blocks of rows and threads a row (RowSweeps::split): blocks of 1, 3 and 64 rows,
// and on GPUs 64 with two and four threads a row.
template <class ExecSpace>
std::vector<std::pair<std::int64_t, int>> list_blocks() {
  std::vector<std::pair<std::int64_t, int>> out = {{1, 1}, {3, 1}, {64, 1}};
  for (int split = 2; split <= apsp::detail::SweepLaunch<ExecSpace>::most_split; split *= 2)
    out.emplace_back(64, split);
  return out;
}

// The rows of a list of sources (--sources): unsorted, duplicated, in blocks that split it,
// each row the dense one of its vertex: grids, disconnected graphs, deep trees (a path); on GPUs
// whole rows of two and four threads a row too (the top of the tree that the groups share made
// first, each supernode by the lowest group that shares it, then each group's own subtrees).
TYPED_TEST(Supernodal, RowsOfAList) {
  using T = typename TestFixture::T;
  using ExecSpace = typename TestFixture::ExecSpace;
  ExecSpace exec;
  apsp::OneRank one;
  for (const auto& [g, perm] :
       {std::make_pair(grid(17, 13, 41, 0.1), grid_dissection(17, 13)),
        std::make_pair(geometric(90, 0.2, 42), std::vector<std::int32_t>{}),
        std::make_pair(disjoint(grid(8, 9, 43), random_tree(40, 44)), std::vector<std::int32_t>{}),
        std::make_pair(path(70, 45), std::vector<std::int32_t>{})}) {
    const std::int64_t v = g.vertices;
    const auto reference = dense<ExecSpace, T>(g, false);
    const std::vector<std::int32_t> list = {
        std::int32_t(v - 1), 0, 5, 5, std::int32_t(v / 2), 3, std::int32_t(v - 1), 1, 2, 0, 7};
    for (const auto& [block, split] : list_blocks<ExecSpace>()) {
      const apsp::SupernodalPlan sn = apsp::supernodal_symbolic(v, g.edges, perm);
      apsp::SupernodalSolver<ExecSpace, T> solver(exec, one, sn, false, apsp::weight_range(g));
      solver.check_memory({std::uint64_t(1) << 30, 0, "the test's device"},
                          std::int64_t(g.edges.size()));
      solver.set_block_rows(block);
      solver.set_row_split(split);
      solver.load(g.edges);
      solver.compute();
      std::vector<T> got(list.size() * std::size_t(v), T(-7));
      std::int64_t next = 0;
      solver.distance_rows_of(
          list, [&](std::int64_t first, std::int64_t count, const T* rows, std::int64_t stride) {
            EXPECT_EQ(first, next) << "blocks in the list's order";
            next = first + count;
            for (std::int64_t i = 0; i < count; ++i)
              std::copy(rows + i * stride, rows + i * stride + v, got.begin() + (first + i) * v);
          });
      EXPECT_EQ(next, std::int64_t(list.size()));
      for (std::size_t k = 0; k < list.size(); ++k)
        for (std::int64_t j = 0; j < v; ++j)
          ASSERT_EQ(got[k * std::size_t(v) + std::size_t(j)],
                    reference.d[std::size_t(list[k]) * std::size_t(v) + std::size_t(j)])
              << "V = " << v << ", blocks of " << block << ", " << split << " threads a row, row "
              << k << ", column " << j;
      EXPECT_EQ(solver.row_threads(), split);
    }
  }
}

// A table of spread-out, unsorted and duplicated sources and targets (--sources, --targets):
// each row keeps the targets' columns alone (TableColumns), in blocks that split the list, each
// entry the dense one; deep trees (a path), a star, disconnected graphs, a single supernode;
// the backward sweep skips the supernodes above no target.
TYPED_TEST(Supernodal, TablesKeepTheirColumnsAlone) {
  using T = typename TestFixture::T;
  using ExecSpace = typename TestFixture::ExecSpace;
  ExecSpace exec;
  apsp::OneRank one;
  apsp::SupernodalOptions single;  // everything in one supernode
  single.small_subtree = 1 << 20;
  const std::vector<std::tuple<apsp::Graph, std::vector<std::int32_t>, apsp::SupernodalOptions>>
      cases = {{grid(17, 13, 51, 0.1), grid_dissection(17, 13), {}},
               {path(70, 52), {}, {}},
               {star(40, 53), random_order(40, 54), {}},
               {disjoint(grid(8, 9, 55), random_tree(40, 56)), {}, {}},
               {geometric(60, 0.25, 57), {}, single}};
  for (const auto& [g, perm, options] : cases) {
    const std::int64_t v = g.vertices;
    const auto reference = dense<ExecSpace, T>(g, false);
    const auto spread = [&](std::uint32_t seed, int count) {
      std::mt19937 rng(seed);
      std::vector<std::int32_t> list = {std::int32_t(v - 1), 0, std::int32_t(v - 1)};
      while (int(list.size()) < count)
        list.push_back(std::int32_t(rng() % std::uint32_t(v)));
      return list;
    };
    const std::vector<std::int32_t> sources = spread(58, 23);
    // Spread-out targets, and one alone (the backward sweep then makes its root path only).
    for (const auto& targets : {spread(59, 17), std::vector<std::int32_t>{std::int32_t(v / 2)}}) {
      const apsp::SupernodalPlan sn = apsp::supernodal_symbolic(v, g.edges, perm, options);
      for (const auto& [block, split] : list_blocks<ExecSpace>()) {
        apsp::SupernodalSolver<ExecSpace, T> solver(exec, one, sn, false, apsp::weight_range(g));
        solver.check_memory({std::uint64_t(1) << 30, 0, "the test's device"},
                            std::int64_t(g.edges.size()));
        solver.set_block_rows(block);
        solver.set_row_split(split);
        solver.load(g.edges);
        solver.compute();
        std::vector<T> got(sources.size() * targets.size(), T(-7));
        std::int64_t next = 0;
        solver.distance_rows_of(
            sources,
            [&](std::int64_t first, std::int64_t count, const T* rows, std::int64_t stride) {
              EXPECT_EQ(first, next) << "blocks in the list's order";
              EXPECT_LE(count, block);
              next = first + count;
              for (std::int64_t i = 0; i < count; ++i)
                std::copy(rows + i * stride, rows + i * stride + std::int64_t(targets.size()),
                          got.begin() + (first + i) * std::int64_t(targets.size()));
            },
            targets);
        EXPECT_EQ(next, std::int64_t(sources.size()));
        for (std::size_t i = 0; i < sources.size(); ++i)
          for (std::size_t k = 0; k < targets.size(); ++k)
            ASSERT_EQ(
                got[i * targets.size() + k],
                reference.d[std::size_t(sources[i]) * std::size_t(v) + std::size_t(targets[k])])
                << "V = " << v << ", blocks of " << block << ", " << split
                << " threads a row, source " << i << ", target " << k;
      }
    }
  }
}

// Every field of two measures alike, bit for bit.
void expect_same_measures(const apsp::GraphMeasures& a, const apsp::GraphMeasures& b,
                          const std::string& what) {
  EXPECT_EQ(a.eccentricity, b.eccentricity) << what;
  EXPECT_EQ(a.in_eccentricity, b.in_eccentricity) << what;
  EXPECT_EQ(a.reachable, b.reachable) << what;
  EXPECT_EQ(a.in_reachable, b.in_reachable) << what;
  EXPECT_EQ(a.closeness_centrality, b.closeness_centrality) << what;
  EXPECT_EQ(a.harmonic_centrality, b.harmonic_centrality) << what;
  EXPECT_EQ(a.distance_sum, b.distance_sum) << what;
  EXPECT_EQ(a.in_distance_sum, b.in_distance_sum) << what;
  EXPECT_EQ(a.distance_sum_exact, b.distance_sum_exact) << what;
  EXPECT_EQ(a.in_distance_sum_exact, b.in_distance_sum_exact) << what;
  EXPECT_EQ(a.wiener_exact.text(), b.wiener_exact.text()) << what;
  EXPECT_EQ(a.wiener_index, b.wiener_index) << what;
  EXPECT_EQ(a.reachable_pairs, b.reachable_pairs) << what;
  EXPECT_EQ(a.diameter, b.diameter) << what;
  EXPECT_EQ(a.radius, b.radius) << what;
  EXPECT_EQ(a.center, b.center) << what;
  EXPECT_EQ(a.periphery, b.periphery) << what;
  EXPECT_EQ(a.low, b.low) << what;
  EXPECT_EQ(a.high, b.high) << what;
  EXPECT_EQ(a.histogram, b.histogram) << what;
}

// The measures from the columns the sweeps finish (integer distances: MeasureColumns) against
// those of whole rows (every type: the totals of RowTotals and ColumnTotals), bit for bit:
// negative weights, disconnected graphs, deep trees; blocks of one row, a few, all; histograms
// of a few bins and of more than a GPU thread keeps for itself; a budget that holds few rows.
// Symmetric graphs' rows are made in halves (MeasureColumns::half; on host backends the mirrored
// pairs' shares a window of columns at a time: MeasureColumns::host_finished): grids, trees,
// stars, paths, geometric graphs in spread-out orders, zero weights, disconnected, one and two
// vertices.
TYPED_TEST(Supernodal, MeasuresFromFinishedColumns) {
  using T = typename TestFixture::T;
  using ExecSpace = typename TestFixture::ExecSpace;
  ExecSpace exec;
  apsp::OneRank one;
  const std::vector<std::pair<apsp::Graph, std::vector<std::int32_t>>> cases = {
      {grid(17, 13, 61, 0.1), grid_dissection(17, 13)},
      {with_potentials(grid(11, 9, 62, 0.1, true), 63), grid_dissection(11, 9)},
      {disjoint(grid(8, 9, 64), random_tree(40, 65)), {}},
      {path(50, 66), {}},
      {star(30, 67), random_order(30, 68)},
      {grid(9, 7, 69, 0.1, true), {}},
      {mirrored(random_tree(60, 70), 9), {}},
      {disjoint(geometric(70, 0.22, 71), mirrored(star(25, 72))), random_order(95, 73)},
      {mirrored(path(45, 74)), random_order(45, 75)},
      {disjoint(mirrored(random_tree(30, 76)), grid(6, 5, 77, 0.2)), {}},
      {mirrored(path(1, 78)), {}},
      {mirrored(path(2, 79)), {}}};
  for (const auto& [g, perm] : cases) {
    const std::int64_t v = g.vertices, e = std::int64_t(g.edges.size());
    const apsp::SupernodalPlan sn = apsp::supernodal_symbolic(v, g.edges, perm);
    for (const int bins : {0, 10, 100}) {
      // whole: the rows' sink (every row whole, the reference); else the measures' sink, by
      // finished columns.
      const auto measures = [&](bool whole, std::int64_t block, std::uint64_t budget,
                                int split = 0) {
        apsp::SupernodalSolver<ExecSpace, T> solver(exec, one, sn, false, apsp::weight_range(g));
        if (!whole) solver.expect_measures();
        solver.check_memory({budget, 0, "the test's device"}, e);
        if (block > 0) solver.set_block_rows(block);
        solver.set_row_split(split);
        solver.load(g.edges);
        solver.compute();
        std::int64_t blocks = 0;
        const apsp::GraphMeasures m = apsp::graph_measures<T>(
            exec, one, v, solver.first_row(), solver.real_rows(), apsp::MeasureOptions{bins},
            [&](const apsp::MeasureSink<ExecSpace, T>& sink) {
              const apsp::BlockDone done = [&](std::int64_t, std::int64_t) { ++blocks; };
              if (whole)
                solver.reduce_rows(sink.rows, done);
              else
                solver.reduce_rows(sink, done);
            });
        return std::make_pair(m, blocks);
      };
      const std::uint64_t plenty = std::uint64_t(1) << 30;
      const auto want = measures(true, 0, plenty).first;
      const std::string what = "V = " + std::to_string(v) + ", " + std::to_string(bins) + " bins";
      // GPUs: one, two and four threads a row (RowSweeps::split).
      for (const std::int64_t block : {1, 5, 0})
        for (int split = 1; split <= apsp::detail::SweepLaunch<ExecSpace>::most_split; split *= 2) {
          const auto got = measures(false, block, plenty, split);
          expect_same_measures(got.first, want,
                               what + ", blocks of " + std::to_string(block) + ", " +
                                   std::to_string(split) + " threads a row");
        }
      // Room for the fixed part, whole rows' least and a few rows of path arrays: more blocks.
      apsp::SupernodalSolver<ExecSpace, T> probe(exec, one, sn, false, apsp::weight_range(g));
      probe.expect_measures();
      const std::uint64_t tight =
          probe.device_bytes(e) +
          3 * apsp::SupernodalSolver<ExecSpace, T>::path_bytes(sn.prediction);
      const auto got = measures(false, 0, tight);
      expect_same_measures(got.first, want, what + ", a tight budget");
      if (std::is_integral<T>::value && apsp::detail::host_memory<ExecSpace> && v > 8)
        EXPECT_GT(got.second, 1) << what;
    }
  }
}

TEST(SupernodalSymbolic, PredictionsAndErrors) {
  const apsp::Graph g = grid(20, 20, 22);
  const apsp::SupernodalPlan nested =
      apsp::supernodal_symbolic(g.vertices, g.edges, grid_dissection(20, 20));
  const apsp::SupernodalPlan identity = apsp::supernodal_symbolic(g.vertices, g.edges);
  EXPECT_GT(nested.prediction.supernodes, 1);
  EXPECT_LT(nested.prediction.row_updates, identity.prediction.row_updates);
  EXPECT_LT(nested.prediction.updates(), nested.prediction.dense_updates);
  // Every supernode's subtree is contiguous and ends at it; parents come later.
  for (std::int64_t s = 0; s < nested.supernodes(); ++s) {
    EXPECT_LE(nested.subtree_first[s], nested.first[s]);
    if (nested.parent[s] >= 0) EXPECT_GT(nested.parent[s], s);
  }
  // The schedule: every supernode once, a parent above its children; the pool holds the Schur
  // complements of borders up to small_front, each b x b, without overlap.
  ASSERT_EQ(std::int64_t(nested.by_level.size()), nested.supernodes());
  std::vector<std::int64_t> level(std::size_t(nested.supernodes()), -1);
  for (std::size_t h = 0; h + 1 < nested.level_start.size(); ++h)
    for (std::int64_t e = nested.level_start[h]; e < nested.level_start[h + 1]; ++e)
      level[std::size_t(nested.by_level[std::size_t(e)])] = std::int64_t(h);
  std::uint64_t pooled = 0;
  for (const std::int32_t s : nested.by_level) {
    ASSERT_GE(level[std::size_t(s)], 0);
    if (nested.parent[s] >= 0) EXPECT_LT(level[std::size_t(s)], level[nested.parent[s]]);
    const std::uint64_t b = std::uint64_t(nested.border_size(s));
    EXPECT_EQ(nested.pool_offset[s] >= 0, b > 0 && b <= std::uint64_t(nested.small_front));
    if (nested.pool_offset[s] >= 0) {
      EXPECT_EQ(std::uint64_t(nested.pool_offset[s]), pooled);
      pooled += b * b;
    }
  }
  EXPECT_EQ(nested.prediction.levels, std::int64_t(nested.level_start.size()) - 1);
  EXPECT_EQ(nested.prediction.pool_values, pooled);
  EXPECT_GE(nested.prediction.front_values, pooled);
  // With small fronts up to 20 this grid has small fronts, large ones with a pooled Schur
  // complement and large ones whose border passes 20 (the SmallFronts test's mix); with 0, no
  // pool.
  apsp::SupernodalOptions twenty;
  twenty.small_front = 20;
  const apsp::Graph mixed = grid(23, 19, 23, 0.05);
  const apsp::SupernodalPlan mix =
      apsp::supernodal_symbolic(mixed.vertices, mixed.edges, grid_dissection(23, 19), twenty);
  int small = 0, large_pooled = 0, kept = 0;
  for (std::int64_t s = 0; s < mix.supernodes(); ++s) {
    const int c = mix.columns(s), b = mix.border_size(s);
    small += c + b <= 20;
    large_pooled += c + b > 20 && mix.pool_offset[s] >= 0;
    kept += b > 20;
  }
  EXPECT_GT(small, 0);
  EXPECT_GT(large_pooled, 0);
  EXPECT_GT(kept, 0);
  EXPECT_EQ(mix.prediction.small_fronts, small);
  apsp::SupernodalOptions none;
  none.small_front = 0;
  const apsp::SupernodalPlan blocked =
      apsp::supernodal_symbolic(mixed.vertices, mixed.edges, grid_dissection(23, 19), none);
  EXPECT_EQ(blocked.prediction.pool_values, 0u);
  EXPECT_EQ(blocked.prediction.small_fronts, 0);
  for (const int bad : {-4, 6}) {
    apsp::SupernodalOptions options;
    options.small_front = bad;
    EXPECT_THROW(apsp::supernodal_symbolic(g.vertices, g.edges, {}, options), apsp::Error);
  }
  EXPECT_THROW(apsp::supernodal_symbolic(3, {}, {0, 1}), apsp::Error);
  EXPECT_THROW(apsp::supernodal_symbolic(3, {}, {0, 1, 1}), apsp::Error);
  EXPECT_THROW(apsp::supernodal_symbolic(2, {{0, 2, 1}}), apsp::Error);
}

// Each column's place in a row's path arrays: the columns of a root-to-supernode path in
// distinct places below largest_path, which one such path fills; a border vertex at its
// supernode's place.
TEST(SupernodalSymbolic, PathPlaces) {
  for (const auto& [g, perm] :
       {std::make_pair(grid(23, 19, 71, 0.05), grid_dissection(23, 19)),
        std::make_pair(disjoint(grid(8, 9, 72), random_tree(40, 73)), std::vector<std::int32_t>{}),
        std::make_pair(path(60, 74), std::vector<std::int32_t>{}),
        std::make_pair(star(30, 75), random_order(30, 76))}) {
    const apsp::SupernodalPlan plan = apsp::supernodal_symbolic(g.vertices, g.edges, perm);
    std::int64_t longest = 0;
    for (std::int64_t s = 0; s < plan.supernodes(); ++s) {
      std::vector<char> taken(std::size_t(plan.prediction.largest_path), 0);
      std::int64_t length = 0;
      for (std::int32_t a = std::int32_t(s); a >= 0; a = plan.parent[std::size_t(a)]) {
        length += plan.columns(a);
        for (int k = 0; k < plan.columns(a); ++k) {
          const std::int64_t at = plan.path_offset[std::size_t(a)] + k;
          ASSERT_LT(at, plan.prediction.largest_path) << s;
          ASSERT_FALSE(taken[std::size_t(at)]) << "supernode " << s << ", ancestor " << a;
          taken[std::size_t(at)] = 1;
        }
      }
      longest = std::max(longest, length);
    }
    EXPECT_EQ(plan.prediction.largest_path, longest);
    for (std::size_t e = 0; e < plan.border.size(); ++e) {
      const std::int32_t v = plan.border[e], a = plan.supernode_of[std::size_t(v)];
      EXPECT_EQ(plan.border_path[e],
                plan.path_offset[std::size_t(a)] + v - plan.first[std::size_t(a)]);
    }
  }
}

// The groups of threads that make each supernode where a row has several (split_share): every
// supernode by at least one group, none by a group that makes nothing below it (a child's
// groups are its parent's); on these trees, where one has as many leaves as groups, every group
// a supernode of its own, and on a grid's nested dissection no group with much more than an
// even share of the work.
TEST(SupernodalSymbolic, SplitShare) {
  apsp::SupernodalOptions single;  // everything in one supernode
  single.small_subtree = 1 << 20;
  const std::vector<std::tuple<apsp::Graph, std::vector<std::int32_t>, apsp::SupernodalOptions>>
      cases = {{grid(23, 19, 81, 0.05), grid_dissection(23, 19), {}},
               {disjoint(grid(8, 9, 82), random_tree(40, 83)), {}, {}},
               {disjoint(disjoint(path(30, 84), path(20, 85)), star(25, 86)), {}, {}},
               {path(60, 87), {}, {}},
               {star(30, 88), random_order(30, 89), {}},
               {geometric(60, 0.25, 90), {}, single}};
  for (const auto& [g, perm, options] : cases) {
    const apsp::SupernodalPlan plan = apsp::supernodal_symbolic(g.vertices, g.edges, perm, options);
    const std::int64_t count = plan.supernodes();
    std::int64_t leaves = 0;
    for (std::int64_t s = 0; s < count; ++s)
      leaves += plan.child_start[std::size_t(s)] == plan.child_start[std::size_t(s) + 1];
    for (const int split : {1, 2, 4}) {
      const std::vector<std::uint8_t> share = apsp::detail::split_share(plan, split);
      ASSERT_EQ(std::int64_t(share.size()), count);
      std::vector<std::int64_t> own(std::size_t(split), 0);
      std::vector<double> work(std::size_t(split), 0);
      double total = 0;
      for (std::int64_t s = 0; s < count; ++s) {
        const unsigned groups = share[std::size_t(s)];
        ASSERT_NE(groups, 0u) << s;
        ASSERT_EQ(groups >> split, 0u) << s;
        const std::int32_t p = plan.parent[std::size_t(s)];
        if (p >= 0) ASSERT_EQ(groups & ~unsigned(share[std::size_t(p)]), 0u) << s;
        const double c = plan.columns(s), w = c * (c + plan.border_size(s));
        total += w;
        for (int q = 0; q < split; ++q)
          if ((groups >> q) & 1u) {
            work[std::size_t(q)] += w;
            if (groups == (1u << q)) ++own[std::size_t(q)];
          }
      }
      for (int q = 0; q < split; ++q)
        if (leaves >= split) EXPECT_GT(own[std::size_t(q)], 0) << split << " groups, " << q;
      const double most = *std::max_element(work.begin(), work.end());
      if (&g == &std::get<0>(cases.front()))  // 0.53 and 0.35 of the work
        EXPECT_LE(most, (1.0 / split + 0.15) * total) << split << " groups";
    }
  }
}

// Whether in-measures are out-measures: every edge's reverse with the same lightest weight.
TEST(SupernodalSymbolic, SymmetricGraphs) {
  using apsp::detail::symmetric;
  EXPECT_TRUE(symmetric(grid(9, 7, 81, 0.1).edges));
  EXPECT_FALSE(symmetric(grid(9, 7, 82, 0.1, true).edges));
  EXPECT_TRUE(symmetric({{0, 1, 5}, {1, 0, 5}, {0, 1, 9}, {2, 2, 4}}));  // heavier twin, loop
  EXPECT_FALSE(symmetric({{0, 1, 5}, {1, 0, 6}}));
  EXPECT_FALSE(symmetric({{0, 1, 5}}));
  EXPECT_TRUE(symmetric({}));
  // Against the definition, on small random multigraphs: loops, parallel arcs, twins of another
  // weight, vertices without arcs, arcs in any order.
  std::mt19937 rng(11);
  int symmetric_ones = 0;
  for (int t = 0; t < 2000; ++t) {
    const int n = 1 + int(rng() % 7);
    std::vector<apsp::Edge> edges;
    for (int i = int(rng() % 14); i > 0; --i) {
      const int u = int(rng() % n), v = int(rng() % n);
      const double w = double(rng() % 3);
      edges.push_back({u, v, w});
      if (rng() % 3) edges.push_back({v, u, rng() % 4 ? w : double(rng() % 3)});
    }
    std::shuffle(edges.begin(), edges.end(), rng);
    std::map<std::pair<int, int>, double> lightest;
    for (const apsp::Edge& e : edges)
      if (e.src != e.dst) {
        const auto [at, added] = lightest.emplace(std::make_pair(e.src, e.dst), e.weight);
        if (!added) at->second = std::min(at->second, e.weight);
      }
    bool expected = true;
    for (const auto& [arc, w] : lightest) {
      const auto mirror = lightest.find({arc.second, arc.first});
      expected = expected && mirror != lightest.end() && mirror->second == w;
    }
    symmetric_ones += expected;
    EXPECT_EQ(symmetric(edges), expected) << "multigraph " << t;
  }
  EXPECT_GT(symmetric_ones, 100);
  EXPECT_LT(symmetric_ones, 1900);
}

TEST(SupernodalSymbolic, ScheduleInThePlan) {
  apsp::SupernodalOptions twenty;
  twenty.small_front = 20;
  const apsp::Graph g = grid(23, 19, 23, 0.05);
  const apsp::SupernodalPlan plan =
      apsp::supernodal_symbolic(g.vertices, g.edges, grid_dissection(23, 19), twenty);
  const std::int64_t supernodes = plan.supernodes();
  for (std::int64_t s = 0; s < supernodes; ++s)
    for (std::int32_t j = plan.first[s]; j < plan.first[s + 1]; ++j)
      EXPECT_EQ(plan.supernode_of[std::size_t(j)], s) << "column " << j;
  // The child lists: each supernode under its parent, ascending.
  ASSERT_EQ(std::int64_t(plan.child_start.size()), supernodes + 1);
  std::int64_t children = 0;
  for (std::int64_t s = 0; s < supernodes; ++s) {
    children += plan.parent[s] >= 0;
    for (std::int32_t k = plan.child_start[s]; k < plan.child_start[s + 1]; ++k) {
      EXPECT_EQ(plan.parent[plan.child[std::size_t(k)]], s);
      if (k > plan.child_start[s]) EXPECT_LT(plan.child[std::size_t(k) - 1], plan.child[k]);
    }
  }
  EXPECT_EQ(std::int64_t(plan.child.size()), children);
  // The values: C_ss, A(s,Bd), A(Bd,s) of each supernode, rows padded to 16, back to back.
  ASSERT_EQ(std::int64_t(plan.values_start.size()), supernodes + 1);
  EXPECT_EQ(plan.values_start[0], 0);
  const auto pad16 = [](std::int64_t n) { return (n + 15) / 16 * 16; };
  for (std::int64_t s = 0; s < supernodes; ++s) {
    const std::int64_t c = plan.columns(s), b = plan.border_size(s);
    EXPECT_EQ(plan.values_start[s + 1] - plan.values_start[s],
              c * pad16(c) + c * pad16(b) + b * pad16(c))
        << "supernode " << s;
  }
  EXPECT_EQ(std::uint64_t(plan.values_start.back()), plan.prediction.factor_values);
  // Each level's small fronts and large ones, for the plan's limit and a smaller one: together
  // the level in ascending ids, the small ones within the limit; the workspace holds the
  // largest large front that leaves nothing in its front.
  for (const int limit : {20, 16}) {
    const apsp::SupernodalSchedule schedule =
        limit == 20 ? plan.schedule : apsp::detail::front_schedule(plan, limit);
    EXPECT_EQ(schedule.small_front, limit);
    ASSERT_EQ(schedule.levels(), plan.prediction.levels);
    std::int64_t workspace = 0, small = 0;
    for (std::int64_t h = 0; h < schedule.levels(); ++h) {
      std::vector<std::int32_t> level;
      for (std::int64_t e = schedule.small_start[h]; e < schedule.small_start[h + 1]; ++e) {
        const std::int32_t s = schedule.small[std::size_t(e)];
        EXPECT_LE(plan.columns(s) + plan.border_size(s), limit);
        level.push_back(s);
        ++small;
      }
      for (std::int64_t e = schedule.large_start[h]; e < schedule.large_start[h + 1]; ++e) {
        const std::int32_t s = schedule.large[std::size_t(e)];
        EXPECT_GT(plan.columns(s) + plan.border_size(s), limit);
        if (plan.pool_offset[s] >= 0 || plan.parent[s] < 0)
          workspace = std::max<std::int64_t>(workspace, plan.front_size(s));
        level.push_back(s);
      }
      std::sort(level.begin(), level.end());
      EXPECT_EQ(level, std::vector<std::int32_t>(plan.by_level.begin() + plan.level_start[h],
                                                 plan.by_level.begin() + plan.level_start[h + 1]))
          << "level " << h << ", small fronts up to " << limit;
    }
    EXPECT_EQ(schedule.workspace, workspace) << limit;
    if (limit == 20) {
      EXPECT_EQ(small, plan.prediction.small_fronts);
      EXPECT_GT(small, 0);
    }
    EXPECT_GT(std::int64_t(schedule.large.size()), 0) << limit;
  }
}

// Every field of two plans alike.
void expect_same_plan(const apsp::SupernodalPlan& a, const apsp::SupernodalPlan& b,
                      const std::string& what) {
  EXPECT_EQ(a.vertices, b.vertices) << what;
  EXPECT_EQ(a.tile, b.tile) << what;
  EXPECT_EQ(a.perm, b.perm) << what;
  EXPECT_EQ(a.position, b.position) << what;
  EXPECT_EQ(a.first, b.first) << what;
  EXPECT_EQ(a.supernode_of, b.supernode_of) << what;
  EXPECT_EQ(a.subtree_first, b.subtree_first) << what;
  EXPECT_EQ(a.parent, b.parent) << what;
  EXPECT_EQ(a.child_start, b.child_start) << what;
  EXPECT_EQ(a.child, b.child) << what;
  EXPECT_EQ(a.border_start, b.border_start) << what;
  EXPECT_EQ(a.border, b.border) << what;
  EXPECT_EQ(a.relative, b.relative) << what;
  EXPECT_EQ(a.values_start, b.values_start) << what;
  EXPECT_EQ(a.small_front, b.small_front) << what;
  EXPECT_EQ(a.by_level, b.by_level) << what;
  EXPECT_EQ(a.level_start, b.level_start) << what;
  EXPECT_EQ(a.pool_offset, b.pool_offset) << what;
  EXPECT_EQ(a.schedule.small_front, b.schedule.small_front) << what;
  EXPECT_EQ(a.schedule.small, b.schedule.small) << what;
  EXPECT_EQ(a.schedule.small_start, b.schedule.small_start) << what;
  EXPECT_EQ(a.schedule.large, b.schedule.large) << what;
  EXPECT_EQ(a.schedule.large_start, b.schedule.large_start) << what;
  EXPECT_EQ(a.schedule.workspace, b.schedule.workspace) << what;
  EXPECT_EQ(a.path_offset, b.path_offset) << what;
  EXPECT_EQ(a.border_path, b.border_path) << what;
  const apsp::SupernodalPrediction &p = a.prediction, &q = b.prediction;
  EXPECT_EQ(p.supernodes, q.supernodes) << what;
  EXPECT_EQ(p.largest_supernode, q.largest_supernode) << what;
  EXPECT_EQ(p.largest_border, q.largest_border) << what;
  EXPECT_EQ(p.largest_front, q.largest_front) << what;
  EXPECT_EQ(p.factor_values, q.factor_values) << what;
  EXPECT_EQ(p.front_values, q.front_values) << what;
  EXPECT_EQ(p.pool_values, q.pool_values) << what;
  EXPECT_EQ(p.levels, q.levels) << what;
  EXPECT_EQ(p.small_fronts, q.small_fronts) << what;
  EXPECT_EQ(p.factor_updates, q.factor_updates) << what;
  EXPECT_EQ(p.row_updates, q.row_updates) << what;
  EXPECT_EQ(p.dense_updates, q.dense_updates) << what;
  EXPECT_EQ(p.fill_exceeded, q.fill_exceeded) << what;
  EXPECT_EQ(p.largest_path, q.largest_path) << what;
}

// Two ranks in one process: rank 0 records what it broadcasts, rank 1 receives it from the
// record, in the same order and sizes.
class TapeRanks final : public apsp::Ranks {
 public:
  TapeRanks(int rank, std::vector<std::vector<char>>& tape) : rank_(rank), tape_(tape) {}
  int rank() const override { return rank_; }
  int size() const override { return 2; }
  void broadcast(void* data, std::uint64_t bytes, int root) override {
    ASSERT_EQ(root, 0);
    char* p = static_cast<char*>(data);
    if (rank_ == root) {
      tape_.emplace_back(p, p + bytes);
      return;
    }
    ASSERT_LT(next_, tape_.size());
    ASSERT_EQ(tape_[next_].size(), bytes);
    std::copy(tape_[next_].begin(), tape_[next_].end(), p);
    ++next_;
  }
  void min(std::int64_t*, int) override { FAIL() << "not a collective of broadcast_plan"; }
  std::vector<char> gather(const void*, std::uint64_t, int) override {
    ADD_FAILURE() << "not a collective of broadcast_plan";
    return {};
  }
  std::vector<char> scatter(const void*, const std::vector<std::uint64_t>&, int, int) override {
    ADD_FAILURE() << "not a collective of broadcast_plan";
    return {};
  }
  std::unique_ptr<apsp::Ranks> split(int) override { return nullptr; }
  std::unique_ptr<apsp::Ranks> sharing_device(int) override { return nullptr; }

 private:
  int rank_;
  std::vector<std::vector<char>>& tape_;
  std::size_t next_ = 0;
};

TEST(SupernodalSymbolic, PlanBroadcast) {
  apsp::SupernodalOptions twenty;
  twenty.small_front = 20;
  const apsp::Graph g = grid(23, 19, 23, 0.05);
  apsp::SupernodalOptions tiny_fill;
  tiny_fill.max_fill = 10;
  for (const auto& [plan, what] :
       {std::pair{apsp::supernodal_symbolic(g.vertices, g.edges, grid_dissection(23, 19), twenty),
                  std::string("grid")},
        {apsp::supernodal_symbolic(g.vertices, g.edges, {}, tiny_fill), "fill exceeded"},
        {apsp::supernodal_symbolic(0, {}), "no vertex"}}) {
    // From bytes.
    expect_same_plan(apsp::detail::plan_from_bytes(apsp::detail::plan_bytes(plan)), plan,
                     what + ", from bytes");
    // One rank: root keeps its plan.
    apsp::OneRank one;
    apsp::SupernodalPlan kept = plan;
    apsp::broadcast_plan(one, kept);
    expect_same_plan(kept, plan, what + ", one rank");
    // Two: rank 1 starts from nothing (or another plan) and ends with rank 0's.
    std::vector<std::vector<char>> tape;
    TapeRanks root(0, tape), other(1, tape);
    apsp::SupernodalPlan sent = plan, received = apsp::supernodal_symbolic(3, {{0, 1, 5}});
    apsp::broadcast_plan(root, sent);
    apsp::broadcast_plan(other, received);
    expect_same_plan(sent, plan, what + ", root");
    expect_same_plan(received, plan, what + ", rank 1");
  }
  // Bytes cut short or followed by more are refused.
  std::vector<char> bytes = apsp::detail::plan_bytes(
      apsp::supernodal_symbolic(g.vertices, g.edges, grid_dissection(23, 19), twenty));
  bytes.push_back(0);
  EXPECT_THROW(apsp::detail::plan_from_bytes(bytes), apsp::Error);
  bytes.resize(bytes.size() / 2);
  EXPECT_THROW(apsp::detail::plan_from_bytes(bytes), apsp::Error);
}

// A plan read from a file is checked before anything indexes by it (detail::check_plan,
// check_plan_edges): every plan the symbolic phase makes passes, with its edges; a plan with one
// field forged, or edges it was not made of, is refused.
TEST(SupernodalSymbolic, CheckedPlans) {
  apsp::SupernodalOptions twenty, wide, none;
  twenty.small_front = 20;
  wide.tile = 64;
  none.small_front = 0;
  apsp::Graph isolated;
  isolated.vertices = 30;
  const apsp::Graph g = grid(23, 19, 23, 0.05);
  const std::vector<std::pair<apsp::Graph, std::vector<std::int32_t>>> graphs = {
      {g, grid_dissection(23, 19)},
      {g, {}},
      {geometric(300, 0.08, 4), random_order(300, 3)},
      {disjoint(grid(8, 9, 8), random_tree(40, 9)), {}},
      {star(40, 7), {}},
      {isolated, {}},
      {apsp::Graph{1, {}}, {}}};
  for (const auto& [graph, perm] : graphs)
    for (const apsp::SupernodalOptions& options : {apsp::SupernodalOptions{}, twenty, wide, none}) {
      const apsp::SupernodalPlan plan =
          apsp::supernodal_symbolic(graph.vertices, graph.edges, perm, options);
      EXPECT_NO_THROW(apsp::detail::check_plan(plan)) << graph.vertices;
      EXPECT_NO_THROW(apsp::detail::check_plan_edges(plan, graph.edges)) << graph.vertices;
    }
  const apsp::SupernodalPlan plan =
      apsp::supernodal_symbolic(g.vertices, g.edges, grid_dissection(23, 19), twenty);
  ASSERT_GT(plan.supernodes(), 8);
  const auto refused = [&](const std::string& what, const auto& forge) {
    apsp::SupernodalPlan forged = plan;
    forge(forged);
    EXPECT_THROW(apsp::detail::check_plan(forged), apsp::Error) << what;
  };
  refused("perm", [](auto& p) { std::swap(p.perm[0], p.perm[1]); });
  refused("first", [](auto& p) { ++p.first[1]; });
  refused("border", [](auto& p) { p.border.at(0) = std::int32_t(p.vertices); });
  refused("parent", [](auto& p) { p.parent[0] = std::int32_t(p.supernodes()); });
  refused("values", [](auto& p) { ++p.values_start.back(); });
  refused("tile", [](auto& p) { p.tile = 0; });
  refused("schedule", [](auto& p) { p.schedule.workspace += 1; });
  refused("path places", [](auto& p) { ++p.path_offset.back(); });
  refused("prediction", [](auto& p) { --p.prediction.largest_path; });
  refused("fill exceeded", [](auto& p) { p.prediction.fill_exceeded = true; });
  // An edge from supernode 0's first column to a vertex neither among its columns nor in its
  // border: not of this plan's graph.
  const std::vector<std::int32_t> border0(plan.border.begin(),
                                          plan.border.begin() + plan.border_start[1]);
  std::int32_t x = plan.first[1];
  while (std::count(border0.begin(), border0.end(), x) > 0)
    ++x;
  std::vector<apsp::Edge> edges = g.edges;
  edges.push_back({plan.perm[0], plan.perm[std::size_t(x)], 1});
  EXPECT_THROW(apsp::detail::check_plan_edges(plan, edges), apsp::Error);
}

}  // namespace
