// The kernels of supernodal Floyd-Warshall (supernodal.hpp) that the dense blocked kernels do
// not cover: assembling a front (its original edges, its children's Schur complements by
// extend-add), keeping the factor, and the row sweeps that turn the factor into rows of the
// distance matrix. The fronts themselves are closed by BlockedRounds (blocked_rounds.hpp).
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
#include <apsp/detail/supernodal_symbolic.hpp>
#include <apsp/distance.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace apsp {
namespace detail {

// The factor's supernodes on the device: supernode s has the columns [first(s), first(s + 1)),
// its subtree [subtree_first(s), first(s + 1)), its border border(border_start(s) ...
// border_start(s + 1)), and its values from values_start(s): C_ss (c x ld(c)), A(s,Bd)
// (c x ld(b)), A(Bd,s) (b x ld(c)), row-major, rows padded with infinity (factor_ld).
template <class MemorySpace>
struct SupernodeViews {
  Kokkos::View<const std::int32_t*, MemorySpace> first, subtree_first, border;
  Kokkos::View<const std::int64_t*, MemorySpace> border_start, values_start;
  std::int32_t supernodes = 0;
  std::int32_t widest = 0;  // the largest padded row of the factor (scratch of the sweeps)
};

// A front: F(i,j) = 0 on the diagonal, infinity elsewhere (padding included), then its original
// edges [from, to) (distinct positions, row and column pairs in `at`; a negative self-loop
// lowers the diagonal).
template <class ExecSpace, class T>
void assemble_edges(const ExecSpace& exec, T* front, std::int64_t size,
                    const Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space>& at,
                    const Kokkos::View<const T*, typename ExecSpace::memory_space>& weight,
                    std::int64_t from, std::int64_t to) {
  Kokkos::parallel_for(
      "apsp::supernodal::front_identity",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, size * size),
      KOKKOS_LAMBDA(std::int64_t e) {
        front[e] = e / size == e % size ? T(0) : Distance<T>::infinity;
      });
  if (to > from)
    Kokkos::parallel_for(
        "apsp::supernodal::front_edges",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, from, to),
        KOKKOS_LAMBDA(std::int64_t e) {
          T& d = front[std::int64_t(at(2 * e)) * size + at(2 * e + 1)];
          d = weight(e) < d ? weight(e) : d;
        });
}

// Extend-add: the child's Schur complement (its front's border block, from row `offset`) into
// the parent's front at the rows and columns `relative` names.
template <class ExecSpace, class T>
void extend_add(const ExecSpace& exec, T* front, std::int64_t size, const T* child,
                std::int64_t child_size, std::int64_t offset,
                const Kokkos::View<const std::int32_t*, typename ExecSpace::memory_space>& relative,
                std::int64_t from, std::int64_t count) {
  Kokkos::parallel_for(
      "apsp::supernodal::extend_add",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, count * count),
      KOKKOS_LAMBDA(std::int64_t e) {
        const std::int64_t a = e / count, b = e % count;
        const T x = child[(offset + a) * child_size + offset + b];
        T& d = front[std::int64_t(relative(from + a)) * size + relative(from + b)];
        d = x < d ? x : d;
      });
}

// Keeps C_ss, A(s,Bd) and A(Bd,s) of a closed front (columns c, border b, the border's rows
// from `offset`) at `out`, rows padded with infinity.
template <class ExecSpace, class T>
void keep_factor(const ExecSpace& exec, const T* front, std::int64_t size, std::int64_t offset,
                 int c, int b, T* out) {
  const std::int64_t ldc = factor_ld(c), ldb = factor_ld(b);
  const std::int64_t square = c * ldc, right = c * ldb, total = square + right + b * ldc;
  Kokkos::parallel_for(
      "apsp::supernodal::keep_factor",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, total),
      KOKKOS_LAMBDA(std::int64_t e) {
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
      });
}

// The row sweeps (above) of a block of rows: y holds `count` rows, `ld` apart, of V columns in
// the plan's numbering; row r of the block is the source vertex rows(r). Host (one thread a
// row, whole host vectors: HostPath) or portable (a team of Rows rows, threads across columns).
template <class ExecSpace, class Product, bool HostPath>
struct RowSweeps {
  using T = typename Product::value_type;
  using memory_space = typename ExecSpace::memory_space;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using scratch = Kokkos::View<T*, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int Rows = HostPath ? 1 : 8;
  static constexpr T inf = Distance<T>::infinity;

  T* y;
  std::int64_t ld = 0, vertices = 0, count = 0;
  Kokkos::View<const std::int32_t*, memory_space> rows;
  SupernodeViews<memory_space> sn;
  const T* values = nullptr;

  int league_size() const { return int((count + Rows - 1) / Rows); }
  int team_size() const { return HostPath || host_memory_space() ? 1 : 128; }
  std::size_t scratch_bytes() const {
    return scratch::shmem_size(std::size_t(HostPath ? 2 : Rows) * std::size_t(sn.widest));
  }
  static constexpr bool host_memory_space() {
    return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  }

  // What one supernode's step needs.
  struct Step {
    std::int32_t f, c, b;
    std::int64_t ldc, ldb;
    const std::int32_t* bd;
    const T *square, *right, *below;  // C_ss, A(s,Bd), A(Bd,s)
  };
  KOKKOS_INLINE_FUNCTION Step step(int s) const {
    Step p;
    p.f = sn.first(s);
    p.c = sn.first(s + 1) - p.f;
    p.b = std::int32_t(sn.border_start(s + 1) - sn.border_start(s));
    p.ldc = factor_ld(p.c);
    p.ldb = factor_ld(p.b);
    p.bd = &sn.border(sn.border_start(s));
    p.square = values + sn.values_start(s);
    p.right = p.square + p.c * p.ldc;
    p.below = p.right + p.c * p.ldb;
    return p;
  }

#if defined(APSP_HOST_VECTORS)
  using Lanes = HostVector<T>;
  using V = typename Lanes::type;
  static constexpr int W = Lanes::lanes;

  // acc(0 .. n) = min(acc, min_k (left(k) + matrix(k, 0 .. n))), skipping infinite left(k):
  // n a multiple of the lanes, matrix rows `ld` apart.
  static void product(T* acc, const T* left, int k_count, const T* matrix, std::int64_t ld, int n) {
    for (int k = 0; k < k_count; ++k) {
      const T l = left[k];
      if (l == inf) continue;
      const V lv = V{} + l;
      const T* m = matrix + k * ld;
      for (int h = 0; h < n; h += W) {
        const V t = lv + Lanes::load(m + h), now = Lanes::load(acc + h);
        Lanes::store(acc + h, t < now ? t : now);
      }
    }
  }
  static void finish(T* x, int n) {
    if constexpr (Product::negative)
      for (int j = 0; j < n; ++j)
        x[j] = Product::finish(x[j]);
  }
  // y(f .. f + c) into a, padded with infinity to ldc.
  static void load_columns(T* a, const T* yr, const Step& p) {
    for (int j = 0; j < p.c; ++j)
      a[j] = yr[p.f + j];
    for (int j = p.c; j < p.ldc; ++j)
      a[j] = inf;
  }

  void sweep_on_host(const member& team) const {
    const std::int64_t r = team.league_rank();
    const std::int32_t row = rows(r);
    T* yr = y + r * ld;
    T* a = scratch(team.team_scratch(1), 2 * std::size_t(sn.widest)).data();
    T* b = a + sn.widest;
    for (std::int64_t j = 0; j < vertices; ++j)
      yr[j] = inf;
    yr[row] = T(0);
    for (int s = 0; s < sn.supernodes; ++s) {
      if (row < sn.subtree_first(s) || row >= sn.first(s + 1)) continue;
      const Step p = step(s);
      load_columns(a, yr, p);
      for (int j = 0; j < p.ldc; ++j)
        b[j] = a[j];
      product(b, a, p.c, p.square, p.ldc, int(p.ldc));
      finish(b, p.c);
      for (int j = 0; j < p.c; ++j)
        yr[p.f + j] = b[j];
      if (p.b == 0) continue;
      for (int j = 0; j < p.ldb; ++j)
        a[j] = inf;
      product(a, b, p.c, p.right, p.ldb, int(p.ldb));
      for (int j = 0; j < p.b; ++j) {
        const T x = Product::finish(a[j]);
        T& d = yr[p.bd[j]];
        d = x < d ? x : d;
      }
    }
    for (int s = sn.supernodes - 1; s >= 0; --s) {
      const Step p = step(s);
      load_columns(a, yr, p);
      for (int k = 0; k < p.b; ++k)
        b[k] = yr[p.bd[k]];
      product(a, b, p.b, p.below, p.ldc, int(p.ldc));
      finish(a, p.c);
      for (int j = 0; j < p.ldc; ++j)
        b[j] = a[j];
      product(b, a, p.c, p.square, p.ldc, int(p.ldc));
      finish(b, p.c);
      for (int j = 0; j < p.c; ++j)
        yr[p.f + j] = b[j];
    }
  }
#endif

  // A team of threads on Rows rows; thread j of a step owns column j. A product into the
  // supernode's own columns goes through scratch: every thread reads all of them.
  KOKKOS_INLINE_FUNCTION void sweep_portable(const member& team) const {
    const std::int64_t base = std::int64_t(team.league_rank()) * Rows;
    const int valid = int(count - base < Rows ? count - base : Rows);
    std::int32_t row[Rows];
    T* yr[Rows];
    for (int r = 0; r < Rows; ++r) {
      const int at = r < valid ? r : valid - 1;  // spare slots read the last row, write nothing
      row[r] = rows(base + at);
      yr[r] = y + (base + at) * ld;
    }
    const scratch tmp(team.team_scratch(1), std::size_t(Rows) * std::size_t(sn.widest));
    const std::int64_t w = sn.widest;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, std::int64_t(valid) * vertices),
                         [&](std::int64_t e) {
                           const std::int64_t r = e / vertices, j = e % vertices;
                           yr[r][j] = j == row[r] ? T(0) : inf;
                         });
    team.team_barrier();
    for (int s = 0; s < sn.supernodes; ++s) {
      bool on_path = false;
      for (int r = 0; r < valid; ++r)
        on_path = on_path || (row[r] >= sn.subtree_first(s) && row[r] < sn.first(s + 1));
      if (!on_path) continue;
      const Step p = step(s);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, p.c), [&](int j) {
        T acc[Rows];
        for (int r = 0; r < Rows; ++r)
          acc[r] = yr[r][p.f + j];
        for (int k = 0; k < p.c; ++k) {
          const T m = p.square[k * p.ldc + j];
          for (int r = 0; r < Rows; ++r)
            Product::relax(acc[r], yr[r][p.f + k], m);
        }
        for (int r = 0; r < Rows; ++r)
          tmp(r * w + j) = Product::finish(acc[r]);
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, p.c), [&](int j) {
        for (int r = 0; r < valid; ++r)
          yr[r][p.f + j] = tmp(r * w + j);
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, p.b), [&](int j) {
        T acc[Rows];
        for (int r = 0; r < Rows; ++r)
          acc[r] = inf;
        for (int k = 0; k < p.c; ++k) {
          const T m = p.right[k * p.ldb + j];
          for (int r = 0; r < Rows; ++r)
            Product::relax(acc[r], tmp(r * w + k), m);
        }
        for (int r = 0; r < valid; ++r) {
          const T x = Product::finish(acc[r]);
          T& d = yr[r][p.bd[j]];
          d = x < d ? x : d;
        }
      });
      team.team_barrier();
    }
    for (int s = sn.supernodes - 1; s >= 0; --s) {
      const Step p = step(s);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, p.c), [&](int j) {
        T acc[Rows];
        for (int r = 0; r < Rows; ++r)
          acc[r] = yr[r][p.f + j];
        for (int k = 0; k < p.b; ++k) {
          const T m = p.below[k * p.ldc + j];
          const std::int32_t col = p.bd[k];
          for (int r = 0; r < Rows; ++r)
            Product::relax(acc[r], yr[r][col], m);
        }
        for (int r = 0; r < Rows; ++r)
          tmp(r * w + j) = Product::finish(acc[r]);
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, p.c), [&](int j) {
        T acc[Rows];
        for (int r = 0; r < Rows; ++r)
          acc[r] = tmp(r * w + j);
        for (int k = 0; k < p.c; ++k) {
          const T m = p.square[k * p.ldc + j];
          for (int r = 0; r < Rows; ++r)
            Product::relax(acc[r], tmp(r * w + k), m);
        }
        for (int r = 0; r < valid; ++r)
          yr[r][p.f + j] = Product::finish(acc[r]);
      });
      team.team_barrier();
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
#if defined(APSP_HOST_VECTORS)
    if constexpr (HostPath) {
      sweep_on_host(team);
      return;
    }
#endif
    sweep_portable(team);
  }
};

}  // namespace detail
}  // namespace apsp
