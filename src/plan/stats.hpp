// The record of a run (`--stats`, SolveStats::to_json in stats.cpp): what the plan chose and
// where each rank's seconds went. The planning headers fill parts of it; the pipeline the rest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

// One step of a rank's setup: its seconds, and the part of them it spent in collectives (waiting
// there for the other ranks, or moving data among them); the rest is its own work.
struct StepSeconds {
  double seconds = 0;
  double collective = 0;
};

// A rank's setup, the stages read, plan and upload, in named steps that follow each other and add
// up to read + plan + upload. Each algorithm runs some of them (dense Floyd-Warshall: all but
// supernodal_plan; supernodal: no upload steps, its load is part of compute).
struct SetupSeconds {
  enum Step {
    check_files,      // read: two names of one file, the stats file opened (rank 0)
    read_input,       // read: IN read (rank 0); the other ranks wait for it
    decide,           // plan: the plan decided (rank 0: supernodal's ordering and symbolic too)
    broadcast_plan,   // plan: the plan's facts to every rank
    shape_check,      // plan: every rank can run rank 0's shape
    partition,        // plan: the edges to the ranks that need them
    supernodal_plan,  // plan: rank 0's supernodal plan to every rank
    memory_check,     // plan: the solver's memory on every device
    outputs,          // plan: the outputs created, the disk checked, each rank's way of writing
    allocate,         // upload: this rank's rows allocated on the device
    fill,             // upload: the edges uploaded and the rows filled
    warm_up,          // upload: every kernel of the plan run once, then the ranks agree
    count
  };
  StepSeconds steps[count];
  static const char* name(int step);
};

// What one rank handed to one output: its rows, and the bytes it wrote itself (to /dev/null
// too; through rank 0, rank 0 writes every rank's rows and the others none).
struct RowsWritten {
  std::int64_t rows = 0;
  std::uint64_t bytes = 0;
};

// Seconds of each stage of the pipeline. They follow each other, so they add up to total.
struct StageSeconds {
  double read = 0;     // checking the files, reading IN (rank 0)
  double plan = 0;     // the plan, the resources it needs, creating the outputs, the edges' shares
  double upload = 0;   // the matrix allocated and filled on the device, the kernels warmed up
  double compute = 0;  // the distances (communication included), the negative-cycle check
  double predecessors = 0;  // the predecessor rows (with --predecessors)
  double download = 0;      // waiting for rows to come off the device
  double write = 0;         // writing rows: what it held up their producer (row_output.hpp)
  double commit = 0;        // the rows on the disk (fsync) on every rank
  double total = 0;
  double communication = 0;  // within compute: moving pivot rows (MPI)
  // Alongside the stages: the writer threads writing rows of OUT and P at their offsets, and
  // starting their writeback to the disk, while the rows' producer went on (write_behind.hpp).
  double write_behind = 0;
  std::uint64_t communication_bytes = 0;  // pivot-row bytes received
  // Pivot-row bytes sent: this rank's rows, once for each rank that received them.
  std::uint64_t communication_sent_bytes = 0;
  // Within compute, beside the kernels: a device link's stream moving pivot rows (GPU time).
  double link = 0;
  // The most host memory the process held at once (its peak resident set, getrusage).
  std::uint64_t peak_host_bytes = 0;
  SetupSeconds setup;     // read, plan and upload step by step
  RowsWritten out, pred;  // this rank's rows of OUT and P
  // The distance rows this rank's solver made within compute (every pass, the histogram's
  // probes of `apsp measures` included): supernodal's updates are counted by them.
  std::int64_t rows_made = 0;
};

// What the supernodal algorithm (supernodal.hpp) did or predicted, when a run considered it.
struct SupernodalStats {
  bool considered = false;  // ordered and analysed (asked for, or auto found it worth a look)
  std::string decision;     // why it runs or why auto left it
  double ordering = 0;      // seconds: METIS' nested dissection (within plan)
  double symbolic = 0;      // seconds: elimination tree, supernodes, predictions (within plan)
  double factor = 0;        // seconds: the numeric factor (within compute)
  int factors = 1;          // factors made: 2 where measures need the reversed graph's too;
                            // one fewer where a prepared graph's was read
  double rows = 0;          // seconds: the distance rows from the factor (within compute)
  std::int64_t supernodes = 0;
  std::uint64_t factor_bytes = 0;
  std::uint64_t path_bytes = 0;  // a row's two path arrays in the sweeps (2 x the longest path)
  int row_threads = 0;           // the most threads a row in the sweeps (0: none ran; GPUs:
                                 // SupernodalSolver::row_split; each further one more path array
                                 // where the rows keep some columns)
  double predicted_updates = 0;  // factor + rows, from the symbolic phase
  double factor_updates = 0;     // ... of them the factor's
  double row_updates = 0;        // ... and those of all V rows
  bool half_rows = false;        // measures made each row in half: row_updates are half rows'
  double dense_updates = 0;      // what dense Floyd-Warshall would do (padded V^3)
};

// How `apsp measures` made its histogram (GraphMeasures::passes, probed_rows).
struct MeasureStats {
  int passes = 0;  // 0: no histogram
  std::int64_t probed_rows = 0;
};

struct SolveStats {
  std::int64_t vertices = 0;
  std::int64_t edges = 0;
  std::string algorithm = "fw";  // "fw", "sssp" or "supernodal"
  std::string dtype = "int32";   // the distances' type: int32, float32, float64
  std::string backend;
  std::string device;
  int concurrency = 0;
  int ranks = 1;
  int tile = 0;
  std::string shape;
  std::string shape_source;  // "user", "tuned" or "table" (Plan::shape_source)
  // How pivot rows travelled: "nccl", "ipc", "host" (host memory), "none" (they did not), and
  // the transport asked for (--transport).
  std::string transport = "none";
  std::string transport_requested = "auto";
  std::string transport_note;  // why a device link gave way to host (TransportChoice::note)
  std::int64_t padded = 0;
  // IN was a prepared graph (io/prepared_file.hpp): its plan and factor were read, not made.
  bool prepared = false;
  StageSeconds seconds;  // this rank's (rank 0's in the file)
  // How the rows of OUT and P reached their files (RowOutput::way): "at offsets", "discarded by
  // each rank" or "through rank 0 in order"; "" for an output the run does not write.
  std::string output_rows, predecessor_rows;
  // Every rank's stages (rank 0's first), for P ranks; communication_bytes summed over ranks in
  // `seconds` of rank 0.
  std::vector<StageSeconds> per_rank;
  SupernodalStats supernodal;  // in to_json() when considered
  MeasureStats measures;       // in to_json() with a histogram
  // What the caller should warn about (rank 0's), e.g. a tuning cache that could not be used:
  // the library prints nothing. Not part of to_json().
  std::vector<std::string> warnings;

  // The min-plus updates of the compute stage that the rates count, and which count that is
  // (updates_counted): Floyd-Warshall's V^3 (the padding to whole tiles left out); supernodal's
  // as its plan predicts them for what the run made: the factor on every rank, and each
  // distance row made its share of the plan's row updates. 0 where no count is known (sssp:
  // Dijkstra makes no min-plus updates), and to_json() then leaves the rates out.
  double updates() const;
  const char* updates_counted() const;
  std::int64_t rows_made() const;  // StageSeconds::rows_made, summed over the ranks
  // updates() / compute time, and GOPS (2 updates() / compute time / 1e9, the add and the min
  // of an update counted apart).
  double updates_per_s() const;
  double gops() const;
  std::string to_json() const;
};

}  // namespace apsp
