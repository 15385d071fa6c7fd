// The whole job (apsp::solve) and the row-block rounds, on the ranks of tests/ranks.hpp: one rank
// in the single-process run, 1 to 4 under mpirun (tests/mpi/CMakeLists.txt). Every body checks
// what one process must give: the plain reference's distances, the predecessors of a run on one
// rank, one agreed error on every rank.
#include "expect_error.hpp"
#include "io/compare.hpp"
#include "io/output_formats.hpp"
#include "platform/config.hpp"
#include "ranks.hpp"
#include "reference.hpp"

#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/ordering.hpp>
#include <apsp/paths.hpp>
#include <apsp/supernodal.hpp>

#include "io/hw3_io.hpp"
#include "io/outputs.hpp"
#include "plan/sssp_choice.hpp"
#include "platform/backends.hpp"
#include "run/pipeline.hpp"
#include "run/run_graph.hpp"
#include "verify/verify_output.hpp"
#if defined(APSP_HAVE_MPI)
#include "platform/mpi.hpp"
#endif

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

class Pipeline : public ::testing::Test {
 protected:
  apsp::Ranks& ranks = apsp_test::ranks();

  // One directory for all ranks: rank 0 makes it.
  void SetUp() override {
    std::string dir;
    if (ranks.root()) {
      dir = ::testing::TempDir() + "apsp-pipeline-XXXXXX";
      if (!mkdtemp(&dir[0])) dir.clear();
    }
    dir_ = apsp::broadcast_string(ranks, dir, 0);
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override {
    std::int64_t done = 0;
    ranks.min(&done, 1);  // every rank is done with the files
    if (ranks.root()) ASSERT_EQ(std::system(("rm -rf '" + dir_ + "'").c_str()), 0);
  }

  std::string path(const std::string& name) const { return dir_ + "/" + name; }

  // g written as IN by rank 0; a configuration that writes OUT.
  apsp::SolveConfig config_for(const apsp::Graph& g, int tile = 32) {
    if (ranks.root()) apsp::write_hw3_graph(path("in.bin"), g);
    std::int64_t done = 0;
    ranks.min(&done, 1);
    apsp::SolveConfig config;
    config.input = path("in.bin");
    config.output = path("out.bin");
    config.shape.tile = tile;
    return config;
  }

  static std::vector<int> read_ints(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<int> values(bytes.size() / sizeof(int));
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(values.data()));
    return values;
  }

  static std::vector<int> read_text(const std::string& file) {
    std::ifstream in(file);
    std::vector<int> values;
    for (long long x; in >> x;)
      values.push_back(int(x));
    return values;
  }

  std::string dir_;
};

apsp::Graph negative_graph(int vertices, bool cycle) {
  // w = w0 + p(u) - p(v) with w0 >= 0: negative weights, no negative cycle.
  apsp::Graph g = apsp_test::random_graph(vertices, 0.05, 17, 400);
  std::vector<int> p(static_cast<std::size_t>(vertices));
  for (int v = 0; v < vertices; ++v)
    p[std::size_t(v)] = (v * 37) % 300;
  for (apsp::Edge& e : g.edges)
    e.weight += p[std::size_t(e.src)] - p[std::size_t(e.dst)];
  if (cycle) {
    g.edges.push_back({50, 70, -500});
    g.edges.push_back({70, 50, 499});
  }
  return g;
}

TEST_F(Pipeline, DistancesEqualThePlainReference) {
  // 5 tiles (ragged over 2..4 ranks), 2 tiles (ranks without rows), one vertex, no edges.
  const apsp::Graph graphs[] = {apsp_test::random_graph(150, 0.05, 3),
                                apsp_test::random_graph(40, 0.2, 4), apsp::Graph{1, {}},
                                apsp::Graph{70, {}}};
  for (const apsp::Graph& g : graphs) {
    const apsp::SolveConfig config = config_for(g);
    const apsp::SolveStats stats = apsp::solve(config, ranks);
    EXPECT_EQ(stats.ranks, ranks.size());
    EXPECT_EQ(read_ints(config.output), apsp_test::reference_floyd_warshall(g))
        << "V = " << g.vertices;
  }
}

TEST_F(Pipeline, PredecessorsAreThoseOfOneProcess) {
  // Weights 0..3: many tied shortest paths, so the tie rule shows.
  for (const bool negative : {false, true}) {
    const apsp::Graph g =
        negative ? negative_graph(120, false) : apsp_test::random_graph(150, 0.05, 5, 3);
    apsp::SolveConfig config = config_for(g);
    config.allow_negative = negative;
    config.predecessors = path("pred.bin");
    apsp::solve(config, ranks);
    EXPECT_EQ(read_ints(config.output), apsp_test::reference_floyd_warshall(g));
    if (ranks.root()) {
      apsp::SolveConfig one = config;
      one.output = path("one.bin");
      one.predecessors = path("one.pred");
      one.shape.tile = 0;  // another shape too: the rule does not depend on it
      apsp::solve(one);
      EXPECT_EQ(read_ints(config.predecessors), read_ints(one.predecessors))
          << (negative ? "negative weights" : "weights 0..3");
    }
  }
}

TEST_F(Pipeline, TextOutputEqualsThePlainReference) {
  const apsp::Graph g = apsp_test::random_graph(130, 0.05, 6);
  apsp::SolveConfig config = config_for(g);
  config.output_format = apsp::OutputFormat::text;
  config.predecessors = path("pred.txt");
  apsp::solve(config, ranks);
  EXPECT_EQ(read_text(config.output), apsp_test::reference_floyd_warshall(g));
  EXPECT_EQ(read_text(config.predecessors).size(), std::size_t(130 * 130));
}

TEST_F(Pipeline, NpyOutputIsTheHw3ValuesAfterNumPysHeader) {
  const apsp::Graph g = apsp_test::random_graph(130, 0.05, 11);
  apsp::SolveConfig config = config_for(g);
  config.output_format = apsp::OutputFormat::npy;
  config.output = path("out.npy");
  config.predecessors = path("pred.npy");
  apsp::solve(config, ranks);
  const std::string header = apsp::npy_header(g.vertices);
  for (const std::string& file : {config.output, config.predecessors}) {
    std::ifstream in(file, std::ios::binary);
    std::string head(header.size(), '\0');
    in.read(&head[0], std::streamsize(head.size()));
    EXPECT_EQ(head, header) << file;
  }
  const std::vector<int> all = read_ints(config.output);
  ASSERT_EQ(all.size() * sizeof(int), header.size() + std::size_t(130 * 130) * sizeof(int));
  const std::vector<int> values(all.begin() + std::ptrdiff_t(header.size() / sizeof(int)),
                                all.end());
  EXPECT_EQ(values, apsp_test::reference_floyd_warshall(g));
  if (ranks.root()) {
    apsp::SolveConfig hw3 = config;
    hw3.output_format = apsp::OutputFormat::hw3;
    hw3.output = path("one.bin");
    hw3.predecessors = path("one.pred");
    apsp::solve(hw3);
    EXPECT_TRUE(apsp::compare_outputs(config.output, hw3.output).identical);
    EXPECT_TRUE(apsp::compare_outputs(config.predecessors, hw3.predecessors).identical);
    EXPECT_TRUE(apsp::verify(config.input, config.output).passed);
  }
}

TEST_F(Pipeline, NegativeWeightsAndOneAgreedNegativeCycle) {
  const apsp::Graph g = negative_graph(120, false);
  apsp::SolveConfig config = config_for(g);
  config.allow_negative = true;
  apsp::solve(config, ranks);
  EXPECT_EQ(read_ints(config.output), apsp_test::reference_floyd_warshall(g));

  config = config_for(negative_graph(120, true));
  config.allow_negative = true;
  config.output = path("cycle.bin");
  apsp_test::expect_error_naming([&] { apsp::solve(config, ranks); },
                                 {"negative cycle through vertex"});
  EXPECT_FALSE(std::ifstream(config.output).good()) << "an output after a negative cycle";
}

TEST_F(Pipeline, SsspSplitsTheSourcesOverTheRanks) {
  if (!apsp::sssp_available) GTEST_SKIP() << "a build without Kokkos Kernels";
  const apsp::Graph g = apsp_test::random_graph(200, 0.02, 7);
  apsp::SolveConfig config = config_for(g);
  config.algorithm = apsp::Algorithm::sssp;
  // sssp runs on host backends: the default one of a CPU build, Serial beside a GPU.
  const auto names = apsp::backend_names();
  config.backend =
      std::find(names.begin(), names.end(), "openmp") != names.end() ? "openmp" : "serial";
  const apsp::SolveStats stats = apsp::solve(config, ranks);
  EXPECT_EQ(stats.algorithm, "sssp");
  EXPECT_EQ(read_ints(config.output), apsp_test::reference_floyd_warshall(g));
}

TEST_F(Pipeline, PredecessorsFromSsspAreRefusedByThePlanForEveryDriver) {
  // plan_run decides it once: the pipeline and apsp path's library call give its one message,
  // whether or not this build has sssp, before any output exists.
  const apsp::Graph g = apsp_test::random_graph(60, 0.1, 12);
  apsp::SolveConfig config = config_for(g);
  config.algorithm = apsp::Algorithm::sssp;
  config.predecessors = path("pred.bin");
  const std::string message = "come from Floyd-Warshall; sssp does not write them";
  apsp_test::expect_error_naming([&] { apsp::solve(config, ranks); }, {message});
  EXPECT_FALSE(std::ifstream(config.output).good());
  EXPECT_FALSE(std::ifstream(config.predecessors).good());
  config.predecessors.clear();
  apsp_test::expect_error_naming([&] { apsp::find_path(config, 0, 59); }, {message});
}

TEST_F(Pipeline, AFailureIsOneErrorOnEveryRankAndNoOutput) {
  apsp::SolveConfig config = config_for(apsp_test::random_graph(50, 0.1, 8));
  config.input = path("missing.bin");
  apsp_test::expect_error_naming([&] { apsp::solve(config, ranks); }, {"cannot open input"});
  config = config_for(apsp_test::random_graph(50, 0.1, 8));
  config.shape.tile = 48;
  apsp_test::expect_error_naming([&] { apsp::solve(config, ranks); },
                                 {"tile size 48 is not available"});
  EXPECT_FALSE(std::ifstream(config.output).good());
}

TEST_F(Pipeline, StagesAddUpToTheTotalOnEveryRank) {
  apsp::SolveConfig config = config_for(apsp_test::random_graph(150, 0.05, 9));
  config.predecessors = path("pred.bin");
  const apsp::SolveStats stats = apsp::solve(config, ranks);
  ASSERT_EQ(stats.per_rank.size(), std::size_t(ranks.size()));
  for (const apsp::StageSeconds& s : stats.per_rank) {
    const double sum =
        s.read + s.plan + s.upload + s.compute + s.predecessors + s.download + s.write + s.commit;
    EXPECT_NEAR(sum, s.total, 1e-9 + 1e-9 * s.total);
    for (const double x :
         {s.read, s.plan, s.upload, s.compute, s.predecessors, s.download, s.write, s.commit})
      EXPECT_GE(x, 0);
  }
}

// The setup's profile (issue 34, item 2): each rank's read, plan and upload in named steps that
// add up to them, the seconds a step spent in collectives within its seconds; in --stats, a
// "setup" object in each per_rank entry.
TEST_F(Pipeline, SetupStepsAddUpToReadPlanAndUpload) {
  apsp::SolveConfig config = config_for(apsp_test::random_graph(150, 0.05, 9));
  config.algorithm = apsp::Algorithm::floyd_warshall;
  config.predecessors = path("pred.bin");
  config.stats = path("stats.json");
  const apsp::SolveStats stats = apsp::solve(config, ranks);
  ASSERT_EQ(stats.per_rank.size(), std::size_t(ranks.size()));
  for (const apsp::StageSeconds& s : stats.per_rank) {
    double sum = 0;
    for (const apsp::StepSeconds& step : s.setup.steps) {
      EXPECT_GE(step.collective, 0);
      EXPECT_LE(step.collective, step.seconds + 1e-9);
      sum += step.seconds;
    }
    const double setup = s.read + s.plan + s.upload;
    EXPECT_NEAR(sum, setup, 1e-9 + 1e-9 * setup);
    using Setup = apsp::SetupSeconds;
    EXPECT_EQ(s.setup.steps[Setup::supernodal_plan].seconds, 0) << "dense Floyd-Warshall";
    EXPECT_GT(s.setup.steps[Setup::warm_up].seconds, 0);
  }
  if (!ranks.root()) return;
  std::ifstream in(config.stats);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t entries = 0;
  for (auto at = json.find("\"setup\": {\"check_files\": {\"seconds\": "); at != std::string::npos;
       at = json.find("\"setup\": {\"check_files\"", at + 1))
    ++entries;
  EXPECT_EQ(entries, std::size_t(ranks.size())) << json;
  EXPECT_NE(json.find("\"warm_up\": {\"seconds\": "), std::string::npos) << json;
}

// Every rank hands its own rows to OUT and P (issue 34, item 3): a regular file at their offsets;
// the null device, whatever its name, discarded by each rank (no trip through rank 0); text and
// other devices through rank 0 in row order. --stats says which way each output went, and each
// rank's rows and the bytes it wrote.
TEST_F(Pipeline, EachRankWritesOrDiscardsItsOwnRows) {
  const int v = 150;
  apsp::SolveConfig config = config_for(apsp_test::random_graph(v, 0.05, 9));
  config.algorithm = apsp::Algorithm::floyd_warshall;
  config.predecessors = path("pred.bin");
  if (ranks.root()) ASSERT_EQ(symlink("/dev/null", path("null").c_str()), 0);
  std::int64_t done = 0;
  ranks.min(&done, 1);
  // Rank p's real rows: its tile rows (5 tiles of 32), the last one cut at V.
  const apsp::RowBlocks blocks{5, ranks.size()};
  const auto rows_of = [&](int p) {
    const std::int64_t first = std::int64_t(blocks.first(p)) * 32;
    return std::max<std::int64_t>(
        0, std::min<std::int64_t>(v, first + std::int64_t(blocks.count(p)) * 32) - first);
  };
  const std::uint64_t row_bytes = std::uint64_t(v) * 4;
  // `whole`: the bytes that rank 0 writes for all (0: each rank writes its own rows).
  const auto expect_rows = [&](const apsp::SolveStats& stats,
                               apsp::RowsWritten apsp::StageSeconds::*output, std::uint64_t whole) {
    ASSERT_EQ(stats.per_rank.size(), std::size_t(ranks.size()));
    for (int p = 0; p < ranks.size(); ++p) {
      const apsp::RowsWritten& w = stats.per_rank[std::size_t(p)].*output;
      EXPECT_EQ(w.rows, rows_of(p)) << "rank " << p;
      const std::uint64_t own = std::uint64_t(rows_of(p)) * row_bytes;
      EXPECT_EQ(w.bytes, whole == 0 ? own : p == 0 ? whole : 0) << "rank " << p;
    }
  };

  apsp::SolveStats stats = apsp::solve(config, ranks);
  EXPECT_EQ(stats.output_rows, "at offsets");
  EXPECT_EQ(stats.predecessor_rows, "at offsets");
  expect_rows(stats, &apsp::StageSeconds::out, 0);
  expect_rows(stats, &apsp::StageSeconds::pred, 0);
  const std::vector<int> distances = read_ints(config.output);

  config.output = "/dev/null";
  config.predecessors = path("null");
  stats = apsp::solve(config, ranks);
  EXPECT_EQ(stats.output_rows, "discarded by each rank");
  EXPECT_EQ(stats.predecessor_rows, "discarded by each rank");
  expect_rows(stats, &apsp::StageSeconds::out, 0);
  expect_rows(stats, &apsp::StageSeconds::pred, 0);

  // /dev/zero takes every write too, but is not the null device.
  config.output = path("out.txt");
  config.output_format = apsp::OutputFormat::text;
  config.predecessors = "/dev/zero";
  config.predecessors_format = apsp::OutputFormat::hw3;
  stats = apsp::solve(config, ranks);
  EXPECT_EQ(stats.output_rows, "through rank 0 in order");
  EXPECT_EQ(stats.predecessor_rows, "through rank 0 in order");
  struct stat text;
  ASSERT_EQ(stat(config.output.c_str(), &text), 0);
  expect_rows(stats, &apsp::StageSeconds::out, std::uint64_t(text.st_size));
  expect_rows(stats, &apsp::StageSeconds::pred, std::uint64_t(v) * row_bytes);
  EXPECT_EQ(read_text(config.output), distances);
}

// A matrix larger than one rank's memory (issue 34, item 4): each rank holds its rows and the
// pivot rows, never the whole matrix. V = 256 in tiles of 32 needs 256 KiB of distances on one
// rank; with 2 ranks 128 KiB each and 32 KiB of pivot rows, with 3 ranks 96 + 32 KiB. Under a cap
// of 150 KiB 3 ranks and more run it and give the reference's distances; fewer are refused with
// the rank count that would fit.
TEST_F(Pipeline, AMatrixLargerThanOneRanksMemoryRunsOnMoreRanks) {
  const apsp::Graph g = apsp_test::random_graph(256, 0.005, 12);
  apsp::SolveConfig config = config_for(g);
  config.algorithm = apsp::Algorithm::floyd_warshall;
  config.max_memory = 150 << 10;
  // The plan tiles V = 256 by 32: 3 ranks hold 3, 3 and 2 tile rows (96 KiB) and one pivot buffer
  // (32 KiB); a GPU keeps two pivot buffers (the next round's arrives beside the current one's), so
  // it takes 4 ranks of 2 tile rows.
  const int fitting = apsp::detail::Streams<Kokkos::DefaultExecutionSpace>::available ? 4 : 3;
  if (ranks.size() < fitting) {
    apsp_test::expect_error_naming(
        [&] { apsp::solve(config, ranks); },
        {"V = 256 needs", "but the cap allows 0.15 MiB; with " + std::to_string(fitting) +
                              " ranks of that memory each it would fit"});
    return;
  }
  apsp::solve(config, ranks);
  EXPECT_EQ(read_ints(config.output), apsp_test::reference_floyd_warshall(g));
}

// The progress of supernodal Floyd-Warshall with predecessors (issue 32, item 10): each block
// counts by its work (SupernodalWork), not as one step. The fraction rises to 1; the distance
// pass ends at the factor and one pass of the symbolic phase's row updates; each predecessor row
// costs its row again and its search, the shortest-path edges E' (counted here from the
// reference) at SupernodalWork::search_edge_updates each; before E' is known the total takes
// every edge.
TEST_F(Pipeline, SupernodalProgressCountsEachBlockByItsWork) {
  if (!apsp::have_nested_dissection()) GTEST_SKIP() << "supernodal needs METIS";
  using Exec = Kokkos::DefaultExecutionSpace;
  // A 24 x 25 grid of two-way edges, weights 1..9.
  apsp::Graph g{600, {}};
  for (int v = 0; v < 600; ++v) {
    if (v % 25 < 24) g.edges.push_back({v, v + 1, 1 + (v * 7) % 9});
    if (v % 25 < 24) g.edges.push_back({v + 1, v, 1 + (v * 5) % 9});
    if (v + 25 < 600) g.edges.push_back({v, v + 25, 1 + (v * 3) % 9});
    if (v + 25 < 600) g.edges.push_back({v + 25, v, 1 + (v * 11) % 9});
  }
  const apsp::SupernodalPlan plan = apsp::supernodal_symbolic(
      g.vertices, g.edges, apsp::nested_dissection_order(g.vertices, g.edges));
  const apsp::SupernodalPrediction& w = plan.prediction;
  const std::int64_t v = g.vertices, e = std::int64_t(g.edges.size());
  using Sn = apsp::SupernodalSolver<Exec, int>;
  apsp::SolveConfig config = config_for(g);
  config.algorithm = apsp::Algorithm::supernodal;
  config.predecessors = path("pred.bin");
  // Room for about 40 rows at once: 15 blocks a pass.
  config.max_memory =
      Sn::least_bytes(w, v, e, true) + Sn::scratch_bytes(plan) + 39 * Sn::row_bytes(w, v, true);
  std::vector<apsp::ProgressStep> steps;
  apsp::solve(config, ranks, [&](const apsp::ProgressStep& step) { steps.push_back(step); });
  EXPECT_EQ(read_ints(config.output), apsp_test::reference_floyd_warshall(g));
  if (!ranks.root()) return;
  ASSERT_GE(steps.size(), 8u);
  ASSERT_EQ(steps.size() % 2, 0u);
  for (std::size_t k = 1; k < steps.size(); ++k) {
    EXPECT_GT(steps[k].fraction, steps[k - 1].fraction) << "step " << k;
    EXPECT_GT(steps[k].updates, steps[k - 1].updates) << "step " << k;
  }
  EXPECT_DOUBLE_EQ(steps.back().fraction, 1.0);
  if (ranks.size() > 1) return;  // the rest counts every row: one rank's
  const std::vector<int> d = apsp_test::reference_floyd_warshall(g);
  std::int64_t tight = 0;  // E': the edges that are shortest paths
  for (const apsp::Edge& x : g.edges)
    tight += x.src != x.dst && d[std::size_t(x.src * v + x.dst)] == int(x.weight);
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;
  const double per_edge = apsp::SupernodalWork::search_edge_updates(host);
  const double distances = w.factor_updates + w.row_updates;
  const double total = distances + w.row_updates + per_edge * double(v) * double(tight);
  const std::size_t half = steps.size() / 2;
  EXPECT_NEAR(steps[half - 1].updates, distances, 1e-9 * total);
  EXPECT_NEAR(steps[half - 1].fraction,
              distances / (distances + w.row_updates + per_edge * double(v) * double(e)), 1e-12);
  for (std::size_t k = half; k < steps.size(); ++k)
    EXPECT_NEAR(steps[k].fraction, steps[k].updates / total, 1e-12) << "step " << k;
  EXPECT_NEAR(steps.back().updates, total, 1e-9 * total);
}

// gather_to (ranks.hpp): every rank's part, in rank order, on the root alone, for each root in
// turn (under mpirun: MPI's sends to the root; one process: the part itself).
TEST_F(Pipeline, GatherToHoldsEveryPartOnTheRootAlone) {
  const int size = ranks.size(), me = ranks.rank();
  std::vector<std::int64_t> mine;
  for (int k = 0; k <= me; ++k)
    mine.push_back(1000 * me + k);
  for (int root = 0; root < size; ++root) {
    const std::vector<std::int64_t> all = apsp::gather_to(ranks, mine, root);
    if (me != root) {
      EXPECT_TRUE(all.empty()) << "rank " << me << ", root " << root;
      continue;
    }
    std::vector<std::int64_t> expected;
    for (int q = 0; q < size; ++q)
      for (int k = 0; k <= q; ++k)
        expected.push_back(1000 * q + k);
    EXPECT_EQ(all, expected) << "root " << root;
  }
}

// Floyd-Warshall on this rank's block of tile rows alone (the library call behind both drivers):
// the rows of the plain reference.
TEST(RowBlocks, FloydWarshallOnEachRanksRows) {
  using Exec = Kokkos::DefaultExecutionSpace;
  apsp::Ranks& ranks = apsp_test::ranks();
  Exec exec;
  const apsp::Graph g = apsp_test::random_graph(300, 0.02, 10);
  apsp::ShapeRequest request;
  request.tile = apsp::available_shapes(exec).back().tile;
  const apsp::Plan plan = apsp::make_plan<int>(exec, g.vertices, false, request);
  const apsp::RowBlocks blocks{int(plan.padded / plan.shape.tile), ranks.size()};
  const std::int64_t first = std::int64_t(blocks.first(ranks.rank())) * plan.shape.tile;
  const std::int64_t count = std::int64_t(blocks.count(ranks.rank())) * plan.shape.tile;
  std::vector<apsp::Edge> mine;
  for (const apsp::Edge& e : g.edges)
    if (e.src >= first && e.src < first + count) mine.push_back(e);
  apsp::DistanceMatrix<Exec> rows("rows", count, plan.padded);
  apsp::fill_distance_rows(exec, rows, first, mine);
#if defined(APSP_HAVE_MPI)
  if (apsp_test::launched_by_mpirun())
    apsp::mpi::floyd_warshall(MPI_COMM_WORLD, exec, rows, plan);
  else
#endif
    apsp::detail::floyd_warshall_rows(ranks, exec, rows, plan);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows);
  const std::vector<int> expected = apsp_test::reference_floyd_warshall(g);
  const std::int64_t v = g.vertices;
  int wrong = 0;
  for (std::int64_t i = first; i < std::min(first + count, v); ++i)
    for (std::int64_t j = 0; j < v; ++j)
      wrong += host(i - first, j) != expected[std::size_t(i * v + j)];
  EXPECT_EQ(wrong, 0) << "rank " << ranks.rank() << " of " << ranks.size();
}

// run_graph (run/run_graph.hpp), the in-memory run of the Python module and apsp path, on each
// algorithm of all pairs: the distances of the plain reference, predecessor rows of a range that
// follow shortest paths and agree between the algorithms (one rule, paths.hpp), the measures of
// those distances, and the destination's memory refused before any row.
TEST(RunGraph, EachAnswerOnEachAlgorithm) {
  using Exec = Kokkos::DefaultExecutionSpace;
  const apsp::Graph g = apsp_test::random_graph(150, 0.03, 9, 5);  // weights 0..5: tied paths
  const std::int64_t n = g.vertices, first = 40, count = 3;
  const apsp::WeightRange weights = apsp::weight_range(g);
  const std::vector<int> want = apsp_test::reference_floyd_warshall(g);
  std::vector<apsp::Algorithm> algorithms = {apsp::Algorithm::floyd_warshall};
  if (apsp::have_nested_dissection()) algorithms.push_back(apsp::Algorithm::supernodal);
  std::vector<int> agreed;
  const auto into = [n](std::vector<int>& to, std::int64_t at) {
    return [&to, n, at](std::int64_t row, std::int64_t rows, const int* values,
                        std::int64_t stride) {
      for (std::int64_t i = 0; i < rows; ++i)
        std::copy(values + i * stride, values + i * stride + n, to.begin() + (row - at + i) * n);
    };
  };
  for (const apsp::Algorithm algorithm : algorithms) {
    SCOPED_TRACE(apsp::algorithm_name(algorithm));
    const apsp::GraphRequest request{algorithm, {}, 0};
    apsp::OneRank one;
    std::vector<int> dist, pred;
    apsp::Answer<Exec, int> to;
    dist.assign(std::size_t(n * n), -2);
    pred.assign(std::size_t(count * n), -2);
    to.host_bytes = std::uint64_t(n * n + count * n) * sizeof(int);
    to.distances = into(dist, 0);
    to.predecessors = into(pred, first);
    to.predecessors_first = first;
    to.predecessors_count = count;
    apsp::run_graph(Exec(), one, g, weights, request, to);
    EXPECT_EQ(dist, want);
    for (std::int64_t i = 0; i < count; ++i)  // p -> j ends a shortest path from s to j
      for (std::int64_t j = 0; j < n; ++j) {
        const std::int64_t s = first + i, p = pred[std::size_t(i * n + j)];
        const int d = want[std::size_t(s * n + j)];
        if (s == j || d == apsp::hw3_no_path) {
          EXPECT_EQ(p, -1) << s << " -> " << j;
          continue;
        }
        ASSERT_GE(p, 0) << s << " -> " << j;
        const bool edge = std::any_of(g.edges.begin(), g.edges.end(), [&](const apsp::Edge& e) {
          return e.src == p && e.dst == j && want[std::size_t(s * n + p)] + e.weight == d;
        });
        EXPECT_TRUE(edge) << s << " -> " << p << " -> " << j;
      }
    if (agreed.empty()) agreed = pred;
    EXPECT_EQ(pred, agreed);

    apsp::Answer<Exec, int> measured;
    measured.measure = apsp::MeasureOptions{0};
    apsp::run_graph(Exec(), one, g, weights, request, measured);
    for (std::int64_t v = 0; v < n; ++v) {
      std::int64_t sum = 0, reached = 0;
      int farthest = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        const int d = want[std::size_t(v * n + j)];
        if (d == apsp::hw3_no_path) continue;
        sum += d;
        ++reached;
        farthest = std::max(farthest, d);
      }
      EXPECT_EQ(measured.measures.distance_sum_exact[std::size_t(v)], sum) << v;
      EXPECT_EQ(measured.measures.reachable[std::size_t(v)], reached) << v;
      EXPECT_EQ(measured.measures.eccentricity[std::size_t(v)], farthest) << v;
    }

    bool handed = false;
    apsp::Answer<Exec, int> too_large;
    too_large.host_bytes = std::uint64_t(1) << 62;
    too_large.distances = [&](std::int64_t, std::int64_t, const int*, std::int64_t) {
      handed = true;
    };
    EXPECT_THROW(apsp::run_graph(Exec(), one, g, weights, request, too_large), apsp::MemoryError);
    EXPECT_FALSE(handed);
  }
}

}  // namespace
