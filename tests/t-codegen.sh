#!/bin/sh
# The walks stay scalar loops, one load per page, even where the
# compiler is free to vectorize (-O3 -march=native): a vector load or a
# gather would be a different walk from the kernel's.  x86 only.
. tests/lib.sh

case $(uname -m) in
x86_64 | i?86) ;;
*) echo "ok 1 codegen # SKIP not x86"; exit 0 ;;
esac
if ! command -v objdump >/dev/null 2>&1; then
	echo "ok 1 codegen # SKIP no objdump"
	exit 0
fi

# vector_loads BINARY: count gathers, and loads from memory into vector
# registers wider than one 8-byte word, inside walk_* functions (AT&T
# syntax: "op (mem),%xmm0"; constants from %rip and stores do not count).
vector_loads() {
	objdump -d --no-show-raw-insn "$1" |
		awk '/^[0-9a-f]+ <walk_[a-z_]*>:$/ { f = 1; next } /^$/ { f = 0 } f' |
		grep -E 'gather|\)(\{[^}]*\})?,%[xyz]mm' |
		grep -cvE '^ *[0-9a-f]+:[[:space:]]+v?mov[dq][[:space:]]|\(%rip\)'
}

walks_found() {
	objdump -d "$1" | grep -cE '^[0-9a-f]+ <walk_[a-z_]*>:$'
}

for cc in gcc clang; do
	command -v "$cc" >/dev/null 2>&1 || continue
	for flags in "-O2" "-O3" "-O3 -march=native"; do
		# shellcheck disable=SC2086 # flags is a list
		if "$cc" $flags -o "$tmp/scan" scan.c 2>"$tmp/err"; then
			check "$cc $flags: walk functions present" \
				[ "$(walks_found "$tmp/scan")" -ge 3 ]
			check "$cc $flags: no vector loads or gathers in walks" \
				[ "$(vector_loads "$tmp/scan")" -eq 0 ]
		else
			check "$cc $flags: builds" false
		fi
	done
done
