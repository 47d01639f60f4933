#!/bin/sh
# A property test of the scripts that read scan's CSV (plot.sh, and
# sweep.sh --from, sweep's table): real tiny CSVs from scan, mutated at
# random (seeded, so a failure reruns: MUTATE_SEED=S), each fed to both
# under a memory limit and a timeout.  Each must exit 0 with sane output
# (an SVG that parses, a table of numbers), or exit 1 with nothing on
# stdout and one line on stderr naming the file (and the line, for a bad
# row); never a runaway, a hang, or exit 0 on a CSV it cannot read.
. tests/lib.sh

seed0=${MUTATE_SEED:-2301}
tries=${MUTATE_TRIES:-2}	# seeds a kind of mutation, a CSV each (more: a longer run)
"$SCAN" -c 0.01 -r 2 -s 1 --format=csv >"$tmp/scan.csv" 2>/dev/null
scripts/sweep.sh -n 2 -o "$tmp/sweep.csv" -r 1 -s 1 0.01 0.02 >/dev/null 2>&1
# svg_ok FILE: it parses (lib.sh's xml_ok), where a parser is here
svg_ok() {
	if have xmllint || have python3; then
		xml_ok "$1"
	else
		grep -q '</svg>' "$1"
	fi
}

# mutate KIND SEED IN OUT: OUT is IN mutated; prints the line a refusal
# must name ("" when any refusal will do, "ok" when none may happen, and
# "read LINE" when a refusal must name LINE if the script reads that
# column).
mutate() {
	awk -F, -v OFS=, -v kind="$1" -v seed="$2" -v out="$4" '
	{ line[NR] = $0 }
	function pick(lo, hi) { return lo + int(rand() * (hi - lo + 1)) }
	function num(v) { return v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ }
	function emit(    i) { for (i = 1; i <= n; i++) print line[i] > out }
	END {
		srand(seed); n = NR
		nf = split(line[1], head, ",")
		r = pick(2, n)
		split(line[r], f, ",")
		if (kind == "cut") {	# rows cut, maybe all of them
			for (k = pick(1, n - 1); k > 0; k--) {
				j = pick(2, n)
				for (i = j; i < n; i++) line[i] = line[i + 1]
				n--
			}
			say = ""
		} else if (kind == "drop" || kind == "swap") {	# a column, in every line
			a = pick(1, nf); b = pick(1, nf)
			for (i = 1; i <= n; i++) {
				m = split(line[i], f, ",")
				if (kind == "swap") { t = f[a]; f[a] = f[b]; f[b] = t }
				s = ""
				for (j = 1; j <= m; j++)
					if (kind == "swap" || j != a) s = s (s == "" ? "" : ",") f[j]
				line[i] = s
			}
			say = kind == "swap" ? "ok" : ""
		} else if (kind == "header") {	# two CSVs joined with cat
			for (i = n + 1; i > r; i--) line[i] = line[i - 1]
			line[r] = line[1]; n++
			say = r
		} else if (kind == "text" || kind == "empty") {	# in a number
			do c = pick(1, nf); while (!num(f[c]) && ++tries < 100)
			f[c] = kind == "text" ? "x" int(rand() * 1000) : ""
			s = f[1]
			for (j = 2; j <= nf; j++) s = s "," f[j]
			line[r] = s
			say = "read " r " " head[c]
		} else if (kind == "ragged") {	# a field more or less
			line[r] = rand() < 0.5 ? line[r] ",1" : substr(line[r], 1, match(line[r], /,[^,]*$/) - 1)
			say = r
		} else if (kind == "truncate") {	# the file cut off in a line
			k = pick(1, length(line[n]) - 1)
			line[n] = substr(line[n], 1, k)
			say = ""
		} else if (kind == "dup") {	# a row twice
			line[++n] = line[r]
			say = ""
		}
		emit()
		print say
	}' "$3"
}

# try SCRIPT EXPECT: the mutated CSV $tmp/m.csv through SCRIPT, EXPECT
# what mutate printed; prints why it failed, nothing when it held
try() {
	script=$1 expect=$2
	case $script in
	plot) cmd="scripts/plot.sh $tmp/m.csv" reads="speedup speedup_min speedup_max speedup_q1 speedup_q3 memory_bytes" ;;
	sweep) cmd="scripts/sweep.sh --from=$tmp/m.csv" reads="speedup pages memory_bytes" ;;
	esac
	# shellcheck disable=SC2086,SC3045 # $cmd is a command; ulimit -v: dash, bash, BusyBox sh
	( ulimit -v 300000; exec timeout 10 $cmd ) >"$tmp/m.out" 2>"$tmp/m.err"
	rc=$?
	case $expect in
	"read "*)
		column=${expect##* } expect=${expect#read }
		case " $reads " in *" $column "*) expect=${expect%% *} ;; *) expect="" ;; esac ;;
	esac
	case $rc in
	0)
		[ "$expect" = "" ] || [ "$expect" = ok ] || { echo "exit 0 on a CSV bad at line $expect"; return; }
		if [ "$script" = plot ]; then
			if ! svg_ok "$tmp/m.out" || grep -Eqi 'nan|inf[^o]' "$tmp/m.out"; then
				echo "exit 0 with an SVG that does not parse or holds nan/inf"
			fi
		else
			# the table, without its notes and the warnings' footnote
			awk 'NR > 1 && /^scan warned/ { stop = 1 } stop || NR == 1 || /^(each|caches):/ { next }
				!/^ +[0-9.e+-]+ +[0-9.]+ [KMGT]?i?B( +[-0-9.() ,]+)+( +[a-z][a-z -]*)?$/ { bad = 1 }
				END { exit !bad }' "$tmp/m.out" &&
				echo "exit 0 with a table row that is not numbers: $(sed -n 2p "$tmp/m.out")"
		fi ;;
	1)
		[ "$expect" != ok ] || { echo "refused a CSV with nothing wrong: $(cat "$tmp/m.err")"; return; }
		nlines "$tmp/m.err"
		if [ -s "$tmp/m.out" ] || [ "$count" -ne 1 ] ||
		    ! grep -q "^$script.sh: $tmp/m.csv " "$tmp/m.err"; then
			echo "exit 1 without one line naming the file: $(head -n 2 "$tmp/m.err")"
			return
		fi
		[ -z "$expect" ] || grep -q "^$script.sh: $tmp/m.csv line $expect: " "$tmp/m.err" ||
			echo "did not name line $expect: $(cat "$tmp/m.err")" ;;
	*)
		echo "exit $rc (a hang, a runaway or a crash): $(head -n 2 "$tmp/m.err")" ;;
	esac
}

# Each seed's mutant goes through both scripts; a failure says how to
# rerun it.  plot_held and sweep_held: 0 when every seed held.
for kind in cut drop swap header text empty ragged truncate dup; do
	plot_held=0 sweep_held=0 s=$seed0
	while [ "$s" -lt $((seed0 + tries)) ]; do
		csv=scan	# odd seeds mutate scan's CSV, even ones sweep's
		[ $((s % 2)) -eq 1 ] || csv=sweep
		expect=$(mutate "$kind" "$s" "$tmp/$csv.csv" "$tmp/m.csv")
		for script in plot sweep; do
			why=$(try "$script" "$expect")
			[ -z "$why" ] && continue
			echo "# $script.sh, $csv.csv, MUTATE_SEED=$s: $why"
			case $script in plot) plot_held=1 ;; *) sweep_held=1 ;; esac
		done
		s=$((s + 1))
	done
	check "mutate: plot.sh on CSVs with $kind mutations" [ "$plot_held" -eq 0 ]
	check "mutate: sweep.sh on CSVs with $kind mutations" [ "$sweep_held" -eq 0 ]
done
# a swap of whole columns changes nothing a reader by name sees
mutate swap 7 "$tmp/sweep.csv" "$tmp/swapped.csv" >/dev/null
scripts/plot.sh "$tmp/sweep.csv" >"$tmp/a.svg" 2>&1
scripts/plot.sh "$tmp/swapped.csv" >"$tmp/b.svg" 2>&1
check "mutate: columns swapped, the same chart" cmp -s "$tmp/a.svg" "$tmp/b.svg"
