// Test main: Kokkos lives for the whole run (it can be initialized once per process). Started by
// mpirun (an MPI build), MPI too: the bodies of test_pipeline.cpp then run on every rank, and
// only rank 0 prints.
#include "platform/config.hpp"
#include "ranks.hpp"

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>
#if defined(APSP_HAVE_MPI)
#include "platform/mpi.hpp"
#endif

#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>

namespace apsp_test {
namespace {
std::unique_ptr<apsp::Ranks> the_ranks = std::make_unique<apsp::OneRank>();
}
apsp::Ranks& ranks() {
  return *the_ranks;
}
void set_ranks(std::unique_ptr<apsp::Ranks> ranks) {
  the_ranks = std::move(ranks);
}
bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
}
}  // namespace apsp_test

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);  // silences Kokkos' binding advice, as in the CLI
#if defined(APSP_HAVE_MPI)
  std::optional<apsp::MpiSession> mpi;
  if (apsp_test::launched_by_mpirun()) mpi.emplace(argc, argv);
#endif
  int code = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
#if defined(APSP_HAVE_MPI)
    if (mpi) {
      apsp_test::set_ranks(apsp::mpi::ranks(MPI_COMM_WORLD));
      if (!apsp_test::ranks().root()) {
        auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
      }
    }
#endif
    code = RUN_ALL_TESTS();
    // A failure on any rank fails the run.
    std::int64_t worst = -code;
    apsp_test::ranks().min(&worst, 1);
    code = int(-worst);
    apsp_test::set_ranks(std::make_unique<apsp::OneRank>());
  }
  return code;
}
