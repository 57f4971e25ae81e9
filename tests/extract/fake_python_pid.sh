#!/bin/sh
# Written for tirx-verify's extraction tests: a "python3" that records its process id in
# $TIRX_TEST_PIDFILE and then waits (the test sends tirx-verify a signal meanwhile).
echo $$ > "$TIRX_TEST_PIDFILE.tmp" && mv "$TIRX_TEST_PIDFILE.tmp" "$TIRX_TEST_PIDFILE"
exec sleep 30
