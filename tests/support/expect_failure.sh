#!/usr/bin/env bash
# usage: expect_failure.sh REGEX COMMAND...
# Passes iff COMMAND exits non-zero and its combined output matches REGEX.
set -u
pattern=$1; shift
out=$("$@" 2>&1); rc=$?
if [ "$rc" -eq 0 ]; then echo "expected a non-zero exit code, got 0"; echo "$out"; exit 1; fi
if ! grep -Eq -- "$pattern" <<<"$out"; then echo "output does not match /$pattern/"; echo "$out"; exit 1; fi
echo "ok: exit code $rc and output matches /$pattern/"
