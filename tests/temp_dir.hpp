// A fresh directory per test (tests run in parallel), removed with what is in it.
#pragma once

#include <gtest/gtest.h>

#include <stdlib.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace apsp_test {

class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "apsp-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    if (!dir_.empty()) ASSERT_EQ(std::system(("rm -rf '" + dir_ + "'").c_str()), 0);
  }

  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  static std::string read_bytes(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  std::string dir_;
};

}  // namespace apsp_test
