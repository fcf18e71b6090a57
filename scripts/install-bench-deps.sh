#!/usr/bin/env bash
# Installs what `make bench` needs beyond `make test`: gnuplot, which draws
# the plots of docs/benchmarks.md. Kept apart from `make test`, which never
# needs it.
exec "$(dirname "$0")/install-deps.sh" gnuplot-nox
