// The HW3 reader and writer, the atomic output file and the output comparison: round trips,
// every class of bad input (each must throw apsp::Error naming the problem), and the place of
// the first difference.
#include <apsp/error.hpp>
#include "expect_error.hpp"
#include "io/compare.hpp"
#include "io/output_formats.hpp"
#include "temp_dir.hpp"

#include "io/hw3_io.hpp"
#include "io/outputs.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

class Hw3Files : public apsp_test::TempDirTest {
 protected:
  std::string write_bytes(const std::string& name, const std::string& bytes) const {
    std::ofstream out(path(name), std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return path(name);
  }
  std::string write_ints(const std::string& name, const std::vector<std::int32_t>& values) const {
    return write_bytes(name, std::string(reinterpret_cast<const char*>(values.data()),
                                         values.size() * sizeof(std::int32_t)));
  }
  // Names left in the directory, sorted ("a b c").
  std::string listing() const {
    std::string names;
    const std::string command = "ls -A '" + dir_ + "'";
    std::FILE* ls = popen(command.c_str(), "r");
    for (int c; (c = std::fgetc(ls)) != EOF;)
      names += c == '\n' ? ' ' : char(c);
    pclose(ls);
    if (!names.empty()) names.pop_back();
    return names;
  }

  // read_hw3(file) must throw apsp::Error whose message contains every one of `parts`.
  static void expect_rejected(const std::string& file, const std::vector<std::string>& parts) {
    apsp_test::expect_error_naming([&] { apsp::read_hw3(file); }, parts,
                                   " (read_hw3 " + file + ")");
  }
};

// A header and edges as int32 values, the way the HW3 format lays them out.
std::vector<std::int32_t> hw3(std::int32_t vertices, std::int32_t edges,
                              const std::vector<std::int32_t>& triples = {}) {
  std::vector<std::int32_t> values{vertices, edges};
  values.insert(values.end(), triples.begin(), triples.end());
  return values;
}

TEST_F(Hw3Files, RoundTripKeepsEveryEdgeInOrder) {
  apsp::Graph graph;
  graph.vertices = 7;
  graph.edges = {{0, 1, 0}, {6, 0, 1000}, {3, 3, 5}, {2, 4, 17}, {2, 4, 9}, {5, 6, 1}};
  const std::string file = path("graph.in");
  apsp::write_hw3_graph(file, graph);

  EXPECT_EQ(
      read_bytes(file),
      read_bytes(write_ints(
          "expected.in", hw3(7, 6, {0, 1, 0, 6, 0, 1000, 3, 3, 5, 2, 4, 17, 2, 4, 9, 5, 6, 1}))));
  const apsp::Graph back = apsp::read_hw3(file);
  EXPECT_EQ(back.vertices, 7);
  ASSERT_EQ(back.edges.size(), graph.edges.size());
  for (std::size_t e = 0; e < graph.edges.size(); ++e) {
    EXPECT_EQ(back.edges[e].src, graph.edges[e].src) << "edge " << e;
    EXPECT_EQ(back.edges[e].dst, graph.edges[e].dst) << "edge " << e;
    EXPECT_EQ(back.edges[e].weight, graph.edges[e].weight) << "edge " << e;
  }
}

TEST_F(Hw3Files, RoundTripOfAGraphWithoutEdges) {
  apsp::Graph graph;
  graph.vertices = 1;
  apsp::write_hw3_graph(path("one.in"), graph);
  EXPECT_EQ(read_bytes(path("one.in")).size(), 8u);
  const apsp::Graph back = apsp::read_hw3(path("one.in"));
  EXPECT_EQ(back.vertices, 1);
  EXPECT_TRUE(back.edges.empty());
}

TEST_F(Hw3Files, AcceptsTheExtremesOfTheRanges) {
  const apsp::Graph g =
      apsp::read_hw3(write_ints("edge.in", hw3(3, 3, {0, 2, 0, 2, 0, 1000, 1, 1, 1000})));
  ASSERT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(g.edges[1].weight, 1000);
}

TEST_F(Hw3Files, RejectsAMissingFile) {
  expect_rejected(path("missing.in"), {"cannot open input", "missing.in", "No such file"});
}

TEST_F(Hw3Files, RejectsADirectory) {
  ASSERT_EQ(mkdir(path("folder.in").c_str(), 0755), 0);
  expect_rejected(path("folder.in"), {"folder.in", "is a directory"});
}

TEST_F(Hw3Files, RejectsEveryTruncatedHeader) {
  const std::string header("\x05\x00\x00\x00\x00\x00\x00\x00", 8);
  for (std::size_t size = 0; size < 8; ++size) {
    SCOPED_TRACE(std::to_string(size) + " bytes");
    expect_rejected(write_bytes("short.in", header.substr(0, size)),
                    {"short.in", "truncated header (" + std::to_string(size) + " bytes"});
  }
}

TEST_F(Hw3Files, RejectsATruncatedEdgeList) {
  // Two edges announced, one and a half present.
  std::string bytes = read_bytes(write_ints("full.in", hw3(4, 2, {0, 1, 5, 1, 2, 6})));
  bytes.resize(bytes.size() - 6);
  expect_rejected(write_bytes("cut.in", bytes),
                  {"cut.in", "truncated edge list", "E = 2", "needs 32 bytes", "has 26"});
  // Edges announced, none present.
  expect_rejected(write_ints("none.in", hw3(4, 3)), {"truncated edge list", "E = 3"});
}

TEST_F(Hw3Files, RejectsTrailingBytes) {
  std::string bytes = read_bytes(write_ints("full.in", hw3(4, 1, {0, 1, 5})));
  expect_rejected(write_bytes("trailing.in", bytes + "x"),
                  {"trailing.in", "1 bytes of trailing data", "after the 1 edges"});
  expect_rejected(write_ints("extra-edge.in", hw3(4, 1, {0, 1, 5, 1, 2, 6})),
                  {"12 bytes of trailing data"});
}

TEST_F(Hw3Files, RejectsVerticesBelowOne) {
  expect_rejected(write_ints("zero.in", hw3(0, 0)), {"zero.in", "V = 0", "vertices"});
  expect_rejected(write_ints("negative.in", hw3(-3, 0)), {"V = -3", "vertices"});
  expect_rejected(write_ints("min.in", hw3(INT32_MIN, 0)), {"V = -2147483648"});
}

TEST_F(Hw3Files, RejectsNegativeEdgeCounts) {
  expect_rejected(write_ints("negative.in", hw3(4, -1)), {"negative.in", "E = -1", "edges"});
  expect_rejected(write_ints("min.in", hw3(4, INT32_MIN)), {"E = -2147483648"});
}

TEST_F(Hw3Files, RejectsVerticesOutOfRange) {
  struct Case {
    std::vector<std::int32_t> edges;
    std::string problem;
  };
  const std::vector<Case> cases = {
      {{0, 1, 1, -1, 2, 3}, "edge 1: vertex -1 out of range [0, 5)"},
      {{0, 1, 1, 1, 2, 3, 2, -7, 3}, "edge 2: vertex -7 out of range [0, 5)"},
      {{5, 0, 1}, "edge 0: vertex 5 out of range [0, 5)"},
      {{0, 1, 1, 4, 5, 1}, "edge 1: vertex 5 out of range [0, 5)"},
      {{0, 1, 1, 4, INT32_MAX, 1}, "edge 1: vertex 2147483647 out of range [0, 5)"},
      {{INT32_MIN, 1, 1}, "edge 0: vertex -2147483648 out of range [0, 5)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.problem);
    expect_rejected(write_ints("vertex.in", hw3(5, std::int32_t(c.edges.size() / 3), c.edges)),
                    {"vertex.in", c.problem});
  }
}

TEST_F(Hw3Files, RejectsWeightsOutOfRange) {
  expect_rejected(write_ints("heavy.in", hw3(3, 1, {2, 0, 1001})),
                  {"heavy.in", "edge 0: weight 1001 out of range [0, 1000]"});
  expect_rejected(write_ints("huge.in", hw3(3, 1, {2, 0, INT32_MAX})),
                  {"edge 0: weight 2147483647 out of range [0, 1000]"});
}

TEST_F(Hw3Files, RejectsNegativeWeightsUnlessAllowed) {
  const std::string file = write_ints("negative.in", hw3(3, 2, {0, 1, 3, 1, 2, -1}));
  expect_rejected(file, {"input '" + file +
                         "': edge 1: weight -1 is negative (negative weights need "
                         "--allow-negative)"});
  expect_rejected(write_ints("lowest.in", hw3(3, 1, {1, 2, INT32_MIN})),
                  {"edge 0: weight -2147483648 is negative (negative weights need"});
}

TEST_F(Hw3Files, AcceptsWeightsFromMinusToPlusMaxWeightWhenAllowed) {
  const std::vector<std::int32_t> triples = {0, 1, -1000, 1, 2, 1000, 2, 0, -1, 2, 2, 0};
  const apsp::Graph g = apsp::read_hw3(write_ints("negative.in", hw3(3, 4, triples)), true);
  EXPECT_EQ(g.vertices, 3);
  ASSERT_EQ(g.edges.size(), 4u);
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    EXPECT_EQ(g.edges[e].src, triples[3 * e]) << "edge " << e;
    EXPECT_EQ(g.edges[e].dst, triples[3 * e + 1]) << "edge " << e;
    EXPECT_EQ(g.edges[e].weight, triples[3 * e + 2]) << "edge " << e;
  }
}

TEST_F(Hw3Files, RejectsWeightsBeyondTheNegativeRangeWhenAllowed) {
  struct Case {
    std::int32_t weight;
    std::string problem;
  };
  for (const auto& c : std::vector<Case>{
           {-1001, "edge 1: weight -1001 out of range [-1000, 1000]"},
           {1001, "edge 1: weight 1001 out of range [-1000, 1000]"},
           {INT32_MIN, "edge 1: weight -2147483648 out of range [-1000, 1000]"},
       }) {
    SCOPED_TRACE(c.problem);
    const std::string file = write_ints("beyond.in", hw3(3, 2, {0, 1, -1000, 1, 2, c.weight}));
    apsp_test::expect_error_naming([&] { apsp::read_hw3(file, true); },
                                   {"input '" + file + "': " + c.problem});
  }
}

TEST_F(Hw3Files, AtomicOutputAppearsOnlyOnCommit) {
  {
    apsp::AtomicOutputFile out(path("result.out"));
    out.write("abcd", 4);
    EXPECT_EQ(listing().find("result.out "), std::string::npos);
    EXPECT_EQ(out.temporary_path().rfind(path("result.out.apsp-tmp."), 0), 0u);
  }
  EXPECT_EQ(listing(), "") << "an uncommitted output leaves nothing behind";

  write_bytes("result.out", "old");
  {
    apsp::AtomicOutputFile out(path("result.out"));
    out.write("new!", 4);
  }
  EXPECT_EQ(read_bytes(path("result.out")), "old") << "an uncommitted output replaces nothing";

  {
    apsp::AtomicOutputFile out(path("result.out"));
    out.write("xxxxefgh", 8);
    out.write_at(0, "abcd", 4);
    out.commit();
  }
  EXPECT_EQ(read_bytes(path("result.out")), "abcdefgh");
  EXPECT_EQ(listing(), "result.out");
}

TEST_F(Hw3Files, AtomicOutputRefusesADirectory) {
  ASSERT_EQ(mkdir(path("out").c_str(), 0755), 0);
  try {
    apsp::AtomicOutputFile out(path("out"));
    ADD_FAILURE() << "a directory was accepted as output";
  } catch (const apsp::Error& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
  EXPECT_EQ(listing(), "out");
}

TEST_F(Hw3Files, TransactionCommitsEveryOutputOrNone) {
  write_bytes("b.out", "old");
  {
    apsp::OutputTransaction outputs;
    outputs.add(path("a.out")).write("AAAA", 4);
    outputs.add(path("b.out")).write("BBBB", 4);
  }
  EXPECT_EQ(listing(), "b.out") << "an uncommitted transaction leaves nothing behind";
  EXPECT_EQ(read_bytes(path("b.out")), "old");
  {
    apsp::OutputTransaction outputs;
    outputs.add(path("a.out")).write("AAAA", 4);
    outputs.add(path("b.out")).write("BBBB", 4);
    outputs.commit();
  }
  EXPECT_EQ(listing(), "a.out b.out");
  EXPECT_EQ(read_bytes(path("a.out")), "AAAA");
  EXPECT_EQ(read_bytes(path("b.out")), "BBBB");
}

TEST_F(Hw3Files, OutputModeFollowsTheUmaskOrTheReplacedFile) {
  const mode_t previous = umask(077);
  {
    apsp::AtomicOutputFile out(path("new.out"));
    out.commit();
  }
  umask(022);
  {
    apsp::AtomicOutputFile out(path("shared.out"));
    out.commit();
  }
  umask(previous);
  write_bytes("kept.out", "old");
  ASSERT_EQ(chmod(path("kept.out").c_str(), 0640), 0);
  {
    apsp::AtomicOutputFile out(path("kept.out"));
    out.commit();
  }
  const auto mode = [&](const std::string& name) {
    struct stat st;
    EXPECT_EQ(stat(path(name).c_str(), &st), 0);
    return st.st_mode & 07777;
  };
  EXPECT_EQ(mode("new.out"), 0600u);
  EXPECT_EQ(mode("shared.out"), 0644u);
  EXPECT_EQ(mode("kept.out"), 0640u);
}

TEST_F(Hw3Files, SymbolicLinkOutputIsWrittenThrough) {
  ASSERT_EQ(mkdir(path("d").c_str(), 0755), 0);
  write_bytes("d/target.out", "old");
  ASSERT_EQ(symlink("d/target.out", path("link.out").c_str()), 0);
  {
    apsp::AtomicOutputFile out(path("link.out"));
    EXPECT_EQ(out.temporary_path().rfind(path("d/target.out.apsp-tmp."), 0), 0u);
    out.write("new!", 4);
    out.commit();
  }
  struct stat st;
  ASSERT_EQ(lstat(path("link.out").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link was replaced by a file";
  EXPECT_EQ(read_bytes(path("d/target.out")), "new!");
}

TEST_F(Hw3Files, LongOutputNamesGetATemporaryThatFits) {
  const std::string name(250, 'x');
  apsp::AtomicOutputFile out(path(name));
  out.write("abcd", 4);
  out.commit();
  EXPECT_EQ(read_bytes(path(name)), "abcd");
  EXPECT_EQ(listing(), name);
}

TEST_F(Hw3Files, DistinctFilesRefusesOneFileHoweverSpelled) {
  write_bytes("g.in", "graph");
  ASSERT_EQ(symlink("g.in", path("link.in").c_str()), 0);
  const auto refused = [](const std::vector<apsp::NamedFile>& files, const std::string& what) {
    apsp_test::expect_error_naming([&] { apsp::check_distinct_files(files); }, {what});
  };
  refused({{"IN", path("g.in")}, {"OUT", dir_ + "/./g.in"}}, "are the same file");
  refused({{"IN", path("g.in")}, {"OUT", path("link.in")}}, "are the same file");
  ASSERT_EQ(mkdir(path("sub").c_str(), 0755), 0);  // neither exists: the names resolved
  refused({{"IN", path("g.in")}, {"OUT", path("o")}, {"--stats", path("sub/../o")}},
          "OUT '" + path("o") + "' and --stats");
  refused({{"IN", path("g.in")}, {"OUT", ""}}, "OUT is an empty file name");
  apsp::check_distinct_files(
      {{"IN", path("g.in")}, {"OUT", path("o")}, {"P", "/dev/null"}, {"S", "/dev/null"}});
}

TEST_F(Hw3Files, PipeInputIsNotTrustedWithAnAllocation) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  // E = 2*10^9 announced (24 GB), one edge sent: refused as truncated, not allocated first.
  const std::vector<std::int32_t> values = hw3(5, 2000000000, {0, 1, 2});
  ASSERT_EQ(write(fds[1], values.data(), values.size() * 4), ssize_t(values.size() * 4));
  close(fds[1]);
  apsp_test::expect_error_naming([&] { apsp::read_hw3("/dev/fd/" + std::to_string(fds[0])); },
                                 {"truncated edge list (E = 2000000000", "the file has 20)"});
  close(fds[0]);
}

TEST_F(Hw3Files, CompareReportsIdenticalOutputs) {
  const std::vector<std::int32_t> d = {0, 5, apsp::hw3_no_path, 7, 0, 2, 1, 1, 0};
  const auto result = apsp::compare_outputs(write_ints("a.out", d), write_ints("b.out", d));
  EXPECT_TRUE(result.identical);
  EXPECT_EQ(result.message, "identical (V = 3)");
}

TEST_F(Hw3Files, CompareReportsTheFirstDifferenceAtItsRowAndColumn) {
  std::vector<std::int32_t> a(4 * 4, 0), b(4 * 4, 0);
  b[1 * 4 + 3] = 9;  // (1, 3): the first
  b[3 * 4 + 0] = 8;  // (3, 0)
  const auto result = apsp::compare_outputs(write_ints("a.out", a), write_ints("b.out", b));
  EXPECT_FALSE(result.identical);
  EXPECT_NE(result.message.find("first difference at (1, 3): 0 in '" + path("a.out") + "', 9 in '" +
                                path("b.out") + "'"),
            std::string::npos)
      << result.message;
}

TEST_F(Hw3Files, CompareFindsADifferenceBeyondTheFirstChunk) {
  // 1100^2 values: more than one 2^20-value chunk of the streaming comparison.
  const int v = 1100;
  std::vector<std::int32_t> a(std::size_t(v) * v, apsp::hw3_no_path);
  std::vector<std::int32_t> b = a;
  b[std::size_t(1000) * v + 37] = 12;
  const auto result = apsp::compare_outputs(write_ints("a.out", a), write_ints("b.out", b));
  EXPECT_FALSE(result.identical);
  EXPECT_NE(result.message.find("at (1000, 37): 1073741823 in"), std::string::npos)
      << result.message;
  EXPECT_TRUE(apsp::compare_outputs(path("a.out"), path("a.out")).identical);
}

TEST_F(Hw3Files, CompareReportsSizeMismatches) {
  const auto result = apsp::compare_outputs(write_ints("a.out", std::vector<std::int32_t>(4)),
                                            write_ints("b.out", std::vector<std::int32_t>(9)));
  EXPECT_FALSE(result.identical);
  EXPECT_NE(result.message.find("sizes differ"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("16 bytes"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("has 36"), std::string::npos) << result.message;
}

TEST_F(Hw3Files, CompareRejectsSizesThatAreNoOutput) {
  const auto odd =
      apsp::compare_outputs(write_bytes("a.out", "abcdef"), write_bytes("b.out", "abcdef"));
  EXPECT_FALSE(odd.identical);
  EXPECT_NE(odd.message.find("whole number of int32"), std::string::npos) << odd.message;
  const auto not_square = apsp::compare_outputs(write_ints("c.out", std::vector<std::int32_t>(5)),
                                                write_ints("d.out", std::vector<std::int32_t>(5)));
  EXPECT_FALSE(not_square.identical);
  EXPECT_NE(not_square.message.find("not the square"), std::string::npos) << not_square.message;
}

// |S| x |T| tables of --sources and --targets (issue 43): .npy carries their shape, text has it
// by its lines; two of one shape compare like any outputs, two of different shapes are named.
TEST_F(Hw3Files, CompareTakesTablesOfOneShape) {
  const std::vector<std::int32_t> values = {0, 4, 7, 1, 2, apsp::hw3_no_path};  // 2 x 3
  const std::string bytes(reinterpret_cast<const char*>(values.data()), values.size() * 4);
  const std::string a =
      write_bytes("a.npy", apsp::npy_header(2, 3, apsp::DistanceType::int32) + bytes);
  const std::string b =
      write_bytes("b.npy", apsp::npy_header(2, 3, apsp::DistanceType::int32) + bytes);
  const std::string t = write_bytes("t.txt", "0 4 7\n1 2 1073741823\n");
  for (const auto& [x, y] : {std::pair{a, b}, std::pair{a, t}, std::pair{t, a}}) {
    const auto result = apsp::compare_outputs(x, y);
    EXPECT_TRUE(result.identical) << result.message;
    EXPECT_EQ(result.message, "identical (2 x 3)");
  }
  const std::string c =
      write_bytes("c.npy", apsp::npy_header(3, 2, apsp::DistanceType::int32) + bytes);
  const auto transposed = apsp::compare_outputs(a, c);
  EXPECT_FALSE(transposed.identical);
  EXPECT_EQ(transposed.message, "shapes differ: '" + a + "' holds 2 x 3 values, '" + c + "' 3 x 2");
  const std::string u = write_bytes("u.txt", "0 4 7\n");
  const auto fewer_rows = apsp::compare_outputs(t, u);
  EXPECT_FALSE(fewer_rows.identical);
  EXPECT_EQ(fewer_rows.message, "shapes differ: '" + t + "' holds 2 x 3 values, '" + u + "' 1 x 3");
  const auto square = apsp::compare_outputs(a, write_ints("d.out", {0, 1, 2, 0}));
  EXPECT_EQ(square.message,
            "shapes differ: '" + a + "' holds 2 x 3 values, '" + path("d.out") + "' 2 x 2");
  const std::string e = write_bytes("e.txt", "0 4 7\n1 3 1073741823\n");
  const auto different = apsp::compare_outputs(a, e);
  EXPECT_FALSE(different.identical);
  EXPECT_NE(different.message.find("first difference at (1, 1): 2 in"), std::string::npos)
      << different.message;
}

// Descriptors 0, 1 and 2 closed, as a daemon's are: an output's descriptor never takes their
// numbers (issue 43), or whatever writes to standard output would write into the file.
TEST_F(Hw3Files, OutputsTakeNoClosedStandardDescriptor) {
  const int saved = dup(STDOUT_FILENO);
  ASSERT_GE(saved, 0);
  std::fflush(stdout);
  close(STDOUT_FILENO);
  bool closed_while_open = false;
  {
    apsp::OutputTransaction outputs;
    apsp::AtomicOutputFile& out = outputs.add(path("o.bin"));
    out.write("data", 4);
    closed_while_open = fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF;
    outputs.commit();
  }
  dup2(saved, STDOUT_FILENO);
  close(saved);
  EXPECT_TRUE(closed_while_open) << "the output took descriptor 1";
  std::ifstream in(path("o.bin"), std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "data");
}

TEST_F(Hw3Files, CompareThrowsOnAMissingFile) {
  write_ints("a.out", {0});
  EXPECT_THROW(apsp::compare_outputs(path("a.out"), path("missing.out")), apsp::Error);
}

}  // namespace

namespace {

std::uint64_t free_bytes_in(const std::string& dir) {
  struct statvfs fs;
  EXPECT_EQ(statvfs(dir.c_str(), &fs), 0);
  return std::uint64_t(fs.f_bavail) * fs.f_frsize;
}

// Outputs on one file system must fit together: two that fit alone (60% of the free space each)
// do not fit side by side.
TEST_F(Hw3Files, DiskSpaceOfOutputsOnOneFileSystemAddsUp) {
  const std::uint64_t each = free_bytes_in(dir_) / 10 * 6;
  EXPECT_NO_THROW(apsp::check_disk_space(path("a.out"), each));
  EXPECT_NO_THROW(apsp::check_disk_space({{path("a.out"), each}, {"/dev/null", each}}));
  apsp_test::expect_error_naming(
      [&] {
        apsp::check_disk_space({{path("a.out"), each}, {path("b.out"), each}});
      },
      {"not enough disk space for '" + path("a.out") + "' and '" + path("b.out") + "'",
       "they need"},
      "");
  apsp_test::expect_error_naming([&] { apsp::check_disk_space(path("a.out"), 2 * each); },
                                 {"not enough disk space for '" + path("a.out") + "': it needs"},
                                 "");
  // Text's size is known only once written: what is checked is its least, and said so.
  apsp_test::expect_error_naming(
      [&] {
        apsp::check_disk_space({{path("a.txt"), 2 * each, true}});
      },
      {"not enough disk space for '" + path("a.txt") + "': it needs at least "}, "");
  apsp_test::expect_error_naming(
      [&] {
        apsp::check_disk_space({{path("a.out"), each}, {path("b.txt"), each, true}});
      },
      {"they need at least "}, "");
}

TEST_F(Hw3Files, SameOutputFileMeansOneRegularFile) {
  EXPECT_TRUE(apsp::same_output_file(path("x"), path("x")));  // neither exists yet
  EXPECT_FALSE(apsp::same_output_file(path("x"), path("y")));
  write_bytes("x", "1");
  EXPECT_TRUE(apsp::same_output_file(path("x"), dir_ + "/./x"));
  ASSERT_EQ(link(path("x").c_str(), path("hard").c_str()), 0);
  EXPECT_TRUE(apsp::same_output_file(path("x"), path("hard")));
  EXPECT_FALSE(apsp::same_output_file("/dev/null", "/dev/null"));
}

}  // namespace
