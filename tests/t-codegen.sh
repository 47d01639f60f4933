#!/bin/sh
# The walks stay scalar loops, one load per page, even where the
# compiler is free to vectorize (-O3 -march=native): a vector load or a
# gather would be a different walk from the kernel's.  x86 only.
. tests/lib.sh

case $(uname -m) in
x86_64 | i?86) ;;
*) skip codegen "not x86"; exit 0 ;;
esac
if ! have objdump; then
	skip codegen "no objdump"
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

# The builds that matter: each compiler at -O2 (what people type) and at
# -O3 -march=native (the most freedom to vectorize), built two at a time.
i=0
: >"$tmp/builds"
for cc in gcc clang; do
	have "$cc" || continue
	for flags in "-O2" "-O3 -march=native"; do
		echo "$i $cc $flags" >>"$tmp/builds"
		# shellcheck disable=SC2086 # flags is a list
		"$cc" $flags -o "$tmp/scan.$i" scan.c 2>"$tmp/err.$i" &
		i=$((i + 1))
		[ $((i % 2)) -eq 0 ] && wait
	done
done
wait
while read -r i cc flags; do
	if [ -x "$tmp/scan.$i" ]; then
		check "$cc $flags: walk functions present" \
			[ "$(walks_found "$tmp/scan.$i")" -ge 3 ]
		check "$cc $flags: no vector loads or gathers in walks" \
			[ "$(vector_loads "$tmp/scan.$i")" -eq 0 ]
	else
		check "$cc $flags: builds" false
	fi
done <"$tmp/builds"
