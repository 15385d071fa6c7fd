// `apsp verify IN OUT [--samples k] [--seed s] [--format f] [--exact-limit n] [--backend b]`:
// exit code 0 when OUT passes every check, 1 at the first mismatch; a file that cannot be
// checked at all throws apsp::Error (exit 2).
#include <apsp/error.hpp>

#include "io/read_graph.hpp"
#include "options.hpp"
#include "platform/backends.hpp"
#include "verify/verify_certificate.hpp"
#include "verify/verify_output.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

namespace apsp {
namespace cli {

int verify(int argc, char** argv) {
  const Arguments args =
      parse(argc, argv, 2, {"--samples", "--seed", "--format", "--exact-limit", "--backend"}, {});
  VerifyOptions options;
  std::string backend;
  for (const auto& [name, value] : args.options) {
    if (name == "--samples")
      options.samples = std::int32_t(parse_integer(name, value, 0, INT32_MAX));
    if (name == "--seed") options.seed = std::uint64_t(parse_integer(name, value, 0, INT64_MAX));
    if (name == "--exact-limit")
      options.exact_limit = std::uint64_t(parse_integer(name, value, 0, INT64_MAX));
    if (name == "--backend") backend = value;
    if (name == "--format") {
      const auto format = format_named(value);
      if (!format)
        throw UsageError("--format expects auto, hw3, edges, mtx or dimacs, got '" + value + "'");
      options.format = *format;
    }
  }
  if (args.positional.size() != 2)
    throw UsageError("verify expects IN and OUT (see apsp --help), got " +
                     std::to_string(args.positional.size()) + " file names");
  with_backend(backend, [](auto) {});  // a name this build has, before any work
  options.certificate = backend_certificate(backend);
  const VerifyResult result = apsp::verify(args.positional[0], args.positional[1], options);
  std::printf("%s\n", result.message.c_str());
  return result.passed ? 0 : 1;
}

}  // namespace cli
}  // namespace apsp
