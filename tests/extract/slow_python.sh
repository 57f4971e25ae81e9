#!/bin/sh
# Written for tirx-verify's extraction tests: a "python3" that never finishes (extract --time-limit).
exec sleep 20
