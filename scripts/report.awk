# report.awk - report.sh's block, before its wrap: from an index of lines
# "csv FILE" (a run's CSV), "warn LINE" (a run's warning line, as scan
# wrote it), "model TEXT" (the model in scan's words), and the same for
# the kernel-like model beside it: "klcsv", "klwarn", "klmodel".  ENVIRON
# cmd: the command as a shell reads it; protocol: the options that
# change what is measured; kernel_csv: scan-kernel's CSV, read by
# explain-kernel.awk's kernel_read(); kernel_lo, kernel_hi: its ratio's
# interval from scan-kernel's stdout, where report.sh ran it and the CSV
# has none; kernel_failed: why the scan-kernel report.sh ran gave no CSV;
# brief: only the lines "in short" (make run's); -v runs.  Every value
# brought in is plain text.
BEGIN {
	cmd = plain(ENVIRON["cmd"])
	protocol = plain(ENVIRON["protocol"])
	# what scan counted a page or folio, and the share of the time
	ncounted = split("llc_misses dtlb_misses instructions cycles counted_share", counted_col, " ")
	split("LLC misses,dTLB misses,instructions,cycles", counted_name, ",")
}
function known(v) { return v == "" ? "unknown" : v }
function size_of(v) { return v == "" || v == 0 ? "unknown" : human(v, "%.1f") }
function from(v) { return v == "" ? "unknown" : v }

# The median of the n values v[1..n].
function median(v, n) {
	sort_values(v, n)
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

# "m unit (lo-hi, N runs)", or over rounds for one run.
function spread(m, lo, hi, unit,    d, over) {
	d = spread_digits(m, lo, hi)
	over = runs > 1 ? runs " runs" : rounds (rounds == 1 ? " round" : " rounds") ", 1 run"
	return sprintf("%." d "f%s (%." d "f-%." d "f, %s)", m, unit, lo, hi, over)
}
function plural(n, word) { return n " " word (n == 1 ? "" : "s") }

# Which runs gave warning c: " (2 of 3 runs)", with the kernel-like
# model's " (2 of 3 runs; kernel-like: 1 of 3)", or "(kernel-like: 1 of
# 3 runs)" where only it did; nothing for one run of one model.
function warn_runs(c,    a, k) {
	a = wruns[c, 0] + 0
	k = wruns[c, 1] + 0
	if (!nklread)
		return runs > 1 ? sprintf(" (%d of %d runs)", a, runs) : ""
	if (!a)
		return sprintf(" (kernel-like: %d of %d run%s)", k, runs, runs > 1 ? "s" : "")
	return sprintf(" (%d of %d run%s; kernel-like: %d of %d)", a, runs, runs > 1 ? "s" : "", k, runs)
}

# Each run: the first row for the machine, every row for its walk.  A
# kernel-like run's walks are kept under "kl" SUBSEP WALK.
function read_csv(file, k, kl,    line, n, fs, c, w) {
	n = 0
	fs = FS
	FS = ","
	while ((getline line < file) > 0) {
		$0 = line
		if (++n == 1) {
			csv_header()
			continue
		}
		if (k == 1 && n == 2 && !kl)
			keep_machine()
		if (kl && k == 1 && n == 2)
			kl_rounds = csv_field("rounds")
		w = csv_field("walk")
		if (!(w in label)) {
			order[++walks] = w
			label[w] = plain(csv_field("label"))
		}
		if (kl)
			w = "kl" SUBSEP w
		m[w, k] = csv_field("speedup")
		mn[w, k] = csv_field("speedup_min")
		mx[w, k] = csv_field("speedup_max")
		ns[w, k] = csv_field(csv_field("walk") == "physical" ? "ns_per_page" : "ns_per_folio")
		# the spread of the time over rounds, for one run
		if (csv_field("median_s") > 0) {
			nslo[w, k] = ns[w, k] * csv_field("min_s") / csv_field("median_s")
			nshi[w, k] = ns[w, k] * csv_field("max_s") / csv_field("median_s")
		} else {
			nslo[w, k] = nshi[w, k] = ns[w, k]
		}
		warn_codes(csv_field("warnings"), (kl ? "kl" : "") k, kl ? 1 : 0)
		if (kl)
			continue
		for (c = 1; c <= ncounted; c++)
			cnt[w, c, k] = csv_field(counted_col[c])
		if (csv_has("stream_ns"))
			stream[k] = csv_field("stream_ns")
		if (csv_has("chase_ns"))
			chase[k] = csv_field("chase_ns")
	}
	close(file)
	FS = fs
}

function keep_machine(    f, i, n) {
	n = split("version cpu cpu_vendor cpu_family cpu_model cpu_stepping hypervisor host_id cpus numa_nodes ram_bytes l2_bytes l2_from llc_bytes llc_from kernel system_thp pages memory_bytes struct_page huge_share rounds cache thp cache_sized", f, " ")
	for (i = 1; i <= n; i++)
		id[f[i]] = plain(csv_field(f[i]))
	if (id["struct_page"] == "")
		id["struct_page"] = 64
}

$1 == "csv" { read_csv(substr($0, 5), ++nread, 0) }
$1 == "klcsv" { read_csv(substr($0, 7), ++nklread, 1) }
$1 == "warn" || $1 == "klwarn" { warn_line(substr($0, length($1) + 2)) }
$1 == "model" { model = plain(substr($0, 7)) }
$1 == "klmodel" { klmodel = plain(substr($0, 9)) }

# Median over the runs of one walk column.
function over_runs(a, w,    k, v) {
	for (k = 1; k <= runs; k++)
		v[k] = a[w, k]
	return median(v, runs)
}
function lowest(a, w,    k, v) {
	v = a[w, 1]
	for (k = 2; k <= runs; k++)
		if (a[w, k] < v) v = a[w, k]
	return v
}
function highest(a, w,    k, v) {
	v = a[w, 1]
	for (k = 2; k <= runs; k++)
		if (a[w, k] > v) v = a[w, k]
	return v
}

function print_first() {
	printf "scan %s report, format 4: %s, %s simulated\n",
	    known(id["version"]), nklread ? "2 models, " plural(runs, "run") " each" : \
	    "1 model, " plural(runs, "run"), human(id["memory_bytes"], "%.1f")
}
function print_machine(    memmap, sized, t) {
	printf "cpu: %s\n", known(id["cpu"])
	printf "machine: host %s, vendor %s, family %s, model %s, stepping %s, hypervisor %s, %s CPUs, %s, RAM %s\n",
	    known(id["host_id"]), known(id["cpu_vendor"]), known(id["cpu_family"]),
	    known(id["cpu_model"]), known(id["cpu_stepping"]), known(id["hypervisor"]),
	    known(id["cpus"]), id["numa_nodes"] == "" ? "unknown NUMA nodes" : plural(id["numa_nodes"], "NUMA node"), size_of(id["ram_bytes"])
	printf "caches: L2 %s (%s), LLC %s (%s)\n", size_of(id["l2_bytes"]), from(id["l2_from"]),
	    size_of(id["llc_bytes"]), from(id["llc_from"])
	printf "kernel: %s, THP %s\n", known(id["kernel"]), known(id["system_thp"])
	printf "memory: stream %s ns/line, chase %s ns/hop\n",
	    known((1 in stream) ? three_digits(over_runs_1(stream)) : ""),
	    known((1 in chase) ? three_digits(over_runs_1(chase)) : "")
	printf "$ %s\n", cmd
	memmap = id["pages"] * id["struct_page"]
	if (id["cache_sized"] == "")	# the verdict scan gives; empty: no LLC known
		sized = "cache-sized unknown"
	else if (id["cache_sized"] == 1)
		sized = "cache-sized"
	else
		sized = "not cache-sized"
	printf "size: %s pages, %s simulated, memmap %s\n", id["pages"],
	    human(id["memory_bytes"], "%.1f"), human(memmap, "%.1f")
	printf "memmap: %d-byte struct page, %d%% in huge pages, %s\n", id["struct_page"],
	    100 * id["huge_share"], sized
	printf "protocol: %s (%s a run, cache %s, --memmap-thp=%s)\n",
	    protocol == "" ? "default" : protocol, plural(rounds, "round"),
	    known(id["cache"]), known(id["thp"])
}
# three_digits(v): a measured figure to three digits, never in
# e-notation (1.90, 112, 1234); "" stays "".
function three_digits(v) {
	if (v == "")
		return ""
	return v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v)
}
function over_runs_1(a,    k, v) {
	for (k = 1; k <= runs; k++)
		v[k] = a[k]
	return median(v, runs)
}

# The lines of one model: its walks (kl: the kernel-like model's, each
# line's key after "kernel-like "), then the spread between its runs.
function print_walks(kl,    i, w, r, lo, hi, key, between) {
	key = kl ? "kernel-like " : ""
	for (i = 1; i <= walks; i++) {
		w = order[i]
		if (kl)
			w = "kl" SUBSEP w
		if (!((w, 1) in m))
			continue
		r = over_runs(m, w)
		lo = runs > 1 ? lowest(m, w) : mn[w, 1]
		hi = runs > 1 ? highest(m, w) : mx[w, 1]
		if (order[i] == "physical") {
			r = over_runs(ns, w)
			lo = runs > 1 ? lowest(ns, w) : nslo[w, 1]
			hi = runs > 1 ? highest(ns, w) : nshi[w, 1]
			printf "%sphysical: %s\n", key, spread(r, lo, hi, " ns/page")
			continue
		}
		printf "%sratio %s: %s, %s ns/folio", key, label[order[i]], spread(r, lo, hi, ""),
		    three_digits(over_runs(ns, w))
		# the plain reading of a ratio below 1
		if (r < 1 && r > 0)
			printf ";\n  the physical walk is %.2fx slower than %s", 1 / r, label[order[i]]
		printf "\n"
		if (runs > 1 && r > 0)
			between = between (between == "" ? "" : ", ") label[order[i]] " " \
			    pct(lo / r - 1) " to " pct(hi / r - 1)
	}
	# measured here, between the processes of this block
	if (runs > 1)
		printf "%sbetween runs: %s of the median, over %d processes\n", key, between, runs
	else
		printf "%sbetween runs: not measured, one process (-n 1); its spread is over rounds\n", key
}
function pct(v,    a) {
	a = v < 0 ? -v : v
	return sprintf(a >= 0.1 || a == 0 ? "%+.0f%%" : "%+.1f%%", 100 * v)
}

# The kernel's own figure, read once: kernel_read() (explain-kernel.awk)
# on scan-kernel's CSV, its interval from the CSV or else from the
# scan-kernel report.sh ran; km_where, where it was measured, in words.
function kernel_figure() {
	if (ENVIRON["kernel_csv"] == "")
		return
	kernel_read()
	if (km_bad != "") {
		print "report.sh: " km_bad > "/dev/stderr"
		exit 1
	}
	if (km_ratio != "" && km_lo == "" && ENVIRON["kernel_lo"] != "") {
		km_lo = ENVIRON["kernel_lo"]
		km_hi = ENVIRON["kernel_hi"]
	}
	km_where = (km_scanner != "" ? km_scanner_words " as the pfn scanner, " : "") \
	    (km_bytes != "" ? human(km_bytes, "%.1f") " working set, " : "") \
	    (km_host == "" ? "host unknown" : km_host == id["host_id"] ? "this host" : "host " km_host ", not this one")
}

# "kernel's own: ..." from scan-kernel's CSV: its ratio with its
# interval and, below 1, its plain reading, as a model's ratio lines
# have them; or why it gives none.  Commas, not a parenthesis, around
# where it was measured: the wrap breaks there, within 72 columns.
function print_kernel(    d) {
	if (km_ratio == "") {
		printf "kernel's own: no ratio: %s; scan-kernel: %s\n", km_why, km_where
		return
	}
	if (km_lo != "") {
		d = spread_digits(km_ratio, km_lo, km_hi)
		printf "kernel's own: ratio ListLRU %." d "f (%." d "f-%." d "f, quartiles)", km_ratio, km_lo, km_hi
	} else
		printf "kernel's own: ratio ListLRU %s (its CSV gives no interval)", three_digits(km_ratio)
	printf ", scan-kernel: %s", km_where
	if (km_ratio < 1)
		printf ";\n  the physical walk is %.2fx slower than ListLRU", 1 / km_ratio
	printf "\n"
}

# "in short: ...": the ratio of one walk (ListLRU where it was walked)
# by each model and by the kernel itself, side by side, each with its
# interval and its plain reading, under a line that says what the ratio
# is.  The rows are a table, no key of their own: scan-collect reads
# them as the line's continuation.
function print_short(    i, w, kernel, lab, row, n, k, width, head) {
	for (i = 1; i <= walks; i++)
		if (order[i] != "physical" && (w == "" || label[order[i]] == "ListLRU"))
			w = order[i]
	if (w == "")
		return
	kernel = label[w] == "ListLRU"
	head = "in short: ratio " label[w] " is the " label[w] " walk's time over the physical walk's, the X of " \
	    "\"Physical scan is X faster than " label[w] "\"; "
	head = head (runs > 1 ? "a model's the median of " runs " runs (their range)" : \
	    "one run a model (its rounds' range)")
	if (kernel && km_lo != "")
		head = head ", the kernel's from its scanners' quartiles"
	print head ":"
	n = 0
	lab[++n] = protocol == "" ? "default model" : protocol == "--kernel-like" ? "kernel-like" : "model asked"
	row[n] = short_figure(w)
	if (nklread) {
		lab[++n] = "kernel-like"
		row[n] = short_figure("kl" SUBSEP w)
	}
	lab[++n] = "kernel's own"
	if (!kernel)
		row[n] = "ListLRU only: no ListLRU walk here"
	else if (ENVIRON["kernel_csv"] == "" && ENVIRON["kernel_failed"] != "")
		row[n] = "not measured: " ENVIRON["kernel_failed"]
	else if (ENVIRON["kernel_csv"] == "")
		row[n] = "not measured; `scan-kernel` as root measures it"
	else if (km_ratio == "")
		row[n] = "no ratio: " km_why
	else
		row[n] = short_text(km_ratio, km_lo, km_hi)
	width = 0
	for (k = 1; k <= n; k++)
		if (length(lab[k]) > width)
			width = length(lab[k])
	for (k = 1; k <= n; k++)
		printf "  %-" width "s  %s\n", lab[k], row[k]
}
# A model's row: the median over the runs, its range (one run: over its
# rounds), its reading.
function short_figure(w) {
	return short_text(over_runs(m, w), runs > 1 ? lowest(m, w) : mn[w, 1], runs > 1 ? highest(m, w) : mx[w, 1])
}
# "0.40 (0.35-0.46): the physical walk is 2.5x slower"; "1.37 (1.30-1.41):
# the physical walk is 1.37x faster": the reading in the digits of the
# figure (its inverse's, below 1); without lo and hi, no interval.
function short_text(r, lo, hi,    d, s, x) {
	x = r > 0 && r < 1 ? 1 / r : r
	if (lo > 0 && hi > 0) {
		d = spread_digits(r, lo, hi)
		s = sprintf("%." d "f (%." d "f-%." d "f)", r, lo, hi)
		# the inverse's digits, two to three significant of them
		if (r < 1) {
			d = spread_digits(x, 1 / hi, 1 / lo)
			d = x < 10 && d < 1 ? 1 : d > 2 - int(lg(x)) ? 2 - int(lg(x)) : d
		}
		x = sprintf("%." d "f", x)
	} else {
		s = three_digits(r)
		x = three_digits(x)
	}
	if (r <= 0)
		return s
	return s ": the physical walk is " x "x " (r < 1 ? "slower" : "faster")
}

# "counted WALK: ..." where scan counted any of the hardware events for
# the walk: each the median over the runs that counted it.
function print_counted(    i, w, c, k, n, v, line, share) {
	for (i = 1; i <= walks; i++) {
		w = order[i]
		line = ""
		for (c = 1; c <= ncounted; c++) {
			n = 0
			split("", v)
			for (k = 1; k <= runs; k++)
				if (cnt[w, c, k] != "")
					v[++n] = cnt[w, c, k] + 0
			if (!n)
				continue
			if (c == ncounted)
				share = median(v, n)
			else
				line = line (line == "" ? "" : ", ") three_digits(median(v, n)) " " counted_name[c]
		}
		if (line == "")
			continue
		printf "counted %s: %s a %s", label[w], line, w == "physical" ? "page" : "folio"
		if (share != "" && share < 1)
			printf ", counting %.0f%% of the time", 100 * share
		printf "\n"
		share = ""
	}
}

END {
	rounds = id["rounds"]
	kernel_figure()
	if (ENVIRON["brief"] != "") {
		print_short()
		exit
	}
	print_first()
	print_short()
	print_machine()
	if (model != "")
		printf "model: %s\n", model
	print_walks(0)
	print_counted()
	if (nklread) {
		sub(/^--kernel-like \(/, "", klmodel)
		sub(/\)$/, "", klmodel)
		printf "kernel-like model: %s\n", klmodel == "" ? "unknown" : klmodel
		print_walks(1)
	}
	if (ENVIRON["kernel_csv"] != "")
		print_kernel()
	# a line a cause, most important first, however many runs gave it,
	# of each model
	n = warn_order()
	for (i = 1; i <= n; i++)
		printf "warning: %s%s%s\n", wcode[i], (wcode[i] in wtext ? ": " wtext[wcode[i]] : ""),
		    warn_runs(wcode[i])
	# the original lines, as scan prints them, for the median run
	for (i = 1; i <= walks; i++)
		if (order[i] != "physical")
			printf "Physical scan is %f faster than %s\n", over_runs(m, order[i]), label[order[i]]
}
