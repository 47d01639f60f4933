# report-check.awk - is this (FS ",") a CSV of scan's?  Exit 1, with a line
# saying why, when not; ENVIRON file: the scan that printed it.
BEGIN { file = ENVIRON["file"] }
NR == 1 {
	csv_header()
	nf = NF
	split("walk label pages speedup speedup_min speedup_max ns_per_page", need, " ")
	for (i = 1; i <= 7; i++)
		if (!csv_has(need[i])) {
			printf "report.sh: %s printed no CSV of scan's (no %s column in its --format=csv)\n", plain(file), need[i]
			exit 1
		}
	next
}
NF != nf {
	printf "report.sh: %s printed a CSV whose row %d has %d fields, its header %d\n", plain(file), NR, NF, nf
	exit 1
}
{
	for (i = 3; i <= 7; i++)
		if (csv_field(need[i]) !~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/) {
			printf "report.sh: %s printed a CSV with %s \"%s\" in row %d\n", plain(file), need[i], plain(csv_field(need[i])), NR
			exit 1
		}
}
END { if (NR < 2) { printf "report.sh: %s printed no CSV rows\n", plain(file); exit 1 } }
