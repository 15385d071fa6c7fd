// apsp::compare_outputs on two arbitrary files (the two halves of the fuzz input): it
// reports "identical" exactly when they hold the same bytes, V*V int32 for some V >= 1.
#include "memory_file.hpp"

#include <apsp/hw3_io.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static apsp_fuzz::MemoryFile a_file, b_file;
  const apsp_fuzz::NoDescriptorLeak no_descriptor_leak;
  const std::size_t half = size / 2;
  const std::string a = a_file.hold(data, half);
  const std::string b = b_file.hold(data + half, size - half);
  const apsp::Comparison result = apsp::compare_outputs(a, b);
  std::uint64_t v = 0;
  while (v * v * 4 < half)
    ++v;
  const bool same = size % 2 == 0 && std::memcmp(data, data + half, half) == 0;
  if (result.identical != (same && half > 0 && v * v * 4 == half)) std::abort();
  return 0;
}
