"""pytest configuration: the module under test is the build tree's (PYTHONPATH, set by ctest) or
an installed one."""
import os
import sys

build_python = os.environ.get("TIRX_VERIFY_PYTHONPATH")
if build_python and build_python not in sys.path:
    sys.path.insert(0, build_python)
