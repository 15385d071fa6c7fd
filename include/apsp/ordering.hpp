// Fill-reducing orderings of sparse graphs: nested dissection (METIS_NodeND, George 1973; Karypis
// and Kumar 1998) on the graph's symmetrized structure. Floyd-Warshall is min-plus Gaussian
// elimination, so an order that eliminates the two sides of a small vertex separator before the
// separator keeps the updates with a finite operand within the sides (the supernodal algorithm's
// input). The one compiled part of the algorithm layer: its target Apsp::ordering links METIS
// and exists only where apsp was built with METIS (CMake's APSP_ENABLE_METIS;
// find_package(Apsp COMPONENTS ordering)). The application uses the same code; a build without
// METIS compiles into the application a stand-in whose have_nested_dissection() is false, so ask
// it before calling. A program linked with Apsp::ordering gets its rand() and srand(), as METIS
// does: glibc's generator with a state per thread (src/platform/ordering.cpp says why).
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>

#include <cstdint>
#include <vector>

namespace apsp {

// Thrown by nested_dissection_order in a build without METIS.
class OrderingUnavailable : public Error {
 public:
  using Error::Error;
};

// Whether this build can compute nested-dissection orderings (it was built with METIS).
bool have_nested_dissection();

// A nested-dissection order of the graph with `vertices` vertices and these directed edges:
// perm[new] = old, the old vertex at new position `new` (METIS' perm), a permutation of
// 0..vertices-1. The structure ordered is the symmetrized one (an undirected edge u-v where
// either arc exists; self-loops and parallel edges dropped); weights are ignored. Isolated
// vertices come first (they cause no fill). The top levels of the dissection are split by METIS
// vertex separators and their two sides ordered concurrently on up to `threads` threads (0: the
// machine's hardware threads), parts of at most 4096 vertices by METIS_NodeND. Deterministic:
// the same graph gives the same order on any number of threads (every METIS call has the same
// fixed seed and its own random-number state). Throws OrderingUnavailable without METIS,
// apsp::Error for an edge out of range or a structure larger than METIS' 32-bit indices hold
// (2^31 - 1 adjacency entries).
std::vector<std::int32_t> nested_dissection_order(std::int64_t vertices,
                                                  const std::vector<Edge>& edges, int threads = 0);

}  // namespace apsp
