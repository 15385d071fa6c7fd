#include "options.hpp"

#include "platform/backends.hpp"

#include <Kokkos_Core.hpp>

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

namespace apsp {
namespace cli {
namespace {

bool starts_with(const std::string& text, const char* prefix) {
  return text.compare(0, std::strlen(prefix), prefix) == 0;
}

long long hardware_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? n : 1;
}

void check_threads(const std::string& what, const std::string& value) {
  parse_integer(what, value, 1, hardware_threads());
}

void check_device(const std::string& what, const std::string& value) {
  const int gpus = apsp::gpu_count();
  if (gpus == 0) throw UsageError(what + " = " + value + ", but no GPU is visible");
  // A host-only build has no devices to choose: Kokkos ignores the number, which must still be
  // one.
  parse_integer(what, value, 0, gpus > 0 ? gpus - 1 : INT32_MAX);
}

}  // namespace

long long parse_integer(const std::string& option, const std::string& text, long long lo,
                        long long hi) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  const bool digits_only =
      !text.empty() &&
      text.find_first_not_of("0123456789", text[0] == '-' ? 1 : 0) == std::string::npos;
  if (!digits_only || *end != '\0' || errno == ERANGE || value < lo || value > hi)
    throw UsageError(option + " expects an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + text + "'");
  return value;
}

std::vector<std::int32_t> parse_vertex_list(const std::string& option, const std::string& value) {
  if (value.empty()) throw UsageError(option + " is empty: name at least one vertex");
  std::vector<std::string> items;
  const bool listed_in_file = value[0] == '@';
  if (listed_in_file) {
    const std::string file = value.substr(1);
    std::ifstream in(file);
    if (!in) throw UsageError(option + ": cannot read '" + file + "': " + std::strerror(errno));
    std::string line;
    while (std::getline(in, line)) {
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.pop_back();
      if (!line.empty()) items.push_back(line);
    }
    if (in.bad()) throw UsageError(option + ": cannot read '" + file + "'");
    if (items.empty()) throw UsageError(option + ": '" + file + "' lists no vertex");
  } else {
    items = split_list(value);
  }
  std::vector<std::int32_t> vertices;
  vertices.reserve(items.size());
  for (const std::string& item : items) {
    const bool digits = !item.empty() && item.size() <= 10 &&
                        item.find_first_not_of("0123456789") == std::string::npos;
    const long long id = digits ? std::stoll(item) : -1;
    if (id >= 0 && id <= INT32_MAX - 1) {
      vertices.push_back(std::int32_t(id));
      continue;
    }
    std::string message =
        option + ": '" + item + "' is not a vertex (an id from 0, as apsp " + "path numbers them)";
    // A file of ids is named @FILE: a bare name is read as an id.
    struct stat st;
    if (!listed_in_file && !digits && items.size() == 1 && ::stat(item.c_str(), &st) == 0)
      message +=
          "; to read the vertices from the file '" + item + "', write " + option + " @" + item;
    else if (!listed_in_file && !digits)
      message += "; a file of ids, one a line, is given as @FILE";
    throw UsageError(message);
  }
  return vertices;
}

std::uint64_t parse_size(const std::string& option, const std::string& text) {
  std::string digits = text;
  int shift = 0;
  if (!digits.empty()) {
    const char suffix = char(std::toupper(static_cast<unsigned char>(digits.back())));
    const std::string units = "KMGT";
    const auto u = units.find(suffix);
    if (u != std::string::npos) {
      shift = 10 * int(u + 1);
      digits.pop_back();
    }
  }
  const auto refuse = [&] {
    return UsageError(option + " expects a size in bytes from 1 to 2^64 - 1, with an optional K, " +
                      "M, G or T suffix, got '" + text + "'");
  };
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) throw refuse();
  errno = 0;
  const unsigned long long value = std::strtoull(digits.c_str(), nullptr, 10);
  if (errno == ERANGE || value == 0 || value > (UINT64_MAX >> shift)) throw refuse();
  return std::uint64_t(value) << shift;
}

Arguments parse(int argc, char** argv, int first, const std::vector<std::string>& with_value,
                const std::vector<std::string>& flags) {
  Arguments args;
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (starts_with(a, "--kokkos-")) continue;
    if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::string value;
      const auto eq = a.find('=');
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
        a = a.substr(0, eq);
      }
      bool takes_value = false, known = false;
      for (const auto& o : with_value)
        takes_value = takes_value || o == a;
      for (const auto& f : flags)
        known = known || f == a;
      if (takes_value) {
        if (eq == std::string::npos) {
          if (i + 1 >= argc) throw UsageError(a + " needs a value");
          value = argv[++i];
        }
        // Every option takes one value: a second one would silently win.
        for (const auto& [seen, first] : args.options)
          if (seen == a)
            throw UsageError(a + " is given twice ('" + first + "' and '" + value +
                             "'): give it once");
      } else if (!known) {
        throw UsageError("unknown option '" + a + "' (see apsp --help)");
      }
      args.options.emplace_back(a, value);
    } else {
      args.positional.push_back(a);
    }
  }
  return args;
}

bool asks_for_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  return false;
}

void check_kokkos_options(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (!starts_with(a, "--kokkos-")) continue;
    const auto eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : a.substr(eq + 1);
    const bool threads = name == "--kokkos-threads" || name == "--kokkos-num-threads";
    const bool device = name == "--kokkos-device-id";
    const bool devices = name == "--kokkos-num-devices";
    if ((threads || device || devices) && eq == std::string::npos)
      throw UsageError(name + " needs a value: " + name + "=N");
    if (threads) check_threads(name, value);
    if (device) check_device(name, value);
    if (devices) parse_integer(name, value, 1, INT32_MAX);
  }
  if (const char* value = std::getenv("KOKKOS_NUM_THREADS"))
    check_threads("the environment's KOKKOS_NUM_THREADS", value);
  // OMP_NUM_THREADS may list the threads of nested levels: each must be a number of threads.
  if (const char* value = std::getenv("OMP_NUM_THREADS")) {
    for (const std::string& threads : split_list(value))
      check_threads("the environment's OMP_NUM_THREADS", threads);
  }
  if (const char* value = std::getenv("KOKKOS_DEVICE_ID"))
    check_device("the environment's KOKKOS_DEVICE_ID", value);
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> items;
  for (std::size_t from = 0;;) {
    const std::size_t comma = list.find(',', from);
    items.push_back(list.substr(from, comma == std::string::npos ? comma : comma - from));
    if (comma == std::string::npos) return items;
    from = comma + 1;
  }
}

}  // namespace cli
}  // namespace apsp
