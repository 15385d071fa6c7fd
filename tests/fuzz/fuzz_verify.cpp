// apsp::verify on an arbitrary input and output, checked against the plain reference:
// with every row sampled it passes exactly when the output is the true answer, and with the
// default sampling it never rejects the true answer. Outputs that start like an .npy file are
// only run (no crash, no leak).
//
// A fuzz input is IN followed by OUT: IN is as long as its header says (8 + 12 E bytes, or
// all there is), OUT is the rest.
#include "io/compare.hpp"
#include "memory_file.hpp"
#include "reference.hpp"

#include <apsp/error.hpp>

#include "io/hw3_io.hpp"
#include "io/outputs.hpp"
#include "verify/verify_output.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static apsp_fuzz::MemoryFile in_file, out_file;
  const apsp_fuzz::NoDescriptorLeak no_descriptor_leak;
  std::size_t in_size = size;
  if (size >= 8) {
    std::int32_t edges;
    std::memcpy(&edges, data + 4, 4);
    in_size = std::min<std::uint64_t>(size, 8 + 12 * std::uint64_t(std::max(edges, 0)));
  }
  const std::string in = in_file.hold(data, in_size);
  const std::string out = out_file.hold(data + in_size, size - in_size);
  const std::uint8_t* out_data = data + in_size;
  const std::size_t out_size = size - in_size;
  // An output that starts like an .npy file is read after its header, if the header is good; one
  // that looks like text (apsp::is_text_matrix) is read as text. Neither is this oracle's.
  const bool npy_output = (out_size >= 6 && std::memcmp(out_data, "\x93NUMPY", 6) == 0) ||
                          apsp::is_text_matrix(std::string(reinterpret_cast<const char*>(out_data),
                                                           std::min<std::size_t>(out_size, 4096)));

  apsp::Graph graph;
  bool checkable = true;
  try {
    graph = apsp::read_hw3(in);
    checkable = out_size == apsp::hw3_output_bytes(graph.vertices);
  } catch (const apsp::Error&) {
    checkable = false;
  }
  std::vector<int> truth;
  if (checkable) truth = apsp_test::reference_floyd_warshall(graph);
  const bool true_answer =
      checkable && std::memcmp(truth.data(), out_data, truth.size() * sizeof(int)) == 0;

  for (const bool every_row : {true, false}) {
    apsp::VerifyOptions options;
    if (every_row) options.samples = graph.vertices;
    apsp::VerifyResult result;
    try {
      result = apsp::verify(in, out, options);
    } catch (const apsp::Error&) {
      if (npy_output) continue;     // an .npy header the fuzzer made: refusing it is fine
      if (checkable) std::abort();  // refused files that it should have checked
      continue;
    }
    if (npy_output) continue;      // its values follow a header: not this oracle's business
    if (!checkable) std::abort();  // checked files that it should have refused
    if (every_row && result.passed != true_answer) std::abort();
    if (true_answer && !result.passed) std::abort();
    if (!result.passed &&
        (result.row < 0 || result.row >= graph.vertices || result.column < 0 ||
         result.column >= graph.vertices || result.message.rfind("mismatch at (", 0) != 0))
      std::abort();
  }
  return 0;
}
