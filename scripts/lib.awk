# lib.awk - awk functions the scripts share; each script puts this
# file's text before its own program (POSIX awk takes one program).

# human(v, fmt): bytes v in binary units, the number printed with fmt:
# human(1536, "%.1f") is "1.5 KiB".
function human(v, fmt,    u, k) {
	split("B KiB MiB GiB TiB PiB", u, " ")
	for (k = 1; v >= 1024 && k < 6; k++)
		v /= 1024
	return sprintf(fmt " %s", v, u[k])
}

# esc(s): s with the characters XML gives a meaning to as entities.
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	return s
}

function lg(v) { return log(v) / log(10) }
function floor(v) { return v == int(v) || v > 0 ? int(v) : int(v) - 1 }

# Values 1 (m = 1) or 1 2 5 (m = 3) times a power of ten inside [lo, hi]
# into t[1..n].
function decade_ticks(lo, hi, m, t,    n, d, k, v) {
	n = 0
	for (d = floor(lg(lo)); d <= lg(hi) + 1; d++)
		for (k = 1; k <= m; k++) {
			v = (k == 1 ? 1 : k == 2 ? 2 : 5) * 10 ^ d
			if (v >= lo * 0.9999 && v <= hi * 1.0001)
				t[++n] = v
		}
	return n
}

# Round values inside [lo, hi] into t[1..n], thinned to at most max:
# powers of two for bytes on a log axis; on another log axis a power of
# ten a decade over more than two decades, else 1 2 5 steps; even steps
# on a linear axis, or on a log one too narrow for three 1 2 5 steps.
function round_ticks(lo, hi, islog, bytes, max, t,    n, k, v, d, step, m, keep) {
	n = 0
	if (!(hi > lo) || !(lo > -1e300) || !(hi < 1e300) || (islog && !(lo > 0)))
		return 0	# nothing to mark, and no endless loop on nonsense
	if (islog && bytes) {
		for (v = 2 ^ floor(log(lo) / log(2)); v <= hi * 1.0001; v *= 2)
			if (v >= lo * 0.9999)
				t[++n] = v
	} else if (islog) {
		n = decade_ticks(lo, hi, lg(hi) - lg(lo) > 2 ? 1 : 3, t)
		if (n < 3)
			n = decade_ticks(lo, hi, 3, t)
	}
	if (!islog || (!bytes && n < 3)) {
		# the smallest 1 2 5 step that gives at most max values
		d = 10 ^ floor(lg((hi - lo) / max))
		for (m = 1; m <= 4; m++) {
			step = (m == 1 ? 1 : m == 2 ? 2 : m == 3 ? 5 : 10) * d
			if (floor(hi / step + 1e-6) - floor(lo / step + 0.9999) + 1 <= max)
				break
		}
		n = 0
		for (k = floor(lo / step + 0.9999); k * step <= hi + step * 1e-6; k++)
			t[++n] = k * step
	}
	for (keep = 1; n / keep > max; keep++)
		;
	m = 0
	for (k = 1; k <= n; k += keep)
		t[++m] = t[k]
	return m
}

# CSV columns by name.  csv_header() on a file's first line (FS = ",")
# remembers where each column is; csv_field(name) is that column's value
# in the current line, "" when the file has no such column; csv_has(name)
# says whether it has one.  Scripts that read several files call
# csv_header() at each FNR == 1.
function csv_header(    i) {
	split("", csv_col)
	for (i = 1; i <= NF; i++)
		csv_col[$i] = i
}
function csv_has(name) { return name in csv_col }
function csv_field(name) { return name in csv_col ? $(csv_col[name]) : "" }

# The machine a row ran on, from the identity columns the CSV has (a
# missing column or an empty value is left out, so older CSVs work).
# machine_title(what): "WHAT on CPU (N CPUs), KERNEL".
function machine_title(what,    s) {
	s = what
	if (csv_field("cpu") != "")
		s = s " on " csv_field("cpu")
	if (csv_field("cpus") != "")
		s = s " (" csv_field("cpus") " CPUs)"
	if (csv_field("kernel") != "")
		s = s ", " csv_field("kernel")
	return s
}
# machine_ids(): the rest of the identity in one line: "AuthenticAMD
# family 25 model 17 stepping 1, KVM, L2 1 MiB (cpuid), LLC 320 MiB
# (getconf), 1 NUMA node, 23.5 GiB RAM, host 3fa2b1c0, stream 0.92
# ns/line, chase 112 ns/hop"; "" when the CSV has none of them.
function machine_ids(    s, v) {
	s = csv_field("cpu_vendor")
	if ((v = csv_field("cpu_family")) != "")
		s = s (s == "" ? "" : " ") "family " v
	if ((v = csv_field("cpu_model")) != "")
		s = s " model " v
	if ((v = csv_field("cpu_stepping")) != "")
		s = s " stepping " v
	if ((v = csv_field("hypervisor")) != "" && v != "none")
		s = s (s == "" ? "" : ", ") v
	s = s cache_id("L2", "l2")
	s = s cache_id("LLC", "llc")
	if ((v = csv_field("numa_nodes")) != "")
		s = s (s == "" ? "" : ", ") v " NUMA node" (v == 1 ? "" : "s")
	if ((v = csv_field("ram_bytes")) > 0)
		s = s (s == "" ? "" : ", ") human(v, "%.3g") " RAM"
	if ((v = csv_field("host_id")) != "")
		s = s (s == "" ? "" : ", ") "host " v
	if ((v = csv_field("stream_ns")) != "")
		s = s (s == "" ? "" : ", ") "stream " sprintf("%.3g", v) " ns/line"
	if ((v = csv_field("chase_ns")) != "")
		s = s (s == "" ? "" : ", ") "chase " sprintf("%.3g", v) " ns/hop"
	sub(/^, /, "", s)
	return s
}
function cache_id(name, col,    v, from) {
	if (!((v = csv_field(col "_bytes")) > 0))
		return ""
	from = csv_field(col "_from")
	return ", " name " " human(v, "%.3g") (from != "" && from != "none" ? " (" from ")" : "")
}
