// Many small graphs at once: each graph's whole distance matrix in one team's scratch pad,
// closed there by plain Floyd-Warshall, k = 0 .. n-1, with the relaxation of the blocked kernels
// (Relaxation<T, negative>, blocked_kernels.hpp: its pivot-tile arithmetic, saturating with
// negative weights, so that a negative cycle's values stop at the floor).
//
// The closure on its own (close_in_scratch: one team, one n x n matrix with row stride ld) is
// what a caller with many small dense blocks of its own uses (the fronts of a sparse
// elimination, say); BatchClosure runs it over a batch, one team per graph, between a Source
// that fills the scratch matrix (from a matrix in memory, from an edge list) and a Sink that
// stores it (in place, or converted into another type and layout).
//
// Step k reads row k and column k as they were before the step (d(k,k) = 0 leaves them
// unchanged, except on a negative cycle): a team of one thread (CPUs) keeps a copy of row k and
// reads d(i,k) before it updates row i; a larger team (GPUs) publishes row and column k + 1 as
// step k leaves them into double buffers. Both store the same values, so every backend gives
// the same bits, floats and negative cycles included.
#pragma once

#include <apsp/detail/blocked_kernels.hpp>
#include <apsp/distance.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

namespace apsp {
namespace detail {

// The row stride of an n-vertex matrix in scratch: n rounded up to 64 bytes of T, so that a
// CPU thread's rows are whole vectors. Columns n .. ld-1 hold infinity and never lower a value
// (with non-negative weights d + inf >= inf; the negative variant keeps an infinite operand
// infinite).
template <class T>
KOKKOS_INLINE_FUNCTION int closure_row_stride(int n) {
  constexpr int quantum = 64 / int(sizeof(T));
  return (n + quantum - 1) / quantum * quantum;
}

// Elements of T in scratch for closing an n-vertex matrix: the matrix (n x ld) and two double
// buffers of ld for row and column k.
template <class T>
KOKKOS_INLINE_FUNCTION std::int64_t closure_scratch_elements(int n) {
  const std::int64_t ld = closure_row_stride<T>(n);
  return std::int64_t(n) * ld + 4 * ld;
}

// Floyd-Warshall on the n x n matrix d (row stride ld, columns n .. ld-1 infinite) by one thread;
// `row` (ld elements) holds row k during step k.
template <class Relax, class T>
KOKKOS_INLINE_FUNCTION void close_one_thread(T* d, int n, int ld, T* row) {
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < ld; ++j)
      row[j] = d[std::int64_t(k) * ld + j];
    for (int i = 0; i < n; ++i) {
      T* di = d + std::int64_t(i) * ld;
      const T dik = di[k];
      // An infinite d(i,k) lowers nothing (both relaxations): the row is skipped, exactly.
      if (dik == Distance<T>::infinity) continue;
#if defined(APSP_HOST_VECTORS)
      using Lanes = HostVector<T>;
      using V = typename Lanes::type;
      if (ld % Lanes::lanes == 0) {
        const V left = V{} + dik;
        for (int j = 0; j < ld; j += Lanes::lanes) {
          const V t = Relax::through_lanes(left, Lanes::load(row + j)), now = Lanes::load(di + j);
          Lanes::store(di + j, t < now ? t : now);
        }
        continue;
      }
#endif
      for (int j = 0; j < ld; ++j)
        Relax::relax(di[j], dik, row[j]);
    }
  }
}

// Closes the n x n matrix d in scratch (row stride ld; columns n .. ld-1 infinite) by the whole
// team; `buffers` holds 4 * ld elements of scratch. Every thread must call it; it ends with a
// barrier. Teams of more than one thread: a multiple of 32 threads or fewer than 32, laid out as
// rows of up to 32 threads over the columns.
template <class Relax, class Member, class T>
KOKKOS_INLINE_FUNCTION void close_in_scratch(const Member& team, T* d, int n, int ld, T* buffers) {
  const int size = team.team_size(), rank = team.team_rank();
  if (size == 1) {
    close_one_thread<Relax>(d, n, ld, buffers);
    return;
  }
  const int across = size < 32 ? size : 32, down = size / across;
  const int ty = rank / across, tx = rank % across;
  T* rows = buffers;           // rows[(k & 1) * ld + j] = d(k, j) before step k
  T* cols = buffers + 2 * ld;  // cols[(k & 1) * ld + i] = d(i, k) before step k
  for (int e = rank; e < n; e += size) {
    rows[e] = d[e];
    cols[e] = d[std::int64_t(e) * ld];
  }
  team.team_barrier();
  for (int k = 0; k < n; ++k) {
    const int cur = (k & 1) * ld, next = ld - cur;
    if (ty < down) {
      for (int i = ty; i < n; i += down) {
        const T dik = cols[cur + i];
        T* di = d + std::int64_t(i) * ld;
        for (int j = tx; j < n; j += across) {
          T v = di[j];
          Relax::relax(v, dik, rows[cur + j]);
          di[j] = v;
          if (i == k + 1) rows[next + j] = v;
          if (j == k + 1) cols[next + i] = v;
        }
      }
    }
    team.team_barrier();
  }
}

// The vertex named for a negative cycle in a closed scratch matrix (the smallest with a negative
// closed walk through it: closed_walk_vertex, floyd_warshall.hpp), or -1; one thread's answer.
template <class T>
KOKKOS_INLINE_FUNCTION std::int64_t scratch_negative_cycle(const T* d, int n, int ld) {
  int first = 0;
  while (first < n && !(d[std::int64_t(first) * ld + first] < T(0)))
    ++first;
  for (int v = 0; v <= first && first < n; ++v)
    for (int u = first; u < n; ++u)
      if (on_closed_walk(d[std::int64_t(u) * ld + u], d[std::int64_t(v) * ld + u],
                         d[std::int64_t(u) * ld + v]))
        return v;
  return -1;
}

// f(i, j) for every entry of a rows x cols block by the team: nested loops on one thread (a
// division per entry would cost more than the closure's update of it on a CPU), else the
// entries in order across the threads (consecutive threads, consecutive columns).
template <class Member, class F>
KOKKOS_INLINE_FUNCTION void for_each_entry(const Member& team, int rows, int cols, const F& f) {
  if (team.team_size() == 1) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        f(i, j);
    return;
  }
  const std::int64_t count = std::int64_t(rows) * cols;
  if (count <= 0x7fffffff)  // 32-bit divisions where they suffice
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, int(count)),
                         [&](int e) { f(e / cols, e % cols); });
  else
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count),
                         [&](std::int64_t e) { f(int(e / cols), int(e % cols)); });
}

// Where each graph of a batch lives in one flat array: graph g has n_g = offsets(g + 1) -
// offsets(g) vertices (offsets(g) is its first vertex in the concatenated numbering); its
// n_g x n_g matrix starts at base(g) with rows ld(g) apart: ragged (value_offsets(g), rows n_g
// apart) or padded (every graph a stride x stride block, g * stride^2).
template <class MemorySpace>
struct BatchLayout {
  Kokkos::View<const std::int64_t*, MemorySpace> offsets;
  Kokkos::View<const std::int64_t*, MemorySpace> value_offsets;  // ragged only
  std::int64_t stride = 0;                                       // padded only

  KOKKOS_INLINE_FUNCTION int count() const { return int(offsets.extent(0)) - 1; }
  KOKKOS_INLINE_FUNCTION int vertices(int g) const { return int(offsets(g + 1) - offsets(g)); }
  KOKKOS_INLINE_FUNCTION std::int64_t base(int g) const {
    return stride ? std::int64_t(g) * stride * stride : value_offsets(g);
  }
  KOKKOS_INLINE_FUNCTION std::int64_t ld(int g) const { return stride ? stride : vertices(g); }
  // The graph of global vertex v (offsets(0) <= v < offsets(count())).
  KOKKOS_INLINE_FUNCTION int graph_of(std::int64_t v) const {
    int lo = 0, hi = count();  // offsets(lo) <= v < offsets(hi)
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (offsets(mid) <= v)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }
};

// Sources fill rows 0 .. n-1, columns 0 .. ld-1 of a matrix (scratch, or a padded matrix in
// memory) with graph g; the columns from n on with infinity. Sinks store rows and columns
// 0 .. n-1 of the closed matrix. Both are team functions, called by every thread.

// A batch of matrices of T in memory (the in-place solve).
template <class MemorySpace, class T>
struct MatrixSource {
  BatchLayout<MemorySpace> layout;
  T* values;
  template <class Member>
  KOKKOS_INLINE_FUNCTION void load(const Member& team, int g, T* d, int n, std::int64_t ld) const {
    const T* from = values + layout.base(g);
    const std::int64_t from_ld = layout.ld(g);
    for_each_entry(team, n, int(ld), [&](int i, int j) {
      d[i * ld + j] = j < n ? from[i * from_ld + j] : Distance<T>::infinity;
    });
  }
};

// The edges of each graph, (src, dst, weight) in the graph's own numbering, graph g's at
// [edge_offsets(g), edge_offsets(g + 1)): d(i,i) = 0, d(i,j) = the lightest edge i -> j (a
// negative self-loop lowers d(i,i): a negative cycle), infinity elsewhere.
template <class MemorySpace, class Edge>
struct EdgeSource {
  Kokkos::View<const std::int64_t*, MemorySpace> edge_offsets;
  Kokkos::View<const Edge*, MemorySpace> edges;
  template <class Member, class T>
  KOKKOS_INLINE_FUNCTION void load(const Member& team, int g, T* d, int n, std::int64_t ld) const {
    for_each_entry(team, n, int(ld),
                   [&](int i, int j) { d[i * ld + j] = i == j ? T(0) : Distance<T>::infinity; });
    team.team_barrier();
    const std::int64_t first = edge_offsets(g), last = edge_offsets(g + 1);
    const bool shared = team.team_size() > 1;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](std::int64_t e) {
      const Edge edge = edges(e);
      T* at = d + std::int64_t(edge.src) * ld + edge.dst;
      const T w = T(edge.weight);
      if (shared)
        Kokkos::atomic_fetch_min(at, w);
      else if (w < *at)
        *at = w;
    });
  }
};

// Dense weights of W, (B, n, n) row-major: d(i,j) = w(i,j), +inf no edge, d(i,i) = 0 whatever the
// diagonal holds.
template <class W>
struct DenseWeightSource {
  const W* weights;
  std::int64_t n;
  template <class Member, class T>
  KOKKOS_INLINE_FUNCTION void load(const Member& team, int g, T* d, int rows,
                                   std::int64_t ld) const {
    const W* from = weights + std::int64_t(g) * n * n;
    for_each_entry(team, rows, int(ld), [&](int i, int j) {
      const W x = j < n ? from[i * n + j] : Distance<W>::infinity;
      d[i * ld + j] = i == j ? T(0) : x == Distance<W>::infinity ? Distance<T>::infinity : T(x);
    });
  }
};

// Stores graph g's closed matrix into a batch of U in memory (U may differ from T: infinity
// becomes U's), ragged or padded; in a padded layout the rest of g's block gets `outside`.
template <class MemorySpace, class U>
struct MatrixSink {
  BatchLayout<MemorySpace> layout;
  U* values;
  U outside = Distance<U>::infinity;
  template <class Member, class T>
  KOKKOS_INLINE_FUNCTION void store(const Member& team, int g, const T* d, int n,
                                    std::int64_t ld) const {
    U* to = values + layout.base(g);
    const std::int64_t to_ld = layout.ld(g);
    const int rows = int(layout.stride ? layout.stride : n);
    for_each_entry(team, rows, int(to_ld), [&](int i, int j) {
      U& at = to[i * to_ld + j];
      if (i < n && j < n) {
        const T x = d[i * ld + j];
        at = x == Distance<T>::infinity ? Distance<U>::infinity : U(x);
      } else {
        at = outside;
      }
    });
  }
};

// One team per graph of `graphs` (indices into the batch, each small enough for the scratch
// pad): Source -> scratch -> close -> Sink, and cycles(g) = the smallest v with d(v,v) < 0, or -1.
template <class ExecSpace, class Relax, class Source, class Sink>
struct BatchClosure {
  using T = typename Relax::value_type;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using scratch_view = Kokkos::View<T*, typename ExecSpace::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  BatchLayout<typename ExecSpace::memory_space> layout;
  Kokkos::View<const int*, typename ExecSpace::memory_space> graphs;
  Source source;
  Sink sink;
  Kokkos::View<std::int64_t*, typename ExecSpace::memory_space> cycles;
  int level = 0;

  // Scratch bytes of a team whose graphs have at most n vertices.
  static std::size_t scratch_bytes(int n) {
    return scratch_view::shmem_size(std::size_t(closure_scratch_elements<T>(n)));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int g = graphs(team.league_rank());
    const int n = layout.vertices(g), ld = closure_row_stride<T>(n);
    const scratch_view scratch(team.team_scratch(level),
                               std::size_t(closure_scratch_elements<T>(n)));
    T* d = scratch.data();
    source.load(team, g, d, n, ld);
    team.team_barrier();
    close_in_scratch<Relax>(team, d, n, ld, d + std::int64_t(n) * ld);
    if (Relax::negative)
      Kokkos::single(Kokkos::PerTeam(team),
                     [&]() { cycles(g) = scratch_negative_cycle(d, n, ld); });
    sink.store(team, g, d, n, ld);
  }
};

// A Source or Sink on one graph of the batch run by a single team over a padded matrix in
// memory (the graphs too large for the scratch pad).
template <class ExecSpace, class Source, class T>
struct LoadOne {
  Source source;
  T* d;
  int g, n;
  std::int64_t ld;
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    source.load(team, g, d, n, ld);
  }
};
template <class ExecSpace, class Sink, class T>
struct StoreOne {
  Sink sink;
  const T* d;
  int g, n;
  std::int64_t ld;
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    sink.store(team, g, d, n, ld);
  }
};

// Predecessor row r of one graph by the library's rule (paths.hpp), by one thread: a
// breadth-first search from r over the graph's tight edges; pred(r, j) = the smallest tight
// in-neighbour of j one level of fewest edges lower, `none` where there is none. dist: the
// graph's final n x n distances (rows ld apart); the edges of vertex u at [offsets[u],
// offsets[u + 1]) of targets / weights; p: row r of the predecessors; levels and queue: n ints.
template <class T, class Tight>
KOKKOS_INLINE_FUNCTION void predecessor_row(const T* dist, std::int64_t ld, int n, int r,
                                            const std::int64_t* offsets, const int* targets,
                                            const T* weights, const Tight& tight, int none, int* p,
                                            int* levels, int* queue) {
  const T* d = dist + r * ld;
  for (int x = 0; x < n; ++x) {
    levels[x] = -1;
    p[x] = none;
  }
  levels[r] = 0;
  queue[0] = r;
  int head = 0, end = 1;
  while (head < end) {
    const int u = queue[head++], next = levels[u] + 1;
    const T du = d[u];
    for (std::int64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      const int j = targets[e];
      if (j == u || (levels[j] >= 0 && levels[j] != next)) continue;
      const T w = weights[e];
      // A shortest-path edge (w(u,j) = d(u,j)), tight in this row.
      if (!tight(T(0), w, dist[u * ld + j]) || !tight(du, w, d[j])) continue;
      if (levels[j] < 0) {
        levels[j] = next;
        queue[end++] = j;
        p[j] = u;
      } else if (u < p[j]) {
        p[j] = u;
      }
    }
  }
}

// Predecessor rows of a batch, one thread per row (predecessor_row). The edges come by source in
// the concatenated numbering: those of global vertex v at [edge_offsets(v), edge_offsets(v + 1)),
// targets in the graph's own numbering. Each thread keeps its levels and queue in scratch.
template <class ExecSpace, class T, class Tight>
struct BatchPredecessors {
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using memory_space = typename ExecSpace::memory_space;
  using scratch_ints = Kokkos::View<int*, typename ExecSpace::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  BatchLayout<memory_space> layout;
  const T* dist;
  int* pred;  // the same layout as dist
  Kokkos::View<const std::int64_t*, memory_space> edge_offsets;
  Kokkos::View<const int*, memory_space> targets;
  Kokkos::View<const T*, memory_space> weights;
  Tight tight;
  std::int64_t rows;  // every vertex of the batch
  int largest;        // the most vertices of a graph
  int level;
  int none;

  static std::size_t scratch_per_thread(int largest) {
    return scratch_ints::shmem_size(2 * std::size_t(largest));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const scratch_ints buffer(team.thread_scratch(level), 2 * std::size_t(largest));
    const std::int64_t row = std::int64_t(team.league_rank()) * team.team_size() + team.team_rank();
    if (row >= rows) return;
    const std::int64_t v = row + layout.offsets(0);
    const int g = layout.graph_of(v), n = layout.vertices(g);
    const int r = int(v - layout.offsets(g));
    const std::int64_t ld = layout.ld(g);
    predecessor_row(dist + layout.base(g), ld, n, r, edge_offsets.data() + layout.offsets(g),
                    targets.data(), weights.data(), tight, none, pred + layout.base(g) + r * ld,
                    buffer.data(), buffer.data() + largest);
  }
};

}  // namespace detail
}  // namespace apsp
