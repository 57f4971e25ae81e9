"""Test module written for tirx-verify's extraction tests: changes the shared dict at import with a
value the source does not fix (the host's CPU count)."""
import os

from .defaults import CONFIG

CONFIG["ROWS"] = os.cpu_count()
