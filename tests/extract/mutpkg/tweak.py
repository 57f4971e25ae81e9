"""Test module written for tirx-verify's extraction tests: changes the shared dict at import."""
from .defaults import CONFIG

CONFIG["ROWS"] = 64
