# explain-step.awk - one step's rows from scan's CSV (FS and OFS ","),
# with explain.sh's columns: step, adds, options first (-v n, name), run
# and warnings last (-v run, warned); the header into ENVIRON head.
# ENVIRON opts: the step's own options (plain text, commas as spaces).
BEGIN {
	head = ENVIRON["head"]
	opts = plain(ENVIRON["opts"])
	gsub(/,/, " ", opts)
}
function refuse() {
	print "explain.sh: step " n ": scan printed no scan CSV" > "/dev/stderr"
	bad = 1
	exit 1
}
NR == 1 { csv_header(); print "step,adds,options," $0, "run", "warnings" >head }
!csv_has("walk") || !csv_has("speedup") || !csv_has("pages") { refuse() }
NR == 1 { next }
{ print n "," name "," opts "," plain($0), run, warned }
END { if (!bad && NR < 2) refuse() }
