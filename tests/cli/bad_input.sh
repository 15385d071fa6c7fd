#!/usr/bin/env bash
# bad_input.sh APSP WORKDIR CASE
# One class of bad input or bad command line. `apsp` must exit with code 2, print exactly one
# line on stderr ("apsp: ...", naming the problem) and nothing on stdout, and leave no output:
# OUT must not appear, a previous OUT must stay as it was, and no temporary file may remain.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

apsp=$1 work=$2 case=$3
rm -rf "$work"
mkdir -p "$work"
in=$work/graph.in
out=$work/result.out
hw3 "$in" 5 2 0 1 7 3 4 1000 # a valid input, for the cases about the command line

args=() # the command line, IN and OUT included
message=""   # what the error line must contain
check_out=1  # whether OUT is a file this run could have written
case $case in
  missing_file)
    args=("$work/missing.in" "$out") message="cannot open input" ;;
  directory)
    mkdir "$work/folder.in"
    args=("$work/folder.in" "$out") message="is a directory" ;;
  truncated_header_[0-7])
    size=${case#truncated_header_}
    head -c "$size" "$in" >"$work/short.in"
    args=("$work/short.in" "$out") message="truncated header ($size bytes" ;;
  truncated_edges)
    head -c 25 "$in" >"$work/cut.in"
    args=("$work/cut.in" "$out") message="truncated edge list" ;;
  trailing_garbage)
    { cat "$in"; printf 'garbage'; } >"$work/long.in"
    args=("$work/long.in" "$out") message="7 bytes of trailing data" ;;
  zero_vertices)
    hw3 "$work/v0.in" 0 0
    args=("$work/v0.in" "$out") message="V = 0" ;;
  negative_vertices)
    hw3 "$work/vneg.in" -4 1 0 0 1
    args=("$work/vneg.in" "$out") message="V = -4" ;;
  negative_edges)
    hw3 "$work/eneg.in" 5 -1
    args=("$work/eneg.in" "$out") message="E = -1" ;;
  negative_vertex)
    hw3 "$work/vertex.in" 5 2 0 1 7 -1 4 1
    args=("$work/vertex.in" "$out") message="edge 1: vertex -1 out of range [0, 5)" ;;
  vertex_too_large)
    hw3 "$work/vertex.in" 5 2 0 1 7 4 5 1
    args=("$work/vertex.in" "$out") message="edge 1: vertex 5 out of range [0, 5)" ;;
  negative_weight)
    hw3 "$work/weight.in" 5 2 0 1 -1 3 4 1
    args=("$work/weight.in" "$out") message="edge 0: weight -1 is negative (negative weights need --allow-negative)" ;;
  weight_too_large)
    hw3 "$work/weight.in" 5 2 0 1 7 3 4 1001
    args=("$work/weight.in" "$out") message="edge 1: weight 1001 out of range [0, 1000]" ;;
  no_arguments)
    args=() message="expected IN and OUT" check_out=0 ;;
  one_argument)
    args=("$in") message="expected IN and OUT" check_out=0 ;;
  three_arguments)
    args=("$in" "$out" "$work/extra.out") message="expected IN and OUT" ;;
  unknown_option)
    args=(--frobnicate "$in" "$out") message="unknown option '--frobnicate'" ;;
  missing_option_value)
    args=("$in" "$out" --tile) message="--tile needs a value" ;;
  bad_tile_value)
    args=(--tile abc "$in" "$out") message="--tile expects an integer" ;;
  tile_zero)
    args=(--tile=0 "$in" "$out") message="--tile expects an integer" ;;
  row_threads_three)
    args=(--row-threads 3 "$in" "$out") message="--row-threads expects 1, 2 or 4, got '3'" ;;
  row_threads_zero)
    args=(--row-threads 0 "$in" "$out") message="--row-threads expects an integer in [1, 4]" ;;
  unavailable_tile)
    args=(--tile 48 "$in" "$out") message="tile size 48 is not available" ;;
  unknown_backend)
    args=(--backend nosuch "$in" "$out") message="backend 'nosuch' is not in this build" ;;
  missing_output_directory)
    out=$work/nowhere/result.out
    args=("$in" "$out") message="cannot create output next to '$out': No such file" ;;
  output_is_directory)
    out=$work/result.dir
    mkdir "$out"
    args=("$in" "$out") message="is a directory" check_out=0 ;;
  huge_vertex_count)
    # V x V distances far beyond any memory; /dev/null skips the disk-space check.
    hw3 "$work/huge.in" 2147483647 0
    args=("$work/huge.in" /dev/null) message="V = 2147483647 needs" check_out=0 ;;
  huge_vertex_count_with_edges)
    # The same with an edge: its bytes added to the saturated matrix size must not wrap to 0.
    hw3 "$work/huge.in" 2147483600 1 0 1 5
    # Paths of up to V - 1 edges of weight 5 leave int32: auto takes float64, to .npy.
    args=(--algorithm fw --output-format npy "$work/huge.in" /dev/null)
    message="V = 2147483600 needs" check_out=0 ;;
  # The text formats: the file, line and field of the problem.
  edges_not_integer)
    printf '# a graph\n0 1 5\n1 x 2\n' >"$work/g.txt"
    args=("$work/g.txt" "$out") message="g.txt:3: column 2: vertex x is not an integer" ;;
  edges_field_count)
    printf '0 1 5\n\n1 2\n' >"$work/g.el"
    args=("$work/g.el" "$out") message="g.el:3: expected 3 fields 'u v w', found 2" ;;
  edges_negative_weight)
    printf '0 1 -4\n' >"$work/g.edges"
    args=("$work/g.edges" "$out") message="g.edges:1: column 3: weight -4 is negative (negative weights need --allow-negative)" ;;
  mtx_real_weight)
    # Read as float64 distances, which HW3 output cannot hold.
    printf '%%%%MatrixMarket matrix coordinate real general\n%% c\n3 3 2\n1 2 1\n2 3 1.5\n' >"$work/g.mtx"
    args=("$work/g.mtx" "$out")
    message="the distances are float64 and HW3 output holds int32 only: use --output-format npy|text" ;;
  dtype_int32_real_weight)
    printf '0 1 1\n1 2 1.5\n' >"$work/g.txt"
    args=(--dtype int32 --output-format npy "$work/g.txt" "$out")
    message="int32 distances need whole-number weights and this graph has others: use --dtype float64" ;;
  dtype_int32_paths_too_long)
    # A chain of 9 edges of weight 2^27: its path reaches 9 * 2^27 > 2^30 - 1.
    for v in 0 1 2 3 4 5 6 7 8; do echo "$v $((v + 1)) 134217728"; done >"$work/g.txt"
    args=(--dtype int32 "$work/g.txt" "$out")
    message="which int32 distances cannot hold (limit 1073741823): use --dtype float64" ;;
  dtype_float32_too_heavy)
    printf '0 1 3e38\n1 2 2e38\n' >"$work/g.txt"
    args=(--dtype float32 --output-format npy "$work/g.txt" "$out") message="which float32 distances cannot hold" ;;
  unknown_dtype)
    args=(--dtype int64 "$in" "$out") message="--dtype expects auto, int32, float32 or float64, got 'int64'" ;;
  mtx_not_square)
    printf '%%%%MatrixMarket matrix coordinate pattern general\n3 4 0\n' >"$work/g.mtx"
    args=("$work/g.mtx" "$out") message="g.mtx:2: the matrix is 3 x 4" ;;
  mtx_entry_count)
    printf '%%%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 7\n' >"$work/g.mtx"
    args=("$work/g.mtx" "$out") message="the size line (line 2) announces 2 entries, the file has 1" ;;
  dimacs_arc_count)
    printf 'c\np sp 3 1\na 1 2 3\na 2 3 4\n' >"$work/g.gr"
    args=("$work/g.gr" "$out") message="g.gr:4: more arcs than the E = 1" ;;
  dimacs_vertex_range)
    printf 'p sp 3 1\na 0 2 3\n' >"$work/g.gr"
    args=("$work/g.gr" "$out") message="g.gr:2: column 2: vertex 0 out of range [1, 3]" ;;
  format_mismatch)
    args=(--format mtx "$in" "$out") message="graph.in:1: not a Matrix Market file" ;;
  unknown_format)
    args=(--format csv "$in" "$out") message="--format expects auto, hw3, edges, mtx or dimacs" ;;
  unknown_output_format)
    args=(--output-format csv "$in" "$out") message="--output-format expects hw3, text or npy" ;;
  text_output_too_large)
    printf '# vertices 10001\n0 1 1\n' >"$work/big.txt"
    args=(--output-format text "$work/big.txt" "$out") message="text output is for V <= 10000" ;;
  unknown_transport)
    args=(--transport mpi "$in" "$out") message="--transport expects auto, nccl, ipc or host, got 'mpi'" ;;
  transport_nccl_not_built)  # a build without -DAPSP_ENABLE_NCCL=ON
    args=(--transport nccl "$in" "$out") message="--transport nccl needs a build with NCCL: configure with -DAPSP_ENABLE_NCCL=ON" ;;
  transport_ipc_host_backend)  # pivot rows of a host backend are in host memory already
    args=(--backend "$APSP_HOST_BACKEND" --transport ipc "$in" "$out")
    message="--transport ipc moves pivot rows between GPUs, and the $APSP_HOST_BACKEND backend runs on none: use --transport auto or host" ;;
  *)
    fail "unknown case '$case'" ;;
esac

# run ATTEMPT: runs apsp, checks the exit code and the one line on stderr.
run() {
  local rc=0
  "$apsp" "${args[@]}" >"$work/stdout.$1" 2>"$work/stderr.$1" || rc=$?
  [[ $rc == 2 ]] || fail "exit code $rc, expected 2 (stderr: $(cat "$work/stderr.$1"))"
  [[ ! -s "$work/stdout.$1" ]] || fail "stdout not empty: $(cat "$work/stdout.$1")"
  expect_one_apsp_line "$work/stderr.$1"
  grep -qF -- "$message" "$work/stderr.$1" ||
    fail "the error does not name the problem ('$message'): $(cat "$work/stderr.$1")"
  echo "OK ($1): $(cat "$work/stderr.$1")"
}

run fresh
if [[ -d "$out" ]]; then
  [[ -z "$(ls -A "$out")" ]] || fail "something was written into the directory $out"
  expect_no_temporaries "$out"
fi
if [[ $check_out == 1 ]]; then
  [[ ! -e "$out" ]] || fail "$out exists after a failed run"
  expect_no_temporaries "$out"
  [[ ! -e "$work/extra.out" ]] || fail "$work/extra.out exists after a failed run"
  if [[ -d "$(dirname "$out")" ]]; then
    printf 'an earlier result\n' >"$out"
    cp "$out" "$work/earlier.copy"
    run existing
    cmp -s "$out" "$work/earlier.copy" || fail "the existing $out was changed"
    expect_no_temporaries "$out"
  fi
fi
