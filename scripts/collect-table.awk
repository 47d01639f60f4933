# collect-table.awk - collect.sh's third stage: the rows of
# collect-blocks.awk as one table.  Runs after lib.awk.
#
#   in   a row a line, "key=value" fields, tab-separated
#   out  the table on stdout: a heading per group of comparable rows, a
#        row per machine and setup; in ENVIRON["collect_tmp"]: csv, the
#        table as CSV; drawn, the rows in order for collect-chart.awk;
#        broken, the number of broken blocks, each named on stderr
#
# A block repeated in replies counts once (same machine, command and
# figures; the copy not quoted, or the first, says who posted it).  A
# broken block that is a quote is left out where a block with its
# command was read whole (a reply trimmed the quote).

BEGIN {
	FS = "\t"
	csv = ENVIRON["collect_tmp"] "/csv"
	drawn = ENVIRON["collect_tmp"] "/drawn"
	broken = ENVIRON["collect_tmp"] "/broken"
}

{ read_row() }

END {
	name_broken()
	if (!nrows)
		exit 0
	order_walks()
	merge()
	sort_rows()
	write_csv()
	write_table()
}

# A row in, unless it repeats one: its fields into val[row, key].
function read_row(    r, f, p, key, nw, w, j, x) {
	for (f = 1; f <= NF; f++) {
		p = index($f, "=")
		r[substr($f, 1, p - 1)] = substr($f, p + 1)
	}
	if (r["broken"] != "") {
		bmsg[++nbad] = r["broken"]
		bcmd[nbad] = r["quoted"] > 0 ? r["command"] : ""
		return
	}
	if (r["command"] != "")
		read_whole[r["command"]] = 1
	# bare lines are the same lines wherever quoted, with or without the
	# size said above them
	key = r["shape"] == "bare" ? "bare" : machine_key(r) SUBSEP r["command"] SUBSEP r["pages"]
	nw = split(r["walks"], w, " ")
	for (j = 1; j <= nw; j++)
		key = key SUBSEP w[j] "=" r["r_" w[j]] "," r["lo_" w[j]] "," r["hi_" w[j]]
	if (key in row_of) {
		x = row_of[key]
		copies[x]++
		if (r["quoted"] >= quoted[x])
			return
	} else {
		x = row_of[key] = ++nrows
		copies[x] = 1
	}
	quoted[x] = r["quoted"]
	for (f in r)
		val[x, f] = r[f]
	val[x, "machine"] = machine_key(r)
	for (j = 1; j <= nw; j++)
		if (!(w[j] in walk_seen)) {
			walk_seen[w[j]] = 1
			walks_seen = walks_seen " " w[j]
		}
}

# The broken blocks on stderr, their number to the file broken.
function name_broken(    j, said) {
	for (j = 1; j <= nbad; j++)
		if (bcmd[j] == "" || !(bcmd[j] in read_whole)) {
			print bmsg[j] > "/dev/stderr"
			said++
		}
	if (said)
		close("/dev/stderr")
	print said + 0 > broken
	close(broken)
}

# The walks, ListLRU and ArrayLRU first, as the original printed them,
# into wl[1..nwalks].
function order_walks(    o, n, j) {
	nwalks = 0
	if ("ListLRU" in walk_seen) wl[++nwalks] = "ListLRU"
	if ("ArrayLRU" in walk_seen) wl[++nwalks] = "ArrayLRU"
	n = split(walks_seen, o, " ")
	for (j = 1; j <= n; j++)
		if (o[j] != "ListLRU" && o[j] != "ArrayLRU")
			wl[++nwalks] = o[j]
}

# One machine: its identity where the block gives it, else the model
# name, CPUs, caches and RAM.
function machine_key(r) {
	if (r["host_id"] != "")
		return "host " r["host_id"]
	return r["cpu"] "|" r["cpu_vendor"] "|" r["cpu_family"] "|" r["cpu_model"] "|" \
	    r["cpu_stepping"] "|" r["hypervisor"] "|" r["cpus"] "|" r["l2_bytes"] "|" \
	    r["llc_bytes"] "|" r["numa_nodes"] "|" int(r["ram_bytes"] / 2 ^ 30 + 0.5)
}

# Rows that may be set side by side: one protocol, one size regime, one
# struct page and page size.
function group(x,    g, c) {
	if (val[x, "shape"] == "1.1")
		return "scan.c 1.1: the 2023 thread (Virtual Scanning Considered Harmful)"
	if (val[x, "shape"] == "bare")
		return "bare \"Physical scan is\" lines: machine and protocol unknown"
	g = val[x, "protocol"] == "default" ? "default protocol" : "protocol " val[x, "protocol"]
	c = val[x, "cache_sized"]
	g = g (c == "yes" ? ", cache-sized memmap" : c == "no" ? ", memmap beyond the caches" : ", cache size unknown")
	if (val[x, "struct_page"] != "" && val[x, "struct_page"] != 64)
		g = g ", " val[x, "struct_page"] "-byte struct page"
	if (val[x, "page_bytes"] != "" && val[x, "page_bytes"] != 4096)
		g = g ", " human(val[x, "page_bytes"], "%g") " pages"
	return g
}

# Groups in this order: the default protocol beyond the caches first, the
# 2023 program last; rows by machine, then size.
function rank(x,    g) {
	g = group(x)
	return (g ~ /^default protocol, memmap beyond/ ? 0 : g ~ /^default/ ? 1 : g ~ /^bare/ ? 3 : g ~ /^scan\.c/ ? 4 : 2) \
	    "|" g "|" machine(x) "|" sprintf("%015.3f", val[x, "pages"])
}

function machine(x,    c) {
	c = val[x, "cpu"] == "" ? "unknown CPU" : val[x, "cpu"]
	if (val[x, "cpu_text"] != "")
		c = c " (\"" val[x, "cpu_text"] "\" in the mail)"
	if (val[x, "host_id"] != "")
		c = c " [" val[x, "host_id"] "]"
	if (val[x, "llc_bytes"] != "")
		c = c ", LLC " human(val[x, "llc_bytes"], "%g")
	return c
}

function size(x) { return val[x, "pages"] == "" ? "not given" : sprintf("-c %g", val[x, "pages"] / 1e6) }

function figure(x, w,    c) {
	if (val[x, "r_" w] == "")
		return "-"
	c = val[x, "r_" w]
	if (val[x, "lo_" w] != "")
		c = c " (" val[x, "lo_" w] "-" val[x, "hi_" w] (val[x, "spread"] == "runs" ? ", " val[x, "runs"] " runs" : val[x, "spread"] == "rounds" ? ", rounds" : "") ")"
	return c
}

function flags(x,    c) {
	c = val[x, "cache_sized"] == "yes" ? "cache-sized" : ""
	if (val[x, "nwarn"] > 0)
		c = c (c == "" ? "" : ", ") "warned " val[x, "nwarn"] "x"
	if (blocks[x] > 1)
		c = c (c == "" ? "" : ", ") blocks[x] " blocks"
	if (copies[x] > blocks[x])
		c = c (c == "" ? "" : ", ") "posted " copies[x] "x"
	if (val[x, "kernel_ListLRU"] != "")
		c = c (c == "" ? "" : ", ") "kernel's own ListLRU " val[x, "kernel_ListLRU"] \
		    (val[x, "kernel_scanner"] != "" ? " (" val[x, "kernel_scanner"] ")" : "")
	if (val[x, "note"] != "")
		c = c (c == "" ? "" : ", ") val[x, "note"]
	return c == "" ? "-" : c
}

# Posters by name where a From gives one ("Alice <a@b>" is Alice).
function poster_names(list,    out, p, n, j) {
	n = split(list, p, /; /)
	out = ""
	for (j = 1; j <= n; j++) {
		if (p[j] ~ /^[^<]*[^< ] <[^>]*>$/)
			sub(/ <[^>]*>$/, "", p[j])
		gsub(/"/, "", p[j])
		out = out (j > 1 ? "; " : "") p[j]
	}
	return out
}

function who(x) { return val[x, "from"] != "" ? val[x, "from"] : val[x, "file"] }

# CSV fields hold no commas (a plain split reads them, as scan's CSV).
function nocomma(c) { gsub(/,/, ";", c); return c }

# One row per machine and setup: the blocks of one machine in one group
# at one size are one row, its figure the median of their figures, its
# spread from the lowest to the highest, its runs and posters all of
# theirs; the first block says the command, the date and the rest.
function merge(    x, y, key, j, nw, w, wk) {
	kept = 0
	for (x = 1; x <= nrows; x++) {
		# rows that name no machine are never one machine
		key = val[x, "machine"] SUBSEP group(x) SUBSEP val[x, "pages"]
		if (val[x, "shape"] == "bare" || val[x, "shape"] == "1.1")
			key = key SUBSEP x
		if (!(key in first_of)) {
			first_of[key] = x
			kept_row[++kept] = x
			blocks[x] = 1
			posters[x] = who(x)
			nw = split(val[x, "walks"], w, " ")
			for (j = 1; j <= nw; j++)
				if (val[x, "r_" w[j]] != "")
					fig[x, w[j], nfig[x, w[j]] = 1] = val[x, "r_" w[j]]
			continue
		}
		y = first_of[key]
		blocks[y]++
		if (index("; " posters[y] ";", "; " who(x) ";") == 0)
			posters[y] = posters[y] "; " who(x)
		copies[y] += copies[x]
		val[y, "runs"] += val[x, "runs"]
		val[y, "nwarn"] += val[x, "nwarn"]
		if (val[x, "warnings"] != "")
			val[y, "warnings"] = val[y, "warnings"] (val[y, "warnings"] == "" ? "" : " | ") val[x, "warnings"]
		if (val[x, "spread"] == "runs")
			val[y, "spread"] = "runs"
		nw = split(val[x, "walks"], w, " ")
		for (j = 1; j <= nw; j++) {
			wk = w[j]
			if (val[x, "r_" wk] == "")
				continue
			if (!nfig[y, wk])
				val[y, "walks"] = val[y, "walks"] " " wk
			fig[y, wk, ++nfig[y, wk]] = val[x, "r_" wk]
			widen(y, x, wk)
		}
	}
	for (j = 1; j <= kept; j++) {
		y = kept_row[j]
		if (blocks[y] == 1)
			continue
		nw = split(val[y, "walks"], w, " ")
		for (x = 1; x <= nw; x++)
			if (nfig[y, w[x]] > 1)
				respread(y, w[x], median_of(y, w[x], nfig[y, w[x]]))
	}
}

# The figure of row y for walk w, and its spread, in the decimals that
# show the spread in two digits (as report.sh prints them).
function respread(y, w, med,    low, high, dp) {
	low = val[y, "lo_" w] + 0
	high = val[y, "hi_" w] + 0
	dp = spread_digits(med, low, high)
	val[y, "r_" w] = sprintf("%." dp "f", med)
	val[y, "lo_" w] = sprintf("%." dp "f", low)
	val[y, "hi_" w] = sprintf("%." dp "f", high)
}

# The spread of row y over that of row x, for walk w.
function widen(y, x, w,    low, high) {
	low = val[x, "lo_" w] == "" ? val[x, "r_" w] : val[x, "lo_" w]
	high = val[x, "hi_" w] == "" ? val[x, "r_" w] : val[x, "hi_" w]
	if (val[y, "lo_" w] == "") {
		val[y, "lo_" w] = val[y, "r_" w]
		val[y, "hi_" w] = val[y, "r_" w]
	}
	if (low + 0 < val[y, "lo_" w] + 0)
		val[y, "lo_" w] = low
	if (high + 0 > val[y, "hi_" w] + 0)
		val[y, "hi_" w] = high
}

# The median of the nf figures of row y for walk w.
function median_of(y, w, nf,    j, a, b, tmp) {
	for (j = 1; j <= nf; j++)
		a[j] = fig[y, w, j] + 0
	for (j = 2; j <= nf; j++)
		for (b = j; b > 1 && a[b - 1] > a[b]; b--) {
			tmp = a[b]; a[b] = a[b - 1]; a[b - 1] = tmp
		}
	return nf % 2 ? a[(nf + 1) / 2] : (a[nf / 2] + a[nf / 2 + 1]) / 2
}

# The rows kept, by rank, into ord[1..nrows].
function sort_rows(    j, b, tmp) {
	nrows = kept
	for (j = 1; j <= nrows; j++) {
		ord[j] = kept_row[j]
		rk[kept_row[j]] = rank(kept_row[j])
	}
	for (j = 2; j <= nrows; j++)
		for (b = j; b > 1 && rk[ord[b - 1]] > rk[ord[b]]; b--) {
			tmp = ord[b]; ord[b] = ord[b - 1]; ord[b - 1] = tmp
		}
}

function write_csv(    j, x, c, nf, f, line, names) {
	names = "from date source shape version host_id cpu cpu_text cpu_vendor cpu_family cpu_model cpu_stepping hypervisor cpus numa_nodes ram_bytes l2_bytes l2_from llc_bytes llc_from kernel system_thp stream_ns chase_ns command seed pages memory_bytes memmap_bytes struct_page page_bytes huge_pct cache_sized protocol rounds thp runs spread physical_ns"
	nf = split(names, f, " ")
	line = "group"
	for (c = 1; c <= nf; c++)
		line = line "," f[c]
	for (c = 1; c <= nwalks; c++)
		line = line "," wl[c] "," wl[c] "_min," wl[c] "_max," wl[c] "_ns"
	print line ",warnings,copies,blocks,note,model,kernel_ListLRU,kernel_scanner" > csv
	for (j = 1; j <= nrows; j++) {
		x = ord[j]
		line = nocomma(group(x))
		for (c = 1; c <= nf; c++)
			line = line "," nocomma(f[c] == "source" ? val[x, "where"] : f[c] == "from" ? posters[x] : val[x, f[c]])
		for (c = 1; c <= nwalks; c++)
			line = line "," val[x, "r_" wl[c]] "," val[x, "lo_" wl[c]] "," val[x, "hi_" wl[c]] "," val[x, "ns_" wl[c]]
		print line "," nocomma(val[x, "warnings"]) "," copies[x] "," blocks[x] "," nocomma(val[x, "note"]) \
		    "," nocomma(val[x, "model"]) "," val[x, "kernel_ListLRU"] "," nocomma(val[x, "kernel_scanner"]) > csv
	}
	close(csv)
}

# The table: a heading per group, a row per machine and setup, no
# trailing blanks; and the rows, in that order, for the chart.
function write_table(    j, c, x, g, last, wd, cell, head, ncol) {
	ncol = 0
	head[++ncol] = "machine"
	head[++ncol] = "size"
	for (c = 1; c <= nwalks; c++)
		head[++ncol] = wl[c]
	head[++ncol] = "from"
	head[++ncol] = "date"
	head[++ncol] = "flags"
	for (c = 1; c <= ncol; c++)
		wd[c] = length(head[c])
	for (j = 1; j <= nrows; j++) {
		x = ord[j]
		c = 0
		cell[j, ++c] = machine(x)
		cell[j, ++c] = size(x)
		for (g = 1; g <= nwalks; g++)
			cell[j, ++c] = figure(x, wl[g])
		cell[j, ++c] = poster_names(posters[x])
		cell[j, ++c] = val[x, "date"] == "" ? "-" : val[x, "date"]
		cell[j, ++c] = flags(x)
		for (c = 1; c <= ncol; c++)
			if (length(cell[j, c]) > wd[c])
				wd[c] = length(cell[j, c])
	}
	last = ""
	for (j = 1; j <= nrows; j++) {
		x = ord[j]
		g = group(x)
		if (g != last) {
			printf "%s%s\n", last == "" ? "" : "\n", g
			print_cells(head, "", ncol, wd)
			last = g
		}
		print_cells(cell, j, ncol, wd)
		print g "\t" machine(x) "\t" size(x) "\t" val[x, "cache_sized"] > drawn
		for (c = 1; c <= nwalks; c++)
			print "\t" wl[c] "\t" val[x, "r_" wl[c]] "\t" val[x, "lo_" wl[c]] "\t" val[x, "hi_" wl[c]] > drawn
	}
	close(drawn)
}

# A line of the table: cells[j, 1..ncol] (cells[1..ncol] where j is ""),
# each in its column's width.
function print_cells(cells, j, ncol, wd,    c, line) {
	line = ""
	for (c = 1; c <= ncol; c++)
		line = line sprintf("  %-" wd[c] "s", j == "" ? cells[c] : cells[j, c])
	sub(/ +$/, "", line)
	print line
}
