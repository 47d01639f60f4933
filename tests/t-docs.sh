#!/bin/sh
# The documentation: every command README.md shows (its "$ " lines and
# the scripts table's examples) and every line of a man page's EXAMPLES
# runs at a tiny size and exits as shown (0, or the "# exit N" after
# it); every relative link in README.md and docs/ resolves, anchors
# included; README.md stays within 200 lines and 80 columns; no file
# of the repository names a path outside it.
. tests/lib.sh

root=$(pwd)
case $SCAN in /*) real=$SCAN ;; *) real=$root/$SCAN ;; esac

# The commands run in a scratch directory holding what they name: scan,
# scripts/ and the yardstick, and on PATH scan and the scripts under
# their installed names.  scan there is a wrapper that adds -r 2 unless
# the command chose its rounds or the 2023 protocol (which refuses -r),
# so a run at -c 0.01 takes milliseconds, not 64 rounds, and -s 1 unless
# it chose a seed: at these sizes a layout may by chance put no folio of
# a memcg share on the LRU, and a test must not depend on the clock.  Each file's
# commands get a copy of this directory of their own.
work=$tmp/template
mkdir -p "$work" "$tmp/bin"
cat >"$tmp/bin/scan" <<EOF
#!/bin/sh
rounds="-r 2" seed="-s 1"
for a in "\$@"; do
	case \$a in -r* | --original) rounds= ;; -s*) seed= ;; esac
done
exec "$real" "\$@" \$rounds \$seed
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
cp -R "$root/docs" "$work/docs"	# a copy: commands may write under docs/
PATH=$tmp/bin:$PATH
SCAN=$tmp/bin/scan
export PATH SCAN

# What the examples read that no example here makes (a snapshot, a
# trace, mail, CSVs): small stand-ins.  snap/: 16384 pfns, each an
# order-0 LRU page (KPF_LRU, bit 5) in memcg inode 1; lru.txt: a trace
# of some of them; kernel.csv: scan-kernel's CSV, tests/kernel-ratio.csv,
# and as a1/k.csv ... b3/k.csv.
fixtures() {
	mkdir -p "$work/snap" "$work/Mail/linux-mm/cur" "$work/Mail/linux-mm/new" \
		"$work/Mail/linux-mm/tmp"
	for f in kpageflags:32 kpagecgroup:1; do
		awk -v v="${f#*:}" 'BEGIN {
			for (i = 0; i < 16384; i++)
				printf "%c%c%c%c%c%c%c%c", v + 0, 0, 0, 0, 0, 0, 0, 0
		}' >"$work/snap/${f%:*}"
	done
	printf '0x%x\n' 40 41 42 7 8 9 >"$work/lru.txt"
	cp "$root/tests/kernel-ratio.csv" "$work/kernel.csv"
	for d in a1 a2 a3 b1 b2 b3; do	# scan-vm's -o of two kernels, three runs each
		mkdir "$work/$d" && cp "$root/tests/kernel-ratio.csv" "$work/$d/k.csv"
	done
	(cd "$work" && for i in 1 2 3; do
		./scan -c 0.01 -s "$i" --format=csv >"before$i.csv"
		./scan -c 0.01 -s "$i" --thp=never --format=csv >"after$i.csv"
	done
	{ ./scan -c 0.01 --lru-fraction=0.5 --format=csv
	  ./scan -c 0.01 --format=csv | sed 1d; } >knob.csv
	{ printf 'From someone@example.org Thu Dec  4 00:00:00 2026\n'
	  printf 'From: someone@example.org\nSubject: Re: physical scanning\n'
	  printf 'Date: Thu, 4 Dec 2026 00:00:00 +0000\n\n'
	  sh scripts/report.sh -c 0.01
	  printf '\n'; } >thread.mbox
	cp thread.mbox Mail/linux-mm/cur/1) 2>"$tmp/fixtures.err"
}
check "the stand-ins for snapshots, traces, mail and CSVs" fixtures

# The commands, one a line after the file that shows them and a tab:
# README's "$ " lines and its scripts table's last column, then each man
# page's EXAMPLES lines, unescaped.
tab=$(printf '\t')
{
	awk '
	/^    \$ / { print "README.md\t" substr($0, 7); next }
	/^\| script \| does \| example \|/ { table = 1; next }
	table && /^\|/ {
		n = split($0, cell, "|")
		c = cell[n - 1]
		if (match(c, /`[^`]*`/))
			print "README.md\t" substr(c, RSTART + 1, RLENGTH - 2)
		next
	}
	{ table = 0 }' README.md
	for page in scan.1 scripts/*.1; do
		[ -r "$page" ] || continue
		awk -v page="$page" '/^\.SH/ { ex = $2 == "EXAMPLES"; next }
		ex && !/^\./ { print page "\t" $0 }' "$page" |
			sed 's/\\-/-/g; s/\\(aq/'"'"'/g; s/\\(dq/"/g; s/\\e/\\/g'"; s/$tab\\$ /$tab/"
	done
} | grep -E "$tab(sudo |make|cc |\./|scan|scripts/)" >"$tmp/commands"

# tiny: each command on stdin, a line each, at a tiny size: -c 0.01
# (for -c N and -c auto, and given where scan, report or explain would
# take the default), -m 40M, -n 2 processes (3 for compare, its fewest
# for a verdict), a sweep's sizes 0.01 0.02 ..., results.sh in its quick
# mode, make's installs into the scratch directory and its other targets
# dry, cc a syntax check.
tiny() {
	awk -v tmp="$tmp" -v root="$root" '{
		k = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /sweep/) k = 0	# each sweep sizes from 0.01
			w = $i
			end = sub(/;$/, "", w) ? ";" : ""	# "4;" ends a command
			if ($(i - 1) == "-c" && w ~ /^([0-9.]+|auto)$/) $i = "0.01" end
			else if ($(i - 1) == "-m") $i = "40M" end
			else if ($(i - 1) == "-n" && w ~ /^[0-9]+$/)
				$i = (/compare/ ? "3" : "2") end	# 3 for a verdict
			else if (/sweep/ && w ~ /^[0-9.]+$/ && $(i - 1) !~ /^-[srtn]$/)
				$i = sprintf("%.2f", ++k / 100) end
			else if ($i ~ /^PREFIX=/) $i = "PREFIX=" tmp "/prefix"
		}
		if ($1 ~ /results/) $0 = $0 " -q"
		# scan, report and explain without a size would take a million
		# pages or more; a replayed file has a size of its own
		if (($1 ~ /(^|\/)(scan|report|explain)(\.sh)?$/ ||
		    $1 ~ /^scan-(report|explain)$/) &&
		    $0 !~ / -[cm] / && $0 !~ /--memmap-from/)
			$1 = $1 " -c 0.01"
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

# The plan, made once for all files: FILE<tab>COMMAND<tab>SCRIPT<tab>TINY
# a line, SCRIPT the NAME of the scripts/NAME.sh the command names (or
# -: a field the shell's read would not skip),
# TINY the command at a tiny size, its comment cut.
cut -f 2 "$tmp/commands" | sed 's/#.*//' | tiny >"$tmp/tiny"
cut -f 2 "$tmp/commands" | sed 's|.*scripts/\([a-z-]*\)\.sh.*|\1|; t; s/.*/-/' >"$tmp/scripts"
paste "$tmp/commands" "$tmp/scripts" "$tmp/tiny" >"$tmp/plan"
compare_has_n=
sh scripts/compare.sh -h 2>&1 | grep -q -- '-n N' && compare_has_n=1

# shown LINE CMD DIR: CMD, LINE at a tiny size, ran in DIR with the exit
# status the documentation gives LINE; its command and stderr are in
# DIR.cmd and DIR.err.
shown() {
	want=0
	case $1 in *'# exit '[0-9]*) want=${1##*# exit } ;; esac
	cmd=$2
	shift
	echo "$cmd" >"$2.cmd"
	(cd "$2" && HOME=$2 sh -c "$cmd") >"$2.out" 2>"$2.err" </dev/null
	[ "$?" -eq "$want" ]
}

# group K FILE: FILE's commands in order (an example may read what the
# one before wrote), in a copy of the scratch directory, $tmp/wK, each
# a line "ok|fail|skip<tab>command<tab>why" in $tmp/rK (a failure's
# command and stderr in $tmp/rK.N.cmd and .err).
group() {
	w=$tmp/w$1
	cp -RP "$work" "$w"
	: >"$tmp/r$1"
	i=0
	while IFS="$tab" read -r file line script cmd; do
		[ "$file" = "$2" ] || continue
		[ "$script" != - ] || script=
		i=$((i + 1))
		why=""
		case $line in
		sudo*) why="needs root (and a live trace or /proc/kpageflags)" ;;
		scan-vm* | scripts/vm.sh*) why="boots a VM for minutes: make test-vm runs scan-vm" ;;
		esac
		if [ -z "$why" ] && [ -n "$script" ] && [ ! -r "scripts/$script.sh" ]; then
			why="scripts/$script.sh is not in this tree yet"
		elif [ -z "$why" ] && [ "$script" = compare ] && [ -z "$compare_has_n" ]; then
			why="this compare.sh predates -n N"
		fi
		if [ -n "$why" ]; then
			printf 'skip\t%s\t%s\n' "$line" "$why"
		elif shown "$line" "$cmd" "$w"; then
			printf 'ok\t%s\t\n' "$line"
		else
			cp "$w.cmd" "$tmp/r$1.$i.cmd"
			cp "$w.err" "$tmp/r$1.$i.err"
			printf 'fail\t%s\t%s\n' "$line" "$i"
		fi >>"$tmp/r$1"
	done <"$tmp/plan"
}

# Two lanes, one a CPU of a 2-CPU machine: the files in turn, README.md
# first, then the man pages in order.
files=$(cut -f 1 "$tmp/commands" | awk '!seen[$0]++')
lane() {
	k=0
	for f in $files; do
		k=$((k + 1))
		[ $((k % 2)) -eq "$1" ] && group "$k" "$f"
	done
	return 0
}
lane 1 &
lane 0
wait

# The records, as test lines, in the files' order.
k=0
for f in $files; do
	k=$((k + 1))
	while IFS="$tab" read -r status line why; do
		case $status in
		ok) check "doc: $line" true ;;
		skip) skip "doc: $line" "$why" ;;
		*)
			cp "$tmp/r$k.$why.cmd" "$tmp/cmd"
			cp "$tmp/r$k.$why.err" "$tmp/err"
			check "doc: $line" false ;;
		esac
	done <"$tmp/r$k"
done

# results.sh: README's example wrote out/ in quick mode, at two sizes;
# its Markdown holds six report blocks in fences, each under its
# heading, a summary row each, and collect.sh (where this tree has it)
# reads the blocks back.
: >"$tmp/cmd"
: >"$tmp/err"
md=""
for f in "$tmp"/w1/out/*.md; do [ -r "$f" ] && md=$f; done
check "results.sh: a Markdown file in out/" test -n "$md"
blocks=$(grep -c '^### ' "$md")
check "results.sh: six report blocks, each under its heading" \
	test "$(grep -c '^Physical scan is .* faster than ListLRU$' "$md")" -eq 6 \
	-a "$blocks" -eq 6
check "results.sh: a summary row a block" \
	test "$(grep -Ec '^\| (defaults|--original|--kernel-like), -c ' "$md")" -eq "$blocks"
check "results.sh: the sweep's CSV beside it" \
	test "$(csv_col "${md%.md}-sweep.csv" walk | grep -c physical)" -eq 2
if [ -r scripts/collect.sh ]; then
	# shellcheck disable=SC2016 # $1 is for the inner shell
	check "results.sh: collect.sh reads its blocks back" \
		sh -c 'sh scripts/collect.sh "$1" | grep -q -- "-c 0\.01"' sh "$md"
else
	skip "results.sh: collect.sh reads its blocks back" "no scripts/collect.sh here yet"
fi

# results_usage ARGS...: exit 2, one line on stderr, nothing on stdout.
results_usage() {
	sh scripts/results.sh "$@" >"$tmp/out" 2>"$tmp/err"
	[ "$?" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]
}
check "results.sh: no -o is a usage error" results_usage -q
check "results.sh: -c abc is a usage error" results_usage -c abc -o "$tmp/r"
check "results.sh: -c '' is a usage error, not the default size" results_usage -c "" -o "$tmp/r"
check "results.sh: an unknown option is a usage error" results_usage -z -o "$tmp/r"
check "results.sh: -o without a value is a usage error" results_usage -o
check "results.sh -h: the usage" sh -c 'sh scripts/results.sh -h | grep -q "^usage: "'

# links: every relative link of the Markdown files, a line each:
# FILE<tab>TARGET<tab>PATH<tab>ANCHORED, PATH the target's file relative
# to FILE, ANCHORED 1 when the #anchor (if any) of a Markdown target is
# one of the slugs its headings make, GitHub's way, 0 when not, and -
# when there is nothing to find.  One awk for all of them.
links() {
	set --
	for md in README.md docs/*.md docs/results/*.md; do
		[ -r "$md" ] && set -- "$@" "$md"
	done
	awk '
	function slugs(path,    line, s) {
		if (path in read)
			return
		read[path] = 1
		while ((getline line <path) > 0)
			if (line ~ /^#+ /) {
				s = tolower(line); sub(/^#+ /, "", s)
				gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s)
				slug[path, s] = 1
			}
		close(path)
	}
	{
		line = $0
		while (match(line, /\]\([^)]*\)/)) {
			target = substr(line, RSTART + 2, RLENGTH - 3)
			line = substr(line, RSTART + RLENGTH)
			if (target ~ /^(https?|mailto):/)
				continue
			path = target; sub(/#.*/, "", path)
			dir = FILENAME; if (!sub(/\/[^\/]*$/, "", dir)) dir = "."
			path = path == "" ? FILENAME : dir "/" path
			anchored = "-"
			if (target ~ /#/ && path ~ /\.md$/) {
				slugs(path)
				anchor = target; sub(/^[^#]*#/, "", anchor)
				anchored = (path, anchor) in slug
			}
			printf "%s\t%s\t%s\t%s\n", FILENAME, target, path, anchored
		}
	}' "$@"
}

# resolves PATH ANCHORED: the target is there, and so is its anchor.
resolves() {
	[ -e "$1" ] && [ "$2" != 0 ]
}

# a failing link check shows no command's stderr
: >"$tmp/cmd"
: >"$tmp/err"
links >"$tmp/links"
check "the docs have relative links to check" test -s "$tmp/links"
while IFS="$tab" read -r file target path anchored; do
	check "link in $file: $target" resolves "$path" "$anchored"
done <"$tmp/links"

# stands_alone: no file of the repository (git's tracked files, else
# every file outside .git) names the notes kept beside a checkout, up a
# directory or under /work: the repository stands alone.  The pattern
# is written so that this file does not match it; the lines found go to
# $tmp/err, so a failure shows them.
stands_alone() {
	pat='(\.\./)+shared|/work/(shared)'
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git grep -nE "$pat" >"$tmp/err"
	else
		find . -name .git -prune -o -type f -exec grep -nE "$pat" {} + >"$tmp/err"
	fi
	[ ! -s "$tmp/err" ]
}
: >"$tmp/cmd"
check "no file names a path outside the repository" stands_alone

check "README.md is at most 200 lines" test "$(wc -l <README.md)" -le 200
check "README.md has no line over 80 columns" \
	sh -c '! LC_ALL=C awk "length > 80" README.md | grep -q .'
