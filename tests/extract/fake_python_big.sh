#!/bin/sh
# Written for tirx-verify's extraction tests: a "python3" whose model is 17 MB, over the 16 MiB
# a model file may be.
printf '{"format": 2, "notes": "'
head -c 17000000 /dev/zero | tr '\0' a
printf '"}\n'
exit 0
