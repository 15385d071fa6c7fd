// Tile shapes: the only thing that differs between backends.
//
// A shape fixes, at compile time, how one team of threads works on one Tile x Tile block of the
// distance matrix:
//   - Tile: the blocking factor of Floyd-Warshall (rounds = N / Tile).
//   - TeamRows x TeamCols threads per team.
//   - RegRows x RegCols distances per thread held in registers while a remaining tile is updated
//     (the register block); when TeamRows * RegRows < Tile the thread sweeps the tile in several
//     register blocks ("passes"), which is how one CPU thread covers a whole tile.
//   - KChunk: how many pivot columns/rows of the panels sit in scratch at once (Tile, or a
//     divisor of it when two Tile x Tile panels would not fit the scratch pad).
// Each backend has a table of shapes, best first; at run time the first one that the device
// allows (scratch size, team size) is taken, unless the user asks for a tile size.
#pragma once

#include <apsp/config.hpp>
#include <apsp/detail/execution_spaces.hpp>
#include <apsp/distance.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace apsp {
namespace detail {

// Four consecutive distances, aligned to their size so that one load moves all four (LDS.128
// on NVIDIA GPUs for 4-byte types, one SIMD lane group on CPUs).
template <class T>
struct alignas(4 * sizeof(T)) Vec4 {
  T v[4];
};

template <int TileV, int TeamRowsV, int TeamColsV, int RegRowsV, int RegColsV, int KChunkV>
struct TileShape {
  static constexpr int tile = TileV;
  static constexpr int team_rows = TeamRowsV;
  static constexpr int team_cols = TeamColsV;
  static constexpr int team_size = TeamRowsV * TeamColsV;
  static constexpr int reg_rows = RegRowsV;
  static constexpr int reg_cols = RegColsV;
  static constexpr int k_chunk = KChunkV;
  static constexpr int passes_rows = TileV / (TeamRowsV * RegRowsV);
  static constexpr int passes_cols = TileV / (TeamColsV * RegColsV);

  static_assert(RegRowsV % 4 == 0 && RegColsV % 4 == 0, "register blocks are made of Vec4");
  static_assert(TileV % (TeamRowsV * RegRowsV) == 0, "register blocks must tile the rows");
  static_assert(TileV % (TeamColsV * RegColsV) == 0, "register blocks must tile the columns");
  static_assert(TileV % KChunkV == 0 && KChunkV % 4 == 0, "k chunks must tile the pivot block");
  static_assert(KChunkV == TileV || (passes_rows == 1 && passes_cols == 1),
                "a chunked k loop keeps the whole register block live: one pass only");

  static std::string name() {
    return std::to_string(TileV) + "x" + std::to_string(TileV) + " tile, " +
           std::to_string(TeamRowsV) + "x" + std::to_string(TeamColsV) + " threads, " +
           std::to_string(RegRowsV) + "x" + std::to_string(RegColsV) + " registers, k chunk " +
           std::to_string(KChunkV);
  }
};

template <class... Shapes>
struct ShapeList {
  static constexpr int size = sizeof...(Shapes);
};

// The shapes of a backend's table that this build compiles for distances of type T: all of
// them, except in a checking build configured with APSP_CHECK_INSTANTIATIONS=minimal
// (CMakeLists.txt), which compiles the first (the default) for int32 and none for the other
// types (distance_type_compiled, distance.hpp). Full builds compile every shape.
template <class T, class Table>
struct Compiled {
  using type = Table;
};
#if defined(APSP_MINIMAL_INSTANTIATIONS)
template <class T, class First, class... Rest>
struct Compiled<T, ShapeList<First, Rest...>> {
  using type = std::conditional_t<distance_type_compiled<T>, ShapeList<First>, ShapeList<>>;
};
#endif
template <class T, class Table>
using CompiledShapes = typename Compiled<T, Table>::type;

// The host's vector registers, from the ISA this header is compiled for: the compiler's
// predefined macros follow the -march that Kokkos' arch option gives every user of
// Kokkos::kokkos, so a CPU kernel is shaped for the ISA Kokkos was built for, never for the
// machine that wrote the table. Unknown ISAs get 16 registers of 16 bytes (SSE2), which
// fits everything else.
struct HostVectorRegisters {
#if defined(__AVX512F__)
  static constexpr int bytes = 64, count = 32;
  static constexpr const char* isa = "avx512";
#elif defined(__AVX__)
  static constexpr int bytes = 32, count = 16;
  static constexpr const char* isa = "avx2";
#elif defined(__aarch64__) || defined(__ARM_NEON)
  // NEON: 32 registers of 16 bytes (SVE code of unknown vector length compiles these fixed-size
  // loops to NEON too).
  static constexpr int bytes = 16, count = 32;
  static constexpr const char* isa = "neon";
#else
  static constexpr int bytes = 16, count = 16;
  static constexpr const char* isa = "generic";
#endif
  // Columns of a CPU register block of T: as many whole vectors as leave, with 4 rows of
  // accumulators, room for the pivot row's vectors and one broadcast (4 x 4 + 4 + 1 = 21 of
  // 32 registers; 4 x 2 + 2 + 1 = 11 of 16). A block that needs more registers than the ISA
  // has spills every accumulator to the stack in the k loop (docs/PERFORMANCE.md).
  template <class T>
  static constexpr int block_cols = (count >= 32 ? 4 : 2) * bytes / int(sizeof(T));
};

// The per-backend table. GPUs: 64x64 tiles (the fastest on NVIDIA GPUs), 8x8 registers per
// thread so that every k step needs only four 16-byte scratch loads for 64 updates; 16x16
// threads with 4x4 registers (the classic design of hand-written CUDA); 32x32 (the best of
// hand-written HIP versions on AMD MI100/MI210).
// docs/PERFORMANCE.md has the measurements behind the order.
// CPUs: one thread per team and a register block of 4 rows x HostVectorRegisters::block_cols
// (4 x 64 with AVX-512, 4 x 16 with AVX2, 4 x 16 with NEON, 4 x 8 with SSE2). The last,
// tiny shape runs the GPU code path (closures in registers, one register block per tile) on
// one CPU thread: slow, there so that the host tests cover that path too.
// scratch_level: GPUs use level 0 (on-chip shared memory); CPUs level 1, which is the same
// cache-resident memory without level 0's 32 KB cap on host backends.
// bounded_launches: compile each kernel for the team size it runs with (Kokkos::LaunchBounds)
// instead of the backend's default bound.
// T is the distance type (distance.hpp): the table's shapes hold T in registers and scratch.
// `full` is the table, `type` what this build compiles of it (CompiledShapes above).
template <class ExecSpace, class T = int, class Enable = void>
struct ShapeTable {
  static constexpr int scratch_level = 0;
  static constexpr bool bounded_launches = false;
  using full = ShapeList<TileShape<64, 8, 8, 8, 8, 64>, TileShape<64, 16, 16, 4, 4, 64>,
                         TileShape<32, 8, 8, 4, 4, 32>>;
  using type = CompiledShapes<T, full>;
};

template <class ExecSpace, class T>
struct ShapeTable<
    ExecSpace, T,
    std::enable_if_t<Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible>> {
  static constexpr int scratch_level = 1;
  static constexpr bool bounded_launches = false;
  static constexpr int cols = HostVectorRegisters::block_cols<T>;
  using full =
      ShapeList<TileShape<64, 1, 1, 4, cols, 64>, TileShape<128, 1, 1, 4, cols, 128>,
                TileShape<32, 1, 1, 4, (cols < 32 ? cols : 32), 32>, TileShape<4, 1, 1, 4, 4, 4>>;
  using type = CompiledShapes<T, full>;
};

#if defined(KOKKOS_ENABLE_HIP)
// AMD GPUs: wavefronts of 64 and a 64 KB LDS; no AMD GPU has run this code, so the order is
// that of hand-written HIP versions of the design on MI100/MI210: 32x32 tiles best, 64x64 next.
// The 8x8-register shape comes last. Under Kokkos' default launch bound (1024 threads per team)
// the compiler caps a thread at 128 VGPRs, and that kernel spills there (70 VGPRs on gfx90a, 85
// on gfx942); bounded launches (64 threads for it) lift the cap. Compile-time evidence only,
// see docs/PORTABILITY.md.
template <class T>
struct ShapeTable<HipExecutionSpace, T, void> {
  static constexpr int scratch_level = 0;
  static constexpr bool bounded_launches = true;
  using full = ShapeList<TileShape<32, 8, 8, 4, 4, 32>, TileShape<64, 16, 16, 4, 4, 64>,
                         TileShape<64, 8, 8, 8, 8, 64>>;
  using type = CompiledShapes<T, full>;
};
#endif

}  // namespace detail
}  // namespace apsp
