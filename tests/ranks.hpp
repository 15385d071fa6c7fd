// The ranks the test bodies run on: every rank of mpirun when the tests were started by it (an
// MPI build, tests/mpi/CMakeLists.txt runs them on 1 to 4 ranks), one rank otherwise. The same
// bodies thus test one process and P processes (as Cabana's tests do).
#pragma once

#include <apsp/ranks.hpp>

#include <memory>
#include <string>

namespace apsp_test {

// Set by main() before any test runs.
apsp::Ranks& ranks();
void set_ranks(std::unique_ptr<apsp::Ranks> ranks);

// Whether this process was started by mpirun (then main initializes MPI).
bool launched_by_mpirun();

}  // namespace apsp_test
