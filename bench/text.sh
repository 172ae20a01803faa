#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Runs $BUILD/bench/bin/text (this library) and ref-text (the system's libcap) in
# alternating rounds, so both see the same machine noise, and prints the
# median rate of each metric and the ratio ours/libcap.
#   TEXT_ROUNDS (default 7), TEXT_SECONDS per metric per round (default 0.25)
set -eu
cd "$(dirname "$0")"
bin=${BUILD:-$(cd .. && pwd)/build/main}/bench/bin
rounds=${TEXT_ROUNDS:-7} seconds=${TEXT_SECONDS:-0.25}
ref_version=$(dpkg-query -W -f='${Version}' libcap2 2>/dev/null || echo system)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
r=0
while [ "$r" -lt "$rounds" ]; do
	"$bin/text" "$seconds" | sed 's/^/ours /' >>"$tmp/results"
	"$bin/ref-text" "$seconds" | sed 's/^/ref /' >>"$tmp/results"
	r=$((r + 1))
done
median() {
	awk -v side="$1" -v metric="$2" '$1 == side && $2 == metric {print $3}' \
		"$tmp/results" | sort -n |
		awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
echo "text benchmark: median of $rounds alternating rounds; libcap $ref_version"
for metric in text from_name to_name corpus; do
	ours=$(median ours "$metric") ref=$(median ref "$metric")
	case $metric in
	text) what="cap_from_text+cap_to_text" ;;
	from_name) what="cap_from_name" ;;
	to_name) what="cap_to_name+cap_free" ;;
	corpus) what="whole corpus, all of these" ;;
	esac
	awk -v m="$metric" -v w="$what" -v o="$ours" -v r="$ref" 'BEGIN {
		printf "%-9s %-25s ours %10.0f ops/s  libcap %10.0f ops/s  ratio %.2fx\n", m, w, o, r, o / r }'
done
