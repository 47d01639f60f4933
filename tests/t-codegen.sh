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
# registers wider than one 8-byte word, inside walk_* and bound_* (AT&T
# syntax: "op (mem),%xmm0"; constants from %rip and stores do not count).
vector_loads() {
	objdump -d --no-show-raw-insn "$1" |
		awk '/^[0-9a-f]+ <(walk|bound)_[a-z_]*>:$/ { f = 1; next } /^$/ { f = 0 } f' |
		grep -E 'gather|\)(\{[^}]*\})?,%[xyz]mm' |
		grep -cvE '^ *[0-9a-f]+:[[:space:]]+v?mov[dq][[:space:]]|\(%rip\)'
}

# dispatch BINARY FUNCTION: instructions of FUNCTION that read the
# model's access or rmap field (displacements $offsets, from a probe
# built on scan.c), do atomic work or call out.  The default kernels
# must hold none: their per-folio work is fixed when they are compiled.
# A function that is not there counts as one.
dispatch() {
	objdump -d --no-show-raw-insn "$1" |
		awk -v f="<$2>:" '$2 == f { p = 1; next } /^$/ { p = 0 } p' \
			>"$tmp/fn"
	if [ -s "$tmp/fn" ]; then
		grep -vE 'xchg +%ax,%ax' "$tmp/fn" |	# a 2-byte nop
			grep -cE "[^0-9a-fx]($offsets)\\(|lock|xchg|call"
	else
		echo 1
	fi
}

walks_found() {
	objdump -d "$1" | grep -cE '^[0-9a-f]+ <(walk|bound)_[a-z_]*>:$'
}

cat >"$tmp/probe.c" <<'EOF'
#include <stddef.h>
#define main scan_main
#include "scan.c"
#undef main
int main(void)
{
	printf("%#zx|%#zx\n", offsetof(struct lru_model, work.access),
	       offsetof(struct lru_model, rmap));
	return 0;
}
EOF
offsets=
for cc in cc gcc clang; do
	have "$cc" && "$cc" -I. -o "$tmp/probe" "$tmp/probe.c" 2>/dev/null &&
		offsets=$("$tmp/probe") && break
done
check "probe of the model's layout builds and runs" [ -n "$offsets" ]

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
		for f in walk_physical_plain walk_list_plain walk_array_plain; do
			check "$cc $flags: $f holds no dispatch on access or rmap" \
				[ "$(dispatch "$tmp/scan.$i" "$f")" -eq 0 ]
		done
	else
		check "$cc $flags: builds" false
	fi
done <"$tmp/builds"
