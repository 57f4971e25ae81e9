"""Builds tirx_verify._core with CMake for `pip install --no-build-isolation .` (pyproject.toml).

The extension is the CMake target tirx_verify_python, built in $TIRX_VERIFY_BUILD_DIR (default
build-pip/ in the checkout; point it at an existing build tree to reuse it) with the interpreter
that runs pip. The data files the library reads (models/targets) go into tirx_verify/_data.
"""

import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("TIRX_VERIFY_BUILD_DIR", os.path.join(HERE, "build-pip"))
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            subprocess.check_call(["cmake", "-S", HERE, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                                   "-DTIRX_BUILD_TESTS=OFF", f"-DPython3_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", build, "--target", "tirx_verify_python", "-j", str(os.cpu_count() or 2)])
        built = glob.glob(os.path.join(build, "python", "tirx_verify", "_core*.so"))
        if not built:
            raise RuntimeError(f"no _core*.so under {build}/python/tirx_verify")
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(built[0], dest)
        data = os.path.join(os.path.dirname(dest), "_data", "models", "targets")
        shutil.rmtree(data, ignore_errors=True)
        shutil.copytree(os.path.join(HERE, "models", "targets"), data)


setup(ext_modules=[Extension("tirx_verify._core", sources=[])], cmdclass={"build_ext": CMakeBuild})
