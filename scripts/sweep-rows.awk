# sweep-rows.awk - one run's CSV from scan, with the sweep's columns run,
# memmap_over_llc, cache_sized and warnings (-v run, warned); ENVIRON
# want: the header of the runs before ("" for the first), what: its -c.
BEGIN { want = ENVIRON["want"]; what = ENVIRON["what"] }
function fail(msg) {
	print "sweep.sh: -c " what ": " plain(msg) > "/dev/stderr"
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
	print plain($0), "run", "memmap_over_llc", "cache_sized", "warnings"
	next
}
NF != nf || csv_field("pages") !~ /^[0-9]+$/ || csv_field("speedup") !~ /^[0-9.]+$/ {
	fail("line " FNR " of what scan printed is not a row of its CSV")
}
{	# the memmap over the LLC scan saw, a flag under 4x, the warnings
	llc = csv_field("llc_bytes") + 0
	r = llc > 0 ? csv_field("pages") * csv_field("struct_page") / llc : 0
	print plain($0), run, sprintf("%.2f", r), (llc > 0 && r < 4 ? 1 : 0), warned
}
END { if (!bad && FNR < 2) fail("scan printed no rows") }
