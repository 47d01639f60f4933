#!/bin/sh
# The walks stay scalar loops, one load per page, even where the
# compiler is free to vectorize (-O3 -march=native): a vector load or a
# gather would be a different walk from the kernel's; and at -O2 the
# default kernels' hot loops keep the shape README states (gcc: 6
# instructions and 1 branch per folio).  x86 only.
. tests/lib.sh

case $(uname -m) in
x86_64 | i?86) ;;
*) skip codegen "not x86"; exit 0 ;;
esac
if ! have objdump; then
	skip codegen "no objdump"
	exit 0
fi

# Each check reads a build's disassembly, made once: $tmp/dis.N.

# vector_loads DISASSEMBLY: count gathers, and loads from memory into vector
# registers wider than one 8-byte word, inside walk_* and bound_* (AT&T
# syntax: "op (mem),%xmm0"; constants from %rip and stores do not count).
vector_loads() {
	awk '/^[0-9a-f]+ <(walk|bound)_[a-z_]*>:$/ { f = 1; next } /^$/ { f = 0 } f' "$1" |
		grep -E 'gather|\)(\{[^}]*\})?,%[xyz]mm' |
		grep -cvE '^ *[0-9a-f]+:[[:space:]]+v?mov[dq][[:space:]]|\(%rip\)'
}

# dispatch DISASSEMBLY FUNCTION: instructions of FUNCTION that read the
# model's access or rmap field (displacements $offsets, from a probe
# built on scan.c), do atomic work or call out.  The default kernels
# must hold none: their per-folio work is fixed when they are compiled.
# A function that is not there counts as one.
dispatch() {
	awk -v f="<$2>:" '$2 == f { p = 1; next } /^$/ { p = 0 } p' "$1" >"$tmp/fn"
	if [ -s "$tmp/fn" ]; then
		grep -vE 'xchg +%ax,%ax' "$tmp/fn" |	# a 2-byte nop
			grep -cE "[^0-9a-fx]($offsets)\\(|lock|xchg|call"
	else
		echo 1
	fi
}

# loop_shape DISASSEMBLY FUNCTION: "INSNS BRANCHES" per folio in FUNCTION's
# hot loop: of the loops a backward jump closes, the one with the most
# loads of the age ($age_off, from the probe), the shortest on a tie
# (the inner loop; an unrolled loop counts per age it loads).
loop_shape() {
	awk -v f="<$2>:" '$2 == f { p = 1; next } /^$/ { p = 0 } p' "$1" |
		awk -v age="$age_off(" '
		{ sub(/:$/, "", $1); a[NR] = strtonum_("0x" $1); op[NR] = $2; arg[NR] = $0 }
		function strtonum_(h,   i, c, v) {
			v = 0
			for (i = 3; i <= length(h); i++) {
				c = index("0123456789abcdef", substr(h, i, 1))
				v = v * 16 + c - 1
			}
			return v
		}
		END {
			best = 0
			for (i = 1; i <= NR; i++) {
				if (op[i] !~ /^j/ || op[i] == "jmp")
					continue
				split(arg[i], w, " ")
				t = strtonum_("0x" w[3])
				if (t >= a[i])
					continue
				n = 0; b = 0; l = 0
				for (j = 1; j <= i; j++) {
					if (a[j] < t)
						continue
					if (op[j] ~ /^nop|^xchg$|^data16$|^cs$/)
						continue
					n++
					if (op[j] ~ /^j/)
						b++
					k = index(arg[j], age)
					if (k && substr(arg[j], k - 1, 1) !~ /[0-9a-fx]/)
						l++
				}
				if (l > best || (l == best && l > 0 && n < bn)) {
					best = l; bn = n; bb = b
				}
			}
			if (best)
				printf "%g %g\n", bn / best, bb / best
			else
				print "none none"
		}'
}

walks_found() {
	grep -cE '^[0-9a-f]+ <(walk|bound)_[a-z_]*>:$' "$1"
}

# scan's main made static and so unused: the compiler drops it and all
# it calls, and compiles little more than the probe's own main.
cat >"$tmp/probe.c" <<'EOF'
#include <stddef.h>
static int scan_main(int, char **);
#define main scan_main
#include "scan.c"
#undef main
int main(void)
{
	printf("%#zx|%#zx %#zx\n", offsetof(struct lru_model, work.access),
	       offsetof(struct lru_model, rmap), offsetof(struct folio, age));
	return 0;
}
EOF
offsets=
for cc in cc gcc clang; do
	have "$cc" && "$cc" -O1 -I. -o "$tmp/probe" "$tmp/probe.c" 2>/dev/null &&
		probe=$("$tmp/probe") && break
done
offsets=${probe% *}
age_off=${probe#* }
check "probe of the model's layout builds and runs" [ -n "$age_off" ]

# The -O2 hot loops' instructions and branches per folio, as measured
# (gcc 12.2, clang 14.0): gcc's are README's; clang unrolls the list walk by
# four (15 instructions, 1 branch, 4 folios) and indexes the others.
cat >"$tmp/shapes" <<'EOF'
gcc walk_physical_plain 6 1
gcc walk_list_plain 6 1
gcc walk_array_plain 6 1
clang walk_physical_plain 8 1
clang walk_list_plain 3.75 0.25
clang walk_array_plain 7 1
EOF

# within "INSNS BRANCHES" "MAX_INSNS MAX_BRANCHES": a loop no longer,
# and with no more branches, than the most allowed.
within() {
	echo "$1 $2" | awk '{ exit !($1 != "none" && $1 <= $3 && $2 <= $4) }'
}

# The builds that matter: each compiler at -O2 (what people type) and at
# -O3 -march=native (the most freedom to vectorize), built two at a time
# as suite fixtures (another file may ask for the same build).
: >"$tmp/builds"
for cc in gcc clang; do
	have "$cc" || continue
	for flags in "-O2" "-O3 -march=native"; do
		name=$cc$(echo "$flags" | tr -d ' =')
		echo "$name $cc $flags" >>"$tmp/builds"
		# shellcheck disable=SC2086 # flags is a list
		build "$name" "$cc" $flags &
		[ "$(wc -l <"$tmp/builds")" -eq 2 ] && wait
	done
done
wait
while read -r name cc flags; do
	bin=$cache/build-$name/scan
	if [ -x "$bin" ]; then
		dis=$tmp/dis.$name
		objdump -d --no-show-raw-insn "$bin" >"$dis"
		check "$cc $flags: walk functions present" \
			[ "$(walks_found "$dis")" -ge 3 ]
		check "$cc $flags: no vector loads or gathers in walks" \
			[ "$(vector_loads "$dis")" -eq 0 ]
		for f in walk_physical_plain walk_list_plain walk_array_plain; do
			check "$cc $flags: $f holds no dispatch on access or rmap" \
				[ "$(dispatch "$dis" "$f")" -eq 0 ]
			[ "$flags" = -O2 ] || continue
			shape=$(loop_shape "$dis" "$f")
			echo "# $cc $flags: $f: $shape (instructions branches per folio)"
			most=$(awk -v k="$cc $f" '$1 " " $2 == k { print $3, $4 }' "$tmp/shapes")
			check "$cc $flags: $f loop: at most ${most% *} instructions and ${most#* } branches per folio" \
				within "$shape" "$most"
		done
	else
		check "$cc $flags: builds" false
	fi
done <"$tmp/builds"
