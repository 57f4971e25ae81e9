#!/bin/sh
# Written for tirx-verify's extraction tests: a "python3" that answers with text that is not JSON.
echo "{not json"
exit 0
