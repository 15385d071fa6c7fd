// The kernels of supernodal Floyd-Warshall (supernodal.hpp) that the dense blocked kernels do
// not cover: assembling a front (its original edges, its children's Schur complements by
// extend-add), keeping the factor, small fronts a tree level at a time (SmallFronts), and the
// row sweeps that turn the factor into rows of the distance matrix. The other fronts are
// closed by BlockedRounds (blocked_rounds.hpp).
//
// The row sweeps. A block of source rows Y starts as the identity (0 on its diagonal, infinity
// elsewhere); then, in the plan's numbering (supernodes in postorder), with C_ss the closed
// diagonal block of supernode s and A(s,Bd), A(Bd,s) its panels:
//   forward, s ascending:   Y(:,s) := Y(:,s) (x) C_ss;  Y(:,Bd) := min(Y(:,Bd), Y(:,s) (x) A(s,Bd))
//   backward, s descending: Y(:,s) := min(Y(:,s), Y(:,Bd) (x) A(Bd,s));  Y(:,s) := Y(:,s) (x) C_ss
// ((x): the min-plus product). Then Y holds the rows' distances. Why: split a shortest path at
// its highest vertex h. Its prefix climbs through its successive record (highest so far)
// vertices; the interior of each segment lies below both ends and is connected, so inside the
// subtree of the lower end's supernode, where C_ss (same supernode) or A(s,Bd) (an ancestor)
// holds the segment's best: the forward pass finds the prefix, and the suffix, mirrored, is the
// backward pass. A row's forward pass only touches the supernodes on its tree path (those whose
// subtree holds the row), which the sweep skips to. Every step is a product of stored values,
// so the product relaxation (plain, or ranged with negative weights: blocked_kernels.hpp) holds.
#pragma once

#include <apsp/detail/blocked_kernels.hpp>
#include <apsp/detail/staging.hpp>
#include <apsp/detail/supernodal_symbolic.hpp>
#include <apsp/distance.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

namespace apsp {
namespace detail {

// The factor's supernodes on the device: supernode s has the columns [first(s), first(s + 1)),
// its subtree [subtree_first(s), first(s + 1)), its border border(border_start(s) ...
// border_start(s + 1)), and its values from values_start(s): C_ss (c x ld(c)), A(s,Bd)
// (c x ld(b)), A(Bd,s) (b x ld(c)), row-major, rows padded with infinity (factor_ld).
// The row sweeps' places of the columns in a row's path arrays: s's from path_offset(s), a border
// entry's at border_path; supernode_of(v) and parent(s) walk a row's path.
template <class MemorySpace>
struct SupernodeViews {
  Kokkos::View<const std::int32_t*, MemorySpace> first, subtree_first, border;
  Kokkos::View<const std::int64_t*, MemorySpace> border_start, values_start;
  Kokkos::View<const std::int32_t*, MemorySpace> supernode_of, parent, path_offset, border_path;
  std::int32_t supernodes = 0;
};

// The kernels of the core are named functors, never KOKKOS_LAMBDA: nvcc keeps a host-device
// lambda's copy and delete functions in variables of each translation unit, but the lambda's
// wrapper class is shared by all of them, so a template instantiated in several units (the
// library's and a test's) can copy the lambda through another unit's variables, never set: a
// call through a null pointer (CONTRIBUTING.md, "Kernels"; tests/layers/core_headers.sh).

// F(i,j) = 0 on the diagonal, infinity elsewhere, of a size x size front.
template <class T>
struct IdentityFront {
  T* front;
  std::int64_t size;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    front[e] = e / size == e % size ? T(0) : Distance<T>::infinity;
  }
};

// Edge e at the position at(2e), at(2e + 1) of the front, where lighter.
template <class MemorySpace, class T>
struct AddFrontEdges {
  T* front;
  std::int64_t size;
  Kokkos::View<const std::int32_t*, MemorySpace> at;
  Kokkos::View<const T*, MemorySpace> weight;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    T& d = front[std::int64_t(at(2 * e)) * size + at(2 * e + 1)];
    d = weight(e) < d ? weight(e) : d;
  }
};

// A front: F(i,j) = 0 on the diagonal, infinity elsewhere (padding included), then its original
// edges [from, to) (distinct positions, row and column pairs in `at`; a negative self-loop
// lowers the diagonal).
template <class ExecSpace, class T>
void assemble_edges(const ExecSpace& exec, T* front, std::int64_t size,
                    const Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space>& at,
                    const Kokkos::View<const T*, typename ExecSpace::memory_space>& weight,
                    std::int64_t from, std::int64_t to) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("apsp::supernodal::front_identity", Range(exec, 0, size * size),
                       IdentityFront<T>{front, size});
  if (to > from)
    Kokkos::parallel_for(
        "apsp::supernodal::front_edges", Range(exec, from, to),
        AddFrontEdges<typename ExecSpace::memory_space, T>{front, size, at, weight});
}

// Extend-add: the child's Schur complement (its front's border block, from row `offset`) into
// the parent's front at the rows and columns `relative` names.
template <class MemorySpace, class T>
struct ExtendAdd {
  T* front;
  std::int64_t size;
  const T* child;
  std::int64_t child_size, offset;
  Kokkos::View<const std::int32_t*, MemorySpace> relative;
  std::int64_t from, count;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    const std::int64_t a = e / count, b = e % count;
    const T x = child[(offset + a) * child_size + offset + b];
    T& d = front[std::int64_t(relative(from + a)) * size + relative(from + b)];
    d = x < d ? x : d;
  }
};
template <class ExecSpace, class T>
void extend_add(const ExecSpace& exec, T* front, std::int64_t size, const T* child,
                std::int64_t child_size, std::int64_t offset,
                const Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space>& relative,
                std::int64_t from, std::int64_t count) {
  Kokkos::parallel_for(
      "apsp::supernodal::extend_add",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, count * count),
      ExtendAdd<typename ExecSpace::memory_space, T>{front, size, child, child_size, offset,
                                                     relative, from, count});
}

// Keeps C_ss, A(s,Bd) and A(Bd,s) of a closed front (columns c, border b, the border's rows
// from `offset`) at `out`, rows padded with infinity.
template <class T>
struct KeepFactor {
  const T* front;
  std::int64_t size, offset;
  int c, b;
  T* out;
  std::int64_t ldc, ldb, square, right;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    std::int64_t i, j, row, col, width;
    if (e < square) {
      i = e / ldc, j = e % ldc, row = i, col = j, width = c;
    } else if (e < square + right) {
      i = (e - square) / ldb, j = (e - square) % ldb, row = i, col = offset + j, width = b;
    } else {
      i = (e - square - right) / ldc, j = (e - square - right) % ldc, row = offset + i, col = j,
      width = c;
    }
    out[e] = j < width ? front[row * size + col] : Distance<T>::infinity;
  }
};
template <class ExecSpace, class T>
void keep_factor(const ExecSpace& exec, const T* front, std::int64_t size, std::int64_t offset,
                 int c, int b, T* out) {
  const std::int64_t ldc = factor_ld(c), ldb = factor_ld(b);
  const std::int64_t square = c * ldc, right = c * ldb, total = square + right + b * ldc;
  Kokkos::parallel_for(
      "apsp::supernodal::keep_factor",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, total),
      KeepFactor<T>{front, size, offset, c, b, out, ldc, ldb, square, right});
}

// The Schur complement of a closed front (its b x b border block, from row and column
// `offset`) into the pool at `out`, b x b compact.
template <class T>
struct SchurToPool {
  const T* front;
  std::int64_t size, offset, b;
  T* out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    out[e] = front[(offset + e / b) * size + offset + e % b];
  }
};
template <class ExecSpace, class T>
void schur_to_pool(const ExecSpace& exec, const T* front, std::int64_t size, std::int64_t offset,
                   std::int64_t b, T* out) {
  Kokkos::parallel_for(
      "apsp::supernodal::schur_to_pool",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, b * b),
      SchurToPool<T>{front, size, offset, b, out});
}

// Small fronts, many in one launch: a team closes one front in its scratch, unpadded (pivots
// 0 .. c-1, then the border c .. c+b-1), from nothing to its kept factor and its Schur
// complement in the pool. The team, in order, each step after a team barrier:
//   1. the identity, then the front's original edges (distinct positions);
//   2. each child's Schur complement from the pool, by extend-add (one child at a time: two
//      children may land on the same entry);
//   3. Floyd-Warshall through the c pivots, k ascending, a barrier each: F(i,j) = min(F(i,j),
//      F(i,k) (x) F(k,j)) for every row i but k (and, with several lanes a row, every column j
//      but k). Row k (and column k) are left as they are in step k, so every step reads the
//      values of the step before: without a negative cycle they would not change (F(k,k) = 0);
//      with one, the kernel stays free of races and a negative diagonal, once there, stays.
//      The relaxation is the blocked closures' (Relax::relax: saturating with negative
//      weights), so every stored value is in range;
//   4. C_ss, A(s,Bd), A(Bd,s) into the factor (keep_factor's layout), the b x b Schur complement
//      into the pool at pool_offset(s).
// Edges and children's rows (relative) are in padded front coordinates (the blocked kernels'):
// a position at or past padded(c) is the border's position - padded(c) + c here.
template <class ExecSpace, class Relax>
struct SmallFronts {
  using T = typename Relax::value_type;
  using memory_space = typename ExecSpace::memory_space;
  using policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
  using member = typename policy::member_type;
  using scratch = Kokkos::View<T*, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  template <class X>
  using ids = Kokkos::View<const X*, memory_space>;
  // The backend's scratch: on GPUs level 0, on-chip; a front it cannot hold goes to level 1,
  // the team's own part of device memory (one launch a level instead of a blocked front's ~10;
  // the factor's kernels take milliseconds either way: docs/PERFORMANCE.md entry 63).
  static constexpr int fast_level = ShapeTable<ExecSpace, T>::scratch_level;
  // Host: a team of one thread, its rows' loops vectorized; GPUs: 8 rows at a time, 32 lanes
  // along a row.
  static constexpr bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  static constexpr int team_rows = host ? 1 : 8, lanes = host ? 1 : 32;

  ids<std::int32_t> supernode;  // the launch's supernodes are supernode(from ...)
  std::int64_t from = 0;
  int tile = 32;  // the padding of the blocked kernels' front coordinates
  ids<std::int32_t> first, child_start, child, relative, edge_at;
  ids<std::int64_t> border_start, values_start, pool_offset, edge_start;
  ids<T> weight;
  T* values = nullptr;
  T* pool = nullptr;
  int level = fast_level;  // the launch's scratch level

  static std::size_t scratch_bytes(int largest) {
    return scratch::shmem_size(std::size_t(largest) * std::size_t(largest));
  }
  // The largest front (columns + border) one team's scratch of `scratch_level` holds on this
  // device, a multiple of 4.
  static int largest_front(int scratch_level = fast_level) {
    const std::size_t room = std::size_t(policy::scratch_size_max(scratch_level));
    int n = int(std::sqrt(double(room / sizeof(T)))) / 4 * 4;
    while (n > 0 && scratch_bytes(n) > room)
      n -= 4;
    return n;
  }

  // Launches the fronts of supernode(from .. from + count), the largest of n vertices, in the
  // scratch of `level`.
  void launch(const ExecSpace& exec, int count, int largest) {
    Kokkos::parallel_for("apsp::supernodal::small_fronts",
                         policy(exec, count, team_rows, lanes)
                             .set_scratch_size(level, Kokkos::PerTeam(scratch_bytes(largest))),
                         *this);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    constexpr T inf = Distance<T>::infinity;
    const std::int32_t s = supernode(from + team.league_rank());
    const int c = first(s + 1) - first(s), b = int(border_start(s + 1) - border_start(s));
    const int n = c + b;
    T* f = scratch(team.team_scratch(level), std::size_t(n) * std::size_t(n)).data();
    // 1.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, n),
                           [&](int j) { f[i * n + j] = i == j ? T(0) : inf; });
    });
    team.team_barrier();
    const int pad = (c + tile - 1) / tile * tile;
    Kokkos::parallel_for(
        Kokkos::TeamVectorRange(team, edge_start(s), edge_start(s + 1)), [&](std::int64_t e) {
          const int r = unpadded(edge_at(2 * e), c, pad), q = unpadded(edge_at(2 * e + 1), c, pad);
          T& d = f[r * n + q];
          d = weight(e) < d ? weight(e) : d;
        });
    team.team_barrier();
    // 2.
    for (std::int32_t e = child_start(s); e < child_start(s + 1); ++e) {
      const std::int32_t ch = child(e);
      const int m = int(border_start(ch + 1) - border_start(ch));
      const std::int32_t* at = &relative(border_start(ch));
      const T* schur = pool + pool_offset(ch);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m), [&](int a) {
        const int r = unpadded(at[a], c, pad);
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, m), [&](int q) {
          const T x = schur[a * m + q];
          T& d = f[r * n + unpadded(at[q], c, pad)];
          d = x < d ? x : d;
        });
      });
      team.team_barrier();
    }
    // 3. A row whose F(i,k) is infinite gains nothing in step k.
    for (int k = 0; k < c; ++k) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) {
        const T fik = f[i * n + k];
        if (i == k || fik == inf) return;
        T* fi = f + i * n;
        const T* fk = f + k * n;
        // With several lanes a row, the lane of j = k would write F(i,k) while the others read it.
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, n), [&](int j) {
          if (lanes == 1 || j != k) Relax::relax(fi[j], fik, fk[j]);
        });
      });
      team.team_barrier();
    }
    // 4. By rows: a pivot row's C_ss and A(s,Bd) rows, a border row's A(Bd,s) row and its row
    // of the Schur complement.
    const int ldc = factor_ld(c), ldb = factor_ld(b);
    T* const square = values + values_start(s);
    T* const right = square + std::int64_t(c) * ldc;
    T* const below = right + std::int64_t(c) * ldb;
    T* const schur = pool + (b > 0 ? pool_offset(s) : 0);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](int i) {
      const T* fi = f + i * n;
      if (i < c) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, ldc),
                             [&](int j) { square[i * ldc + j] = j < c ? fi[j] : inf; });
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, ldb),
                             [&](int j) { right[i * ldb + j] = j < b ? fi[c + j] : inf; });
      } else {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, ldc),
                             [&](int j) { below[(i - c) * ldc + j] = j < c ? fi[j] : inf; });
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, b),
                             [&](int j) { schur[(i - c) * b + j] = fi[c + j]; });
      }
    });
  }

  KOKKOS_INLINE_FUNCTION static int unpadded(int at, int c, int pad) {
    return at < pad ? at : at - pad + c;
  }
};

// The row sweeps (above) on a block of source rows, each row keeping only the columns it still
// needs. The forward pass of a row touches the columns of its own tree path alone (its supernode
// and the ancestors, which hold every border), and in the backward pass, which goes through the
// supernodes in decreasing postorder (a depth-first order: each supernode before its
// descendants), supernode s reads only its own columns and its border's, which are final by
// then; once its step is done, s's columns are final too and only s's descendants read them.
// So a row needs two arrays of the length of the longest root-to-supernode path (the plan's
// path_offset places each supernode's columns after its proper ancestors'): `fwd`, the values
// the forward pass leaves on the row's own path, and `cur`, the columns of the current path of
// the backward pass. Each supernode's finished columns are handed to a destination (whole rows,
// a table's columns, the measures' reductions) as its backward step ends, and left behind.
//
// A work item owns Rows registers of Lanes::lanes consecutive slots each (one row on GPUs, a host
// vector of rows on host backends), and every item walks the supernodes of the backward pass in
// the same order, so the factor's values are the same for all of them (a broadcast on GPUs) and
// the columns of a step are register-blocked Cols at a time. Slots hold their rows in ascending
// plan order (slot_row), so the rows of an item share most of their forward path, and the rows
// of a subtree are consecutive lanes: the forward steps of a supernode whose subtree holds only
// some of an item's rows store those lanes alone (the others keep their own path's values at
// the same places).
//
// The two products with C_ss are done in place: C_ss is closed (no negative cycle: zero diagonal,
// C(m,k) + C(k,j) >= C(m,j)), so a row that reads some entries of Y(:,s) already multiplied
// (Y C(:,k)) and others not gets min_m Y(m) + C(m,j) all the same, exactly. (With a negative
// cycle the results are clamped values that nobody reads; negative_cycle_vertex reports it.)
// Every value is finished (Product::finish) before it is stored, so a product never reads an
// unfinished sum. Every value is the same min of the same sums as with whole rows: the
// destinations get the bytes the whole-row sweeps gave.
//
// Lanes: the values of one register, one row (scalar) or a host vector of rows.
template <class T, bool HostVectors>
struct RowLanes {
  using type = T;
  static constexpr int lanes = 1;
  KOKKOS_FORCEINLINE_FUNCTION static T load(const T* p) { return *p; }
  KOKKOS_FORCEINLINE_FUNCTION static void store(T* p, const T& x) { *p = x; }
  KOKKOS_FORCEINLINE_FUNCTION static T broadcast(T x) { return x; }
  template <class Product>
  KOKKOS_FORCEINLINE_FUNCTION static void relax(T& d, const T& a, const T& b) {
    Product::relax(d, a, b);
  }
  template <class Product>
  KOKKOS_FORCEINLINE_FUNCTION static T finish(const T& d) {
    return Product::finish(d);
  }
};
#if defined(APSP_HOST_VECTORS)
// Product::relax and Product::finish lane by lane (+, < and ?: act per lane).
template <class T>
struct RowLanes<T, true> {
  using Vector = HostVector<T>;
  using type = typename Vector::type;
  static constexpr int lanes = Vector::lanes;
  static type load(const T* p) { return Vector::load(p); }
  static void store(T* p, const type& x) { Vector::store(p, x); }
  static type broadcast(T x) { return type{} + x; }
  template <class Product>
  static void relax(type& d, const type& a, const type& b) {
    const type sum = a + b;
    d = sum < d ? sum : d;
  }
  template <class Product>
  static type finish(const type& d) {
    if constexpr (Product::negative) {
      const type floor = broadcast(Distance<T>::floor);
      const type clamped = d < floor ? floor : d;
      return d >= broadcast(Distance<T>::threshold) ? broadcast(Distance<T>::infinity) : clamped;
    } else {
      return d;
    }
  }
};
#endif

// The sweeps' parameters: host vectors of rows where there are (HostPath), else one row a
// thread. Cols divides factor_lanes, so a block of columns never reads past a padded factor row.
template <class T, bool HostPath>
struct RowSweepShape {
#if defined(APSP_HOST_VECTORS)
  static constexpr bool host_vectors = HostPath;
#else
  static constexpr bool host_vectors = false;
#endif
  using Lanes = RowLanes<T, host_vectors>;
  static constexpr int rows = host_vectors ? 2 : 1;  // registers of rows per work item
  static constexpr int cols = 8;                     // output columns per register block
  static constexpr int item = rows * Lanes::lanes;   // slots per work item
  // Host vectors: a team of one item, its path arrays in the team's scratch (in cache); else a
  // team of threads, one row each, the path arrays in the device's memory, transposed.
  static constexpr bool in_scratch = host_vectors;
  static_assert(factor_lanes % cols == 0, "");
};

// The sweeps' team and launch bound, by backend. Host backends: a team of one item (a host
// vector of rows, or one row). GPUs: enough rows that the destinations' column reductions share a
// tile; on NVIDIA GPUs compiled for 8 teams of 128 an SM at least, which keeps a thread within 64
// of the SM's 65,536 registers: the measures' state had put the sweeps at 80 registers and 37.5%
// occupancy (docs/PERFORMANCE.md entries 52 and 54). AMD GPUs: the team size alone (no AMD GPU
// has run the sweeps; the blocked kernels' bound, tile_shapes.hpp).
// most_split: the most threads a row (RowSweeps::split) where each group of a team's threads is
// whole warps (the measures' reductions sum a warp's shares of one column: MirrorShare).
template <class ExecSpace, class Enable = void>
struct SweepLaunch {
  static constexpr int team = 128, most_split = team / 32;
  using policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<team, 8>>;
};
template <class ExecSpace>
struct SweepLaunch<ExecSpace, std::enable_if_t<host_memory<ExecSpace>>> {
  static constexpr int team = 1, most_split = 1;
  using policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
};
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct SweepLaunch<HipExecutionSpace, void> {
  static constexpr int team = 128, most_split = team / 64;
  using policy = Kokkos::TeamPolicy<HipExecutionSpace, Kokkos::LaunchBounds<team, 1>>;
};
#endif

// The sweeps of a block: every destination's kernel (Destination: what the finished columns
// become; its begin, finished and end are called by every thread of a team alike, so a
// destination may synchronize the team). n slots, team rows a team (a multiple of teams of
// items).
template <class ExecSpace, class Product, class Shape, class Destination>
struct RowSweeps {
  using T = typename Product::value_type;
  using memory_space = typename ExecSpace::memory_space;
  using policy = typename SweepLaunch<ExecSpace>::policy;
  using member = typename policy::member_type;
  using scratch = Kokkos::View<T*, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Lanes = typename Shape::Lanes;
  using L = typename Lanes::type;
  static constexpr int R = Shape::rows, J = Shape::cols, W = Lanes::lanes, item = Shape::item;
  static constexpr T inf = Distance<T>::infinity;

  std::int32_t path = 0;  // the rows of each path array (the plan's largest_path)
  Kokkos::View<const std::int32_t*, memory_space> slot_row;  // ascending
  SupernodeViews<memory_space> sn;
  // Where a row keeps its columns: supernode s's from offset(s), a border entry's at
  // border_place. Path arrays: path_offset and border_path, fwd and cur apart. Whole rows (one
  // array of V, path = V): first and border, fwd = cur: no two supernodes share a column, so
  // the forward pass's values are where the backward pass starts, and the other columns of s
  // are infinite there (no forward step touched them).
  Kokkos::View<const std::int32_t*, memory_space> offset, border_place;
  bool whole = false;
  const T* values = nullptr;
  // Not in scratch: every slot's path arrays, transposed (fwd(position * n + slot)).
  T* fwd = nullptr;
  T* cur = nullptr;
  std::int64_t n = 0;
  Destination dest;
  // Where set: the backward sweep skips each supernode s with needed(s) == 0 (a table's: none of
  // its targets' columns are in s's subtree). A skipped supernode's descendants are skipped too,
  // so no column that is made reads one that was not.
  Kokkos::View<const std::uint8_t*, memory_space> needed;
  // Half rows (the measures of a symmetric graph: MeasureColumns::half): the backward sweep makes
  // the supernodes from the top down to the team's lowest row's alone. A column of a supernode
  // below a row's is the mirror of a pair that the column's own row makes, and only that row's
  // descendants' columns read it.
  bool half = false;
  // Threads a row (GPUs, at most SweepLaunch::most_split): a team is `split` groups of team /
  // split threads, thread t making row t % (team / split) with group t / (team / split). Group 0
  // makes the forward pass into fwd. The subtrees below a supernode are independent, so the
  // groups take disjoint subtrees (split_share: group q makes the supernodes whose share(s) has
  // bit q). Path arrays: each group makes the backward pass of its subtrees and of their
  // ancestors in its own cur (cur + q path n), and hands to the destination the supernodes whose
  // lowest bit q is. Whole rows (one array a row, which no two groups may write at once): each
  // supernode made once, by the lowest group that shares it, the top of the tree (shared by
  // several groups) first, team barriers between. Either way each value has the operations it
  // has with one thread a row, in the same order.
  int split = 1;
  Kokkos::View<const std::uint8_t*, memory_space> share;
  static_assert(SweepLaunch<ExecSpace>::most_split <= 4, "the backward pass counts 4 groups' bits");

  // The n slots in one launch, teams of SweepLaunch's size. The team's scratch: at level 1 an
  // item's two path arrays where they are in scratch, then the destination's at its level.
  void launch(const ExecSpace& exec) const {
    constexpr int team = SweepLaunch<ExecSpace>::team;
    const std::size_t own =
        Shape::in_scratch ? scratch::shmem_size((whole ? 1 : 2) * std::size_t(path) * item) : 0;
    const std::size_t theirs = dest.scratch_bytes(team);
    policy p(exec, int(n / (std::int64_t(team / split) * item)), team);
    if (Destination::level == 1) {
      p.set_scratch_size(1, Kokkos::PerTeam(own + theirs));
    } else {
      p.set_scratch_size(0, Kokkos::PerTeam(theirs));
      p.set_scratch_size(1, Kokkos::PerTeam(own));
    }
    Kokkos::parallel_for("apsp::supernodal::row_sweeps", p, *this);
  }

  // Columns of a product: consecutive from f, or the border's.
  struct Consecutive {
    std::int32_t f;
    KOKKOS_FORCEINLINE_FUNCTION std::int64_t operator()(int j) const { return f + j; }
  };
  struct Gathered {
    const std::int32_t* at;
    KOKKOS_FORCEINLINE_FUNCTION std::int64_t operator()(int j) const { return at[j]; }
  };

  // mk := J consecutive values of m from one J-aligned in a factor row (factor rows are padded to
  // multiples of factor_lanes, which J divides), in 16-byte loads (2 for 8 int32s, not 8 loads of
  // 4 bytes).
  struct alignas(16) Quad {
    T v[16 / sizeof(T)];
  };
  KOKKOS_FORCEINLINE_FUNCTION static void row_of_m(T* mk, const T* m) {
    if constexpr (J * sizeof(T) % 16 != 0) {
      for (int jj = 0; jj < J; ++jj)
        mk[jj] = m[jj];
    } else {
      constexpr int q = 16 / sizeof(T);
      for (int i = 0; i < J / q; ++i) {
        const Quad quad = reinterpret_cast<const Quad*>(m)[i];
        for (int e = 0; e < q; ++e)
          mk[i * q + e] = quad.v[e];
      }
    }
  }

  // Y(:, to(j)) := min(Y(:, to(j)), min_k Y(:, from(k)) + m(k, j)) for j < width, k < depth,
  // m's rows `ld` apart (padded with infinity to a multiple of factor_lanes); y: the item's
  // first slot, columns `stride` apart; only lanes [e0, e1) of the item are stored.
  template <class To, class From>
  KOKKOS_FORCEINLINE_FUNCTION static void product(T* y, std::int64_t stride, To to, int width,
                                                  From from, int depth, const T* m, std::int64_t ld,
                                                  int e0 = 0, int e1 = item) {
    if (depth == 0) return;
    for (int j0 = 0; j0 < width; j0 += J) {
      L acc[J][R];
      for (int jj = 0; jj < J; ++jj)
        for (int r = 0; r < R; ++r)
          acc[jj][r] = j0 + jj < width ? Lanes::load(y + to(j0 + jj) * stride + r * W)
                                       : Lanes::broadcast(inf);
      // GPUs, where a thread's row is its own: Y(:, from(k + 1)) is loaded before k's products
      // use Y(:, from(k)), so that two of the thread's loads are in flight at once, and m's J
      // values come in 16-byte loads. Host vectors load as they go (both cost them time: docs/
      // PERFORMANCE.md entry 54).
      constexpr bool ahead = !Shape::host_vectors;
      L left[R], next[R];
      if constexpr (ahead)
        for (int r = 0; r < R; ++r)
          next[r] = Lanes::load(y + from(0) * stride + r * W);
      for (int k = 0; k < depth; ++k) {
        if constexpr (ahead) {
          const T* yn = y + from(k + 1 < depth ? k + 1 : k) * stride;
          for (int r = 0; r < R; ++r) {
            left[r] = next[r];
            next[r] = Lanes::load(yn + r * W);
          }
        } else {
          for (int r = 0; r < R; ++r)
            left[r] = Lanes::load(y + from(k) * stride + r * W);
        }
        const T* mk = m + k * ld + j0;
        T quads[J];
        if constexpr (ahead) {
          row_of_m(quads, mk);
          mk = quads;
        }
        for (int jj = 0; jj < J; ++jj) {
          const L right = Lanes::broadcast(mk[jj]);
          for (int r = 0; r < R; ++r)
            Lanes::template relax<Product>(acc[jj][r], left[r], right);
        }
      }
      for (int jj = 0; jj < J && j0 + jj < width; ++jj)
        for (int r = 0; r < R; ++r) {
          T* to_y = y + to(j0 + jj) * stride + r * W;
          const L done = Lanes::template finish<Product>(acc[jj][r]);
          if (e0 == 0 && e1 == item) {
            Lanes::store(to_y, done);
          } else {  // some lanes of the item only (a forward step): through a copy
            T lanes[W];
            Lanes::store(lanes, done);
            for (int e = 0; e < W; ++e)
              if (r * W + e >= e0 && r * W + e < e1) to_y[e] = lanes[e];
          }
        }
    }
  }

  // What one supernode's step needs.
  struct Step {
    std::int32_t f, c, b, at;  // at: where s's columns are in the path arrays
    std::int64_t ldc, ldb;
    const std::int32_t* bd;           // the border's places in the path arrays
    const T *square, *right, *below;  // C_ss, A(s,Bd), A(Bd,s)
  };
  KOKKOS_INLINE_FUNCTION Step step(int s) const {
    Step p;
    p.f = sn.first(s);
    p.c = sn.first(s + 1) - p.f;
    p.b = std::int32_t(sn.border_start(s + 1) - sn.border_start(s));
    p.at = offset(s);
    p.ldc = factor_ld(p.c);
    p.ldb = factor_ld(p.b);
    p.bd = &border_place(sn.border_start(s));
    p.square = values + sn.values_start(s);
    p.right = p.square + p.c * p.ldc;
    p.below = p.right + p.c * p.ldb;
    return p;
  }

  // The lanes [e0, e1) of the item whose rows (ascending) lie in s's subtree.
  KOKKOS_INLINE_FUNCTION void subtree_lanes(int s, const std::int32_t* row, int& e0,
                                            int& e1) const {
    const std::int32_t lo = sn.subtree_first(s), hi = sn.first(s + 1);
    e0 = 0;
    while (e0 < item && row[e0] < lo)
      ++e0;
    e1 = e0;
    while (e1 < item && row[e1] < hi)
      ++e1;
  }

  KOKKOS_INLINE_FUNCTION void forward_step(int s, T* y, std::int64_t stride, int e0, int e1) const {
    const Step p = step(s);
    product(y, stride, Consecutive{p.at}, p.c, Consecutive{p.at}, p.c, p.square, p.ldc, e0, e1);
    product(y, stride, Gathered{p.bd}, p.b, Consecutive{p.at}, p.c, p.right, p.ldb, e0, e1);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int rows = team.team_size() / split, group = team.team_rank() / rows;
    const std::int64_t first_slot = std::int64_t(team.league_rank()) * rows * item;
    const std::int64_t slot = first_slot + std::int64_t(team.team_rank() % rows) * item;
    T *y, *z;  // fwd, cur
    std::int64_t stride;
    if constexpr (Shape::in_scratch) {
      y = scratch(team.team_scratch(1), (whole ? 1 : 2) * std::size_t(path) * item).data();
      z = whole ? y : y + std::size_t(path) * item;
      stride = item;
    } else {
      y = fwd + slot;
      z = whole ? y : cur + group * std::int64_t(path) * n + slot;
      stride = n;
    }
    std::int32_t row[item];
    for (int e = 0; e < item; ++e)
      row[e] = slot_row(slot + e);
    typename Destination::State state;
    dest.begin(team, state, slot, row);
    // Forward: Y starts as the rows of the identity, on their own paths.
    if (group == 0) {
      for (std::int64_t j = 0; j < path; ++j)
        for (int r = 0; r < R; ++r)
          Lanes::store(y + j * stride + r * W, Lanes::broadcast(inf));
      for (int e = 0; e < item; ++e) {
        const std::int32_t s = sn.supernode_of(row[e]);
        y[std::int64_t(offset(s) + row[e] - sn.first(s)) * stride + e] = T(0);
      }
      if constexpr (item == 1) {  // the row's own path, up the tree
        for (int s = sn.supernode_of(row[0]); s >= 0; s = sn.parent(s))
          forward_step(s, y, stride, 0, 1);
      } else {  // the supernodes whose subtree holds a row of the item, each on those rows
        for (int s = sn.supernode_of(row[0]); s < sn.supernodes; ++s) {
          if (sn.subtree_first(s) > row[item - 1]) continue;
          int e0, e1;
          subtree_lanes(s, row, e0, e1);
          if (e0 < e1) forward_step(s, y, stride, e0, e1);
        }
      }
    }
    if (split > 1) team.team_barrier();  // fwd is read by every group
    // Backward: s's columns start from the forward pass's values on the rows whose path holds s.
    // Half rows: down to the supernode of the team's first (lowest) row.
    const int lowest = half ? sn.supernode_of(slot_row(first_slot)) : 0;
    // Whole rows in groups: pass P makes the supernodes that P groups share (their ancestors are
    // shared by as many or more), each by the lowest of them, from all `split` groups' down to
    // each group's own, a team barrier between passes (the columns a pass makes are read by the
    // next ones' groups).
    const int first_pass = whole && split > 1 ? split : 1;
    for (int pass = first_pass; pass >= 1; --pass) {
      if (pass < first_pass) team.team_barrier();
      for (int s = sn.supernodes - 1; s >= lowest; --s) {
        if (needed.data() != nullptr && needed(s) == 0) continue;
        bool hand = true;  // to the destination
        if (split > 1) {
          const unsigned groups = share(s), below = groups & ((1u << group) - 1u);
          const int sharing = int(groups & 1u) + int((groups >> 1) & 1u) + int((groups >> 2) & 1u) +
                              int((groups >> 3) & 1u);
          // Skipped with its subtree: s is other groups'; or (whole rows) shared by fewer groups
          // than this pass's, as are its descendants; or made by a lower group in this pass, as
          // are its descendants of this pass (shared alike).
          if (((groups >> group) & 1u) == 0 ||
              (whole && (sharing < pass || (sharing == pass && below != 0)))) {
            s = sn.supernode_of(sn.subtree_first(s));
            continue;
          }
          if (whole && sharing > pass) continue;  // an earlier pass's
          hand = whole || below == 0;
        }
        const Step p = step(s);
        if (!whole) {
          int e0, e1;
          subtree_lanes(s, row, e0, e1);
          for (int k = 0; k < p.c; ++k) {
            const std::int64_t at = std::int64_t(p.at + k) * stride;
            for (int e = 0; e < item; ++e)
              z[at + e] = e >= e0 && e < e1 ? y[at + e] : inf;
          }
        }
        product(z, stride, Consecutive{p.at}, p.c, Gathered{p.bd}, p.b, p.below, p.ldc);
        product(z, stride, Consecutive{p.at}, p.c, Consecutive{p.at}, p.c, p.square, p.ldc);
        if (hand)
          dest.finished(team, state, slot, row, p.f, p.c, z + std::int64_t(p.at) * stride, stride);
      }
    }
    dest.end(team, state, slot, row, z, stride, split);
  }
};

// Destinations of the sweeps' finished columns. Each has: State (what a thread keeps across
// its item's supernodes), begin, finished(team, state, slot, row, f, c, y, stride) (the plan's
// columns [f, f + c) of the item's rows, `row` in the plan's numbering: column f + k of lane e
// at y[k * stride + e]; each column of a row once, by one of its threads), end(team, state, slot,
// row, y, stride, split) (y: the sweeps' array, the item's first lane, rows `stride` apart; split:
// RowSweeps::split, the threads of each row), and scratch_bytes(team) at its scratch `level`, per
// team. A destination that keeps totals per thread adds up a row's threads' in end. The
// measures' reductions are MeasureColumns (measures_kernels.hpp).

// Whole rows: the sweeps' own array holds them (RowSweeps::whole); nothing to hand over as they
// go. On GPUs write_rows then turns the transposed array into rows.
template <class ExecSpace, class T, int Item>
struct RowsKept {
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int level = 1;
  struct State {};
  std::size_t scratch_bytes(int) const { return 0; }
  KOKKOS_INLINE_FUNCTION void begin(const member&, State&, std::int64_t,
                                    const std::int32_t*) const {}
  KOKKOS_INLINE_FUNCTION void finished(const member&, State&, std::int64_t, const std::int32_t*,
                                       std::int32_t, int, const T*, std::int64_t) const {}
  KOKKOS_INLINE_FUNCTION void end(const member&, State&, std::int64_t, const std::int32_t*,
                                  const T*, std::int64_t, int) const {}
};

// Whole rows on host backends: the item's rows are the sweeps' own array in its team's scratch
// (V x Item, in cache: RowSweeps::whole), written out at the end as out(out_row(slot), j) =
// y(column(j)), by blocks of 16 columns so that the block's values of y stay in L1 across the
// rows.
template <class ExecSpace, class T, int Item>
struct RowsInScratch {
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using memory_space = typename ExecSpace::memory_space;
  static constexpr int level = 1;
  struct State {};
  std::int32_t vertices = 0;
  T* out = nullptr;
  std::int64_t out_ld = 0;
  Kokkos::View<const std::int32_t*, memory_space> out_row, column;

  std::size_t scratch_bytes(int) const { return 0; }
  KOKKOS_INLINE_FUNCTION void begin(const member&, State&, std::int64_t,
                                    const std::int32_t*) const {}
  KOKKOS_INLINE_FUNCTION void finished(const member&, State&, std::int64_t, const std::int32_t*,
                                       std::int32_t, int, const T*, std::int64_t) const {}
  KOKKOS_INLINE_FUNCTION void end(const member&, State&, std::int64_t slot, const std::int32_t*,
                                  const T* y, std::int64_t, int) const {
    constexpr std::int32_t block = 16;
    for (std::int32_t j0 = 0; j0 < vertices; j0 += block) {
      const std::int32_t j1 = j0 + block < vertices ? j0 + block : vertices;
      for (int e = 0; e < Item; ++e) {
        const std::int32_t r = out_row(slot + e);
        if (r < 0) continue;
        T* o = out + r * out_ld;
        for (std::int32_t j = j0; j < j1; ++j)
          o[j] = y[std::int64_t(column(j)) * Item + e];
      }
    }
  }
};

// A table's columns: out(out_row(slot), k) for the targets of each supernode (target_start(s)
// .. target_start(s + 1): the plan's column target_column, the table's column target_index).
template <class ExecSpace, class T, int Item>
struct TableColumns {
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using memory_space = typename ExecSpace::memory_space;
  static constexpr int level = 1;
  struct State {};
  Kokkos::View<const std::int32_t*, memory_space> out_row, target_start, target_column,
      target_index, supernode_of;
  T* out = nullptr;
  std::int64_t out_ld = 0;

  std::size_t scratch_bytes(int) const { return 0; }
  KOKKOS_INLINE_FUNCTION void begin(const member&, State&, std::int64_t,
                                    const std::int32_t*) const {}
  KOKKOS_INLINE_FUNCTION void finished(const member&, State&, std::int64_t slot,
                                       const std::int32_t*, std::int32_t f, int, const T* y,
                                       std::int64_t stride) const {
    const std::int32_t s = supernode_of(f);
    for (std::int32_t i = target_start(s); i < target_start(s + 1); ++i) {
      const std::int64_t at = std::int64_t(target_column(i) - f) * stride, k = target_index(i);
      for (int e = 0; e < Item; ++e) {
        const std::int32_t r = out_row(slot + e);
        if (r >= 0) out[r * out_ld + k] = y[at + e];
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void end(const member&, State&, std::int64_t, const std::int32_t*,
                                  const T*, std::int64_t, int) const {}
};
// out(out_row(slot), j) = yt(column(j) * n + slot) for slots with out_row >= 0, by tiles of
// 32 x 32 through scratch, so that both the reads of yt and the writes of out are contiguous.
template <class ExecSpace, class T>
struct WriteRows {
  static constexpr int tile = 32, ld = tile + 1;
  using policy = Kokkos::TeamPolicy<ExecSpace>;
  using scratch = Kokkos::View<T*, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using ids = Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space>;
  const T* yt;
  std::int64_t n;
  std::int32_t vertices;
  ids out_row, column;
  T* out;
  std::int64_t out_ld;
  int slot_tiles;

  KOKKOS_INLINE_FUNCTION void operator()(const typename policy::member_type& team) const {
    const std::int64_t s0 = std::int64_t(team.league_rank() % slot_tiles) * tile;
    const std::int32_t j0 = team.league_rank() / slot_tiles * tile;
    const scratch tmp(team.team_scratch(0), tile * ld);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * tile), [&](int e) {
      const int a = e / tile, b = e % tile;  // column, slot
      if (j0 + a < vertices) tmp(a * ld + b) = yt[std::int64_t(column(j0 + a)) * n + s0 + b];
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * tile), [&](int e) {
      const int b = e / tile, a = e % tile;
      const std::int32_t r = out_row(s0 + b);
      if (r >= 0 && j0 + a < vertices) out[r * out_ld + j0 + a] = tmp(a * ld + b);
    });
  }
};
template <class ExecSpace, class T>
void write_rows(const ExecSpace& exec, const T* yt, std::int64_t n, std::int32_t vertices,
                const Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space>& out_row,
                const Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space>& column,
                T* out, std::int64_t out_ld) {
  using W = WriteRows<ExecSpace, T>;
  const int slot_tiles = int(n / W::tile), col_tiles = (vertices + W::tile - 1) / W::tile;
  const bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  Kokkos::parallel_for(
      "apsp::supernodal::write_rows",
      typename W::policy(exec, slot_tiles * col_tiles, host ? 1 : 256)
          .set_scratch_size(0, Kokkos::PerTeam(W::scratch::shmem_size(W::tile * W::ld))),
      W{yt, n, vertices, out_row, column, out, out_ld, slot_tiles});
}

}  // namespace detail
}  // namespace apsp
