// The three kernels of one round of blocked Floyd-Warshall.
//
// Blocked Floyd-Warshall (Venkataraman, Sahni, Mukhopadhyaya, "A blocked all-pairs
// shortest-paths algorithm", J. Exp. Algorithmics 8, 2003; on GPUs: Katz & Kider, "All-pairs
// shortest-paths for large graphs on the GPU", Graphics Hardware 2008) splits the N x N distance
// matrix into Tile x Tile tiles. Round r closes everything through the vertices of pivot block r:
//   1. PivotTile:      the pivot tile (r, r) runs plain Floyd-Warshall on itself;
//   2. PivotPanels:    the tiles of pivot row r and pivot column r relax through the closed
//                      pivot tile (each still depends on itself, k by k);
//   3. RemainingTiles: every other tile (i, j) relaxes through column tile (i, r) and row tile
//                      (r, j); this is a min-plus matrix product, >97% of the work, and has no
//                      dependency inside the tile: one register block per thread, no barrier in
//                      the k loop.
// Every kernel works on a block of consecutive tile rows (`local`, the rows a process owns; all
// of them with one process) and reads the pivot row panel from `pivot_rows` (Tile x N; with one
// process a subview of `local`). So the multi-process driver runs the very same kernels.
//
// Arithmetic (Relaxation below): the distance type T is a template parameter (distance.hpp:
// int32, float, double; Distance<T> has what differs). int32: weights 0..1000 and "no path" is
// INF = 2^30 - 1, so a sum of two stored values is below 2^31 and never overflows; min(d, a + b)
// never lowers an infinite distance below infinity unless a real path exists. The bounds are
// enforced on input. Floats: INF = +inf, and inf + w = inf for every stored w (never -inf, see
// below), so the same min(d, a + b) holds; the sums round (float32 is exact on integer
// distances below 2^24). A second variant of the same kernels, compiled only where asked for, so
// that plain runs keep the plain inner loop (one add-min instruction per update on NVIDIA GPUs):
// negative weights (-1000..1000), see "Negative weights" below. Paths need no variant: the
// predecessors come from the final distances (paths.hpp).
//
// Negative weights. Stored distances lie in D = [F, T) u {INF}, with, for int32, the floor
// F = -2^29 and the threshold T = INF + F = 2^29 - 1 (for the floats F = -max / 4 and T = +inf:
// a sum of two stored values is never -inf, so never inf - inf = NaN, and only INF is >= T; the
// argument below is the same with exact replaced by rounded sums). A shortest path is simple, so
// every real distance has |d| <= M = the sum of the V - 1 largest |w|, and path_bounds_problem
// (distance.hpp) refuses inputs with M >= T (weights up to 1000: V <= 536871). The pivot tile
// and the panels chain dependent updates inside a tile and relax by the saturating sum
//   sat(a, b) = INF if a or b is INF, else max(F, a + b),
// which stops the values of a negative cycle (they can double every step) at F. The remaining
// tiles (nearly all the work) add and take the minimum only, then map the result once per store:
//   acc = min(d, min_k (a_k + b_k)),   stored: S(acc) = INF if acc >= T, F if acc < F, else acc.
// This stores exactly what sat per update would (so what the kernels stored before the ranges):
//   1. No overflow: a, b in D give a + b in [2F, 2 INF] = [-2^30, 2^31 - 2].
//   2. S is nondecreasing and S(d) = d on D, so S(acc) = min(d, min_k S(a_k + b_k)).
//   3. S(a + b) = sat(a, b) for a, b in D, except when both are finite and a + b >= T (S: INF,
//      sat: a + b): an infinite operand gives a + b >= INF + F = T, so S = INF = sat; otherwise
//      both give F below F and a + b in [F, T).
//   4. By 2 and 3 the two results differ only if the saturating one is finite and >= T. It never
//      is: the Floyd-Warshall induction bounds every stored d(i,j) by the weight of each simple
//      path from i to j through the vertices d(i,j) has been relaxed through (it needs only that
//      sat is monotone and exact on [-M, M], F < -M), and a finite d(i,j) means such a path
//      exists (finite operands chain into a walk, and a walk contains a simple path through its
//      own vertices), so a finite d(i,j) is at most M < T.
// So without a negative cycle no clamp ever acts (every value is >= -M > F) and the results are
// exact; with one, the values are today's clamped ones, and negative_cycle_vertex reports the
// same vertex.
#pragma once

#include <apsp/detail/index_ranges.hpp>
#include <apsp/detail/tile_shapes.hpp>
#include <apsp/distance.hpp>
#include <apsp/graph.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace apsp {
namespace detail {

// Whether v has a negative closed walk through it, from a closed matrix and a u with
// d(u, u) < 0 (uu): u and v share a strongly connected component, d(v, u) (vu) and d(u, v) (uv)
// both finite (closed_walk_vertex, floyd_warshall.hpp).
template <class T>
KOKKOS_INLINE_FUNCTION bool on_closed_walk(T uu, T vu, T uv) {
  return uu < T(0) && vu < Distance<T>::infinity && uv < Distance<T>::infinity;
}

// The range of stored int32 distances with negative weights; see "Negative weights" above and
// Distance<T> (distance.hpp) for every type.
constexpr int negative_floor = Distance<int>::floor;
constexpr int negative_threshold = Distance<int>::threshold;

// The remaining tiles' relaxation with negative weights: one add-min per update,
// the range restored by finish() once per store; see "Negative weights" above.
template <class T>
struct RangedRelaxation {
  using value_type = T;
  static constexpr bool negative = true;

  KOKKOS_FORCEINLINE_FUNCTION static void relax(T& d, T a, T b) {
    const T sum = a + b;
    d = sum < d ? sum : d;
  }
  KOKKOS_FORCEINLINE_FUNCTION static T finish(T d) {
    return d >= Distance<T>::threshold ? Distance<T>::infinity
                                       : (d < Distance<T>::floor ? Distance<T>::floor : d);
  }
};

// d = min(d, a + b) on distances of type T; see "Arithmetic" above. `product` is the relaxation
// of the remaining tiles (a min-plus product): itself, or the ranged one for negative weights.
// finish() maps a value once before it is stored.
template <class T, bool Negative>
struct Relaxation {
  using value_type = T;
  static constexpr bool negative = Negative;
  using product = std::conditional_t<Negative, RangedRelaxation<T>, Relaxation>;

  KOKKOS_FORCEINLINE_FUNCTION static T through(T a, T b) {
    if constexpr (Negative) {
      const T sum = a + b;
      return (a == Distance<T>::infinity || b == Distance<T>::infinity)
                 ? Distance<T>::infinity
                 : (sum < Distance<T>::floor ? Distance<T>::floor : sum);
    } else {
      return a + b;
    }
  }
  // through() lane by lane on host vectors (HostVector below: == and ?: act per lane).
  template <class V>
  static V through_lanes(const V& a, const V& b) {
    if constexpr (Negative) {
      const V inf = V{} + Distance<T>::infinity, floor = V{} + Distance<T>::floor, sum = a + b;
      const V clamped = sum < floor ? floor : sum;
      return ((a == inf) | (b == inf)) ? inf : clamped;
    } else {
      return a + b;
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION static void relax(T& d, T a, T b) {
    const T t = through(a, b);
    d = t < d ? t : d;
  }
  KOKKOS_FORCEINLINE_FUNCTION static T finish(T d) { return d; }
};
template <class T = int>
using PlainRelaxation = Relaxation<T, false>;

template <class T>
KOKKOS_FORCEINLINE_FUNCTION Vec4<T> load4(const T* p) {
  return *reinterpret_cast<const Vec4<T>*>(p);
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void store4(T* p, const Vec4<T>& x) {
  *reinterpret_cast<Vec4<T>*>(p) = x;
}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define APSP_HOST_VECTORS 1
// The host's vector of T (GCC/Clang vector extension: +, < and ?: act per lane), as wide as the
// ISA's registers (HostVectorRegisters). The CPU branch of RemainingTiles holds its register
// block in these: GCC's vectorizer, given the int block, keeps the accumulators in memory
// (one load and one store per vector and k step, on AVX2 even for a 4 x 16 block), while a
// block of vector-typed values stays in registers.
template <class T>
struct HostVector {
  typedef T type __attribute__((vector_size(HostVectorRegisters::bytes)));
  static constexpr int lanes = HostVectorRegisters::bytes / int(sizeof(T));
  static type load(const T* p) {
    type v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
  }
  static void store(T* p, const type& v) { __builtin_memcpy(p, &v, sizeof v); }
  // Copies Rows x Cols of T (Cols a multiple of the lanes) from rows `ld` apart to rows Cols
  // apart: whole vectors, compile-time strides on the destination.
  template <int Rows, int Cols>
  static void copy_rows(T* dst, const T* src, std::int64_t ld) {
    for (int i = 0; i < Rows; ++i)
#pragma GCC unroll 16
      for (int h = 0; h < Cols / lanes; ++h)
        store(dst + i * Cols + h * lanes, load(src + i * ld + h * lanes));
  }
};
#endif

// Where the tiles of one round live. Offsets are 64-bit: N^2 exceeds 2^31 for N > 46340.
struct RoundGeometry {
  int tiles = 0;        // tiles per matrix row (N / Tile)
  int first_tile = 0;   // global tile row of local row 0
  int local_tiles = 0;  // tile rows held locally
  int pivot = 0;        // r
  std::int64_t ld = 0;  // N, the leading dimension of local and pivot rows

  KOKKOS_INLINE_FUNCTION bool owns(int tile) const {
    return tile >= first_tile && tile < first_tile + local_tiles;
  }
  KOKKOS_INLINE_FUNCTION bool owns_pivot() const { return owns(pivot); }
  // Local tile rows outside global tile rows [pivot, pivot + skip): how many, and the n-th.
  KOKKOS_INLINE_FUNCTION int local_of(int global) const {
    const int t = global - first_tile;
    return t < 0 ? 0 : (t > local_tiles ? local_tiles : t);
  }
  KOKKOS_INLINE_FUNCTION int other_local_rows(int skip = 1) const {
    return local_tiles - (local_of(pivot + skip) - local_of(pivot));
  }
  KOKKOS_INLINE_FUNCTION int other_local_row(int n, int skip = 1) const {
    const int from = local_of(pivot);
    return n >= from ? n + local_of(pivot + skip) - from : n;
  }
  // Tile columns outside [pivot, pivot + skip) (pivot + skip <= tiles): the n-th.
  KOKKOS_INLINE_FUNCTION int other_col(int n, int skip = 1) const {
    return n >= pivot ? n + skip : n;
  }
  // The offset of element (0, 0) of tile (local tile row, tile column) for tiles of B.
  KOKKOS_INLINE_FUNCTION std::int64_t tile_offset(int local_row, int col, int B) const {
    return std::int64_t(local_row) * B * ld + std::int64_t(col) * B;
  }
};

template <class ExecSpace, class Shape, class T>
struct KernelTypes {
  using V4 = Vec4<T>;
  using policy = Kokkos::TeamPolicy<ExecSpace>;
  using member = typename policy::member_type;
  using scratch_space = typename ExecSpace::scratch_memory_space;
  using tile = Kokkos::View<T**, Kokkos::LayoutRight, scratch_space,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using tile4 = Kokkos::View<V4**, Kokkos::LayoutRight, scratch_space,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int B = Shape::tile;
  static constexpr int TY = Shape::team_rows, TX = Shape::team_cols;
  static constexpr int RI = Shape::reg_rows, RJ = Shape::reg_cols;
  static constexpr int level = ShapeTable<ExecSpace, T>::scratch_level;
  // One register block covers the tile (GPU shapes): pivot tiles and panels are closed in
  // registers too, 4x4 per thread whatever the shape (their B sequential steps are latency:
  // more threads with fewer registers each go faster). Otherwise (one CPU thread per tile)
  // they are closed in scratch by the shape's team.
  static constexpr bool in_registers = Shape::passes_rows == 1 && Shape::passes_cols == 1;
  static constexpr int closure_threads = in_registers ? (B / 4) * (B / 4) : Shape::team_size;

  // The policies of the closures (pivot tile, panels) and of the remaining tiles; with
  // bounded_launches each kernel is compiled for exactly its team size.
  template <int Threads>
  using policy_for =
      std::conditional_t<ShapeTable<ExecSpace, T>::bounded_launches,
                         Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<Threads, 1>>, policy>;
  using closure_policy = policy_for<closure_threads>;
  using tiles_policy = policy_for<Shape::team_size>;

  // The closure's pivot tile has B + 1 columns, so that the rows of a warp fall in different
  // banks when they read one column; row and column k are double-buffered V4 vectors.
  static std::size_t panel_scratch() {
    return in_registers ? tile::shmem_size(B, B + 1) + 2 * tile4::shmem_size(2, B / 4)
                        : 2 * tile::shmem_size(B, B + 1);
  }
  static std::size_t chunk_scratch() {
    return tile4::shmem_size(B, Shape::k_chunk / 4) + tile4::shmem_size(Shape::k_chunk, B / 4);
  }

  // The tile rows and columns of register a / b of thread (ty, tx): groups of four, spread
  // over the tile, so that a quarter-warp's V4 loads cover 128 consecutive bytes.
  KOKKOS_FORCEINLINE_FUNCTION static int row_of(int pass, int ty, int a) {
    return pass * TY * RI + (a / 4) * 4 * TY + ty * 4 + a % 4;
  }
  KOKKOS_FORCEINLINE_FUNCTION static int col_of(int pass, int tx, int b) {
    return pass * TX * RJ + (b / 4) * 4 * TX + tx * 4 + b % 4;
  }
  KOKKOS_INLINE_FUNCTION static void load_block(T (&acc)[RI][RJ], const T* tile_ptr,
                                                std::int64_t ld, int pr, int pc, int ty, int tx) {
    for (int a = 0; a < RI; ++a)
      for (int h = 0; h < RJ / 4; ++h) {
        const V4 x = load4(tile_ptr + row_of(pr, ty, a) * ld + col_of(pc, tx, 4 * h));
        for (int f = 0; f < 4; ++f)
          acc[a][4 * h + f] = x.v[f];
      }
  }
  KOKKOS_INLINE_FUNCTION static void store_block(const T (&acc)[RI][RJ], T* tile_ptr,
                                                 std::int64_t ld, int pr, int pc, int ty, int tx) {
    for (int a = 0; a < RI; ++a)
      for (int h = 0; h < RJ / 4; ++h) {
        V4 x;
        for (int f = 0; f < 4; ++f)
          x.v[f] = acc[a][4 * h + f];
        store4(tile_ptr + row_of(pr, ty, a) * ld + col_of(pc, tx, 4 * h), x);
      }
  }

  // Copies rows x cols (cols % 4 == 0) from global memory into an V4 scratch view.
  KOKKOS_INLINE_FUNCTION static void load_tile4(const member& team, const tile4& dst, const T* src,
                                                std::int64_t ld, int rows, int cols) {
    const int quads = cols / 4;
    for (int e = team.team_rank(); e < rows * quads; e += team.team_size()) {
      const int i = e / quads, q = e % quads;
      dst(i, q) = load4(src + i * ld + 4 * q);
    }
  }
  KOKKOS_INLINE_FUNCTION static void load_tile(const member& team, const tile& dst, const T* src,
                                               std::int64_t ld) {
    for (int e = team.team_rank(); e < B * B; e += team.team_size())
      dst(e / B, e % B) = src[(e / B) * ld + e % B];
  }
  KOKKOS_INLINE_FUNCTION static void store_tile(const member& team, T* dst, std::int64_t ld,
                                                const tile& src) {
    for (int e = team.team_rank(); e < B * B; e += team.team_size())
      dst[(e / B) * ld + e % B] = src(e / B, e % B);
  }

  // What a tile is closed through, k = 0..B-1 in order: own(i,j) = min(own(i,j), L(i,k) + R(k,j)).
  enum class Through {
    itself,      // pivot tile: L = R = own
    pivot_left,  // row panel: L = the closed pivot tile, R = own
    pivot_right  // column panel: L = own, R = the closed pivot tile
  };

#if defined(APSP_HOST_VECTORS)
  using Lanes = HostVector<T>;
  // One CPU thread closes a tile (host shapes: team of one): rows of whole vectors.
  static constexpr bool host_vectors =
      Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible &&
      Shape::team_size == 1 && B % Lanes::lanes == 0;

  // close_tile on one CPU thread: the tile (and the pivot tile) in scratch, B x B row-major;
  // step k relaxes row i through left(i, k) and row k of `right`, row after row, in the order of
  // the scalar branch below, so that the two store the same values also where a negative cycle
  // changes row k in its own step: rows up to k see row k as it was before the step, the rows
  // after it as row k left it. Per step: B broadcasts, B * B / lanes vector add-min pairs, all
  // in L1.
  template <class Relax>
  static void close_tile_in_vectors(const member& team, T* own, const T* pivot, std::int64_t ld,
                                    Through how) {
    using V = typename Lanes::type;
    constexpr int W = Lanes::lanes, VB = B / W;
    const tile d_tile(team.team_scratch(int(level)), B, B),
        p_tile(team.team_scratch(int(level)), B, B);
    T* d = d_tile.data();
    T* p = p_tile.data();
    Lanes::template copy_rows<B, B>(d, own, ld);
    if (how != Through::itself) Lanes::template copy_rows<B, B>(p, pivot, ld);
    const T* left = how == Through::pivot_left ? p : d;
    const T* right = how == Through::pivot_right ? p : d;
    V row_k[VB];
    const auto load_row_k = [&](int k) {
#pragma GCC unroll 16
      for (int h = 0; h < VB; ++h)
        row_k[h] = Lanes::load(right + k * B + h * W);
    };
    const auto relax_rows = [&](int k, int first, int last) {
      for (int i = first; i < last; ++i) {
        const V l = V{} + left[i * B + k];
#pragma GCC unroll 16
        for (int h = 0; h < VB; ++h) {
          T* at = d + i * B + h * W;
          const V t = Relax::through_lanes(l, row_k[h]), now = Lanes::load(at);
          Lanes::store(at, t < now ? t : now);
        }
      }
    };
    for (int k = 0; k < B; ++k) {
      load_row_k(k);
      relax_rows(k, 0, k + 1);
      if (right == d) load_row_k(k);
      relax_rows(k, k + 1, B);
    }
    for (int i = 0; i < B; ++i)
#pragma GCC unroll 16
      for (int h = 0; h < VB; ++h)
        Lanes::store(own + i * ld + h * W, Lanes::load(d + i * B + h * W));
  }
#endif

  // Closes the B x B tile at `own` (global memory, leading dimension ld); `pivot` is the closed
  // pivot tile for the panels. Row k and column k of a tile do not change in step k
  // (d(k,k) = 0), which is what lets every step read them while others update the rest.
  template <class Relax>
  KOKKOS_INLINE_FUNCTION static void close_tile(const member& team, T* own, const T* pivot,
                                                std::int64_t ld, Through how) {
#if defined(APSP_HOST_VECTORS)
    if constexpr (host_vectors) {
      close_tile_in_vectors<Relax>(team, own, pivot, ld, how);
      return;
    }
#endif
    const tile p(team.team_scratch(int(level)), B, B + 1);
    if (how != Through::itself) load_tile(team, p, pivot, ld);
    if constexpr (in_registers) {
      // Thread (ty, tx) holds rows 4ty..4ty+3, columns 4tx..4tx+3 in registers. Row and
      // column k come from two double-buffered vectors that their owners write after step
      // k - 1, so one barrier per step suffices.
      const tile4 rowk(team.team_scratch(int(level)), 2, B / 4);
      const tile4 colk(team.team_scratch(int(level)), 2, B / 4);
      const int ty = team.team_rank() / (B / 4), tx = team.team_rank() % (B / 4);
      T acc[4][4];
      for (int a = 0; a < 4; ++a) {
        const V4 x = load4(own + (4 * ty + a) * ld + 4 * tx);
        for (int b = 0; b < 4; ++b)
          acc[a][b] = x.v[b];
      }
      if (ty == 0) rowk(0, tx) = load4(own + 4 * tx);
      if (tx == 0) {
        V4 x;
        for (int a = 0; a < 4; ++a)
          x.v[a] = own[(4 * ty + a) * ld];
        colk(0, ty) = x;
      }
      team.team_barrier();
      for (int k = 0; k < B; ++k) {
        const int cur = k & 1;
        V4 left = colk(cur, ty), right = rowk(cur, tx);
        if (how == Through::pivot_left)
          for (int a = 0; a < 4; ++a)
            left.v[a] = p(4 * ty + a, k);
        if (how == Through::pivot_right)
          for (int b = 0; b < 4; ++b)
            right.v[b] = p(k, 4 * tx + b);
        for (int a = 0; a < 4; ++a)
          for (int b = 0; b < 4; ++b)
            Relax::relax(acc[a][b], left.v[a], right.v[b]);
        const int next = k + 1;
        if (next < B) {  // publish row and column k + 1 as they are after step k
          if (how != Through::pivot_right && ty == next / 4)
            for (int a = 0; a < 4; ++a)
              if (a == next % 4)
                rowk(1 - cur, tx) = V4{{acc[a][0], acc[a][1], acc[a][2], acc[a][3]}};
          if (how != Through::pivot_left && tx == next / 4)
            for (int b = 0; b < 4; ++b)
              if (b == next % 4)
                colk(1 - cur, ty) = V4{{acc[0][b], acc[1][b], acc[2][b], acc[3][b]}};
        }
        team.team_barrier();
      }
      for (int a = 0; a < 4; ++a)
        store4(own + (4 * ty + a) * ld + 4 * tx, V4{{acc[a][0], acc[a][1], acc[a][2], acc[a][3]}});
    } else {
      // In scratch, one step at a time; consecutive threads take consecutive columns, so
      // one thread sweeps contiguous rows (vectorized) on a CPU. Only improvements are
      // stored: row and column k, which others read in step k, are never written in it.
      const tile d(team.team_scratch(int(level)), B, B + 1);
      load_tile(team, d, own, ld);
      team.team_barrier();
      constexpr int tcols = Shape::team_size < B ? Shape::team_size : B;
      constexpr int trows = Shape::team_size / tcols;
      const int ty = team.team_rank() / tcols, tx = team.team_rank() % tcols;
      const tile& left = how == Through::pivot_left ? p : d;
      const tile& right = how == Through::pivot_right ? p : d;
      for (int k = 0; k < B; ++k) {
        if (ty < trows) {
          for (int i = ty; i < B; i += trows) {
            const T lik = left(i, k);
            for (int j = tx; j < B; j += tcols) {
              const T through = Relax::through(lik, right(k, j));
              if (through < d(i, j)) d(i, j) = through;
            }
          }
        }
        team.team_barrier();
      }
      store_tile(team, own, ld, d);
    }
  }
};

// Every kernel below takes the Relaxation (plain, negative weights) as a template parameter.

// Phase 1: Floyd-Warshall inside the pivot tile. One team.
template <class ExecSpace, class Shape, class Relax>
struct PivotTile {
  using T = typename Relax::value_type;
  using types = KernelTypes<ExecSpace, Shape, T>;
  using V4 = typename types::V4;
  static constexpr int B = Shape::tile;
  T* local;
  RoundGeometry geo;

  KOKKOS_INLINE_FUNCTION void operator()(const typename types::member& team) const {
    const std::int64_t at = geo.tile_offset(geo.pivot - geo.first_tile, geo.pivot, B);
    types::template close_tile<Relax>(team, local + at, nullptr, geo.ld, types::Through::itself);
  }
};

// Phase 2: the tiles of the pivot row (row panel) and of the pivot column (column panel).
// League: first the row-panel tiles (when do_rows), then the column-panel tiles (when do_cols).
// The row panel reads the pivot tile from `local` (its owner computes it before the pivot rows
// are shared); the column panel reads it from `pivot_rows`.
template <class ExecSpace, class Shape, class Relax>
struct PivotPanels {
  using T = typename Relax::value_type;
  using types = KernelTypes<ExecSpace, Shape, T>;
  using V4 = typename types::V4;
  static constexpr int B = Shape::tile;
  T* local;
  const T* pivot_rows;
  RoundGeometry geo;
  bool do_rows;

  int row_teams() const { return do_rows ? geo.tiles - 1 : 0; }
  int league_size(bool do_cols) const {
    return row_teams() + (do_cols ? geo.other_local_rows() : 0);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const typename types::member& team) const {
    const int n = team.league_rank();
    const int rows = do_rows ? geo.tiles - 1 : 0;
    if (n < rows) {
      const int pivot_local_row = geo.pivot - geo.first_tile;
      types::template close_tile<Relax>(
          team, local + geo.tile_offset(pivot_local_row, geo.other_col(n), B),
          local + geo.tile_offset(pivot_local_row, geo.pivot, B), geo.ld,
          types::Through::pivot_left);
    } else {
      types::template close_tile<Relax>(
          team, local + geo.tile_offset(geo.other_local_row(n - rows), geo.pivot, B),
          pivot_rows + geo.tile_offset(0, geo.pivot, B), geo.ld, types::Through::pivot_right);
    }
  }
};

// Phase 3: every tile outside the pivot row and column, as a min-plus product of its column
// panel tile (i, r) and row panel tile (r, j), K chunks at a time through scratch. Relax is the
// round's Relaxation::product (plain or ranged negative). Thread
// (ty, tx) holds RegRows x RegCols distances in registers; its rows and columns come in groups
// of four spread over the tile (group g of rows at g*4*TeamRows + ty*4) so that every scratch
// load is one V4 and the threads of a quarter-warp read 128 consecutive bytes.
template <class ExecSpace, class Shape, class Relax>
struct RemainingTiles {
  using T = typename Relax::value_type;
  using types = KernelTypes<ExecSpace, Shape, T>;
  using V4 = typename types::V4;
  static constexpr int B = Shape::tile, KC = Shape::k_chunk;
  static constexpr int TY = Shape::team_rows, TX = Shape::team_cols;
  static constexpr int RI = Shape::reg_rows, RJ = Shape::reg_cols;
  // Which of the round's remaining tiles a launch updates. With lookahead (one process) the
  // tiles of row and column pivot + 1 (the "cross") are updated first, so that the next pivot
  // tile and its panels can close while the others are still updated (row_block_rounds.hpp).
  enum class Part {
    all,           // every tile outside pivot row and column
    outside_next,  // ... and outside row and column pivot + 1
    next_cross     // the tiles of row and column pivot + 1 (outside pivot row and column)
  };
  T* local;
  const T* pivot_rows;
  RoundGeometry geo;
  Part part = Part::all;
  // A part of more teams than one launch takes (a league is an int) goes in launches of whole
  // rows of tiles: team n of a launch updates the tile of team first_row * row_teams() + n of
  // the part. The mapping stays in 32-bit ints: a 64-bit team index and its division slow the
  // whole solve on a GPU (docs/PERFORMANCE.md, "Padded sizes where 32-bit products wrap").
  int first_row = 0;

  // The tile rows and columns from the pivot on that a launch of `all` or `outside_next` skips.
  KOKKOS_INLINE_FUNCTION int skip() const { return part == Part::outside_next ? 2 : 1; }
  // next_cross: the teams of row pivot + 1 (when local) come first, then those of its column.
  KOKKOS_INLINE_FUNCTION int cross_row_teams() const {
    return geo.owns(geo.pivot + 1) ? geo.tiles - 1 : 0;
  }
  // all, outside_next: the tile rows of the part and the teams of one row.
  int rows() const { return geo.other_local_rows(skip()); }
  KOKKOS_INLINE_FUNCTION int row_teams() const { return geo.tiles - skip(); }
  // Teams of the part: one per tile; (tiles - 1)^2 passes 2^31 from 46342 tiles (tiles of 4 at
  // N = 185368).
  std::int64_t teams() const {
    if (part == Part::next_cross) return cross_row_teams() + geo.other_local_rows(2);
    return std::int64_t(rows()) * row_teams();
  }
  // The launches of the part: whole rows, at most max_range_launch teams each (next_cross: one).
  int rows_per_launch() const {
    if (part == Part::next_cross) return 1;
    return row_teams() > 0 ? int(std::max<std::int64_t>(1, max_range_launch / row_teams())) : 1;
  }
  // The local tile row and the tile column of team n of the launch from first_row.
  KOKKOS_INLINE_FUNCTION void tile_of(int n, int& row, int& col) const {
    if (part != Part::next_cross) {
      const int cols = row_teams();
      row = geo.other_local_row(first_row + n / cols, skip());
      col = geo.other_col(n % cols, skip());
    } else if (n < cross_row_teams()) {
      row = geo.pivot + 1 - geo.first_tile;
      col = geo.other_col(n);
    } else {
      row = geo.other_local_row(n - cross_row_teams(), 2);
      col = geo.pivot + 1;
    }
  }

#if defined(APSP_HOST_VECTORS)
  using Lanes = typename types::Lanes;
  // One CPU thread per tile (the panels enter scratch once), a block of whole vectors. Both
  // products (plain, ranged negative) add and take the minimum; Relax::finish maps the stored
  // values.
  static constexpr bool host_vectors =
      Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible && TX == 1 && TY == 1 &&
      KC == B && RJ % Lanes::lanes == 0;

  // Thread's register block: RI rows x RJ / lanes vectors; per k step, RJ / lanes vector loads of
  // the row panel, RI broadcasts of the column panel, RI * RJ / lanes add-min pairs.
  template <class Tile4>
  void update_in_vectors(T* own, std::int64_t ld, const T* col_panel, const T* row_panel,
                         const Tile4& cols, const Tile4& rows) const {
    using V = typename Lanes::type;
    constexpr int W = Lanes::lanes, VJ = RJ / W;
    // A team of one thread: the panels enter scratch as whole vectors, rows B apart (in place
    // they are `ld` apart, which for ld a multiple of 4 KB maps every row to the same L1 sets).
    // Written through the tiles' own data, not through the first Vec4's four values (GCC 14 sees
    // B x B values written into an array of 4: -Wstringop-overflow).
    Lanes::template copy_rows<B, B>(reinterpret_cast<T*>(cols.data()), col_panel, ld);
    Lanes::template copy_rows<B, B>(reinterpret_cast<T*>(rows.data()), row_panel, ld);
    // The block loops are unrolled before anything else, so that the compiler sees RI * VJ
    // separate vectors (registers) instead of an array (memory).
    for (int pr = 0; pr < Shape::passes_rows; ++pr) {
      for (int pc = 0; pc < Shape::passes_cols; ++pc) {
        V acc[RI][VJ];
#pragma GCC unroll 64
        for (int a = 0; a < RI; ++a)
#pragma GCC unroll 64
          for (int h = 0; h < VJ; ++h)
            acc[a][h] = Lanes::load(own + (pr * RI + a) * ld + pc * RJ + h * W);
        // The next pass's block comes from memory (the matrix does not fit the caches): its
        // lines are asked for now and arrive while this pass computes (docs/PERFORMANCE.md,
        // "prefetched accumulators").
        if (pr + 1 < Shape::passes_rows)
          for (int a = 0; a < RI; ++a)
            for (int c = 0; c < RJ; c += 64 / int(sizeof(T)))
              __builtin_prefetch(own + ((pr + 1) * RI + a) * ld + pc * RJ + c, 1);
        // Both panels are B x B ints in scratch, row-major with compile-time strides.
        const T* left_rows = &cols(pr * RI, 0).v[0];
        const T* right_rows = &rows(0, 0).v[0] + pc * RJ;
#pragma GCC unroll 4
        for (int k = 0; k < B; ++k) {
          V right[VJ];
#pragma GCC unroll 64
          for (int h = 0; h < VJ; ++h)
            right[h] = Lanes::load(right_rows + k * B + h * W);
#pragma GCC unroll 64
          for (int a = 0; a < RI; ++a) {
            const V left = V{} + left_rows[a * B + k];
#pragma GCC unroll 64
            for (int h = 0; h < VJ; ++h) {
              const V through = left + right[h];
              acc[a][h] = through < acc[a][h] ? through : acc[a][h];
            }
          }
        }
#pragma GCC unroll 64
        for (int a = 0; a < RI; ++a)
#pragma GCC unroll 64
          for (int h = 0; h < VJ; ++h) {
            T* out = own + (pr * RI + a) * ld + pc * RJ + h * W;
            Lanes::store(out, acc[a][h]);
            if constexpr (Relax::negative)
              for (int f = 0; f < W; ++f)
                out[f] = Relax::finish(out[f]);
          }
      }
    }
  }
#endif

  KOKKOS_INLINE_FUNCTION void operator()(const typename types::member& team) const {
    int tile_row, tile_col;
    tile_of(team.league_rank(), tile_row, tile_col);
    const std::int64_t ld = geo.ld;
    T* own = local + geo.tile_offset(tile_row, tile_col, B);
    const T* col_panel = local + geo.tile_offset(tile_row, geo.pivot, B);
    const T* row_panel = pivot_rows + geo.tile_offset(0, tile_col, B);

    typename types::tile4 cols(team.team_scratch(int(types::level)), B, KC / 4);  // cols(i, kk/4)
    typename types::tile4 rows(team.team_scratch(int(types::level)), KC, B / 4);  // rows(kk, j/4)
#if defined(APSP_HOST_VECTORS)
    if constexpr (host_vectors) {
      update_in_vectors(own, ld, col_panel, row_panel, cols, rows);
      return;
    }
#endif
    const int ty = team.team_rank() / TX, tx = team.team_rank() % TX;

    for (int pr = 0; pr < Shape::passes_rows; ++pr) {
      for (int pc = 0; pc < Shape::passes_cols; ++pc) {
        T acc[RI][RJ];
        types::load_block(acc, own, ld, pr, pc, ty, tx);
        for (int k0 = 0; k0 < B; k0 += KC) {
          if (KC < B || (pr == 0 && pc == 0)) {
            team.team_barrier();
            types::load_tile4(team, cols, col_panel + k0, ld, B, KC);
            types::load_tile4(team, rows, row_panel + k0 * ld, ld, KC, B);
            team.team_barrier();
          }
          for (int kk = 0; kk < KC; kk += 4) {
            V4 left[RI];  // d(i, k0+kk .. k0+kk+3) of this thread's rows
            for (int a = 0; a < RI; ++a)
              left[a] = cols(types::row_of(pr, ty, a), kk / 4);
            for (int u = 0; u < 4; ++u) {
              if constexpr (TX == 1) {
                // One thread's columns are contiguous: the vectorizer loads them in place
                // (copying through V4 would stall store forwarding on CPUs).
                const T* right = &rows(kk + u, 0).v[0] + pc * RJ;
                for (int a = 0; a < RI; ++a) {
                  const T l = left[a].v[u];
                  for (int b = 0; b < RJ; ++b)
                    Relax::relax(acc[a][b], l, right[b]);
                }
              } else {
                T right[RJ];  // d(k0+kk+u, j) of this thread's columns, V4 loads
                for (int h = 0; h < RJ / 4; ++h) {
                  const V4 x = rows(kk + u, types::col_of(pc, tx, 4 * h) / 4);
                  for (int f = 0; f < 4; ++f)
                    right[4 * h + f] = x.v[f];
                }
                for (int a = 0; a < RI; ++a) {
                  const T l = left[a].v[u];
                  for (int b = 0; b < RJ; ++b)
                    Relax::relax(acc[a][b], l, right[b]);
                }
              }
            }
          }
        }
        for (auto& row : acc)
          for (T& x : row)
            x = Relax::finish(x);
        types::store_block(acc, own, ld, pr, pc, ty, tx);
      }
    }
  }
};

}  // namespace detail
}  // namespace apsp
