// The blocked solver against the plain reference, exactly, on every backend and every tile
// shape the device allows.
#include "backends.hpp"
#include "reference.hpp"

#include <apsp/floyd_warshall.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

template <class ExecSpace>
std::vector<int> solve(const apsp::Graph& g, int tile) {
  ExecSpace exec;
  apsp::Options options;
  options.tile = tile;
  const auto shape = apsp::choose_shape(exec, options);
  const std::int64_t n = apsp::padded_size(g.vertices, shape);
  apsp::DistanceMatrix<ExecSpace> dist("dist", n, n);
  apsp::fill_distance_matrix(exec, dist, g.edges);
  apsp::floyd_warshall(exec, dist, options);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist);
  std::vector<int> out(std::size_t(g.vertices) * g.vertices);
  for (int i = 0; i < g.vertices; ++i)
    for (int j = 0; j < g.vertices; ++j) out[std::size_t(i) * g.vertices + j] = host(i, j);
  return out;
}

template <class ExecSpace>
class FloydWarshall : public ::testing::Test {};
TYPED_TEST_SUITE(FloydWarshall, apsp_test::Backends, apsp_test::BackendName);

TYPED_TEST(FloydWarshall, MatchesReferenceForEveryShapeAndPaddedSize) {
  const auto shapes = apsp::available_shapes(TypeParam());
  ASSERT_FALSE(shapes.empty());
  for (const auto& shape : shapes) {
    for (int v : {1, 2, 31, 63, 64, 65, 127, 200}) {
      const auto g = apsp_test::random_graph(v, 0.05, unsigned(v * 7 + shape.tile));
      EXPECT_EQ(solve<TypeParam>(g, shape.tile), apsp_test::reference_floyd_warshall(g))
          << "V = " << v << ", " << shape.name;
    }
  }
}

}  // namespace
