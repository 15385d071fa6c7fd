#!/usr/bin/env bash
# without_launcher.sh APSP TESTCASES WORKDIR MPIRUN...
# An MPI build started by no launcher is one process that leaves MPI alone
# (MpiSession::launched, src/platform/mpi.hpp). Open MPI's MPI_Init fails when the PML it is told
# to use does not exist: with that setting, the run without a launcher must still give the
# expected output, while the same run under MPIRUN (its process-count flag last) 1 must fail,
# which shows that the setting would have caught an MPI_Init.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../cli/common.sh"

apsp=$1 testcases=$2 work=$3
shift 3
mpirun=("$@")
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export OMP_NUM_THREADS=1 KOKKOS_DISABLE_WARNINGS=1
in=$testcases/06-sparse-193.in

for name in OMPI_COMM_WORLD_SIZE PMI_RANK PMI_SIZE PMIX_RANK MV2_COMM_WORLD_RANK MPI_LOCALRANKID \
  SLURM_PROCID FLUX_TASK_RANK PALS_RANKID ALPS_APP_PE JSM_NAMESPACE_RANK; do
  unset "$name"
done
OMPI_MCA_pml=apsp-no-such-pml "$apsp" --stats stats.json "$in" out 2>stderr ||
  fail "the run without a launcher failed: $(cat stderr)"
cmp -s out "$testcases/06-sparse-193.out" || fail "the run without a launcher gave another output"
grep -q '"ranks": 1' stats.json || fail "the run without a launcher is not one rank: $(cat stats.json)"

rc=0
OMPI_MCA_pml=apsp-no-such-pml "${mpirun[@]}" 1 "$apsp" "$in" out.mpi >mpi.log 2>&1 || rc=$?
[[ $rc != 0 ]] || fail "under mpirun, MPI_Init with a PML that does not exist succeeded"
echo "without a launcher: one process, MPI not started"
