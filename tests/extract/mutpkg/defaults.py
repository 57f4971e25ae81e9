"""Test module written for tirx-verify's extraction tests: a configuration dict other modules share."""
CONFIG = {"ROWS": 128}
