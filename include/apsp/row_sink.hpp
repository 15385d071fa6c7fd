// How a solver hands its rows over (solver.hpp, supernodal.hpp, the application's sssp): to a
// RowSink, a block of rows at a time, with the time it took.
#pragma once

#include <cstdint>
#include <functional>

namespace apsp {

// Rows [first, first + count) of a result on the host: row first + r at rows + r * stride, its
// first V entries real. Called with blocks in increasing row order.
template <class T>
using RowSink =
    std::function<void(std::int64_t first, std::int64_t count, const T* rows, std::int64_t stride)>;

// Called after each block of rows a solver hands over: its first row and its count (progress).
using BlockDone = std::function<void(std::int64_t first, std::int64_t count)>;

// Where the time of handing rows over went: waiting for them to come off the device, in the
// sink, (predecessors) in the search, and making them where a solve makes its rows as it hands
// them over (SupernodalSolver).
struct RowSeconds {
  double download = 0, sink = 0, search = 0, compute = 0;
};

}  // namespace apsp
