#!/bin/sh
# Written for tirx-verify's extraction tests: a "python3" killed by SIGKILL (as the kernel's OOM
# killer would kill a process past its memory).
kill -KILL $$
