# lib.awk - awk functions the scripts share; run_awk (scan-env.sh) reads
# this file with -f before the script's own NAME.awk.  The scripts run awk
# with LC_ALL=C: a string is bytes, length() counts them.

# human(v, fmt): bytes v in binary units, the number printed with fmt:
# human(1536, "%.1f") is "1.5 KiB".
function human(v, fmt,    u, k) {
	split("B KiB MiB GiB TiB PiB", u, " ")
	for (k = 1; v >= 1024 && k < 6; k++)
		v /= 1024
	return sprintf(fmt " %s", v, u[k])
}

# plain(s): s as printable text, as scan writes its messages: a control
# byte (C0 and DEL, and C1 written in UTF-8) and a byte in no valid UTF-8
# sequence become \xNN; valid UTF-8 stays.  Whatever a CSV, a file name
# or an option brings, a terminal, a mail or an SVG gets only text.
function plain(s,    out, i, n, len) {
	if (s !~ /[^ -~]/)
		return s	# printable ASCII, the usual case
	byte_values()
	n = length(s)
	for (i = 1; i <= n; i += len)
		if ((len = utf8_length(s, i)) > 0)
			out = out substr(s, i, len)
		else {
			out = out sprintf("\\x%02x", plain_ord[substr(s, i, 1)])
			len = 1
		}
	return out
}
# utf8_length(s, i): the bytes of the printable character that starts at
# byte i of s; 0 when a control or no valid UTF-8 starts there (RFC 3629:
# no overlong form, no surrogate, nothing past U+10FFFF).
function utf8_length(s, i,    b, len, lo, hi, k, c) {
	b = plain_ord[substr(s, i, 1)]
	if (b >= 32 && b < 127)
		return 1
	if (b < 194 || b > 244)
		return 0
	len = b < 224 ? 2 : b < 240 ? 3 : 4
	lo = b == 224 ? 160 : b == 240 ? 144 : b == 194 ? 160 : 128	# C2 80-9F: C1
	hi = b == 237 ? 159 : b == 244 ? 143 : 191
	for (k = 1; k < len; k++) {
		c = plain_ord[substr(s, i + k, 1)]
		if (c < lo || c > hi)
			return 0
		lo = 128; hi = 191
	}
	return len
}

# byte_values(): plain_ord[c], each byte's value (sprintf's %c gives the
# byte under LC_ALL=C).
function byte_values(    i) {
	if (!plain_ord["A"])
		for (i = 1; i < 256; i++)
			plain_ord[sprintf("%c", i)] = i
}
# whole_chars(s, n): n, or less, so that s cut after that many bytes keeps
# its UTF-8 characters whole (1 at least: a cut always makes progress).
function whole_chars(s, n,    c) {
	byte_values()
	while (n > 1 && (c = plain_ord[substr(s, n + 1, 1)]) >= 128 && c < 192)
		n--
	return n
}

# wrap(text, width, first, rest, line): text's words (plain(text)'s) in
# lines of at most width bytes, into line[1..n], returning n (0 for no
# words): the first line starts with first, the others with rest.  A word
# longer than a line is cut at a character's start and goes on in the
# next lines, so every line keeps to width and the wrap always ends.
function wrap(text, width, first, rest, line,    n, i, nw, word, sep, cut) {
	nw = split(plain(text), word, " ")
	if (!nw)
		return 0
	line[n = 1] = first
	for (i = 1; i <= nw; i++) {
		sep = length(line[n]) > length(n == 1 ? first : rest) ? " " : ""
		if (length(line[n] sep word[i]) <= width) {
			line[n] = line[n] sep word[i]
			continue
		}
		if (sep != "")
			line[++n] = rest
		while (length(line[n] word[i]) > width) {
			cut = whole_chars(word[i], width - length(line[n]))
			line[n] = line[n] substr(word[i], 1, cut)
			word[i] = substr(word[i], cut + 1)
			line[++n] = rest
		}
		line[n] = line[n] word[i]
	}
	return n
}

# esc(s): s as XML text: plain(s), with the characters XML gives a
# meaning to as entities.
function esc(s) {
	s = plain(s)
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	return s
}

# sort_by(key, ix, n): ix[1..n] reordered so that key[ix[1]] <= key[ix[2]]
# <= ...; a heapsort, n log n steps however the keys lie.
function sort_by(key, ix, n,    i, t) {
	for (i = int(n / 2); i >= 1; i--)
		sift_down(key, ix, i, n)
	for (i = n; i > 1; i--) {
		t = ix[1]; ix[1] = ix[i]; ix[i] = t
		sift_down(key, ix, 1, i - 1)
	}
}
function sift_down(key, ix, i, n,    c, t) {
	while ((c = 2 * i) <= n) {
		if (c < n && key[ix[c + 1]] > key[ix[c]])
			c++
		if (!(key[ix[c]] > key[ix[i]]))
			return
		t = ix[i]; ix[i] = ix[c]; ix[c] = t
		i = c
	}
}
# sort_values(v, n): v[1..n] in ascending order.
function sort_values(v, n,    ix, w, k) {
	for (k = 1; k <= n; k++) {
		ix[k] = k
		w[k] = v[k]
	}
	sort_by(w, ix, n)
	for (k = 1; k <= n; k++)
		v[k] = w[ix[k]]
}

function lg(v) { return log(v) / log(10) }
# Decimals that show the spread lo-hi in two digits (three significant
# digits when there is none), 0 to 6: 48.5 (48.0-49.3), 164 (140-180);
# a median 20% uncertain is never given to six decimals.  (scan.c's
# spread_decimals() does the same.)
function spread_digits(m, lo, hi,    d) {
	if (hi > lo)
		d = 1 - floor(lg(hi - lo))
	else
		d = m > 0 ? 2 - floor(lg(m)) : 2
	return d < 0 ? 0 : d > 6 ? 6 : d
}
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
	if (!islog && hi - lo < 1e-9 * (hi > -lo ? hi : -lo))
		return 0	# a step past 2^53 steps from 0: k++ would not move k
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

# Warnings, as the scripts gather them from scan: its codes from each
# run's warnings column (warn_codes(cell, run, side)), each code's line
# from its stderr (warn_line(line), or warn_read(file) for each line of
# a file; the first kept), never worked out
# again.  A code is counted once a run; side (0, or 1 and 2 for compare's
# before and after) counts runs apart.  warn_order() puts the codes in
# wcode[1..nwcode] in scan's order, most important first: as
# ENVIRON["warning_codes"] lists them (scan --fields', see scan-env.sh),
# then any other after those a cell put before it, else as first seen.
function warn_codes(cell, run, side,    n, i, c) {
	n = split(cell, c, " ")
	for (i = 1; i <= n; i++) {
		if (!(c[i] in wseen))
			wseen[c[i]] = ++nwseen
		if (i > 1)
			wbefore[c[i - 1], c[i]] = 1
		if (!((c[i], run) in wrun)) {
			wrun[c[i], run] = 1
			wruns[c[i], side]++
		}
	}
}
function warn_read(file,    line) {	# warn_line() for each line of file
	while (file != "" && (getline line < file) > 0)
		warn_line(line)
}
function warn_line(line,    code) {	# "scan: warning: CODE: TEXT"
	if (!sub(/^scan: warning: /, "", line) || !index(line, ": "))
		return
	code = substr(line, 1, index(line, ": ") - 1)
	if (!(code in wtext))
		wtext[code] = plain(substr(line, length(code) + 3))
}
function warn_order(    by, placed, i, j, k, free, known, n) {
	for (k in wseen)
		by[wseen[k]] = k
	nwcode = 0
	n = split(ENVIRON["warning_codes"], known, " ")
	for (i = 1; i <= n; i++)
		if ((known[i] in wseen) && !(known[i] in placed)) {
			placed[known[i]] = 1
			wcode[++nwcode] = known[i]
		}
	while (nwcode < nwseen) {
		for (i = 1; i <= nwseen; i++) {
			if (by[i] in placed)
				continue
			free = 1
			for (j = 1; j <= nwseen; j++)
				if (!(by[j] in placed) && ((by[j], by[i]) in wbefore))
					free = 0
			if (free)
				break
		}
		if (i > nwseen)	# cells that disagree: the rest as first seen
			for (i = 1; i <= nwseen && (by[i] in placed); i++)
				;
		placed[by[i]] = 1
		wcode[++nwcode] = by[i]
	}
	return nwcode
}
# warn_footnote(file, title, how): file's warning lines read, then under
# title a line a code, most important first: "  CODE HOW[CODE]: LINE".
function warn_footnote(file, title, how,    n, i, c) {
	warn_read(file)
	if ((n = warn_order()))
		print title
	for (i = 1; i <= n; i++) {
		c = wcode[i]
		printf "  %s%s%s\n", c, (c in how ? " " how[c] : ""), (c in wtext ? ": " wtext[c] : "")
	}
}
