# Sourced by the device scripts that build this tree on a GPU node: the cuda-hopper Kokkos prefix
# carried in $carry/kokkos copied to $k, its KokkosConfig pointed at the node's CUDA runtime
# and driver stub (the prefix names those of the machine that built it).
k=/tmp/kokkos
rm -rf $k && cp -a "$carry/kokkos" $k
cudart= stub=
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -z "$cudart" ] && [ -e $d/libcudart.so ] && cudart=$d/libcudart.so
  [ -z "$stub" ] && [ -e $d/stubs/libcuda.so ] && stub=$d/stubs/libcuda.so
done
sed -i -e "s#\"/usr/local/cuda/lib/libcudart.so\"#\"$cudart\"#" \
  -e "s#\"/usr/local/cuda/lib/stubs/libcuda.so\"#\"$stub\"#" $k/lib/cmake/Kokkos/KokkosConfig.cmake
