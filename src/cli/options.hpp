// The command line's checked parsing: every option, Kokkos' included, is validated before
// anything starts (MPI, Kokkos, reading the input), and a bad one is one apsp::Error.
#pragma once

#include <apsp/error.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace apsp {
namespace cli {

// An error of the command line itself: printed as "apsp: MESSAGE" (others "apsp: error: ...").
struct UsageError : Error {
  using Error::Error;
};

// A decimal integer in [lo, hi], nothing else around it.
long long parse_integer(const std::string& option, const std::string& text, long long lo,
                        long long hi);

// The items of a comma-separated list, empty ones included ("a,,b": a, "", b).
std::vector<std::string> split_list(const std::string& list);

// The vertices of --sources or --targets: a comma-separated list, or @FILE with one a line
// (blank lines skipped), in order, duplicates kept; each a decimal id from 0 (checked against V
// once the graph is read). Empty, unreadable or not numbers: one UsageError naming the option.
std::vector<std::int32_t> parse_vertex_list(const std::string& option, const std::string& value);

// A size in bytes: a positive integer with an optional K, M, G or T suffix (powers of 1024),
// refused when it does not fit in 64 bits rather than wrapped.
std::uint64_t parse_size(const std::string& option, const std::string& text);

// argv split into options (with their values) and positional arguments. Kokkos' own
// --kokkos-* arguments are left to check_kokkos_options and to Kokkos; any other unknown
// option is an error.
struct Arguments {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;
};
Arguments parse(int argc, char** argv, int first, const std::vector<std::string>& with_value,
                const std::vector<std::string>& flags);

// Whether argv asks for help anywhere (--help or -h): the usage, and nothing started.
bool asks_for_help(int argc, char** argv);

// Checks the thread and device settings that Kokkos would take, in both spellings of its
// versions (--kokkos-threads, --kokkos-num-threads, --kokkos-device-id, --kokkos-num-devices)
// and from the environment (KOKKOS_NUM_THREADS, OMP_NUM_THREADS, KOKKOS_DEVICE_ID): a number
// of threads in [1, the hardware's threads], a device that exists. Kokkos itself aborts, divides
// by zero or crashes on some of these.
void check_kokkos_options(int argc, char** argv);

}  // namespace cli
}  // namespace apsp
