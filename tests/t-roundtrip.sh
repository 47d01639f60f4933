#!/bin/sh
# A block read back: report.sh's block for a replay at a path of 1 to 200
# characters, and at paths holding each of t-inject's pieces (alone and
# after 60 characters, where the line breaks), is read by collect.sh into
# a row whose protocol names that path as the block printed it, and,
# where the path is printable, whose command gives scan that path when a
# shell reads it.  (Slow tier: 240 report runs.)
. tests/lib.sh
case $SCAN in /*) ;; *) SCAN=$(pwd)/$SCAN ;; esac	# the runs are in a scratch directory
top=$(pwd)
mkdir "$tmp/r"
kpageflags "$tmp/kpf" 64

# the paths, by spec: "len N", N characters (d/ and a name, or a name
# alone), "piece P...", t-inject's pieces P... together, "after P", P
# after a directory of 60 characters (the line breaks about there),
# "text T", T itself (parentheses: the wrap never breaks inside one)
i=1
while [ "$i" -le 200 ]; do
	echo "len $i"
	i=$((i + 1))
done >"$tmp/specs"
for p in $inject_pieces; do
	[ "$p" = empty ] || printf 'piece %s\nafter %s\n' "$p" "$p"
done >>"$tmp/specs"
cat >>"$tmp/specs" <<'EOF2'
piece space space space long
piece squote space dquote backslash
piece backslash space long
piece newline space tab long
piece space long space
piece star space squote long subst
text x (y z
text x) y (z
text (a b) (c d) e f g h i j k l m n o p q r s t u v w x y z a b c d e f
text a  b   c    d
EOF2
nlines "$tmp/specs"
made=$count
pad=$(printf '%0200d' 0)
path_of() {	# path_of SPEC: $path
	# shellcheck disable=SC2086 # piece: the pieces' names, a word each
	case $1 in
	"len 1" | "len 2") path=$(printf '%.*s' "${1#len }" "$pad") ;;
	len*) path=d/$(printf '%.*s' "$((${1#len } - 2))" "$pad") ;;
	piece*) inject_value ${1#piece }; path=$val ;;
	text*) path=${1#text } ;;
	after*) inject_value "${1#after }"; path=$(printf '%.59s' "$pad")/$val ;;
	esac
}

# one block a path, into one file; in $tmp/want each path's protocol as
# the block writes it: a newline there \x0a, as lib.awk's plain() gives
# it (plain() then leaves that text as it is), the CSV's comma a
# semicolon
failed=0
: >"$tmp/want"
while IFS= read -r spec; do
	path_of "$spec"
	case $path in */*) mkdir -p "$tmp/r/${path%/*}" ;; esac
	cp "$tmp/kpf" "$tmp/r/$path"
	(cd "$tmp/r" && "$top/scripts/report.sh" -n 1 -r 1 --one-model "--memmap-from=$path") \
		>>"$tmp/blocks" 2>"$tmp/err" || { failed=$((failed + 1)); echo "# report.sh failed on $spec"; }
	echo >>"$tmp/blocks"
	printf '%s\n' "--memmap-from=$path" |
		awk '{ printf "%s%s", (NR > 1 ? "\\x0a" : ""), $0 } END { print "" }' >>"$tmp/want.raw"
done <"$tmp/specs"
check "round trip: report.sh wrote a block for each of $made paths" [ "$failed" -eq 0 ]
"$top/scripts/collect.sh" -o "$tmp/rows.csv" "$tmp/blocks" >/dev/null 2>"$tmp/err"
check "round trip: collect.sh read every block (exit 0)" [ $? -eq 0 ]

# every path's protocol, and no other, in the rows
awk -f scripts/lib.awk -f /dev/stdin "$tmp/want.raw" >"$tmp/want" <<'AWK'
{ s = plain($0); gsub(/,/, ";", s); print s }
AWK
awk -F, -f scripts/lib.awk -f /dev/stdin "$tmp/rows.csv" >"$tmp/got" <<'AWK'
NR == 1 { csv_header(); next }
{ print csv_field("protocol") }
AWK
sort "$tmp/want" >"$tmp/want.s"
sort "$tmp/got" >"$tmp/got.s"
check "round trip: each row's protocol is its path's, as the block printed it" \
	cmp -s "$tmp/want.s" "$tmp/got.s"
cmp -s "$tmp/want.s" "$tmp/got.s" ||
	diff "$tmp/want.s" "$tmp/got.s" | head -n 6 | sed 's/^/#   /'

# a printable path's command, read by a shell, gives scan that path
commands_ok() {
	awk -F, -f scripts/lib.awk -f /dev/stdin "$tmp/rows.csv" >"$tmp/cmds" <<'AWK'
NR == 1 { csv_header(); next }
csv_field("command") !~ /\\x/ { print csv_field("command") }
AWK
	# (in the paths' directory: a canary there is a word that ran)
	(
		cd "$tmp/r" || exit 1
		bad=0
		while IFS= read -r c; do
			eval "set -- $c"
			if [ "$1" != scan ] || [ "$2" != -r ] || [ "$3" != 1 ] || [ ! -f "${4#--memmap-from=}" ]; then
				bad=1
				echo "#   not a command of the path: $c"
			fi
		done <"$tmp/cmds"
		[ "$bad" -eq 0 ] && [ -s "$tmp/cmds" ] && ! ls canary* >/dev/null 2>&1
	)
}
check "round trip: a printable path's command gives scan that path" commands_ok
