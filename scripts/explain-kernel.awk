# explain-kernel.awk - scan-kernel's CSV (its -o) for explain.sh's last
# step, "kernel (measured)".  kernel_read() reads ENVIRON kernel_csv (a
# copy of the file the user named: ENVIRON kernel_name, for messages) by
# its columns' names, and sets:
#   km_ratio  the speedup of its row source=kernel, walk=list: the
#             kernel's "physical scan is X faster than ListLRU"; "" when
#             the file gives none or the run was emulated, and then
#             km_why, why in words
#   km_bytes  the working set (memory_bytes), km_host (host_id),
#             km_kernel (kernel) and km_scanner (scanner: the pfn
#             scanner, "compaction" in a CSV from before that column)
#             of its first row, as plain text; km_scanner_words, it in words
#   km_lo, km_hi  the ratio's interval, from the row's speedup_min and
#             speedup_max where the CSV has those columns (scan's names
#             for them; scan-kernel prints its interval, the two
#             scanners' quartiles, on stdout), else ""
#   km_bad    a line saying why the file is not scan-kernel's CSV, else ""
# A run on an emulated CPU (its emulated column 1) gives no km_ratio:
# km_why says why.
# With ENVIRON kernel_check set, it only reads the file: exit 1 and
# km_bad on stderr when the file is not scan-kernel's CSV, after the
# name of the script (ENVIRON kernel_who, else explain.sh).
BEGIN {
	if (ENVIRON["kernel_check"] != "") {
		kernel_read()
		if (km_bad != "") {
			print (ENVIRON["kernel_who"] != "" ? ENVIRON["kernel_who"] : "explain.sh") ": " km_bad > "/dev/stderr"
			exit 1
		}
		exit 0
	}
}
function kernel_read(    path, name, line, n, f, col, row, i, found, v, ranges, emulated) {
	path = ENVIRON["kernel_csv"]; name = plain(ENVIRON["kernel_name"])
	while ((getline line < path) > 0) {
		n = split(line, f, ",")
		if (++row == 1) {
			for (i = 1; i <= n; i++)
				col[f[i]] = i
			if (!("source" in col) || !("walk" in col) || !("speedup" in col)) {
				km_bad = name ": not scan-kernel's CSV (no source, walk and speedup columns)"
				break
			}
			continue
		}
		if (row == 2) {
			v = ("memory_bytes" in col) ? f[col["memory_bytes"]] : ""
			km_bytes = v ~ /^[1-9][0-9]*$/ ? v : ""
			km_host = ("host_id" in col) ? plain(f[col["host_id"]]) : ""
			km_kernel = ("kernel" in col) ? plain(f[col["kernel"]]) : ""
			km_scanner = ("scanner" in col) ? plain(f[col["scanner"]]) : "compaction"
			km_scanner_words = km_scanner == "offline" ? "memory-block offline" : \
			    km_scanner == "damon" ? "DAMON's paddr walk" : km_scanner
			# a run on an emulated CPU (TCG), its emulated column 1
			# on every row: its times are the emulator's, no figure
			# to set beside the model's or a host's
			emulated = ("emulated" in col) && f[col["emulated"]] == 1
		}
		if (found || f[col["source"]] != "kernel" || f[col["walk"]] != "list")
			continue
		found = 1
		v = f[col["speedup"]]
		if (v != "" && !(v ~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ && v + 0 >= 1e-6 && v + 0 <= 1e6)) {
			km_bad = name " line " row ": speedup '" plain(v) "' is not a ratio (1e-6 to 1e6)"
			break
		}
		km_ratio = v
		km_lo = ("speedup_min" in col) && km_number(f[col["speedup_min"]]) ? f[col["speedup_min"]] : ""
		km_hi = ("speedup_max" in col) && km_number(f[col["speedup_max"]]) ? f[col["speedup_max"]] : ""
		if (km_lo == "" || km_hi == "")
			km_lo = km_hi = ""
		ranges = ("ranges" in col) ? f[col["ranges"]] : ""
	}
	close(path)
	if (km_bad == "" && row < 2)
		km_bad = name ": no rows, not scan-kernel's CSV"
	if (emulated)
		km_ratio = ""
	if (km_bad != "" || km_ratio != "")
		return
	km_lo = km_hi = ""
	if (emulated)
		km_why = "run on an emulated CPU, whose times are the emulator's"
	else if (!found)
		km_why = "no kernel ListLRU row: its LRU scanner timed too few batches"
	else if (ranges == "all")
		km_why = "its speedup is empty: too few timed ranges where compaction isolated folios"
	else
		km_why = "its speedup is empty"
}
# km_number(v): v is a positive number, as scan writes one
function km_number(v) {
	return v ~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ && v + 0 > 0
}
