# explain-step.awk - one step's rows from scan's CSV (FS and OFS ","),
# with explain.sh's columns: step, adds, options first (-v n, name), run
# last (-v run), after scan's (its warnings among them); the header into
# ENVIRON head.
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
NR == 1 { csv_header(); print "step,adds,options," $0, "run" >head }
!csv_has("walk") || !csv_has("speedup") || !csv_has("pages") { refuse() }
NR == 1 { next }
{ print n "," name "," opts "," plain($0), run }
END { if (!bad && NR < 2) refuse() }
