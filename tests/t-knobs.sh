#!/bin/sh
# A knob is its row in scan.c's options[]: every row is documented in
# scan.1, and every row that names a CSV column (.csv) has it in the
# CSV header, so a knob added by the recipe above the table cannot
# miss its page or its column.
. tests/lib.sh

# rows: "SHORT LONG CSV" per row of options[] ("-" where it has none).
awk '
/^static const struct option_spec options\[\] = \{/ { t = 1; next }
t && /^\};/ { t = 0 }
t && /^\t\{ / { if (row != "") print_row(); row = $0; next }
t { row = row " " $0 }
END { if (row != "") print_row() }
function print_row(   s, l, c) {
	s = "-"; l = "-"; c = "-"
	if (match(row, /^\t\{ '\''[A-Za-z]'\''/))
		s = substr(row, RSTART + 4, 1)
	if (match(row, /^\t\{ [^,]*, "[a-z-]+"/)) {
		l = substr(row, RSTART, RLENGTH)
		sub(/^[^"]*"/, "", l)
		sub(/"$/, "", l)
	}
	if (match(row, /\.csv = "[a-z_]+"/)) {
		c = substr(row, RSTART + 8, RLENGTH - 9)
	}
	print s, l, c
	row = ""
}' scan.c >"$tmp/rows"

check "options[] read from scan.c: more than 30 rows" \
	[ "$(wc -l <"$tmp/rows")" -gt 30 ]

# in_page SHORT LONG: a tag line of scan.1 (.B, .BI, .BR) names the
# option (the page's \- read as -).
sed 's/\\-/-/g' scan.1 >"$tmp/page"
in_page() {
	o=--$2
	[ "$2" = - ] && o=-$1
	grep -Eq -- "^\.B[IR]? (.* )?\"?$o([ \"=]|\$)" "$tmp/page"
}

run -c 0.01 -r 1 -s 1 --format=csv
header=$(head -n 1 "$tmp/out")
# in_header NAME: a column of that name in the CSV header.
in_header() {
	case ",$header," in *",$1,"*) return 0 ;; esac
	return 1
}

while read -r short long csv; do
	opt=--$long
	[ "$long" = - ] && opt=-$short
	check "option $opt: in scan.1" in_page "$short" "$long"
	[ "$csv" = - ] ||
		check "option $opt: its column $csv in the CSV header" in_header "$csv"
done <"$tmp/rows"
