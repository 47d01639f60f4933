# sweep-rows.awk - one run's CSV from scan, with the sweep's column run
# (-v run) after scan's (its warnings column among them); ENVIRON
# want: the header of the runs before ("" for the first), what: the
# run, as -c 0.5 or --young=0.1.
BEGIN { want = ENVIRON["want"]; what = ENVIRON["what"] }
function fail(msg) {
	print "sweep.sh: " what ": " plain(msg) > "/dev/stderr"
	bad = 1
	exit 1
}
FNR == 1 {
	csv_header()
	nf = NF
	if (!csv_has("walk") || !csv_has("speedup") || !csv_has("pages") || !csv_has("struct_page"))
		fail("scan printed no scan CSV (its header: " substr($0, 1, 40) ")")
	if (want != "" && $0 != want)
		fail("scan printed another CSV header than the runs before")
	print plain($0), "run"
	next
}
NF != nf || csv_field("pages") !~ /^[0-9]+$/ || csv_field("speedup") !~ /^[0-9.]+$/ {
	fail("line " FNR " of what scan printed is not a row of its CSV")
}
{ print plain($0), run }	# the row scan gave, its verdicts included
END { if (!bad && FNR < 2) fail("scan printed no rows") }
