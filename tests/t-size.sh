#!/bin/sh
# -c and -m arithmetic, help and version.
. tests/lib.sh

pages() {
	"$SCAN" "$@" -r 1 -vvv 2>/dev/null | sed -n 's/^Allocated memmap for \([0-9]*\) pages.*/\1/p'
}
is() { [ "$1" = "$2" ]; }

check "-c 0.01 is 10000 pages" is "$(pages -c 0.01)" 10000
check "-c 1e-2 is 10000 pages" is "$(pages -c 1e-2)" 10000
check "-c .005 is 5000 pages" is "$(pages -c .005)" 5000
check "-c0.002 (attached value) is 2000 pages" is "$(pages -c0.002)" 2000
check "-c 0.01 -c 0.02: the last wins" is "$(pages -c 0.01 -c 0.02)" 20000
check "-m 64M is 16384 pages" is "$(pages -m 64M)" 16384
check "-m 64m is 16384 pages" is "$(pages -m 64m)" 16384
check "-m 4K is 1 page" is "$(pages -m 4K)" 1
check "-m 1.5M is 384 pages" is "$(pages -m 1.5M)" 384
check "-m 8192 (bytes) is 2 pages" is "$(pages -m 8192)" 2
check "-m 0.0625G is 16384 pages" is "$(pages -m 0.0625G)" 16384

run -m 64M -r 1 -v
check "-m 64M: simulated memory shown" out_has '16384 pages, 64\.0 MiB simulated, '
check "-m 64M: memmap size shown" out_has '^memmap 1\.0 MiB for 16384 pages'

run -h
check "-h exits 0" [ "$rc" -eq 0 ]
check "-h prints usage on stdout" out_has '^usage: scan '
check "-h: nothing on stderr" [ ! -s "$tmp/err" ]
check "-h: no missing text" sh -c "! grep -q '(null)' '$tmp/out'"
for opt in -c -m -s -r -t -v --walks --format --thp --cache --cpu --builds \
	--lru-fraction --non-lru --folio-order --folios --phys --locality \
	--access --lists --chunk --rmap --struct-page --kernel-like --help --version; do
	check "-h documents $opt" out_has "^  (-[a-zA-Z], )?${opt}[ ,=]"
done
for walk in Physical ListLRU ArrayLRU XArrayLRU; do
	check "-h lists the $walk walk" out_has "^  $walk "
done
run --help
check "--help exits 0" [ "$rc" -eq 0 ]
run -V
check "-V prints the version" out_has '^scan [0-9]+\.[0-9]+'
