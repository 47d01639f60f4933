# usage.awk - a script's -h: its #/ header lines, with scripts/NAME.sh as
# it was run (ENVIRON prog; installed, every scripts/X.sh as scan-X), the
# synopsis's further lines moved to stay under its options, and the scan
# this copy would run (ENVIRON scan, from).  Values come from ENVIRON, not
# -v, which would read their backslashes as escapes.
BEGIN {
	self = ENVIRON["self"]; prog = ENVIRON["prog"]
	installed = ENVIRON["installed"] != ""
}
function rename(s,    head, k) {
	if (!installed) {
		while ((k = index(s, self)) > 0) {
			head = head substr(s, 1, k - 1) prog
			s = substr(s, k + length(self))
		}
		return head s
	}
	while (match(s, /scripts\/[a-z-]+\.sh/)) {
		head = head substr(s, 1, RSTART - 1) "scan-" substr(s, RSTART + 8, RLENGTH - 11)
		s = substr(s, RSTART + RLENGTH)
	}
	return head s
}
!/^#\// { next }
{ sub(/^#\/ ?/, "") }
/^usage: / { shift = length(rename($0)) - length($0); synopsis = 1 }
# a line that goes on with the options moves; one naming a script
# again keeps the indent of "usage: "
synopsis && /^ / && !/scripts\/[a-z-]+\.sh/ && shift > 0 { $0 = sprintf("%" shift "s", "") $0 }
synopsis && /^ / && !/scripts\/[a-z-]+\.sh/ && shift < 0 { $0 = substr($0, 1 - shift) }
/^$/ { synopsis = 0 }
# the default scan spelled out, the line it lengthens folded at 79
# columns (the rest on a line of its own)
{
	line = rename($0)
	if (!gsub(/\(default \.\/scan\)/, "(default: scan beside this script, else the source tree's, else on PATH)", line)) {
		print plain(line)
		next
	}
	while (length(line) > 79) {
		for (cut = 80; cut > 1 && substr(line, cut, 1) != " "; cut--)
			;
		if (cut <= 1)
			break
		print plain(substr(line, 1, cut - 1))
		line = substr(line, cut + 1)
	}
	print plain(line)
}
END {
	print ""
	if (ENVIRON["from"] == "nowhere")
		print "scan: none found (set SCAN, or run make in the source tree)"
	else
		print plain("scan: " ENVIRON["scan"] " (" ENVIRON["from"] ")")
}
