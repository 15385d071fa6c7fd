// apsp::read_matrix_market on arbitrary bytes (Matrix Market): it throws apsp::Error naming the
// file, or returns a graph that keeps every promise of the format and reads back the same
// (text_reader_oracle.hpp). Anything else is a finding.
#include "text_reader_oracle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return apsp_fuzz::fuzz_text_reader(data, size, apsp::Format::matrix_market);
}
