// The shortest paths themselves: predecessor rows from the final distances and the graph.
//
// The rule, a function of the graph alone (whatever computed the distances: every tile shape,
// backend and number of ranks gives the same predecessor file):
//   pred(i,j) = the smallest u with an edge u -> j that ends a shortest path of fewest edges,
//               i.e. d(i,u) + w(u,j) = d(i,j) (the edge is tight) and h(i,u) + 1 = h(i,j),
//               where h(i,j) is the fewest edges of a shortest i -> j path (h(i,i) = 0);
//   pred(i,j) = -1 (no_vertex) for j = i and where there is no path.
// Every pointer goes one level of h down, so following pred(i, .) back from any j reaches i in
// h(i,j) steps: each row is a tree, also with zero-weight cycles, where pointers chosen by the
// distances alone can loop (bench/predecessor_loops.cpp); every step is tight, so the path has
// length d(i,j) exactly.
//
// How: row i is a breadth-first search from i over its tight edges, level by level; a vertex
// first met at level L + 1 takes the smallest of its tight in-neighbours of level L. Only
// shortest-path edges can be tight in any row (u -> j with w(u,j) = d(u,j), u != j: PathEdges
// selects them once), which on dense graphs leaves few of the V^2 edges (at density 1 and
// weights 0..1000 nearly all distances are 0 and only the zero-weight edges remain). The search
// stops as soon as it has met every vertex the row reaches (counted from the distances), so a
// row where everything is one edge away costs one level. The cost is the sum, over rows, of the
// shortest-path edges out of the vertices met: V * E' at most (E' of them), where Floyd-Warshall
// costs V^3.
//
// Rows are independent and read only their own distance row and the shortest-path edges: a row
// block (the rows an MPI rank holds) computes its predecessor rows alone once it has the
// shortest-path edges, and a rank can select those leaving its own rows.
//
// On a device one team searches one row: its threads share each level's vertices; one bit per
// vertex in scratch marks the vertices of earlier levels, and a level's claims are atomic minima,
// so the result does not depend on the threads' timing.
#pragma once

#include <apsp/detail/execution_spaces.hpp>
#include <apsp/detail/index_ranges.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace apsp {

// pred(i,j) = the vertex before j on a shortest i -> j path; no_vertex for j = i and where
// there is no path.
constexpr int no_vertex = -1;

// When an edge u -> j of weight w ends a shortest i -> j path: d(i,u) + w = d(i,j). With
// distances of type T = int the sums are exact and so is the test (slack 0, unit 0). Floats
// round, so the equality is too strict and any fixed slack too loose: a slack relative to the
// distances lets a path whose last edges cancel, or one a little longer than the shortest, pass
// (1e15 + -999999999999990 = 10 "ends" a path of length 0.5 when the slack scales with 1e15).
//
// So with floats the search follows paths, not single edges: the path P to u that the search
// already chose has m edges, length L(P) and absolute sum S(P) = sum |w|, and u -> j extends it
// when the path to j that results is within the rounding of a sum of its own edges:
//   |L(P) + w - d(i,j)| <= m * unit * (S(P) + |w|),
// that is (edges - 1) u sum|w| for the m + 1 edges to j, u = unit the unit roundoff of T. A path of
// one edge must be exact (w = d(i,j)), and a path of cancelling heavy edges is held to its own
// sums, however large. The search keeps gap = L(P) - d(i,u) and S(P) for each vertex it meets
// (extends() below forms the new gap exactly enough: a + w by TwoSum, then the difference to d(i,j)
// in double). The solver's rounded distance d(i,j) is a rounded sum of some path's edges, within (m
// - 1) u sum|w| of its exact length, so a path that passes exists for every reachable j; the
// search, choosing one prefix per vertex, can miss it, and then a vertex left unmet takes the local
// test below with `slack` from every vertex met (on random float32 and float64 graphs of V = 1000
// and 2000, with and without negative weights, all 10 million paths reported met the bound; before
// this rule 3284 to 34292 per graph did not).
//
// The local test, a relative `slack` s: d(i,u) + w <= d(i,j) + s * (|d(i,u)| + |w| + |d(i,j)|)
// (final distances satisfy d(i,j) <= d(i,u) + w, so with s = 0 this is the equality). It also
// selects the edges a search may use (tight_edges), and with unit = 0 it is the whole rule:
// s = 0 where every sum is exact (integer weights whose path lengths fit the type's mantissa).
template <class T>
struct Tightness {
  T slack = 0;
  double unit = 0;  // the unit roundoff of T where sums round, else 0 (the local test alone)
  KOKKOS_INLINE_FUNCTION static T magnitude(T x) { return x < T(0) ? -x : x; }
  KOKKOS_INLINE_FUNCTION bool operator()(T from, T w, T to) const {
    if (from == Distance<T>::infinity || to == Distance<T>::infinity) return false;
    const T allowed =
        slack == T(0) ? to : to + slack * (magnitude(from) + magnitude(w) + magnitude(to));
    return from + w <= allowed;
  }
  // Whether the path to u (`edges` edges, `gap` = its length - from, `total` = its sum |w|)
  // extends by u -> j: then `next_gap` and `next_total` are those of the path to j.
  KOKKOS_INLINE_FUNCTION bool extends(T from, T w, T to, double gap, double total, int edges,
                                      double& next_gap, double& next_total) const {
    if (from == Distance<T>::infinity || to == Distance<T>::infinity) return false;
    // from + w = s + e exactly (TwoSum); s - to is exact where it matters (Sterbenz), so the
    // only rounding left is that of a double sum of tiny terms.
    const double a = double(from), b = double(w), s = a + b, bb = s - a;
    const double e = (a - (s - bb)) + (b - bb);
    next_gap = gap + ((s - double(to)) + e);
    next_total = total + (b < 0 ? -b : b);
    const double g = next_gap < 0 ? -next_gap : next_gap;
    return g <= double(edges) * unit * next_total;
  }
};

// The rule for distances of type T on V vertices: the slack of rounding_slack (distance.hpp),
// 0 where every sum is exact, and then paths followed with T's unit roundoff.
template <class T>
Tightness<T> tightness_for(std::int64_t vertices, bool integer_weights, double max_abs) {
  const double slack = rounding_slack<T>(vertices, integer_weights, max_abs);
  return Tightness<T>{T(slack), slack > 0 ? unit_roundoff<T>() : 0.0};
}

// The shortest-path edges by source: u -> targets(e) of weight weights(e) for e in
// [offsets(u), offsets(u + 1)).
template <class ExecSpace, class T = int>
struct PathEdges {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<std::int64_t*, memory_space> offsets;
  Kokkos::View<int*, memory_space> targets;
  Kokkos::View<T*, memory_space> weights;

  // Device memory for `edges` of V vertices at most.
  static std::uint64_t bytes(std::int64_t vertices, std::int64_t edges) {
    return 2 * std::uint64_t(vertices + 1) * sizeof(std::int64_t) +
           std::uint64_t(edges) * (sizeof(int) + sizeof(T));
  }
};

namespace detail {

template <class ExecSpace, class T>
struct IsPathEdge {
  DistanceMatrix<ExecSpace, T> rows;
  std::int64_t first, count;
  Tightness<T> tight;
  template <class E>
  KOKKOS_INLINE_FUNCTION bool operator()(const E& e) const {
    const std::int64_t r = e.src - first;
    return e.src != e.dst && r >= 0 && r < count && tight(T(0), T(e.weight), rows(r, e.dst));
  }
};

// The kernels of tight_edges and path_edges, as named functors (not KOKKOS_LAMBDA:
// detail/supernodal_kernels.hpp says why).
template <class Edges, class Tight>
struct CountTightEdges {
  Edges edges;
  Tight tight;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e, std::int64_t& sum) const {
    sum += tight(edges(e)) ? 1 : 0;
  }
};
template <class Edges, class Tight>
struct PlaceTightEdges {
  Edges edges, out;
  Tight tight;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e, std::int64_t& at, bool final) const {
    if (!tight(edges(e))) return;
    if (final) out(at) = edges(e);
    ++at;
  }
};
template <class Edges, class Offsets>
struct CountBySource {
  Edges edges;
  Offsets offsets;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    Kokkos::atomic_add(&offsets(edges(e).src + 1), std::int64_t(1));
  }
};
template <class Offsets>
struct PrefixSums {
  Offsets offsets;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t u, std::int64_t& sum, bool final) const {
    sum += offsets(u);
    if (final) offsets(u) = sum;
  }
};
template <class Edges, class Offsets, class Targets, class Weights>
struct PlaceBySource {
  Edges edges;
  Offsets next;
  Targets targets;
  Weights weights;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    const auto edge = edges(e);
    const std::int64_t at = Kokkos::atomic_fetch_add(&next(edge.src), std::int64_t(1));
    targets(at) = edge.dst;
    weights(at) = typename Weights::value_type(edge.weight);
  }
};

}  // namespace detail

// The shortest-path edges among `edges` that leave rows [first, first + rows.extent(0)) of the
// final distance matrix (all of them with one process): w(u,j) = d(u,j), u != j. A rank selects
// those of its own rows; the ranks' selections together are every shortest-path edge. `edges`
// is a DeviceEdges, or any view of src/dst/weight records (real weights).
template <class ExecSpace, class T, class Edges>
Edges tight_edges(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& rows,
                  std::int64_t first, const Edges& edges, Tightness<T> rule = {}) {
  detail::ScopedRegion region("apsp::tight_edges");
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Tight = detail::IsPathEdge<ExecSpace, T>;
  const Tight tight{rows, first, std::int64_t(rows.extent(0)), rule};
  std::int64_t total = 0;
  Kokkos::parallel_reduce("apsp::paths::count_tight_edges", Range(exec, 0, edges.size()),
                          detail::CountTightEdges<Edges, Tight>{edges, tight}, total);
  Edges out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::tight_edges"), total);
  detail::scan_indices("apsp::paths::place_tight_edges", exec, 0, std::int64_t(edges.size()),
                       detail::PlaceTightEdges<Edges, Tight>{edges, out, tight});
  exec.fence();
  return out;
}

// The shortest-path edges (every rank's tight_edges) by source, for V vertices, with weights of
// type T.
template <class T = int, class ExecSpace, class Edges>
PathEdges<ExecSpace, T> path_edges(const ExecSpace& exec, std::int64_t vertices,
                                   const Edges& edges) {
  detail::ScopedRegion region("apsp::path_edges");
  using memory_space = typename ExecSpace::memory_space;
  using Offsets = Kokkos::View<std::int64_t*, memory_space>;
  PathEdges<ExecSpace, T> out;
  out.offsets = Offsets("apsp::path_edges_offsets", vertices + 1);
  // Counts by source (in offsets(u + 1)), their prefix sums, then each edge at its source's
  // next free place (the order within a source does not matter to the rule).
  detail::for_each_index("apsp::paths::count_path_edges", exec, 0, std::int64_t(edges.size()),
                         detail::CountBySource<Edges, Offsets>{edges, out.offsets});
  detail::scan_indices("apsp::paths::path_edge_offsets", exec, 0, vertices + 1,
                       detail::PrefixSums<Offsets>{out.offsets});
  const std::int64_t total = edges.size();
  out.targets = Kokkos::View<int*, memory_space>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::path_edges_targets"), total);
  out.weights = Kokkos::View<T*, memory_space>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::path_edges_weights"), total);
  Offsets next(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::path_edges_next"), vertices);
  Kokkos::deep_copy(exec, next,
                    Kokkos::subview(out.offsets, std::make_pair(std::int64_t(0), vertices)));
  detail::for_each_index(
      "apsp::paths::place_path_edges", exec, 0, std::int64_t(edges.size()),
      detail::PlaceBySource<Edges, Offsets, Kokkos::View<int*, memory_space>,
                            Kokkos::View<T*, memory_space>>{edges, next, out.targets, out.weights});
  exec.fence();
  return out;
}

// Both for one process: the shortest-path edges of the whole final matrix.
template <class ExecSpace, class T, class Edges>
PathEdges<ExecSpace, T> select_path_edges(const ExecSpace& exec,
                                          const DistanceMatrix<ExecSpace, T>& dist,
                                          std::int64_t vertices, const Edges& edges,
                                          Tightness<T> rule = {}) {
  return path_edges<T>(exec, vertices, tight_edges(exec, dist, 0, edges, rule));
}

namespace detail {

// The search of row `first + r` into pred(r, .); see the top of the file. queue(r, .) holds the
// vertices met, level after level.
template <class ExecSpace, class T>
struct PredecessorSearch {
  using Matrix = DistanceMatrix<ExecSpace>;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Bits = Kokkos::View<unsigned*, typename ExecSpace::scratch_memory_space,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int unset = 0x7fffffff;  // above every vertex, for the minima

  DistanceMatrix<ExecSpace, T> dist;
  Matrix pred, queue;
  // Of each vertex met (tight.unit > 0 only): its path's length - d(i, .) and sum |w|.
  DistanceMatrix<ExecSpace, T> gap, total;
  PathEdges<ExecSpace, T> edges;
  Tightness<T> tight;
  std::int64_t first;       // the row of pred(0, .)
  std::int64_t dist_first;  // the row of dist(0, .)
  int vertices, level;

  // Bits of the vertices and one more word, the end of the queue.
  static std::size_t scratch(std::int64_t n) { return Bits::shmem_size((n + 31) / 32 + 1); }

  // Whether u -> j (weight w) may give j its predecessor: the path test at `depth` (the edges of
  // the path to u) while `paths`, else the local test.
  KOKKOS_INLINE_FUNCTION bool passes(bool paths, const T* d, const T* g, const T* t, int u, T w,
                                     int j, int depth, double& next_gap, double& next_total) const {
    if (!paths) return tight(d[u], w, d[j]);
    return tight.extends(d[u], w, d[j], double(g[u]), double(t[u]), depth, next_gap, next_total);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int r = team.league_rank();
    const int i = int(first + r);
    const int n = int(pred.extent(1)), words = (n + 31) / 32;
    const T* d = &dist(first + r - dist_first, 0);
    int* p = &pred(r, 0);
    int* q = &queue(r, 0);
    const bool track = tight.unit > 0;
    T* g = track ? &gap(r, 0) : nullptr;
    T* t = track ? &total(r, 0) : nullptr;
    const Bits met(team.team_scratch(level), words + 1);
    unsigned* end = &met(words);
    const bool shared = team.team_size() > 1;

    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](int w) { met(w) = 0; });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int x) { p[x] = unset; });
    int reachable = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, vertices),
        [&](int x, int& sum) { sum += d[x] != Distance<T>::infinity ? 1 : 0; }, reachable);
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      met(i / 32) = 1u << (i % 32);
      q[0] = i;
      *end = 1;
      if (track) g[i] = t[i] = T(0);
    });
    team.team_barrier();
    int head = 0, tail = 1;  // the current level: q[head, tail)
    int depth = 0;           // its paths' edges (while `paths`)
    bool paths = track;
    while (tail < reachable) {
      if (head == tail) {
        // Vertices the path test left unmet (see Tightness): the local test, from every
        // vertex met.
        if (!paths) break;
        paths = false;
        head = 0;
      }
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, head, tail), [&](int s) {
        const int u = q[s];
        for (std::int64_t e = edges.offsets(u); e < edges.offsets(u + 1); ++e) {
          const int j = edges.targets(e);
          if ((met(j / 32) >> (j % 32)) & 1u) continue;
          double next_gap, next_total;
          if (!passes(paths, d, g, t, u, edges.weights(e), j, depth, next_gap, next_total))
            continue;
          if (shared) {
            if (Kokkos::atomic_fetch_min(&p[j], u) == unset)
              q[Kokkos::atomic_fetch_add(end, 1u)] = j;
          } else if (u < p[j]) {
            if (p[j] == unset) q[(*end)++] = j;
            p[j] = u;
          }
        }
      });
      team.team_barrier();
      const int next = int(*end);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tail, next), [&](int s) {
        const int j = q[s];
        if (track) {
          // The path to j is the chosen u's and the lightest of u's edges to j that passes.
          const int u = p[j];
          double best_w = 0, best_gap = 0, best_total = 0;
          bool found = false;
          for (std::int64_t e = edges.offsets(u); e < edges.offsets(u + 1); ++e) {
            const T w = edges.weights(e);
            double next_gap = 0, next_total = 0;
            if (edges.targets(e) != j || (found && double(w) >= best_w) ||
                !passes(paths, d, g, t, u, w, j, depth, next_gap, next_total))
              continue;
            if (!paths) {
              next_gap = double(g[u]) + ((double(d[u]) + double(w)) - double(d[j]));
              next_total = double(t[u]) + (w < T(0) ? -double(w) : double(w));
            }
            found = true;
            best_w = double(w);
            best_gap = next_gap;
            best_total = next_total;
          }
          g[j] = T(best_gap);
          t[j] = T(best_total);
        }
        if (shared)
          Kokkos::atomic_fetch_or(&met(j / 32), 1u << (j % 32));
        else
          met(j / 32) |= 1u << (j % 32);
      });
      team.team_barrier();
      head = tail;
      tail = next;
      ++depth;
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int x) {
      if (p[x] == unset) p[x] = no_vertex;
    });
  }
};

}  // namespace detail

// Predecessor rows, `batch` rows at a time, from a block of rows of the final distance matrix
// (`dist` holds rows [dist_first, dist_first + dist.extent(0)) of N columns, `vertices` of
// them real) and the graph's shortest-path edges.
// With float distances, `rule` is the Tightness the edges were selected with.
template <class ExecSpace, class T = int>
class PredecessorRows {
 public:
  using Matrix = DistanceMatrix<ExecSpace>;

  PredecessorRows(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& dist,
                  std::int64_t dist_first, std::int64_t vertices,
                  const PathEdges<ExecSpace, T>& edges, std::int64_t batch, Tightness<T> rule = {})
      : exec_(exec),
        dist_(dist),
        edges_(edges),
        dist_first_(dist_first),
        vertices_(vertices),
        rule_(rule) {
    const std::int64_t n = dist.extent(1);
    const auto alloc = [&](const char* label) {
      return Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), batch, n);
    };
    pred_ = alloc("apsp::pred");
    queue_ = alloc("apsp::pred_queue");
    if (rule.unit > 0) {
      const auto paths = [&](const char* label) {
        return DistanceMatrix<ExecSpace, T>(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), batch, n);
      };
      gap_ = paths("apsp::pred_path_gap");
      total_ = paths("apsp::pred_path_total");
    }
  }

  // Device memory of `batch` rows of N: the rows and their queues, and with floats the
  // paths' gaps and sums (Tightness).
  static std::uint64_t bytes(std::int64_t batch, std::int64_t n) {
    const std::uint64_t one = matrix_bytes(batch, n);
    const std::uint64_t paths = std::is_integral<T>::value ? 0 : matrix_bytes(batch, n, sizeof(T));
    return one > UINT64_MAX / 4 || paths > UINT64_MAX / 4 ? UINT64_MAX : 2 * one + 2 * paths;
  }

  // The search on another block of distance rows, of the same width (the buffers are kept: a
  // solve that makes its distance rows a block at a time, supernodal.hpp).
  void use_rows(const DistanceMatrix<ExecSpace, T>& dist, std::int64_t dist_first) {
    if (dist.extent(1) != dist_.extent(1))
      throw Error("predecessor rows: a block of " + std::to_string(dist.extent(1)) +
                  " columns for a search of " + std::to_string(dist_.extent(1)));
    dist_ = dist;
    dist_first_ = dist_first;
  }

  // Rows [first, first + count) of the predecessor matrix, count <= batch, all in the block of
  // distance rows: row r of the result is row first + r (its first V entries).
  const Matrix& compute(std::int64_t first, std::int64_t count) {
    detail::ScopedRegion region("apsp::predecessor_rows");
    if (count > std::int64_t(pred_.extent(0)) || first < dist_first_ || count < 0 ||
        first + count > std::min(vertices_, dist_first_ + std::int64_t(dist_.extent(0))))
      throw Error("predecessor rows [" + std::to_string(first) + ", " +
                  std::to_string(first + count) + ") out of range");
    if (count == 0) return pred_;
    using Search = detail::PredecessorSearch<ExecSpace, T>;
    using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    // One thread per row on CPUs (rows are plentiful); on GPUs a team per row, with the bits
    // in the scratch pad where they fit. Large teams: few rows at once on a multiprocessor keep
    // their distance rows, read at random by the search, in its L1 cache (the team sizes
    // measured: docs/PERFORMANCE.md, "GPU predecessor rows in larger teams").
    const bool host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
    const std::size_t scratch = Search::scratch(pred_.extent(1));
    const int level = detail::scratch_level<Policy>(scratch);
    const Search search{dist_, pred_, queue_,      gap_,           total_, edges_,
                        rule_, first, dist_first_, int(vertices_), level};
    const int team = host ? 1
                          : std::min(512, Policy(exec_, 1, 1)
                                              .set_scratch_size(level, Kokkos::PerTeam(scratch))
                                              .team_size_max(search, Kokkos::ParallelForTag()));
    Kokkos::parallel_for(
        "apsp::paths::predecessor_search",
        Policy(exec_, int(count), team).set_scratch_size(level, Kokkos::PerTeam(scratch)), search);
    exec_.fence();
    return pred_;
  }

 private:
  ExecSpace exec_;
  DistanceMatrix<ExecSpace, T> dist_;
  Matrix pred_, queue_;
  DistanceMatrix<ExecSpace, T> gap_, total_;
  PathEdges<ExecSpace, T> edges_;
  std::int64_t dist_first_, vertices_;
  Tightness<T> rule_;
};

}  // namespace apsp
