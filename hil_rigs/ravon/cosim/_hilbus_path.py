"""Finds hilbus.py: installed (python3 -c 'import hilbus'), else in this source tree."""
import os
import sys

try:
    import hilbus  # noqa: F401
except ImportError:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "..", "io", "bus", "client", "python"))
