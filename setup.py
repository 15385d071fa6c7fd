"""The build of `pip install --no-build-isolation .` (pyproject.toml): the module apsp made by the
project's CMake, never by setuptools' compiler. The build tree is APSP_BUILD_DIR where set (an
existing one, configured with -DAPSP_ENABLE_PYTHON=ON), else build/openmp, configured by the
`openmp` preset the first time; its target apsp_python gives the native module, which goes into
the wheel beside the package's Python files (src/python/apsp)."""
import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(HERE, "CMakeLists.txt")) as f:
        return re.search(r"project\(apsp VERSION ([0-9.]+)", f.read()).group(1)


class BuildWithCMake(build_py):
    def run(self):
        given = os.environ.get("APSP_BUILD_DIR")
        build = os.path.abspath(given) if given else os.path.join(HERE, "build", "openmp")
        if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
            if given:
                sys.exit("apsp: APSP_BUILD_DIR=%s is not a configured build tree" % given)
            if subprocess.call(["cmake", "--preset", "openmp"], cwd=HERE) != 0:
                sys.exit("apsp: `cmake --preset openmp` failed: it needs the CPU Kokkos of "
                         "`scripts/bootstrap-deps --backend host` (README.md, Python)")
        subprocess.check_call(["cmake", "--build", build, "--target", "apsp_python"])
        package = os.path.join(build, "python", "apsp")
        if not any(name.startswith("_native") for name in os.listdir(package)):
            sys.exit("apsp: %s has no native module: configure it with -DAPSP_ENABLE_PYTHON=ON"
                     % build)
        super().run()  # the package's Python files (src/python/apsp)
        for name in os.listdir(package):
            if name.startswith("_native"):
                shutil.copy2(os.path.join(package, name), os.path.join(self.build_lib, "apsp"))


class NativeDistribution(Distribution):
    """A wheel for this platform and Python only: the package holds a compiled module."""

    def has_ext_modules(self):
        return True


os.makedirs(os.path.join(HERE, "build"), exist_ok=True)
setup(version=version(), packages=["apsp"], package_dir={"apsp": "src/python/apsp"}, cmdclass={"build_py": BuildWithCMake},
      distclass=NativeDistribution,
      options={"egg_info": {"egg_base": "build"}})  # not beside the sources
