// The command line's one parser (src/cli/options.cpp), which every subcommand uses: options with
// and without values, both spellings of a value, Kokkos' own options left alone, and one clear
// error for each mistake.
#include "expect_error.hpp"

#include <cli/options.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

apsp::cli::Arguments parse(std::vector<std::string> words) {
  std::vector<char*> argv;
  for (std::string& w : words)
    argv.push_back(&w[0]);
  return apsp::cli::parse(int(argv.size()), argv.data(), 2, {"--samples", "--format"},
                          {"--progress"});
}

TEST(CommandLine, SplitsOptionsValuesAndFiles) {
  const auto args = parse({"apsp", "verify", "--samples", "3", "in", "--format=mtx", "--progress",
                           "--kokkos-threads=2", "out", "-"});
  EXPECT_EQ(args.positional, (std::vector<std::string>{"in", "out", "-"}));
  ASSERT_EQ(args.options.size(), 3u);
  EXPECT_EQ(args.options[0], std::make_pair(std::string("--samples"), std::string("3")));
  EXPECT_EQ(args.options[1], std::make_pair(std::string("--format"), std::string("mtx")));
  EXPECT_EQ(args.options[2], std::make_pair(std::string("--progress"), std::string()));
}

TEST(CommandLine, RefusesUnknownOptionsAndMissingValues) {
  apsp_test::expect_error_naming(
      [] {
        parse({"apsp", "verify", "--sample", "3"});
      },
      {"unknown option '--sample'"});
  apsp_test::expect_error_naming(
      [] {
        parse({"apsp", "verify", "in", "--samples"});
      },
      {"--samples needs a value"});
}

TEST(CommandLine, ParsesCheckedNumbersSizesAndLists) {
  EXPECT_EQ(apsp::cli::parse_integer("--tile", "64", 1, 1024), 64);
  for (const char* bad : {"", "0", "1025", "6x", " 6", "-1", "99999999999999999999"})
    apsp_test::expect_error_naming([&] { apsp::cli::parse_integer("--tile", bad, 1, 1024); },
                                   {"--tile expects an integer in [1, 1024]"}, bad);
  EXPECT_EQ(apsp::cli::parse_size("--max-memory", "3K"), 3u * 1024);
  EXPECT_EQ(apsp::cli::parse_size("--max-memory", "2G"), 2ull << 30);
  apsp_test::expect_error_naming([] { apsp::cli::parse_size("--max-memory", "16777216T"); },
                                 {"--max-memory expects a size"});
  EXPECT_EQ(apsp::cli::split_list("a,,b"), (std::vector<std::string>{"a", "", "b"}));
}

}  // namespace
