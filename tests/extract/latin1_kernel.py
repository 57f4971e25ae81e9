"""Test kernel written for tirx-verify's extraction tests: a Latin-1 byte on line 3."""
X = 1
Y = "café"
