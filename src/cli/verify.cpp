// `apsp verify IN OUT [--samples k] [--seed s] [--format f]`: exit code 0 when OUT passes every
// check, 1 at the first mismatch; a file that cannot be checked at all throws apsp::Error (exit 2).
#include <apsp/error.hpp>
#include <apsp/formats.hpp>
#include <apsp/verify.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace apsp {
namespace cli {
namespace {

long long parse_integer(const std::string& option, const std::string& text, long long hi) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < 0 || value > hi)
    throw Error(option + " expects an integer in [0, " + std::to_string(hi) + "], got '" + text +
                "'");
  return value;
}

}  // namespace

int verify(int argc, char** argv) {
  std::vector<std::string> files;
  VerifyOptions options;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i], value;
    const bool is_option = arg.size() > 2 && arg.compare(0, 2, "--") == 0;
    if (!is_option) {
      files.push_back(arg);
      continue;
    }
    const auto eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    }
    if (arg != "--samples" && arg != "--seed" && arg != "--format")
      throw Error("verify: unknown option '" + arg + "' (see apsp --help)");
    if (eq == std::string::npos) {
      if (i + 1 >= argc) throw Error(arg + " needs a value");
      value = argv[++i];
    }
    if (arg == "--samples") {
      options.samples = std::int32_t(parse_integer(arg, value, INT32_MAX));
    } else if (arg == "--seed") {
      options.seed = std::uint64_t(parse_integer(arg, value, INT64_MAX));
    } else {
      const auto format = format_named(value);
      if (!format)
        throw Error("--format expects auto, hw3, edges, mtx or dimacs, got '" + value + "'");
      options.format = *format;
    }
  }
  if (files.size() != 2)
    throw Error("verify expects IN and OUT (see apsp --help), got " + std::to_string(files.size()) +
                " file names");
  const VerifyResult result = verify_hw3(files[0], files[1], options);
  std::printf("%s\n", result.message.c_str());
  return result.passed ? 0 : 1;
}

}  // namespace cli
}  // namespace apsp
