// Apsp::core alone puts the generated version.hpp on the include path, in the build tree as in an
// install: a program linked to nothing else prints the version (tests/CMakeLists.txt,
// layers.core_version).
#include <apsp/version.hpp>

#include <cstdio>

int main() {
  std::printf("apsp %s\n", APSP_VERSION);
  return 0;
}
