# shellcheck shell=sh
# Helpers for the tests: each t-*.sh sources this file, runs checks with
# check(), and prints TAP-like "ok N name" / "not ok N name" lines, and
# "ok N name # SKIP reason" for a check this machine cannot make.

SCAN=${SCAN:-./scan}
export SCAN		# the scripts under test run the same binary
# The LLC as sysfs, CPUID or getconf say, with no chase to measure it
# (scan.1, SCAN_LLC_PROBE): the suite's thousand tiny runs would each pay
# 0.15-0.4 s for it; t-identity, which checks the chase, unsets it.
SCAN_LLC_PROBE=${SCAN_LLC_PROBE-off}
export SCAN_LLC_PROBE
# A scan that runs this long has hung: every test size takes well under
# a second anywhere, so this only catches hangs, never a slow host.
HANG_S=${HANG_S:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
n=0
# What the files of one suite share (see fixture): run.sh makes the
# directory and removes it at the end; a file run alone has its own.
cache=${TEST_CACHE:-$tmp/cache}
mkdir -p "$cache"
# python3 found once a suite: a version manager's shim (pyenv) would
# start a shell and a dozen processes to find it at every call.
if [ -n "${TEST_PYTHON3:-}" ]; then
	python3() { "$TEST_PYTHON3" "$@"; }
fi
: >"$tmp/cmd"
: >"$tmp/err"

# check NAME CMD...: one test line, ok when CMD succeeds.  A failure
# names the last scan run() ran and shows that run's own stderr.
check() {
	name=$1
	shift
	n=$((n + 1))
	# printf, not echo: a name's backslashes ("\1" in a sed script) stay
	if "$@"; then
		printf 'ok %s %s\n' "$n" "$name"
	else
		printf 'not ok %s %s\n' "$n" "$name"
		[ -s "$tmp/cmd" ] && sed 's/^/#   command: /' "$tmp/cmd"
		[ -s "$tmp/err" ] && sed 's/^/#   stderr: /' "$tmp/err" | head -n 3
	fi
	return 0
}

# skip NAME REASON: a check this machine cannot make, counted apart.
skip() {
	n=$((n + 1))
	printf 'ok %s %s # SKIP %s\n' "$n" "$1" "$2"
}

# have TOOL: the tool is on PATH.
have() {
	command -v "$1" >/dev/null 2>&1
}

# run ARGS...: run scan, keeping stdout, stderr and the exit status; a
# hang is cut off after HANG_S seconds (exit 124).
run() {
	run_cmd "$SCAN" "$@"
}

# run_cmd CMD ARGS...: the same for any command (a script under test).
run_cmd() {
	echo "$*" >"$tmp/cmd"
	if have timeout; then
		timeout "$HANG_S" "$@" >"$tmp/out" 2>"$tmp/err"
	else
		"$@" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
}

# refused STATUS CMD ARGS...: CMD exits STATUS with nothing on stdout
# and one line on stderr.
refused() {
	want=$1
	shift
	run_cmd "$@"
	[ "$rc" -eq "$want" ] && [ ! -s "$tmp/out" ] &&
		nlines "$tmp/err" && [ "$count" -eq 1 ]
}

# usage_error ARGS...: scan exits 2, nothing on stdout, one line on stderr.
usage_error() {
	refused 2 "$SCAN" "$@"
}

# bad NAME ARGS...: a check that ARGS are a usage error.
bad() {
	name=$1
	shift
	check "usage error: $name" usage_error "$@"
}

# out_has REGEX...: stdout has a line matching each extended regex.
out_has() {
	for re in "$@"; do
		grep -Eq -- "$re" "$tmp/out" || return 1
	done
}

# err_has REGEX: stderr has a line matching the extended regex.
err_has() {
	grep -Eq -- "$1" "$tmp/err"
}

# nlines FILE: sets count to FILE's lines as wc -l counts them (a last
# line without a newline is not one), counted by the shell itself: a
# check's few lines cost less than starting wc.
nlines() {
	count=0
	while IFS= read -r _; do
		count=$((count + 1))
	done <"$1"
}

# lines N: stdout has exactly N lines.
lines() {
	nlines "$tmp/out" && [ "$count" -eq "$1" ]
}

# same A B: both set and equal.
same() {
	[ -n "$1" ] && [ "$1" = "$2" ]
}

# fingerprint: the LRU fingerprint of the last run (-vvv).
fingerprint() {
	sed -n 's/^LRU fingerprint \([0-9a-f]*\).*/\1/p' "$tmp/out"
}

# folios: the number of LRU folios on the -v model line.
folios() {
	sed -n 's/^model: \([0-9]*\) LRU folios.*/\1/p' "$tmp/out"
}

# totals_exact [N]: N walks (default 3) printed total = n(n-1)/2 for the
# n folios on the LRU (-vvv).
totals_exact() {
	nr=$(folios)
	[ -n "$nr" ] || return 1
	want=$(awk -v n="$nr" 'BEGIN { printf "%.0f", n * (n - 1) / 2 }')
	[ "$(grep -c "^total = $want\$" "$tmp/out")" -eq "${1:-3}" ]
}

# csv_col FILE NAME: the values of CSV FILE's column NAME, a line a row;
# nothing (and status 1) when FILE has no such column.
csv_col() {
	awk -F, -v name="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; if (!c) exit 1; next }
	{ print $c }' "$1"
}

# csv_first FILE NAME...: the first row's values of those columns, one
# line, a space after each.
csv_first() {
	f=$1
	shift
	for name in "$@"; do
		printf '%s ' "$(csv_col "$f" "$name" | head -n 1)"
	done
}

# csv_ok FILE ROWS: a header, ROWS rows, the same number of fields in
# each, and the documented columns.
csv_ok() {
	awk -F, -v rows="$2" '
	NR == 1 {
		nf = NF
		for (i = 1; i <= NF; i++)
			col[$i] = 1
		split("walk label pages memory_bytes seed rounds timed median_s min_s max_s ns_per_page ns_per_folio speedup speedup_min speedup_max bound bound_ns bound_ratio retimed disturbed lru_fraction non_lru folios phys locality access lists chunk threads rmap_share rmap_hops struct_page thp huge_share cache cpu kernel", need, " ")
		for (i in need)
			if (!(need[i] in col)) {
				print "# missing column " need[i]
				bad = 1
			}
		next
	}
	NF != nf { print "# row " NR " has " NF " fields"; bad = 1 }
	END { exit bad || NR != rows + 1 }' "$1"
}

# plain FILE...: no control byte but newline, and valid UTF-8, in every
# FILE: one grep in C.UTF-8, where a byte of no valid character matches
# no bracket expression, so a line not all of non-control characters
# holds a control byte or a bad one.  Where grep has no such locale, the
# three tools a file it took before.
plain() {
	if [ -z "${utf8_grep:-}" ]; then	# asked once a file
		utf8_grep=no
		printf 'a\377\n' | LC_ALL=C.UTF-8 grep -aqvxE '[^[:cntrl:]]*' && utf8_grep=yes
	fi
	if [ "$utf8_grep" = yes ]; then
		! LC_ALL=C.UTF-8 grep -aqvxE '[^[:cntrl:]]*' "$@"
		return
	fi
	for f; do
		! tr -d '\n' <"$f" | LC_ALL=C grep -q '[[:cntrl:]]' &&
			! LC_ALL=C.UTF-8 grep -q '[[:cntrl:]]' "$f" &&
			iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 || return 1
	done
}

# xml_ok FILE...: every FILE parses as XML (xmllint, else python3's).
xml_ok() {
	if have xmllint; then
		xmllint --noout "$@" 2>/dev/null
	else
		python3 -c 'import sys, xml.dom.minidom as m
for f in sys.argv[1:]: m.parse(f)' "$@" 2>/dev/null
	fi
}

# kpageflags FILE N: FILE, a kpageflags of N order-0 LRU pfns (bit 5), for
# replays and snapshot --summary.
kpageflags() {
	: >"$1"
	k=0
	while [ "$k" -lt "$2" ]; do	# printf: a builtin, no process a pfn
		printf '\040\000\000\000\000\000\000\000' >>"$1"
		k=$((k + 1))
	done
}

# fake_yardstick FILE: a program that prints the yardstick's ratio line.
fake_yardstick() {
	printf '#!/bin/sh\necho "ratio 10 2"\n' >"$1"
	chmod +x "$1"
}

# fixture NAME CMD...: what NAME names, made once a suite: CMD runs in
# the directory $cache/NAME, made for it, the first time any file asks
# (a file that asks while another lane makes it waits); every later ask
# finds it made.  Sets $fixture to the directory; status 1 when CMD
# failed, with its output in $fixture.log.  CMD may read $SCAN and the
# tree, never the asking file's $tmp: the same NAME must mean the same
# thing to every file.
fixture() {
	fixture=$cache/$1
	shift
	if mkdir "$fixture" 2>/dev/null; then
		(cd "$fixture" && "$@") >"$fixture.log" 2>&1
		echo $? >"$fixture.rc.$$"
		mv "$fixture.rc.$$" "$fixture.rc"
	fi
	waited=0
	while [ ! -f "$fixture.rc" ] && [ "$waited" -lt "$((HANG_S * 10))" ]; do
		sleep 0.1 2>/dev/null || sleep 1
		waited=$((waited + 1))
	done
	made=1
	[ -f "$fixture.rc" ] && read -r made <"$fixture.rc"
	[ "$made" = 0 ]
}

# build NAME CC_AND_FLAGS...: scan.c built once a suite with that
# compiler and those flags, as $fixture/scan (fixture's status).
build() {
	name=$1
	shift
	fixture "build-$name" "$@" -o scan "$PWD/scan.c"
}

# The pieces of a hostile value (t-inject's), by name: a command
# substitution, backticks, quotes, ; | * =, a space, a newline, a tab,
# backslashes, a leading dash, a 200-byte word, control bytes, invalid
# UTF-8, a C1 control, a valid é and the empty value.  The ones that
# would run code touch canary1 to canary4 in the working directory.
# shellcheck disable=SC2034 # read by the files that source this one
inject_pieces="subst tick dquote squote semi pipe star eq space newline tab backslash dash long esc bs ctl bad c1 utf8 empty"

# inject_value PIECE...: sets val to x and the pieces' bytes after it.
inject_value() {
	val=x
	for p; do
		case $p in
		subst) val="$val\$(touch canary1)" ;;
		tick) val="$val\`touch canary2\`" ;;
		dquote) val="$val\"" ;;
		squote) val="$val'" ;;
		semi) val="$val;touch canary3;" ;;
		pipe) val="$val|touch canary4|" ;;
		star) val="$val*" ;;
		eq) val="a=$val=" ;;
		space) val="$val x" ;;
		newline) val="$val
x" ;;
		tab) val="$val	x" ;;
		backslash) val="$val\\b\\n\\" ;;
		dash) val="-$val" ;;
		long) val="$val$(printf '%0200d' 0)" ;;
		esc) val="$val$(printf '\033[31m')" ;;
		bs) val="$val$(printf '\010')" ;;
		ctl) val="$val$(printf '\001\177')" ;;
		bad) val="$val$(printf '\377\300\200')" ;;
		c1) val="$val$(printf '\302\233')" ;;
		utf8) val="$val$(printf '\303\251')" ;;
		empty) val="" ;;
		esac
	done
}

# nap: a short pause where sleep takes fractions, a second elsewhere.
nap() {
	sleep 0.1 2>/dev/null || sleep 1
}

# state PID: the process's state letter (T stopped, Z exited), or
# nothing; read by the shell, as it is read ten times a second.
state() {
	stat_line=
	{ IFS= read -r stat_line <"/proc/$1/stat"; } 2>/dev/null
	stat_line=${stat_line##*) }
	echo "${stat_line%% *}"
}

# unit_tests NAME WHAT LABEL: tests/unit-NAME.c (a C program that
# includes scan.c and prints TAP) built and run: checks that WHAT's unit
# built, ran to its end and gave a line for each case of its plan, then
# one check a line, named "LABEL: " and the line's own words.  False
# where it could not be built (no compiler: skipped, said).
unit_tests() {
	if ! have "${CC:-cc}"; then
		skip "$2 unit" "no C compiler (${CC:-cc})"
		return 1
	fi
	if ! "${CC:-cc}" -O0 -pthread -I. -o "$tmp/unit-$1" "tests/unit-$1.c" 2>"$tmp/cc.err"; then
		cp "$tmp/cc.err" "$tmp/err"
		check "$2 unit builds" false
		return 1
	fi
	"$tmp/unit-$1" >"$tmp/unit.out" 2>"$tmp/err"
	check "$2 unit ran to its end" [ "$?" -eq 0 ]
	unit_plan=$(sed -n '1s/^1\.\.//p' "$tmp/unit.out")
	grep '^\(not \)\{0,1\}ok ' "$tmp/unit.out" >"$tmp/cases"
	check "$2 unit: a line a case of its plan" [ "$(grep -c '' "$tmp/cases")" -eq "${unit_plan:-0}" ]
	while IFS= read -r unit_line; do
		case $unit_line in
		"ok "*) check "$3: ${unit_line#ok [0-9]* }" true ;;
		*) check "$3: ${unit_line#not ok [0-9]* }" false ;;
		esac
	done <"$tmp/cases"
}

# stop_seam: $stop_scan, a build with the stop seam
# (-DSCAN_STOP_IN_WALK='"list"': scan stops itself as its timing of
# ListLRU starts); false, a failed check, where it does not build.
stop_seam() {
	if ! build stop-list "${CC:-cc}" -O0 -pthread '-DSCAN_STOP_IN_WALK="list"'; then
		cp "$fixture.log" "$tmp/err"
		check "the stop seam builds" false
		return 1
	fi
	stop_scan=$fixture/scan
}

# run_stopped ARGS...: run $stop_scan (a build with the stop seam,
# -DSCAN_STOP_IN_WALK: t-original.sh, t-retime.sh); each time it stops,
# leave it stopped a moment, then continue it.  Sets rc and stops.
# shellcheck disable=SC2154 # stop_scan: set by the file that builds it
run_stopped() {
	echo "$stop_scan $*" >"$tmp/cmd"
	"$stop_scan" "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	stops=0
	polls=0
	while [ "$polls" -lt 1200 ]; do	# 2 minutes at most: a hang
		case $(state "$pid") in
		T)
			stops=$((stops + 1))
			nap
			kill -CONT "$pid"
			;;
		Z | '') break ;;
		esac
		polls=$((polls + 1))
		nap
	done
	kill -CONT "$pid" 2>/dev/null
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
}

# walk_col FILE WALK NAME: column NAME of WALK's row in a CSV.
walk_col() {
	awk -F, -v walk="$2" -v name="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "walk") w = i; if ($i == name) c = i }; next }
	w && c && $w == walk { print $c }' "$1"
}
