// How a solver hands its rows over (solver.hpp, supernodal.hpp, the application's sssp): to a
// RowSink, a block of rows at a time, with the time it took; or, where the rows are reduced
// rather than kept (measures.hpp), to a DeviceRowSink, where they lie.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace apsp {

// Rows [first, first + count) of a result on the host: row first + r at rows + r * stride, its
// first V entries real. Called with blocks in increasing row order.
template <class T>
using RowSink =
    std::function<void(std::int64_t first, std::int64_t count, const T* rows, std::int64_t stride)>;

// The RowSink of a row-major matrix on the host at `to`, `columns` entries a row: the first
// `columns` entries of each row handed over copied into its row (row i of the result as row i),
// rows in parallel on the host's threads. (The Python module's NumPy results.)
template <class T>
RowSink<T> matrix_sink(T* to, std::int64_t columns) {
  return [to, columns](std::int64_t first, std::int64_t count, const T* rows, std::int64_t stride) {
    Kokkos::parallel_for(
        "apsp::matrix_sink",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>(
            0, count),
        [&](std::int64_t i) {
          std::memcpy(to + (first + i) * columns, rows + i * stride,
                      std::size_t(columns) * sizeof(T));
        });
    Kokkos::DefaultHostExecutionSpace().fence();
  };
}

// Rows [first, first + count) of a result where the solver made them (ExecSpace's memory: a GPU's
// for GPU backends): rows(i, j) = d(first + i, j) for j < V, nothing copied. Called with blocks in
// increasing row order.
template <class ExecSpace, class T>
using DeviceRowSink = std::function<void(
    std::int64_t first, std::int64_t count,
    const Kokkos::View<T**, Kokkos::LayoutRight, typename ExecSpace::memory_space>& rows)>;

// The rows of a list of vertices (each in [0, V)) into sink, row i of the list as its row i (a
// solver's distance_rows_of): guesses made from a few rows (measures.hpp).
template <class T>
using RowProbe =
    std::function<void(const std::vector<std::int32_t>& vertices, const RowSink<T>& sink)>;

// Called after each block of rows a solver hands over: its first row and its count (progress).
using BlockDone = std::function<void(std::int64_t first, std::int64_t count)>;

// Where the time of handing rows over went: waiting for them to come off the device, in the
// sink, (predecessors) in the search, and making them where a solve makes its rows as it hands
// them over (SupernodalSolver). `made`: the distance rows handed over or reduced, each as often
// as it was made (the measures' sweep of a directed graph's reversed rows counts again; the
// rows a predecessor search makes again do not).
struct RowSeconds {
  double download = 0, sink = 0, search = 0, compute = 0;
  std::int64_t made = 0;
};

}  // namespace apsp
