#!/bin/sh
#/ report.sh - run scan and print a block ready to paste into a plain-text
#/ mail: the machine, the command, the original's two lines, the spread.
#/
#/ usage: scripts/report.sh [-h] [SCAN_OPTION...]
#/
#/ The options go to scan as they are (default: none, the original's run).
#/ The block is at most 72 columns wide and has no tabs.  SCAN names the
#/ binary (default ./scan).
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

case ${1:-} in
-h | --help) usage; exit 0 ;;
esac

need_scan report.sh
scratch

# One run: the data on stdout, -v's lines (the original's among them) on
# stderr.
rc=0
"$scan" "$@" --format=csv -v >"$tmp/csv" 2>"$tmp/text" || rc=$?
if [ "$rc" -ne 0 ]; then
	cat "$tmp/text" >&2
	exit "$rc"
fi

# The command as run, with the seed it used unless one was given, so the
# post can be rerun.
seeded=0
for a in "$@"; do
	case $a in -s*) seeded=1 ;; esac
done
cmd="$scan $*"
[ "$seeded" -eq 1 ] ||
	cmd="$cmd -s $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seed") c = i }
		NR == 2 { print $c }' "$tmp/csv")"

{
	awk -F, -v cmd="$cmd" "$awklib"'
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	NR == 2 {
		printf "scan %s on %s, %s CPUs, %s of RAM\n", $col["version"],
		    $col["cpu"], $col["cpus"], human($col["ram_bytes"], "%.1f")
		printf "kernel %s, THP %s (scan --thp=%s)\n", $col["kernel"],
		    $col["system_thp"], $col["thp"]
		printf "$ %s\n", cmd
	}
	{ row[NR] = $0 }
	END {
		for (r = 2; r <= NR; r++) {
			split(row[r], f, ",")
			nsp = sprintf("%.2f ns/page", f[col["ns_per_page"]])
			if (f[col["walk"]] == "physical") {
				printf "%s pages (%s simulated), %d%% in huge pages, %s rounds\n",
				    f[col["pages"]], human(f[col["memory_bytes"]], "%.1f"),
				    100 * f[col["huge_share"]], f[col["rounds"]]
				printf "Physical %s; ratios over rounds, median (range):\n", nsp
				continue
			}
			# an LRU walk per folio, as scan -vv and its bound say
			printf "  %s %.2f (%.2f to %.2f), %.2f ns/folio\n", f[col["label"]],
			    f[col["speedup"]], f[col["speedup_min"]], f[col["speedup_max"]],
			    f[col["ns_per_folio"]]
		}
	}' "$tmp/csv"
	grep '^Physical scan is' "$tmp/text"
	# a warning in one short line: what is wrong, not the advice
	sed -n 's/^scan: warning: \([^:;]*\).*/warning: \1/p' "$tmp/text"
} >"$tmp/block"		# not a pipe: a failing awk must fail the script

# Wrap at 72 columns between words, never inside a parenthesis: a line
# breaks at the last space outside one.  The command breaks with a
# backslash, so it can still be pasted into a shell.
tr '\t' ' ' <"$tmp/block" | awk '
{
	line = $0
	cmd = substr(line, 1, 2) == "$ "
	while (length(line) > 72) {
		cut = 0; depth = 0
		for (i = 1; i <= length(line); i++) {
			ch = substr(line, i, 1)
			if (ch == "(") depth++
			else if (ch == ")") depth--
			else if (ch == " " && depth == 0 && i <= 73 - 2 * cmd) cut = i
		}
		if (!cut)
			break
		print substr(line, 1, cut - 1) (cmd ? " \\" : "")
		line = "  " substr(line, cut + 1)
	}
	print line
}' | sed 's/ *$//'
