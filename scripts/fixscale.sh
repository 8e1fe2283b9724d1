#!/bin/sh
# fixscale.sh BIN [N...]: time and peak memory of `BIN -fix -diff` on one
# generated file of N functions (28 lines each) with one fixable finding
# each, for growing N (default 875 1750 3500 7000: up to 196,000 lines and
# 7,000 fixes). Prints N, lines, wall seconds and peak RSS; the time and
# memory of -fix should grow linearly with N.
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
[ $# -gt 0 ] || set -- 875 1750 3500 7000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%8s %8s %8s %10s\n' fixes lines seconds peak_MiB
for n in "$@"; do
	dir=$tmp/m$n
	mkdir -p "$dir/p"
	printf 'module example.com/scale\n\ngo 1.22\n' >"$dir/go.mod"
	awk -v n="$n" 'BEGIN {
		print "package p\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\t\"time\"\n)\n"
		for (i = 0; i < n; i++) {
			printf "func f%d(ctx context.Context, db *sql.DB, x int) (int, error) {\n", i
			print "\ttctx, cancel := context.WithTimeout(context.Background(), time.Second)"
			print "\tdefer cancel()"
			print "\t_, err := db.ExecContext(tctx, \"SELECT 1\")"
			for (j = 0; j < 21; j++) printf "\tx += %d\n", j
			print "\treturn x, err\n}\n"
		}
	}' >"$dir/p/p.go"
	lines=$(wc -l <"$dir/p/p.go")
	out=$( (cd "$dir" && /usr/bin/time -f '%e %M' "$bin" -test=false -fix -diff ./... >/dev/null 2>"$dir/err"; tail -1 "$dir/err") )
	set -- $out
	printf '%8d %8d %8s %10d\n' "$n" "$lines" "$1" $(($2 / 1024))
done
