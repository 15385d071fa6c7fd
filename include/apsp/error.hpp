// The errors of apsp: a message a user can act on, in the library's own words (no command-line
// flags, no Python names), and the facts behind it, so that each driver adds its own advice
// (the command line names its option, the Python module its keyword argument).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace apsp {

// What an error is about, and the facts a driver words its advice from. Plain data: it crosses
// ranks as bytes when they agree on an error (ranks.hpp).
struct ErrorFacts {
  enum class Kind : std::int32_t {
    plain,           // the message says it all
    memory,          // not enough memory for the run (MemoryError)
    negative_cycle,  // shortest paths undefined (NegativeCycleError)
    distance_type,   // the distance type cannot hold the graph (DistanceTypeError)
    unavailable,     // an algorithm or backend this build or device cannot run
    shape,           // a tile size or shape this device cannot run (ShapeError)
  };
  Kind kind = Kind::plain;
  std::int32_t suggested_type = -1;  // distance_type: a DistanceType that would do, -1 for none
  std::int64_t vertex = -1;          // negative_cycle: the smallest vertex on a negative cycle
  std::uint64_t needed = 0;          // memory: bytes needed (on one device, all its ranks)
  std::uint64_t usable = 0;          // memory: bytes that can be used there
  std::int32_t capped = 0;           // memory: a cap of the caller's, not the device, was short
  std::int32_t sharing = 1;          // memory: ranks sharing the device
  std::int32_t host = 0;             // memory: host memory (a CPU algorithm), not a device's
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, const ErrorFacts& facts = {})
      : std::runtime_error(message), facts_(facts) {}
  const ErrorFacts& facts() const { return facts_; }

 private:
  ErrorFacts facts_;
};

// Not enough memory: what was needed and what can be used (ErrorFacts::memory).
class MemoryError : public Error {
 public:
  MemoryError(const std::string& message, std::uint64_t needed, std::uint64_t usable, bool capped,
              int sharing = 1, bool host = false)
      : Error(message, facts(needed, usable, capped, sharing, host)) {}

 private:
  static ErrorFacts facts(std::uint64_t needed, std::uint64_t usable, bool capped, int sharing,
                          bool host) {
    ErrorFacts f;
    f.kind = ErrorFacts::Kind::memory;
    f.needed = needed;
    f.usable = usable;
    f.capped = capped;
    f.sharing = sharing;
    f.host = host;
    return f;
  }
};

// A negative cycle leaves shortest paths undefined.
class NegativeCycleError : public Error {
 public:
  explicit NegativeCycleError(std::int64_t vertex)
      : Error("negative cycle through vertex " + std::to_string(vertex) +
                  ": shortest paths are undefined",
              facts(vertex)) {}
  std::int64_t vertex() const { return Error::facts().vertex; }

 private:
  static ErrorFacts facts(std::int64_t vertex) {
    ErrorFacts f;
    f.kind = ErrorFacts::Kind::negative_cycle;
    f.vertex = vertex;
    return f;
  }
};

// The distance type cannot hold the graph's weights or paths; suggested: a type that can (as
// an int, DistanceType in distance.hpp), or -1.
class DistanceTypeError : public Error {
 public:
  DistanceTypeError(const std::string& message, int suggested) : Error(message, facts(suggested)) {}

 private:
  static ErrorFacts facts(int suggested) {
    ErrorFacts f;
    f.kind = ErrorFacts::Kind::distance_type;
    f.suggested_type = suggested;
    return f;
  }
};

// Something this build or device cannot run: an algorithm or backend (unavailable), a tile
// size or shape (shape).
class UnavailableError : public Error {
 public:
  explicit UnavailableError(const std::string& message,
                            ErrorFacts::Kind kind = ErrorFacts::Kind::unavailable)
      : Error(message, facts(kind)) {}

 private:
  static ErrorFacts facts(ErrorFacts::Kind kind) {
    ErrorFacts f;
    f.kind = kind;
    return f;
  }
};
class ShapeError : public UnavailableError {
 public:
  explicit ShapeError(const std::string& message)
      : UnavailableError(message, ErrorFacts::Kind::shape) {}
};

}  // namespace apsp
