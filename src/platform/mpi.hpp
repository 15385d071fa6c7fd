// apsp over MPI (builds with APSP_ENABLE_MPI): one rank per device, one Kokkos instance each.
//
// Rank p holds a contiguous block of tile rows of the distance matrix (RowBlocks in ranks.hpp:
// block counts differ by at most one; a rank may hold none) and one Tile x N buffer for the pivot
// rows of the current round, so a graph too large for one device runs on several. The owner of
// each round's pivot rows broadcasts them; every rank updates its own rows with the same kernels
// and the same round loop as one process (detail/row_block_rounds.hpp). The whole job under
// mpirun is apsp::solve with apsp::mpi::ranks(MPI_COMM_WORLD) (run/pipeline.hpp).
#pragma once

// apsp uses MPI's C API only: leave out the deprecated C++ bindings (their warnings, their
// compile time).
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <apsp/floyd_warshall.hpp>
#include <apsp/ranks.hpp>

#include <memory>
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

  // Whether an MPI launcher started this process: mpirun/mpiexec of Open MPI, MPICH, Intel MPI
  // or MVAPICH, Slurm's srun, Flux, Cray's PALS or ALPS, LSF's jsrun (the variables each sets
  // for its ranks). Run without one, an MPI build is one process that need not start MPI: on
  // some systems MPI_Init outside the launcher fails or waits, and Open MPI's singleton start
  // costs a third of a second.
  static bool launched();
  static bool active();  // MPI is initialized
  static int rank();     // in MPI_COMM_WORLD; 0 where MPI is not active

 private:
  std::vector<std::string> arguments_;
  std::vector<char*> pointers_;
};

namespace mpi {

// The ranks of `comm` (not freed with the result; the splits the result makes are).
std::unique_ptr<Ranks> ranks(MPI_Comm comm);

// Floyd-Warshall on a row block, collectively over `comm`: `rows` holds this rank's tile rows of
// the plan's N x N matrix, RowBlocks{N / tile, P} (fill them with fill_distance_rows); every rank
// passes the same plan. A failure on any rank throws the same apsp::Error on every rank.
template <class ExecSpace>
ExchangeStats floyd_warshall(MPI_Comm comm, const ExecSpace& exec,
                             const DistanceMatrix<ExecSpace>& rows, const Plan& plan,
                             const RoundHooks& hooks = {}) {
  detail::ScopedRegion region("apsp::mpi::floyd_warshall");
  const std::unique_ptr<Ranks> group = ranks(comm);
  return detail::floyd_warshall_rows(*group, exec, rows, plan, hooks);
}

}  // namespace mpi
}  // namespace apsp
