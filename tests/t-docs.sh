#!/bin/sh
# The documentation: every command README.md shows (its "$ " lines and
# the scripts table's examples) and every line of a man page's EXAMPLES
# runs at a tiny size and exits as shown (0, or the "# exit N" after
# it); every relative link in README.md and docs/ resolves, anchors
# included; README.md stays within 200 lines and 80 columns.
. tests/lib.sh

root=$(pwd)
case $SCAN in /*) real=$SCAN ;; *) real=$root/$SCAN ;; esac

# The commands run in a scratch directory holding what they name: scan,
# scripts/ and the yardstick, and on PATH scan and the scripts under
# their installed names.  scan there is a wrapper that adds -r 2 unless
# the command chose its rounds or the 2023 protocol (which refuses -r),
# so a run at -c 0.01 takes milliseconds, not 64 rounds.
work=$tmp/work
mkdir -p "$work" "$tmp/bin"
cat >"$tmp/bin/scan" <<EOF
#!/bin/sh
for a in "\$@"; do
	case \$a in -r* | --original) exec "$real" "\$@" ;; esac
done
exec "$real" "\$@" -r 2
EOF
chmod +x "$tmp/bin/scan"
for s in scripts/*.sh; do
	name=$(basename "$s" .sh)
	printf '#!/bin/sh\nexec sh "%s" "$@"\n' "$root/$s" >"$tmp/bin/scan-$name"
	chmod +x "$tmp/bin/scan-$name"
done
ln -s "$tmp/bin/scan" "$work/scan"
ln -s "$root/scripts" "$work/scripts"
ln -s "$root/yardstick" "$work/yardstick"
PATH=$tmp/bin:$PATH
SCAN=$tmp/bin/scan
export PATH SCAN

# The commands, one a line: README's "$ " lines and its scripts table's
# last column, then each man page's EXAMPLES lines, unescaped.
{
	awk '
	/^    \$ / { print substr($0, 7); next }
	/^\| script \| does \| example \|/ { table = 1; next }
	table && /^\|/ {
		n = split($0, cell, "|")
		c = cell[n - 1]
		if (match(c, /`[^`]*`/))
			print substr(c, RSTART + 1, RLENGTH - 2)
		next
	}
	{ table = 0 }' README.md
	for page in scan.1 scripts/*.1; do
		[ -r "$page" ] || continue
		awk '/^\.SH/ { ex = $2 == "EXAMPLES"; next }
		ex && !/^\./' "$page" |
			sed 's/\\-/-/g; s/\\(aq/'"'"'/g; s/\\(dq/"/g; s/\\e/\\/g; s/^\$ //'
	done
} | grep -E '^(sudo |make|cc |\./|scan|scripts/)' >"$tmp/commands"

# tiny CMD: CMD at a tiny size: -c 0.01, -m 40M, -n 3 processes, a
# sweep's sizes 0.01 0.02 ..., results.sh in its quick mode, make's
# installs into the scratch directory and its other targets dry.
tiny() {
	printf '%s\n' "$1" | awk -v tmp="$tmp" -v root="$root" '{
		k = 0
		for (i = 1; i <= NF; i++) {
			if ($(i - 1) == "-c" && $i ~ /^[0-9.]+$/) $i = "0.01"
			else if ($(i - 1) == "-m") $i = "40M"
			else if ($(i - 1) == "-n" && $i ~ /^[0-9]+$/) $i = "3"
			else if (/sweep/ && $i ~ /^[0-9.]+$/ && $(i - 1) !~ /^-[srtn]$/)
				$i = sprintf("%.2f", ++k / 100)
			else if ($i ~ /^PREFIX=/) $i = "PREFIX=" tmp "/prefix"
		}
		if ($1 ~ /results/) $0 = $0 " -q"
		if ($1 == "make") {
			target = $2
			$1 = "make -s -C " root
			if (target != "install" && target != "uninstall" &&
			    target != "yardstick" && target !~ /^(|all|scan)$/)
				$1 = $1 " -n"
		}
		if ($1 == "cc") $0 = "cc -fsyntax-only " root "/scan.c"
		print
	}'
}

# shown CMD: CMD ran, in the scratch directory, with the exit status
# the documentation gives it.
shown() {
	want=0
	case $1 in *'# exit '[0-9]*) want=${1##*# exit } ;; esac
	cmd=$(tiny "${1%%#*}")
	echo "$cmd" >"$tmp/cmd"
	(cd "$work" && sh -c "$cmd") >"$tmp/out" 2>"$tmp/err" </dev/null
	[ "$?" -eq "$want" ]
}

while IFS= read -r line; do
	script=$(printf '%s\n' "$line" | sed -n 's|.*scripts/\([a-z-]*\)\.sh.*|\1|p')
	case $line in
	sudo*)
		skip "doc: $line" "needs root (and a live trace or /proc/kpageflags)" ;;
	*)
		if [ -n "$script" ] && [ ! -r "scripts/$script.sh" ]; then
			skip "doc: $line" "scripts/$script.sh is not in this tree yet"
		elif [ "$script" = compare ] &&
			! sh scripts/compare.sh -h 2>&1 | grep -q -- '-n N'; then
			skip "doc: $line" "this compare.sh predates -n N"
		else
			check "doc: $line" shown "$line"
		fi ;;
	esac
done <"$tmp/commands"

# Every relative link of the Markdown files, as FILE TARGET lines.
links() {
	for md in README.md docs/*.md docs/results/*.md; do
		[ -r "$md" ] || continue
		grep -o '](\([^)]*\))' "$md" | sed 's/^](//; s/)$//' |
			grep -Ev '^(https?|mailto):' | sed "s|^|$md |"
	done
}

# slugs FILE: the anchors a Markdown file's headings make, GitHub's way.
slugs() {
	awk '/^#+ / {
		s = tolower($0); sub(/^#+ /, "", s)
		gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s); print s }' "$1"
}

# resolves FILE TARGET: TARGET, relative to FILE, exists, and so does
# its #anchor in a Markdown target.
resolves() {
	path=${2%%#*}
	case $path in
	"") path=$1 ;;
	*) path=$(dirname "$1")/$path ;;
	esac
	[ -e "$path" ] || return 1
	case $2 in
	*#*) case $path in *.md) slugs "$path" | grep -Fqx -- "${2#*#}" ;; esac ;;
	esac
}

# a failing link check shows no command's stderr
: >"$tmp/cmd"
: >"$tmp/err"
links >"$tmp/links"
check "the docs have relative links to check" test -s "$tmp/links"
while read -r file target; do
	check "link in $file: $target" resolves "$file" "$target"
done <"$tmp/links"

check "README.md is at most 200 lines" test "$(wc -l <README.md)" -le 200
check "README.md has no line over 80 columns" \
	sh -c '! LC_ALL=C awk "length > 80" README.md | grep -q .'
