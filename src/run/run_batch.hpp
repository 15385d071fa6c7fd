// Many graphs in one call (the batched solver, apsp/batched.hpp), a product of its own beside
// run_graph's one graph: the batch as array_inputs.hpp scanned it, its solver's memory checked
// against what the device and the host have free before the caller allocates the results, then
// one call that loads, computes and gives the predecessors or the first negative cycle. The
// Python module's solve_batch and 3-D floyd_warshall are its drivers.
//
//   auto solver = apsp::batch_solver<Exec, int, double>(exec, sizes, options, edges);
//   // ... the caller allocates solver->values() results (and predecessors) ...
//   apsp::run_batch(std::move(solver), [&](auto& s) { s.load(edge_offsets, std::move(packed)); },
//                   distances, predecessors);
#pragma once

#include <apsp/batched.hpp>
#include <apsp/ranks.hpp>

#include "platform/backends.hpp"
#include "run/array_inputs.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace apsp {

// The batched solver's options for an edge batch (scan_edge_batch): its weights, predecessors
// where asked for, results ragged or `padded`, `none` where a graph has no predecessor.
template <class U>
batched::BatchOptions<U> batch_options(const EdgeBatch& batch, bool predecessors, bool padded,
                                       int none) {
  batched::BatchOptions<U> options;
  options.negative_weights = batch.negative;
  options.predecessors = predecessors;
  options.padded = padded;
  options.none = none;
  options.integer_weights = batch.whole;
  options.largest_magnitude = batch.max_abs;
  return options;
}

// The same for `count` dense n x n weight matrices (scan_dense_batch).
template <class U>
batched::BatchOptions<U> batch_options(const DenseBatch& batch, bool predecessors) {
  batched::BatchOptions<U> options;
  options.negative_weights = batch.negative;
  options.predecessors = predecessors;
  options.dense_weights = true;
  options.integer_weights = batch.whole;
  options.largest_magnitude = batch.max_abs;
  return options;
}

// The solver of graphs of `sizes` vertices on one process, its memory for `edges` edges in all
// checked against what `exec`'s device and the host have free: MemoryError before any work. Call
// it where Kokkos work may run (the solver's Views are made later, by load).
template <class ExecSpace, class T, class U>
std::unique_ptr<BatchedSolver<ExecSpace, T, U>> batch_solver(
    const ExecSpace& exec, std::vector<std::int64_t> sizes, const batched::BatchOptions<U>& options,
    std::int64_t edges) {
  OneRank one;
  auto solver =
      std::make_unique<BatchedSolver<ExecSpace, T, U>>(exec, one, std::move(sizes), options);
  solver->check_memory({available_memory(exec), 0, backend_name<ExecSpace>()}, edges,
                       available_memory(Kokkos::DefaultHostExecutionSpace()));
  return solver;
}

// load(*solver), the distances into `distances` (solver->values() entries on the host), then
// the predecessors into `predecessors` where not null and no graph has a negative cycle. The
// solver ends here, where its Views were made (on a throw too: it is this frame's). Throws the
// NegativeCycleError of the first graph with one, naming the graph.
template <class ExecSpace, class T, class U, class Load>
void run_batch(std::unique_ptr<BatchedSolver<ExecSpace, T, U>> solver, const Load& load,
               U* distances, int* predecessors) {
  load(*solver);
  solver->compute(distances);
  const int bad = solver->first_negative_cycle();
  if (bad >= 0) solver->throw_negative_cycle(bad);
  if (predecessors) solver->predecessor_rows(predecessors);
}

}  // namespace apsp
