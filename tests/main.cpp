// Test main: Kokkos lives for the whole run (it can be initialized once per process).
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);  // silences Kokkos' binding advice, as in the CLI
  Kokkos::ScopeGuard kokkos(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
