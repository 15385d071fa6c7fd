// apsp over MPI: `mpirun -np P apsp IN OUT`, one rank per device, one Kokkos instance each.
//
// Rank p holds a contiguous block of tile rows of the distance matrix (block counts differ by at
// most one; a rank may hold none) and one Tile x N buffer for the pivot rows of the current
// round, so a graph too large for one device runs on several. The owner of each round's pivot
// rows broadcasts them; every rank updates its own rows with the same kernels as one process.
// The output is the single-process output, bit for bit, for every P >= 1.
#pragma once

#include <apsp/solve.hpp>

// apsp uses MPI's C API only: leave out the deprecated C++ bindings (their warnings, their
// compile time).
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <string>
#include <vector>

namespace apsp {

// MPI for the life of the program. Construct it before Kokkos: it initializes MPI and, in builds
// with a GPU backend, adds `--kokkos-device-id=<node-local rank % devices on the node>` to
// argc/argv (unless argv or the environment already chooses a device), so that each rank of a
// node drives its own GPU. Destroy it after Kokkos is finalized.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  static int rank();  // in MPI_COMM_WORLD

 private:
  std::vector<std::string> arguments_;
  std::vector<char*> pointers_;
};

// The job of solve_hw3 on every rank of `comm` (collective; P = 1 included). Rank 0 reads the
// input and writes --stats; every rank writes its own rows of OUT. When any rank fails (bad
// input, not enough memory, an exception during the rounds), every rank throws apsp::Error with
// the same message, naming the failing rank, and OUT does not appear. The stats of rank 0 hold
// ranks, communication seconds (the most any rank spent exchanging pivot rows) and bytes (the
// pivot-row bytes all ranks received). Environment for tests: APSP_FAIL_RANK=r and
// APSP_FAIL_ROUND=k make rank r fail at round k.
SolveStats solve_hw3_distributed(MPI_Comm comm, const SolveConfig& config);

}  // namespace apsp
