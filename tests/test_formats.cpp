// The text readers (edge list, Matrix Market, DIMACS): each must give the Graph that the
// equivalent HW3 file gives, edge for edge, and refuse every class of bad input with an
// apsp::Error naming the file, the line and the field. Also the choice of reader by extension
// and the text form of the output.
#include <apsp/error.hpp>
#include "expect_error.hpp"
#include "io/compare.hpp"
#include "io/output_formats.hpp"
#include "io/read_graph.hpp"
#include "temp_dir.hpp"

#include "io/hw3_io.hpp"
#include "io/outputs.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace {

using apsp::Edge;
using apsp::Format;
using apsp::Graph;

class FormatFiles : public apsp_test::TempDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream out(path(name), std::ios::binary);
    out << text;
    return path(name);
  }

  // The graph as an HW3 file, read back: what the text file must read as.
  Graph through_hw3(const Graph& graph) const {
    apsp::write_hw3_graph(path("equivalent.in"), graph);
    return apsp::read_hw3(path("equivalent.in"));
  }

  // read_graph(`name` holding `text`) must throw apsp::Error whose message contains every one
  // of `parts`.
  void expect_error(const std::string& name, const std::string& text,
                    const std::vector<std::string>& parts, bool allow_negative = false) const {
    const std::string file = write(name, text);
    apsp_test::expect_error_naming(
        [&] { apsp::read_graph(file, Format::automatic, allow_negative); }, parts,
        "\nfor:\n" + text);
  }
};

void expect_same_graph(const Graph& expected, const Graph& actual) {
  EXPECT_EQ(expected.vertices, actual.vertices);
  ASSERT_EQ(expected.edges.size(), actual.edges.size());
  for (std::size_t e = 0; e < expected.edges.size(); ++e) {
    EXPECT_EQ(expected.edges[e].src, actual.edges[e].src) << "edge " << e;
    EXPECT_EQ(expected.edges[e].dst, actual.edges[e].dst) << "edge " << e;
    EXPECT_EQ(expected.edges[e].weight, actual.edges[e].weight) << "edge " << e;
  }
}

Graph graph_of(std::int32_t vertices, std::vector<Edge> edges) {
  Graph graph;
  graph.vertices = vertices;
  graph.edges = std::move(edges);
  return graph;
}

// Duplicates (the lighter counts later), a self-loop, zero and maximal weights, and an
// isolated last vertex: everything a reader must pass through unchanged.
const Graph sample =
    graph_of(6, {{0, 1, 7}, {1, 2, 0}, {0, 1, 3}, {2, 2, 5}, {3, 0, 1000}, {4, 3, 12}});

// ---------------------------------------------------------------- edge list

TEST_F(FormatFiles, EdgeListWithCommentsBlankLinesAndHeaderReadsAsItsHw3Equivalent) {
  const std::string text =
      "# the sample graph\n"
      "# vertices 6\n"
      "\n"
      "0 1 7\n"
      "  1\t2  0   # a comment after an edge\n"
      "0 1 3\r\n"
      "#\n"
      "2 2 5\n"
      "   \n"
      "3 0 1000\n"
      "4 3 +12";  // no newline at the end
  const Graph graph = apsp::read_graph(write("g.txt", text));
  expect_same_graph(sample, graph);
  expect_same_graph(through_hw3(sample), graph);
}

TEST_F(FormatFiles, EdgeListVerticesAreOneMoreThanTheLargestIdWithoutAHeader) {
  EXPECT_EQ(apsp::read_graph(write("a.txt", "0 3 1\n2 1 1\n")).vertices, 4);
  EXPECT_EQ(apsp::read_graph(write("b.txt", "5 5 0\n")).vertices, 6);
  // The header adds isolated vertices, and makes a graph without edges possible.
  EXPECT_EQ(apsp::read_graph(write("c.txt", "# vertices 10\n0 3 1\n")).vertices, 10);
  const Graph empty = apsp::read_graph(write("d.txt", "#vertices 3\n"));
  EXPECT_EQ(empty.vertices, 3);
  EXPECT_TRUE(empty.edges.empty());
  // Only a comment whose first word is "vertices" is the header.
  EXPECT_EQ(apsp::read_graph(write("e.txt", "# 10 vertices\n0 1 1\n")).vertices, 2);
}

TEST_F(FormatFiles, EdgeListErrorsNameFileLineAndColumn) {
  const std::string f = path("g.txt");
  expect_error("g.txt", "0 1 5\n0 1\n", {f + ":2: expected 3 fields 'u v w', found 2"});
  expect_error("g.txt", "0 1 5 7\n", {f + ":1: expected 3 fields 'u v w', found 4"});
  expect_error("g.txt", "0 x 5\n", {f + ":1: column 2: vertex x is not an integer"});
  expect_error("g.txt", "\n\n0 1 2.5x\n", {f + ":3: column 3: weight 2.5x is not a number"});
  expect_error("g.txt", "0 1 -1\n", {f + ":1: column 3: weight -1 is negative"});
  expect_error("g.txt", "0 1 1e999\n", {f + ":1: column 3: weight 1e999 is too large"});
  expect_error("g.txt", "0 1 inf\n", {f + ":1: column 3: weight inf is not a number"});
  expect_error("g.txt", "0 1 nan\n", {f + ":1: column 3: weight nan is not a number"});
  expect_error("g.txt", "-1 1 1\n", {f + ":1: column 1: vertex -1 is negative"});
  expect_error("g.txt", "0 2147483647 1\n",
               {f + ":1: column 2: vertex 2147483647 is too large (at most 2147483646)"});
  expect_error("g.txt", "0 99999999999999999999 1\n",
               {f + ":1: column 2: vertex 99999999999999999999 is too large"});
  expect_error("g.txt", "# vertices 3\n0 3 1\n",
               {f + ":2: column 2: vertex 3 out of range [0, 3)"});
  expect_error("g.txt", "0 1 1\n# vertices 3\n",
               {f + ":2: the '# vertices N' header must come before the first edge"});
  expect_error("g.txt", "# vertices 3\n# vertices 4\n",
               {f + ":2: a second '# vertices' header (the first is on line 1)"});
  expect_error("g.txt", "# vertices 0\n",
               {f + ":1: '# vertices' header: V = 0 out of range [1, 2147483647]"});
  expect_error("g.txt", "# vertices many\n",
               {f + ":1: '# vertices' header: many is not an integer"});
  expect_error("g.txt", "# vertices 3 4\n", {f + ":1:", "found 2 words after 'vertices'"});
  expect_error("g.txt", "", {f + ": no edges and no '# vertices N' header"});
  expect_error("g.txt", "# only a comment\n\n", {f + ": no edges and no '# vertices N' header"});
  expect_error("g.txt", std::string("0 1 \x01\n"),
               {f + ":1: column 3: weight \\x01 is not a number"});
}

// ---------------------------------------------------------------- Matrix Market

TEST_F(FormatFiles, MatrixMarketGeneralReadsAsItsHw3Equivalent) {
  const std::string text =
      "%%MatrixMarket matrix coordinate integer general\n"
      "% the sample graph, 1-based\n"
      "%\n"
      "\n"
      "6 6 6\n"
      "1 2 7\n"
      "2 3 0\n"
      "1 2 3\n"
      "% a comment between entries\n"
      "3 3 5\n"
      "4 1 1000\n"
      "5 4 12\n";
  const Graph graph = apsp::read_graph(write("g.mtx", text));
  expect_same_graph(sample, graph);
  expect_same_graph(through_hw3(sample), graph);
}

TEST_F(FormatFiles, MatrixMarketSymmetricAddsBothDirectionsAndTheDiagonalOnce) {
  const std::string text =
      "%%MatrixMarket matrix coordinate integer symmetric\n"
      "3 3 3\n"
      "2 1 4\n"
      "3 3 0\n"
      "3 2 9\n";
  const Graph expected = graph_of(3, {{1, 0, 4}, {0, 1, 4}, {2, 2, 0}, {2, 1, 9}, {1, 2, 9}});
  const Graph graph = apsp::read_graph(write("g.mtx", text));
  expect_same_graph(expected, graph);
  expect_same_graph(through_hw3(expected), graph);
}

TEST_F(FormatFiles, MatrixMarketPatternWeighsEveryEdgeOne) {
  const std::string text =
      "%%MatrixMarket matrix coordinate pattern symmetric\n"
      "4 4 2\n"
      "2 1\n"
      "4 3\n";
  expect_same_graph(graph_of(4, {{1, 0, 1}, {0, 1, 1}, {3, 2, 1}, {2, 3, 1}}),
                    apsp::read_graph(write("g.mtx", text)));
}

TEST_F(FormatFiles, MatrixMarketRealWeightsThatAreIntegersAreAccepted) {
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\n"
      "3 3 5\n"
      "1 2 3.0\n"
      "2 3 2e1\n"
      "3 1 -0\n"
      "1 3 1000.000\n"
      "3 2 7\n";
  expect_same_graph(graph_of(3, {{0, 1, 3}, {1, 2, 20}, {2, 0, 0}, {0, 2, 1000}, {2, 1, 7}}),
                    apsp::read_graph(write("g.mtx", text)));
}

TEST_F(FormatFiles, MatrixMarketBannerWordsIgnoreCase) {
  const std::string text =
      "%%matrixmarket MATRIX Coordinate Integer GENERAL\r\n"
      "2 2 1\r\n"
      "1 2 5\r\n";
  expect_same_graph(graph_of(2, {{0, 1, 5}}), apsp::read_graph(write("g.mtx", text)));
}

TEST_F(FormatFiles, MatrixMarketErrorsNameFileLineAndColumn) {
  const std::string f = path("g.mtx");
  const std::string integer = "%%MatrixMarket matrix coordinate integer general\n";
  const std::string real = "%%MatrixMarket matrix coordinate real general\n";
  const std::string pattern = "%%MatrixMarket matrix coordinate pattern general\n";
  expect_error("g.mtx", "", {f + ": empty file"});
  expect_error("g.mtx", "3 3 1\n", {f + ":1: not a Matrix Market file"});
  expect_error("g.mtx", "%%MatrixMarket matrix coordinate real\n",
               {f + ":1: the banner has 4 fields, expected 5"});
  expect_error("g.mtx", "%%MatrixMarket vector coordinate real general\n",
               {f + ":1: column 2: object vector is not supported"});
  expect_error("g.mtx", "%%MatrixMarket matrix array real general\n",
               {f + ":1: column 3: format array is not supported, expected 'coordinate'"});
  expect_error("g.mtx", "%%MatrixMarket matrix coordinate complex general\n",
               {f + ":1: column 4: field complex is not supported"});
  expect_error("g.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n",
               {f + ":1: column 5: symmetry skew-symmetric is not supported"});
  expect_error("g.mtx", integer + "% only comments\n", {f + ": no size line"});
  expect_error("g.mtx", integer + "3 3\n",
               {f + ":2: expected the size line 'rows columns entries', found 2 fields"});
  expect_error("g.mtx", integer + "%\n3 4 1\n1 1 1\n",
               {f + ":3: the matrix is 3 x 4: a graph needs a square matrix"});
  expect_error("g.mtx", integer + "0 0 0\n",
               {f + ":2: column 1: V = 0, the number of vertices must be at least 1"});
  expect_error("g.mtx", integer + "3000000000 3000000000 0\n",
               {f + ":2: column 1: V = 3000000000 is more vertices than apsp handles"});
  expect_error("g.mtx", integer + "3 3 -1\n", {f + ":2: column 3: E = -1"});
  expect_error("g.mtx", real + "3 3 2\n1 2 1\n2 3 1.5.5\n",
               {f + ":4: column 3: weight 1.5.5 is not a number"});
  expect_error("g.mtx", real + "3 3 1\n1 2 abc\n",
               {f + ":3: column 3: weight abc is not a number"});
  expect_error("g.mtx", real + "3 3 1\n1 2 1e999\n",
               {f + ":3: column 3: weight 1e999 is too large"});
  expect_error("g.mtx", real + "3 3 1\n1 2 -2.0\n", {f + ":3: column 3: weight -2.0 is negative"});
  expect_error("g.mtx", integer + "3 3 1\n1 2 1.0\n",
               {f + ":3: column 3: weight 1.0 is not an integer"});
  expect_error("g.mtx", integer + "3 3 1\n1 2 99999999999999999999\n",
               {f + ":3: column 3: weight 99999999999999999999 is too large"});
  expect_error("g.mtx", integer + "3 3 1\n4 1 1\n",
               {f + ":3: column 1: vertex 4 out of range [1, 3]"});
  expect_error("g.mtx", integer + "3 3 1\n1 0 1\n",
               {f + ":3: column 2: vertex 0 out of range [1, 3]"});
  expect_error("g.mtx", integer + "3 3 1\n1 2 1\n2 3 1\n",
               {f + ":4: more entries than the 1 of the size line (line 2)"});
  expect_error("g.mtx", integer + "3 3 2\n1 2 1\n",
               {f + ": the size line (line 2) announces 2 entries, the file has 1"});
  expect_error("g.mtx", integer + "3 3 1\n1 2\n",
               {f + ":3: expected 3 fields 'row column value', found 2"});
  expect_error("g.mtx", pattern + "3 3 1\n1 2 5\n",
               {f + ":3: expected 2 fields 'row column', found 3"});
}

// ---------------------------------------------------------------- DIMACS

TEST_F(FormatFiles, DimacsReadsAsItsHw3Equivalent) {
  const std::string text =
      "c the sample graph\n"
      "c\n"
      "p sp 6 6\n"
      "\n"
      "a 1 2 7\n"
      "a 2 3 0\n"
      "c a comment between arcs\n"
      "a 1 2 3\n"
      "a 3 3 5\n"
      "a 4 1 1000\n"
      "a\t5 4 12\n";
  const Graph graph = apsp::read_graph(write("g.gr", text));
  expect_same_graph(sample, graph);
  expect_same_graph(through_hw3(sample), graph);
  expect_same_graph(graph_of(1, {}), apsp::read_graph(write("one.gr", "p sp 1 0\n")));
}

TEST_F(FormatFiles, DimacsErrorsNameFileLineAndColumn) {
  const std::string f = path("g.gr");
  expect_error("g.gr", "", {f + ": no problem line 'p sp V E'"});
  expect_error("g.gr", "c\na 1 2 3\n", {f + ":2: an arc before the problem line"});
  expect_error("g.gr", "p sp 3 1\np sp 3 1\n",
               {f + ":2: a second problem line (the first is on line 1)"});
  expect_error("g.gr", "p max 3 1\n", {f + ":1: column 2: problem type max is not supported"});
  expect_error("g.gr", "p sp 3\n", {f + ":1: expected the problem line 'p sp V E', found 3"});
  expect_error("g.gr", "p sp 0 0\n", {f + ":1: column 3: V = 0"});
  expect_error("g.gr", "p sp 3 -2\n", {f + ":1: column 4: E = -2"});
  expect_error("g.gr", "p sp 3 1\na 1 4 1\n", {f + ":2: column 3: vertex 4 out of range [1, 3]"});
  expect_error("g.gr", "p sp 3 1\na 0 1 1\n", {f + ":2: column 2: vertex 0 out of range [1, 3]"});
  expect_error("g.gr", "p sp 3 1\na 1 2\n", {f + ":2: expected 4 fields 'a u v w', found 3"});
  expect_error("g.gr", "p sp 3 1\na 1 2 -5\n", {f + ":2: column 4: weight -5 is negative"});
  expect_error("g.gr", "p sp 3 1\na 1 2 1e999\n", {f + ":2: column 4: weight 1e999 is too large"});
  expect_error("g.gr", "p sp 3 1\na 1 2 one\n", {f + ":2: column 4: weight one is not a number"});
  expect_error("g.gr", "p sp 3 1\na 1 2 1\na 2 3 1\n",
               {f + ":3: more arcs than the E = 1 of the problem line (line 1)"});
  expect_error("g.gr", "p sp 3 2\na 1 2 1\n",
               {f + ": the problem line (line 1) announces E = 2 arcs, the file has 1"});
  expect_error("g.gr", "p sp 3 1\nx 1 2\n", {f + ":2: column 1: unknown line type x"});
}

// ---------------------------------------------------------------- negative weights

const std::string hint = " is negative (negative weights need --allow-negative)";

TEST_F(FormatFiles, NegativeWeightsAreRefusedByDefaultWithTheOptionThatAcceptsThem) {
  const std::string mtx = "%%MatrixMarket matrix coordinate integer general\n";
  const std::string real = "%%MatrixMarket matrix coordinate real general\n";
  expect_error("g.txt", "0 1 5\n\n1 2 -5\n", {path("g.txt") + ":3: column 3: weight -5" + hint});
  expect_error("g.mtx", mtx + "3 3 2\n1 2 5\n2 3 -1000\n",
               {path("g.mtx") + ":4: column 3: weight -1000" + hint});
  expect_error("r.mtx", real + "3 3 1\n1 2 -3.0\n",
               {path("r.mtx") + ":3: column 3: weight -3.0" + hint});
  expect_error("g.gr", "p sp 3 2\na 1 2 5\na 2 3 -1\n",
               {path("g.gr") + ":3: column 4: weight -1" + hint});
  // The readers called directly refuse them just as well.
  const std::string f = write("direct.txt", "0 1 -1\n");
  apsp_test::expect_error_naming([&] { apsp::read_edge_list(f); },
                                 {f + ":1: column 3: weight -1" + hint});
  const std::string m = write("direct.mtx", mtx + "2 2 1\n1 2 -1\n");
  apsp_test::expect_error_naming([&] { apsp::read_matrix_market(m); },
                                 {m + ":3: column 3: weight -1" + hint});
  const std::string d = write("direct.gr", "p sp 2 1\na 1 2 -1\n");
  apsp_test::expect_error_naming([&] { apsp::read_dimacs(d); },
                                 {d + ":2: column 4: weight -1" + hint});
  // Without the flag any finite weight >= 0 is read: the distance type follows from them.
  write("heavy.txt", "0 1 1001\n1 2 2.5\n");
  expect_same_graph(graph_of(3, {{0, 1, 1001}, {1, 2, 2.5}}), apsp::read_graph(path("heavy.txt")));
}

TEST_F(FormatFiles, NegativeWeightsAreReadExactlyWhenAllowed) {
  const Graph expected = graph_of(3, {{0, 1, -1000}, {1, 2, 1000}, {2, 0, -1}, {0, 2, 0}});
  apsp::write_hw3_graph(path("g.in"), expected);
  write("g.txt", "0 1 -1000\n1 2 1000\n2 0 -1\n0 2 -0\n");
  write("g.mtx",
        "%%MatrixMarket matrix coordinate integer general\n3 3 4\n"
        "1 2 -1000\n2 3 1000\n3 1 -1\n1 3 0\n");
  write("r.mtx",
        "%%MatrixMarket matrix coordinate real general\n3 3 4\n"
        "1 2 -1e3\n2 3 1000.0\n3 1 -1.0\n1 3 -0.0\n");
  write("g.gr", "p sp 3 4\na 1 2 -1000\na 2 3 1000\na 3 1 -1\na 1 3 0\n");
  for (const char* name : {"g.in", "g.txt", "g.mtx", "r.mtx", "g.gr"}) {
    SCOPED_TRACE(name);
    expect_same_graph(expected, apsp::read_graph(path(name), Format::automatic, true));
  }
  expect_same_graph(expected, apsp::read_edge_list(path("g.txt"), true));
  expect_same_graph(expected, apsp::read_matrix_market(path("r.mtx"), true));
  expect_same_graph(expected, apsp::read_dimacs(path("g.gr"), true));

  // Symmetric Matrix Market entries give both directions the same negative weight.
  write("s.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n2 2 1\n2 1 -7\n");
  expect_same_graph(graph_of(2, {{1, 0, -7}, {0, 1, -7}}),
                    apsp::read_graph(path("s.mtx"), Format::automatic, true));
}

TEST_F(FormatFiles, TextFormatsReadAnyFiniteWeightAndHw3KeepsItsRange) {
  const std::string mtx = "%%MatrixMarket matrix coordinate integer general\n";
  const std::string real = "%%MatrixMarket matrix coordinate real general\n";
  const Graph expected = graph_of(3, {{0, 1, -1001}, {1, 2, 2.5}, {2, 0, 1e6}});
  write("g.txt", "0 1 -1001\n1 2 2.5\n2 0 1e6\n");
  write("r.mtx", real + "3 3 3\n1 2 -1001.0\n2 3 25e-1\n3 1 1e+6\n");
  write("g.gr", "p sp 3 3\na 1 2 -1001\na 2 3 2.50\na 3 1 1000000.0\n");
  for (const char* name : {"g.txt", "r.mtx", "g.gr"}) {
    SCOPED_TRACE(name);
    expect_same_graph(expected, apsp::read_graph(path(name), Format::automatic, true));
  }
  // An integer field takes integers only.
  expect_error("g.mtx", mtx + "3 3 1\n1 2 2.5\n",
               {path("g.mtx") + ":3: column 3: weight 2.5 is not an integer"}, true);
  expect_error("r.mtx", real + "3 3 1\n1 2 -1e999\n",
               {path("r.mtx") + ":3: column 3: weight -1e999 is too large"}, true);
  // HW3 keeps its contract: integers in [-1000, 1000].
  const std::int32_t hw3[] = {3, 1, 0, 1, -1001};
  std::ofstream(path("g.in"), std::ios::binary)
      .write(reinterpret_cast<const char*>(hw3), sizeof hw3);
  apsp_test::expect_error_naming(
      [&] { apsp::read_graph(path("g.in"), Format::automatic, true); },
      {"input '" + path("g.in") + "': edge 0: weight -1001 out of range [-1000, 1000]"});
  EXPECT_THROW(apsp::write_hw3_graph(path("h.in"), expected), apsp::Error);
}

// ---------------------------------------------------------------- all readers

TEST_F(FormatFiles, FilesThatCannotBeReadAreRefusedByEveryReader) {
  ASSERT_EQ(mkdir(path("folder.mtx").c_str(), 0755), 0);
  for (const char* name : {"missing.txt", "missing.mtx", "missing.gr"}) {
    try {
      apsp::read_graph(path(name));
      ADD_FAILURE() << name;
    } catch (const apsp::Error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot open input '" + path(name) + "'"),
                std::string::npos)
          << e.what();
    }
  }
  for (const Format format : {Format::edge_list, Format::matrix_market, Format::dimacs}) {
    try {
      apsp::read_graph(path("folder.mtx"), format);
      ADD_FAILURE() << "a directory was read";
    } catch (const apsp::Error& e) {
      EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
    }
  }
  // A binary file read as text: refused at its first long line, not buffered whole.
  expect_error("binary.txt", std::string(3 << 20, 'x'),
               {path("binary.txt") + ":1: line longer than 1 MiB"});
}

TEST_F(FormatFiles, LargeFilesStreamAcrossBufferBoundaries) {
  // About 4 MB: many buffer refills, with lines cut at each.
  const std::int32_t v = 1000;
  Graph expected;
  expected.vertices = v;
  std::string text = "# vertices 1000\n";
  for (std::int32_t i = 0; i < 300000; ++i) {
    const Edge e{i % v, (i * 7 + 3) % v, i % 1001};
    expected.edges.push_back(e);
    text += std::to_string(e.src) + " " + std::to_string(e.dst) + " " + std::to_string(e.weight) +
            (i % 3 == 0 ? "   # padding to vary the line length\n" : "\n");
  }
  expect_same_graph(expected, apsp::read_graph(write("big.edges", text)));
}

TEST_F(FormatFiles, AutomaticFormatFollowsTheExtension) {
  EXPECT_EQ(apsp::format_of("graph.mtx"), Format::matrix_market);
  EXPECT_EQ(apsp::format_of("dir/graph.MTX"), Format::matrix_market);
  EXPECT_EQ(apsp::format_of("graph.gr"), Format::dimacs);
  EXPECT_EQ(apsp::format_of("graph.txt"), Format::edge_list);
  EXPECT_EQ(apsp::format_of("graph.el"), Format::edge_list);
  EXPECT_EQ(apsp::format_of("graph.edges"), Format::edge_list);
  EXPECT_EQ(apsp::format_of("graph.in"), Format::hw3);
  EXPECT_EQ(apsp::format_of("graph"), Format::hw3);
  EXPECT_EQ(apsp::format_of("my.mtx/graph"), Format::hw3);
  EXPECT_EQ(apsp::format_of("graph.mtx.gz"), Format::hw3);

  EXPECT_EQ(apsp::format_named("auto"), Format::automatic);
  EXPECT_EQ(apsp::format_named("hw3"), Format::hw3);
  EXPECT_EQ(apsp::format_named("edges"), Format::edge_list);
  EXPECT_EQ(apsp::format_named("mtx"), Format::matrix_market);
  EXPECT_EQ(apsp::format_named("dimacs"), Format::dimacs);
  EXPECT_FALSE(apsp::format_named("gr").has_value());

  // One graph in every format: read by extension, or by an explicit format whatever the name.
  const Graph graph = graph_of(3, {{0, 1, 4}, {2, 0, 9}});
  apsp::write_hw3_graph(path("g.in"), graph);
  write("g.edges", "0 1 4\n2 0 9\n");
  write("g.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n3 1 9\n");
  write("g.gr", "p sp 3 2\na 1 2 4\na 3 1 9\n");
  write("mtx-named.in", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n3 1 9\n");
  for (const char* name : {"g.in", "g.edges", "g.mtx", "g.gr"})
    expect_same_graph(graph, apsp::read_graph(path(name)));
  expect_same_graph(graph, apsp::read_graph(path("mtx-named.in"), Format::matrix_market));
  expect_same_graph(graph, apsp::read_graph(path("g.gr"), Format::dimacs));
  expect_same_graph(graph, apsp::read_graph(path("g.mtx"), Format::automatic));
  EXPECT_THROW(apsp::read_graph(path("g.in"), Format::edge_list), apsp::Error);
}

// ---------------------------------------------------------------- text output

TEST(TextOutput, RowsAreSpaceSeparatedWithInfinityAsInHw3) {
  const std::int32_t row[] = {0, 17, apsp::hw3_no_path, 1000000};
  std::string text = "kept ";
  apsp::append_text_row(text, row, 4);
  EXPECT_EQ(text, "kept 0 17 1073741823 1000000\n");
  text.clear();
  apsp::append_text_row(text, row, 1);
  EXPECT_EQ(text, "0\n");
}

TEST(TextOutput, IsRefusedBeyondTenThousandVertices) {
  EXPECT_EQ(apsp::output_bytes(apsp::OutputFormat::hw3, 50000), 50000ull * 50000 * 4);
  EXPECT_EQ(apsp::output_bytes(apsp::OutputFormat::text, 10000), 10000ull * 10000 * 11);
  // The least a text can take: a character and a separator a value (what the disk must hold).
  EXPECT_EQ(apsp::least_output_bytes(apsp::OutputFormat::text, 10000), 10000ull * 10000 * 2);
  EXPECT_EQ(apsp::least_output_bytes(apsp::OutputFormat::text, 3, apsp::DistanceType::float64),
            18u);
  EXPECT_EQ(apsp::least_output_bytes(apsp::OutputFormat::hw3, 50000), 50000ull * 50000 * 4);
  EXPECT_THROW(apsp::least_output_bytes(apsp::OutputFormat::text, 10001), apsp::Error);
  try {
    apsp::output_bytes(apsp::OutputFormat::text, 10001);
    ADD_FAILURE() << "text output for V = 10001";
  } catch (const apsp::Error& e) {
    EXPECT_NE(std::string(e.what()).find("text output is for V <= 10000, this graph has V = 10001"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace

TEST(NpyOutput, HeaderIsNumPysVersionOneAlignedTo64Bytes) {
  for (const std::int64_t v : {1, 9, 150, 40000, 1073741}) {
    const std::string header = apsp::npy_header(v);
    ASSERT_EQ(header.size() % 64, 0u) << v;
    EXPECT_EQ(header.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)), 0);
    EXPECT_EQ(std::size_t(static_cast<unsigned char>(header[8]) +
                          256 * static_cast<unsigned char>(header[9])),
              header.size() - 10);
    EXPECT_EQ(header.back(), '\n');
    const std::string shape = "'shape': (" + std::to_string(v) + ", " + std::to_string(v) + ")";
    EXPECT_NE(header.find(shape), std::string::npos) << header;
    EXPECT_NE(header.find("'descr': '<i4'"), std::string::npos) << header;
    const apsp::MatrixLayout layout = apsp::matrix_layout(header, "x.npy");
    EXPECT_EQ(layout.offset, header.size());
    EXPECT_EQ(layout.vertices, v);
    EXPECT_EQ(apsp::output_bytes(apsp::OutputFormat::npy, v),
              header.size() + std::uint64_t(v) * std::uint64_t(v) * 4);
  }
  EXPECT_EQ(apsp::matrix_layout(std::string(16, '\0'), "x.bin").offset, 0u);  // HW3
  EXPECT_EQ(apsp::output_format_of("d.npy"), apsp::OutputFormat::npy);
  EXPECT_EQ(apsp::output_format_of("d.bin"), apsp::OutputFormat::hw3);
  EXPECT_EQ(apsp::output_format_of(".npy"), apsp::OutputFormat::hw3);
}

TEST(NpyOutput, HeadersOfEveryTypeReadBack) {
  for (const auto type :
       {apsp::DistanceType::int32, apsp::DistanceType::float32, apsp::DistanceType::float64}) {
    const std::string header = apsp::npy_header(7, type);
    EXPECT_EQ(header.size() % 64, 0u);
    const apsp::MatrixLayout layout = apsp::matrix_layout(header, "m.npy");
    EXPECT_EQ(layout.type, type);
    EXPECT_EQ(layout.vertices, 7);
    EXPECT_EQ(layout.offset, header.size());
  }
}

TEST(TextOutput, FloatsReadBackExactlyAndInfinityIsInf) {
  const double d[] = {0, 0.1, 1e-300, 2.5e300, std::numeric_limits<double>::infinity()};
  std::string text;
  apsp::append_text_row(text, d, 5);
  EXPECT_EQ(text, "0 0.1 1e-300 2.5e+300 inf\n");
  const float f[] = {0.1f, 16777216.0f, std::numeric_limits<float>::infinity()};
  text.clear();
  apsp::append_text_row(text, f, 3);
  EXPECT_EQ(text, "0.1 16777216 inf\n");
  EXPECT_THROW(apsp::output_bytes(apsp::OutputFormat::hw3, 3, apsp::DistanceType::float32),
               apsp::Error);
  EXPECT_EQ(apsp::output_bytes(apsp::OutputFormat::npy, 3, apsp::DistanceType::float64),
            apsp::npy_header(3, apsp::DistanceType::float64).size() + 72);
}

TEST(NpyOutput, OtherArraysAreRefusedByName) {
  const auto with_dict = [](const std::string& dict) {
    std::string h = std::string("\x93NUMPY\x01\x00", 8);
    h += char(dict.size() & 0xff);
    h += char(dict.size() >> 8);
    return h + dict;
  };
  const std::pair<std::string, std::string> cases[] = {
      {"{'descr': '<f2', 'fortran_order': False, 'shape': (3, 3), }\n", "not of int32"},
      {"{'descr': '>i4', 'fortran_order': False, 'shape': (3, 3), }\n", "not of int32"},
      {"{'descr': '<i4', 'fortran_order': True, 'shape': (3, 3), }\n", "Fortran order"},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': (3, 4), }\n", "not a square"},
      {"{'descr': '<i4', 'fortran_order': False, 'shape': (9,), }\n", "not a square"},
      {"{'descr': '<i4', 'fortran_order': False, }\n", "without a shape"},
  };
  for (const auto& [text, message] : cases) {
    const std::string& dict = text;  // a lambda captures no structured binding before C++20
    apsp_test::expect_error_naming([&] { apsp::matrix_layout(with_dict(dict), "m.npy"); },
                                   {"'m.npy'", message}, dict);
  }
  apsp_test::expect_error_naming(
      [&] { apsp::matrix_layout(std::string("\x93NUMPY\x01\x00\x40\x00{'descr'", 17), "c.npy"); },
      {"cut"});
}
