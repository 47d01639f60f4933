#!/bin/sh
# A knob is its row in scan.c's option table, and a column is its row
# in the field table: scan says both (-h lists every option, --fields
# every column with its scope), so a knob added by the recipe cannot
# miss its page, and CSV, JSON and --fields cannot disagree.
. tests/lib.sh

# opts: "SHORT LONG" per option of -h ("-" where it has none).
run -h
awk '/^options:/ { t = 1; next }
t && !NF { exit }
t && /^  -/ {
	s = "-"; l = "-"
	if ($1 ~ /^-[A-Za-z],?$/) { s = substr($1, 2, 1); if ($2 ~ /^--/) l = $2 }
	else l = $1
	sub(/^--/, "", l); sub(/=.*/, "", l)
	print s, l
}' "$tmp/out" >"$tmp/opts"
check "-h lists more than 30 options" [ "$(wc -l <"$tmp/opts")" -gt 30 ]

# in_page SHORT LONG: a tag line of scan.1 (.B, .BI, .BR) names the
# option (the page's \- read as -).
sed 's/\\-/-/g' scan.1 >"$tmp/page"
in_page() {
	o=--$2
	[ "$2" = - ] && o=-$1
	grep -Eq -- "^\.B[IR]? (.* )?\"?$o([ \"=]|\$)" "$tmp/page"
}
while read -r short long; do
	opt=--$long
	[ "$long" = - ] && opt=-$short
	check "option $opt: in scan.1" in_page "$short" "$long"
done <"$tmp/opts"

# fields: "NAME SCOPE" per column of --fields, in column order.
run --fields
check "--fields: exit 0" [ "$rc" -eq 0 ]
check "--fields: a line per column, over 60" [ "$(wc -l <"$tmp/out")" -gt 60 ]
awk '{ print $1, $2 }' "$tmp/out" >"$tmp/fields"
cp "$tmp/out" "$tmp/fields-out"
check "--fields: every scope is run, machine, knob or walk" \
	sh -c "! awk '\$2 !~ /^(run|machine|knob|walk)\$/' '$tmp/fields' | grep -q ."
# knob_option NAME: the option a knob column says it comes from.
knob_option() {
	awk -v n="$1" '$1 == n { sub(/:$/, "", $3); print $3 }' "$tmp/fields-out"
}
awk '$2 == "knob" { print $1 }' "$tmp/fields" >"$tmp/knobs"
while read -r name; do
	o=$(knob_option "$name")
	check "knob column $name: from $o, an option -h lists" \
		grep -Eq -- "^(${o#-} -|- ${o#--})\$" "$tmp/opts"
done <"$tmp/knobs"

run -c 0.01 -r 1 -s 1 --format=csv
head -n 1 "$tmp/out" | tr , '\n' >"$tmp/header"
awk '{ print $1 }' "$tmp/fields" >"$tmp/names"
check "the CSV header is --fields' names, in order" cmp -s "$tmp/names" "$tmp/header"
# docs/output.md's table of columns names each in its first cell, in
# column order: a column added, or one moved, shows there
awk '/^\| column \| meaning \|/ { t = 1; next }
t && !/^\|/ { exit }
t && /^\| `/ { split($0, c, "|"); n = split(c[2], w, "`"); for (i = 2; i <= n; i += 2) print w[i] }' \
	docs/output.md >"$tmp/documented"
check "docs/output.md's table names every column, in --fields' order" \
	cmp -s "$tmp/names" "$tmp/documented"

# JSON: the run's members at the top, in order, then each walk's.
run -c 0.01 -r 1 -s 1 --format=json
sed -n 's/^  "\([a-z_0-9]*\)": .*/\1/p' "$tmp/out" >"$tmp/top"
sed -n 's/^      "\([a-z_0-9]*\)": .*/\1/p' "$tmp/out" >"$tmp/walks"
{ awk '$2 != "walk" { print $1 }' "$tmp/fields"; echo walks; echo warnings; } >"$tmp/want-top"
awk '$2 == "walk" { print $1 }' "$tmp/fields" >"$tmp/walk"
cat "$tmp/walk" "$tmp/walk" "$tmp/walk" >"$tmp/want-walks"
check "JSON's top level: the columns that are not a walk's, in order, then walks, then warnings" \
	cmp -s "$tmp/want-top" "$tmp/top"
check "JSON's walks: each the walk columns, in order" \
	cmp -s "$tmp/want-walks" "$tmp/walks"
