#!/bin/sh
# The installed scripts' man pages, scripts/scan-NAME.1: every option a
# script's -h lists or its option parser accepts is in the page's
# OPTIONS, -h's synopsis is the page's SYNOPSIS, the page lints clean.
. tests/lib.sh

# shellcheck disable=SC2016 # $(SCRIPTS) is for make
scripts=$(printf 'print-scripts:\n\t@echo $(SCRIPTS)\n' |
	make -s --no-print-directory -f Makefile -f - print-scripts)
check "the Makefile names its scripts" [ -n "$scripts" ]

# help_synopsis NAME: the words of -h's usage lines, run as scan-NAME
# (sudo, a note for the reader, is not part of the command).
help_synopsis() {
	sed -n '/^usage: /,/^$/p' "$tmp/help" | sed 's/^usage: //' |
		tr -s '[:blank:]' '[\n*]' | grep -v -e '^$' -e '^sudo$' |
		sed "s|^\\([^ ]*/\\)\\{0,1\\}$1\\.sh\$|scan-$1|"
}

# page_synopsis PAGE: the words of the page's SYNOPSIS, as man shows it.
page_synopsis() {
	groff -man -Tascii -P-cbou -rLL=250n -rHY=0 "$1" 2>/dev/null |
		sed -n '/^SYNOPSIS/,/^[A-Z]/p' | sed '1d;$d' | tr -s '[:blank:]' '[\n*]' | grep -v '^$'
}

# help_options: the options -h names: in the synopsis, and first on an
# indented line of the option list.
help_options() {
	{
		sed -n '/^usage: /,/^$/p' "$tmp/help" | tr -s '[:blank:]' '[\n*]' |
			sed 's/^\[//; s/\]*\(\.\.\.\)\{0,1\}$//'
		sed -n 's/^ \{1,\}\(-[^ ,=]*\).*/\1/p; s/^ \{1,\}-[A-Za-z0-9], \(--[^ ,=]*\).*/\1/p' "$tmp/help"
	} | grep -E '^--?[A-Za-z0-9][A-Za-z0-9-]*$'
}

# parser_options SCRIPT: what its option parser accepts: getopts' letters
# and the arms of its case statements that are options (-o, --x=*).
parser_options() {
	sed -n "s/.*getopts [\"']\\{0,1\\}:\\{0,1\\}\\([A-Za-z0-9:]*\\).*/\\1/p" "$1" |
		tr -d ':' | fold -w 1 | sed 's/^/-/'
	sed -n 's/^[ 	]*\(-[^)]*\)).*/\1/p' "$1" | tr '|' '\n' | tr -d ' \t' |
		sed 's/=\*$//; s/\*$//' | grep -E '^--?[A-Za-z0-9][A-Za-z0-9-]*$'
}

# not_on_page PAGE: of the options on stdin, a line each, those not in
# PAGE's OPTIONS section as groff source writes them (\- or -), not as
# the start of a longer word; each after a space, on one line.
not_on_page() {
	awk -v page="$1" '
	BEGIN {
		while ((getline line <page) > 0) {
			if (line ~ /^\.SH /)
				in_options = line ~ /^\.SH OPTIONS/
			if (!in_options)
				continue
			gsub(/\\-/, "-", line)	# \- is -
			text = text line "\n"
		}
	}
	{
		rest = text
		found = 0
		while (!found && (k = index(rest, $0)) > 0) {
			after = substr(rest, k + length($0), 1)
			found = after !~ /[A-Za-z0-9_-]/
			rest = substr(rest, k + 1)
		}
		if (!found)
			printf " %s", $0
	}'
}

# page_options PAGE: the options the page's OPTIONS section lists (the
# first line after each .TP), as the script spells them, a line each.
page_options() {
	awk '/^\.SH / { in_options = /^\.SH OPTIONS/ }
	in_options && tp {
		line = $0
		while (match(line, /\\-(\\-)?[A-Za-z0-9][A-Za-z0-9\\-]*/)) {
			o = substr(line, RSTART, RLENGTH)
			gsub(/\\-/, "-", o)
			print o
			line = substr(line, RSTART + RLENGTH)
		}
	}
	{ tp = /^\.TP/ }' "$1"
}

# usage_shown STATUS: -h exited STATUS 0 and printed a usage line.
usage_shown() {
	[ "$1" -eq 0 ] && grep -q '^usage: ' "$tmp/help"
}

for s in $scripts; do
	page=scripts/scan-$s.1
	if [ ! -f "$page" ]; then
		check "scan-$s has a man page, $page" false
		continue
	fi
	"scripts/$s.sh" -h >"$tmp/help" 2>&1
	check "scan-$s -h: exit 0 and a usage line" usage_shown $?
	{ help_options; parser_options "scripts/$s.sh"; } | sort -u >"$tmp/accepted"
	missing=$(not_on_page "$page" <"$tmp/accepted")
	check "$page: every option of scan-$s in OPTIONS" [ -z "$missing" ]
	[ -z "$missing" ] || echo "#   missing:$missing"
	extra=$(page_options "$page" | sort -u | grep -vxF -f "$tmp/accepted" | tr '\n' ' ')
	extra=${extra:+ ${extra% }}
	check "$page: OPTIONS lists only what scan-$s accepts" [ -z "$extra" ]
	[ -z "$extra" ] || echo "#   not accepted:$extra"
	if have groff; then
		help_synopsis "$s" >"$tmp/want"
		page_synopsis "$page" >"$tmp/got"
		check "$page: SYNOPSIS is scan-$s -h's usage" cmp -s "$tmp/want" "$tmp/got"
		cmp -s "$tmp/want" "$tmp/got" ||
			echo "#   -h: $(tr '\n' ' ' <"$tmp/want")" "page: $(tr '\n' ' ' <"$tmp/got")"
		groff -man -ww -z "$page" >"$tmp/lint" 2>&1
		check "$page: groff -man -ww finds nothing" [ ! -s "$tmp/lint" ]
	else
		skip "$page: SYNOPSIS and lint" "no groff"
	fi
	check "$page: names the exit statuses" grep -q '^\.SH EXIT STATUS' "$page"
done

# and no page for a script make does not install
for page in scripts/scan-*.1; do
	[ -f "$page" ] || continue
	s=${page#scripts/scan-}
	s=${s%.1}
	check "$page: make installs scan-$s" sh -c "echo ' $scripts ' | grep -q ' $s '"
done
