// The shortest paths themselves: predecessor rows from the via matrix of
// floyd_warshall(exec, dist, via, options).
//
// via(i,j) = k says that the last improvement of d(i,j) went through k: a shortest i -> j walk
// is a shortest i -> k walk followed by a shortest k -> j walk; via(i,j) = -1 leaves the edge
// i -> j itself. Expanding that recursion always ends (each step goes to a pair whose last
// improvement came strictly earlier) and gives a walk of length d(i,j) exactly (the final
// distances satisfy the triangle inequality). Tracking via costs the kernels one more register
// per distance and no extra loads; predecessors propagated in the kernels would need the pivot
// rows' predecessors too.
//
// A predecessor matrix must also be consistent: following pred(i, .) from j back to i has to
// reach i. Reading each entry off its own walk is not: with zero-weight cycles the walks of a
// blocked Floyd-Warshall disagree with one another, and such pointers can loop or mislead (in
// 2.7% of random graphs of 2-8 vertices with weights mostly 0, never in the plain order:
// bench/predecessor_loops.cpp). So row i is built as one shortest-path tree: for every j not
// yet in the tree, the walk i -> j is expanded from its end backwards only until it meets a
// vertex of the tree, and the new vertices hang off that vertex in walk order; a zero-weight
// cycle in the walk (a vertex met twice) is cut out as soon as it shows. Every walk is a shortest
// walk, so each of its prefixes is a shortest walk too, and the tree path to every vertex has
// exactly that vertex's distance.
//
// Each row is one thread's sequential work, O(V) steps in practice, with three V-long work
// rows of its own besides its output row; rows are computed in batches.
#pragma once

#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace apsp {

// pred(i,j) = the vertex before j on a shortest i -> j path; no_vertex for j = i and where
// there is no path.
constexpr int no_vertex = -1;

namespace detail {

// Builds the shortest-path tree of row `first + r` into pred(r, .); see the top of the file.
template <class ExecSpace>
struct PredecessorTree {
  using Matrix = DistanceMatrix<ExecSpace>;
  Matrix dist, via, pred, chain, state, stack;
  std::int64_t first;
  int vertices;

  // state(r, x): free, position p >= 0 in the chain, or stack position q as -(q + 2).
  static constexpr int unset = -2, free = -1;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const {
    const int i = int(first + r);
    for (int x = 0; x < vertices; ++x) {
      pred(r, x) = unset;
      state(r, x) = free;
    }
    pred(r, i) = no_vertex;  // the root: in the tree
    for (int j = 0; j < vertices; ++j) {
      if (pred(r, j) != unset || dist(i, j) == infinity) continue;
      // The walk i -> j, expanded from its end. chain(r, 0..len) holds the vertices found so far,
      // j first, each the successor of the next; the walk still to expand is the segment from
      // stack(r, top) to chain(r, len - 1), and the stack holds the walk's vertices between
      // stack(r, 0), a vertex of the tree, and stack(r, top), in walk order.
      int len = 0, top = 0, anchor = no_vertex;
      chain(r, len++) = j;
      state(r, j) = 0;
      stack(r, 0) = i;
      while (true) {
        const int u = stack(r, top), v = chain(r, len - 1);
        const int k = via(u, v);
        if (k < 0) {  // the edge u -> v: u comes next, going backwards
          if (pred(r, u) != unset) {
            anchor = u;
            break;
          }
          state(r, u) = len;  // u leaves the stack (it was its top) for the chain
          chain(r, len++) = u;
          --top;
        } else if (pred(r, k) != unset) {  // k is in the tree: the walk from k on is enough
          for (int q = 1; q <= top; ++q)
            state(r, stack(r, q)) = free;
          stack(r, 0) = k;
          top = 0;
        } else if (state(r, k) >= 0) {  // k is already in the chain: cut the cycle k .. k
          for (int p = state(r, k) + 1; p < len; ++p)
            state(r, chain(r, p)) = free;
          len = state(r, k) + 1;
        } else if (state(r, k) != free) {  // k is on the stack: cut the cycle k .. k
          const int at = -state(r, k) - 2;
          for (int q = at + 1; q <= top; ++q)
            state(r, stack(r, q)) = free;
          top = at;
        } else {  // split the segment at k: expand k .. v first
          stack(r, ++top) = k;
          state(r, k) = -(top + 2);
        }
      }
      for (int p = 0; p < len; ++p) {
        pred(r, chain(r, p)) = p + 1 < len ? chain(r, p + 1) : anchor;
        state(r, chain(r, p)) = free;
      }
    }
    for (int x = 0; x < vertices; ++x)
      if (pred(r, x) == unset) pred(r, x) = no_vertex;
  }
};

}  // namespace detail

// Predecessor rows, `batch` rows at a time, from the dist and via matrices of one
// floyd_warshall run with paths (N x N; `vertices` of them real).
template <class ExecSpace>
class PredecessorRows {
 public:
  using Matrix = DistanceMatrix<ExecSpace>;

  PredecessorRows(const ExecSpace& exec, const Matrix& dist, const Matrix& via,
                  std::int64_t vertices, std::int64_t batch)
      : exec_(exec), dist_(dist), via_(via), vertices_(vertices) {
    const std::int64_t n = dist.extent(1);
    const auto alloc = [&](const char* label) {
      return Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), batch, n);
    };
    pred_ = alloc("apsp::pred");
    chain_ = alloc("apsp::pred_chain");
    state_ = alloc("apsp::pred_state");
    stack_ = alloc("apsp::pred_stack");
  }

  // Device memory the work rows of `batch` rows of N take.
  static std::uint64_t bytes(std::int64_t batch, std::int64_t n) {
    const std::uint64_t one = matrix_bytes(batch, n);
    return one > UINT64_MAX / 4 ? UINT64_MAX : 4 * one;
  }

  // Rows [first, first + count) of the predecessor matrix, count <= batch: row r of the result
  // is row first + r (its first V entries).
  const Matrix& compute(std::int64_t first, std::int64_t count) {
    detail::ScopedRegion region("apsp::predecessor_rows");
    if (count > std::int64_t(pred_.extent(0)) || first < 0 || first + count > vertices_)
      throw Error("predecessor rows [" + std::to_string(first) + ", " +
                  std::to_string(first + count) + ") out of range");
    Kokkos::parallel_for(
        "apsp::paths::predecessor_tree",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec_, 0, count),
        detail::PredecessorTree<ExecSpace>{dist_, via_, pred_, chain_, state_, stack_, first,
                                           int(vertices_)});
    exec_.fence();
    return pred_;
  }

 private:
  ExecSpace exec_;
  Matrix dist_, via_, pred_, chain_, state_, stack_;
  std::int64_t vertices_;
};

}  // namespace apsp
