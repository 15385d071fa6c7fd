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
    argument,        // a value the caller gave that the call cannot take (ArgumentError)
  };
  Kind kind = Kind::plain;
  std::int32_t suggested_type = -1;  // distance_type: a DistanceType that would do, -1 for none
  std::int64_t vertex = -1;          // negative_cycle: the smallest vertex on a negative cycle
  std::int32_t rounding = 0;         // negative_cycle: 1 made by the type's rounding, 2 hidden
  std::int64_t graph = -1;           // negative_cycle: the graph of a batch (batched.hpp), or -1
  std::uint64_t needed = 0;          // memory: bytes needed (on one device, all its ranks)
  std::uint64_t usable = 0;          // memory: bytes that can be used there
  std::int32_t capped = 0;           // memory: a cap of the caller's, not the device, was short
  std::int32_t sharing = 1;          // memory: ranks sharing the device
  std::int32_t host = 0;             // memory: host memory (a CPU algorithm), not a device's
  // memory: the fewest ranks, each with `usable` bytes (a device of its own), that would hold the
  // solve; 0 where the solver did not say or no rank count would.
  std::int32_t fitting_ranks = 0;
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
              int sharing = 1, bool host = false, int fitting_ranks = 0)
      : Error(message, make_facts(needed, usable, capped, sharing, host, fitting_ranks)) {}

 private:
  static ErrorFacts make_facts(std::uint64_t needed, std::uint64_t usable, bool capped, int sharing,
                               bool host, int fitting_ranks) {
    ErrorFacts f;
    f.fitting_ranks = fitting_ranks;
    f.kind = ErrorFacts::Kind::memory;
    f.needed = needed;
    f.usable = usable;
    f.capped = capped;
    f.sharing = sharing;
    f.host = host;
    return f;
  }
};

// A negative cycle leaves shortest paths undefined. `rounding` (negative_cycles.hpp): 0 the
// weights have it; 1 only the sums in `type` (float32) have it, its rounding made it; 2 the
// weights have one that the sums in `type` missed, its rounding hid it. `graph`: which graph of
// a batch (batched.hpp) has it, -1 for a graph alone.
class NegativeCycleError : public Error {
 public:
  enum Rounding : std::int32_t { none = 0, made = 1, hidden = 2 };
  explicit NegativeCycleError(std::int64_t vertex, Rounding rounding = none,
                              const std::string& type = "", std::int64_t graph = -1)
      : Error(describe(vertex, rounding, type, graph), make_facts(vertex, rounding, graph)) {}
  std::int64_t vertex() const { return facts().vertex; }
  Rounding rounding() const { return Rounding(facts().rounding); }

 private:
  static std::string describe(std::int64_t vertex, Rounding rounding, const std::string& type,
                              std::int64_t graph) {
    const std::string through = "negative cycle" +
                                (graph >= 0 ? " in graph " + std::to_string(graph) : "") +
                                " through vertex " + std::to_string(vertex);
    if (rounding == made)
      return through + " in " + type + " sums only: the weights in float64 have none there, " +
             type + " rounding made it";
    if (rounding == hidden)
      return through + " in the float64 weights, which " + type +
             " rounding hid: shortest paths are undefined";
    return through + ": shortest paths are undefined";
  }
  static ErrorFacts make_facts(std::int64_t vertex, Rounding rounding, std::int64_t graph) {
    ErrorFacts f;
    f.kind = ErrorFacts::Kind::negative_cycle;
    f.vertex = vertex;
    f.rounding = rounding;
    f.graph = graph;
    return f;
  }
};

// The distance type cannot hold the graph's weights or paths; suggested: a type that can (as
// an int, DistanceType in distance.hpp), or -1.
class DistanceTypeError : public Error {
 public:
  DistanceTypeError(const std::string& message, int suggested)
      : Error(message, make_facts(suggested)) {}

 private:
  static ErrorFacts make_facts(int suggested) {
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
      : Error(message, make_facts(kind)) {}

 private:
  static ErrorFacts make_facts(ErrorFacts::Kind kind) {
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

// A value the caller gave that the call cannot take (new weights for a prepared graph that its
// plan cannot honour): Python's ValueError.
class ArgumentError : public Error {
 public:
  explicit ArgumentError(const std::string& message) : Error(message, make_facts()) {}

 private:
  static ErrorFacts make_facts() {
    ErrorFacts f;
    f.kind = ErrorFacts::Kind::argument;
    return f;
  }
};

}  // namespace apsp
