// The one exception type of apsp: a message a user can act on.
#pragma once

#include <stdexcept>
#include <string>

namespace apsp {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace apsp
