// The check behind every bad-input test: a call must throw apsp::Error naming each given part.
#pragma once

#include <apsp/error.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace apsp_test {

template <class Call>
void expect_error_naming(Call&& call, const std::vector<std::string>& parts,
                         const std::string& context = "") {
  try {
    call();
    ADD_FAILURE() << "no apsp::Error" << context;
  } catch (const apsp::Error& e) {
    const std::string message = e.what();
    for (const auto& part : parts)
      EXPECT_NE(message.find(part), std::string::npos)
          << "message \"" << message << "\" does not name \"" << part << "\"" << context;
  }
}

}  // namespace apsp_test
