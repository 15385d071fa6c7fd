// apsp_single_process [--backend NAME] [--tile B] [--allow-negative] IN OUT: the single-process
// solver (apsp::solve_hw3) that every MPI run is compared with, bit for bit.
#include <apsp/error.hpp>
#include <apsp/solve.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);  // silences Kokkos' binding advice, as in the CLI
  Kokkos::ScopeGuard kokkos(argc, argv);
  apsp::SolveConfig config;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) {
      config.backend = argv[++i];
    } else if (a == "--tile" && i + 1 < argc) {
      config.options.tile = std::atoi(argv[++i]);
    } else if (a == "--allow-negative") {
      config.allow_negative = true;
    } else {
      files.push_back(a);
    }
  }
  if (files.size() != 2) {
    std::fprintf(stderr,
                 "usage: apsp_single_process [--backend NAME] [--tile B] [--allow-negative] IN "
                 "OUT\n");
    return 2;
  }
  config.input = files[0];
  config.output = files[1];
  try {
    apsp::solve_hw3(config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "apsp_single_process: %s\n", e.what());
    return 2;
  }
  return 0;
}
