// The tuning cache (src/plan/tuning.hpp, src/plan/tuning_cache.cpp): stores that run at once keep
// each other's entries, and an entry never speaks for sizes far from the one it was measured at.
#include "temp_dir.hpp"

#include "plan/tuning.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

using TuningCache = apsp_test::TempDirTest;

apsp::TunedShape entry(const std::string& dtype, std::int64_t measured) {
  apsp::TunedShape e;
  e.key = {"openmp", "test cpu", "avx2", 2, dtype, "0123456789abcdef"};
  e.measured_vertices = measured;
  const apsp::VertexRange near = apsp::tuned_range(measured);
  e.min_vertices = near.min;
  e.max_vertices = near.max;
  e.shape = {64, 1, 1, 4, 8, 64};
  e.rate = e.default_rate = 1e9;
  return e;
}

TEST(TunedRange, EntriesHoldWithinAFactorOfTwo) {
  EXPECT_EQ(apsp::tuned_range(512).min, 256);
  EXPECT_EQ(apsp::tuned_range(512).max, 1024);
  EXPECT_EQ(apsp::tuned_range(1).min, 1);
  EXPECT_EQ(apsp::tuned_range(INT64_MAX).max, INT64_MAX);
  // What `apsp tune --sizes 4` once wrote: a range from 1 to INT64_MAX.
  apsp::TunedShape far = entry("int32", 4);
  far.min_vertices = 1;
  far.max_vertices = INT64_MAX;
  std::string warning;
  EXPECT_NE(apsp::find_tuned_shape({far}, far.key, 8, warning), nullptr);
  EXPECT_EQ(apsp::find_tuned_shape({far}, far.key, 9, warning), nullptr);
  EXPECT_EQ(apsp::find_tuned_shape({far}, far.key, 1500, warning), nullptr);
  EXPECT_EQ(warning, "");
}

// Processes, as concurrent `apsp tune` runs are: each stores its own type's entry again and
// again; every type's entry must be in the cache at the end (without the lock, some were lost
// in 17 of 100 tries of three tunes at once).
TEST_F(TuningCache, ConcurrentStoresKeepEveryEntry) {
  const std::string cache = path("apsp/tuning.json");
  const std::vector<std::string> types = {"int32", "float32", "float64", "other"};
  for (int round = 0; round < 2; ++round) {
    std::vector<pid_t> children;
    for (std::size_t t = 0; t < types.size(); ++t) {
      const pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        int status = 0;
        try {
          for (int k = 0; k < 10; ++k)
            apsp::store_tuning(cache, {entry(types[t], 512 + k)});
        } catch (...) {
          status = 1;
        }
        _exit(status);
      }
      children.push_back(pid);
    }
    for (const pid_t pid : children) {
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    std::string warning;
    const std::vector<apsp::TunedShape> read = apsp::read_tuning_cache(cache, warning);
    EXPECT_EQ(warning, "");
    ASSERT_EQ(read.size(), types.size()) << "round " << round;
    for (const std::string& type : types) {
      int found = 0;
      for (const apsp::TunedShape& e : read)
        found += e.key.dtype == type && e.measured_vertices == 512 + 9;
      EXPECT_EQ(found, 1) << type;
    }
  }
}

// A FIFO at the cache's name is a warning, never a read that waits for a writer (every run and
// module call once hung there); so is a file larger than any cache.
TEST_F(TuningCache, OnlyABoundedRegularFileIsRead) {
  const std::string cache = path("tuning.json");
  ASSERT_EQ(mkfifo(cache.c_str(), 0600), 0);
  std::string warning;
  EXPECT_TRUE(apsp::read_tuning_cache(cache, warning).empty());
  EXPECT_NE(warning.find("not a regular file"), std::string::npos) << warning;
  ASSERT_EQ(unlink(cache.c_str()), 0);
  apsp::store_tuning(cache, {entry("int32", 512)});
  warning.clear();
  EXPECT_EQ(apsp::read_tuning_cache(cache, warning).size(), 1u);
  EXPECT_EQ(warning, "");
  std::ofstream(cache, std::ios::app) << std::string(apsp::max_tuning_cache_bytes, ' ');
  EXPECT_TRUE(apsp::read_tuning_cache(cache, warning).empty());
  EXPECT_NE(warning.find("MiB"), std::string::npos) << warning;
  apsp::store_tuning(cache, {entry("int32", 512)});  // a tune replaces it
  warning.clear();
  EXPECT_EQ(apsp::read_tuning_cache(cache, warning).size(), 1u);
}

TEST(TuningSwitch, UsualSpellingsInAnyCase) {
  const char* saved = std::getenv("APSP_TUNING");
  const std::string before = saved ? saved : "";
  std::string warning;
  for (const char* off : {"off", "OFF", "Off", "0", "no", "False", "disabled", "DISABLE"}) {
    setenv("APSP_TUNING", off, 1);
    EXPECT_FALSE(apsp::tuning_enabled(&warning)) << off;
    EXPECT_EQ(warning, "") << off;
  }
  for (const char* on : {"on", "ON", "1", "yes", "True", "enabled"}) {
    setenv("APSP_TUNING", on, 1);
    EXPECT_TRUE(apsp::tuning_enabled(&warning)) << on;
    EXPECT_EQ(warning, "") << on;
  }
  setenv("APSP_TUNING", "maybe", 1);
  EXPECT_FALSE(apsp::tuning_enabled(&warning));
  EXPECT_NE(warning.find("APSP_TUNING='maybe'"), std::string::npos) << warning;
  if (saved)
    setenv("APSP_TUNING", before.c_str(), 1);
  else
    unsetenv("APSP_TUNING");
}

}  // namespace
