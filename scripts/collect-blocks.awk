# collect-blocks.awk - collect.sh's second stage: the report blocks in
# the messages collect-unmail.awk gives, a row each.
#
#   in   "M<tab>FILE<tab>N<tab>FROM<tab>DATE" and "L<tab>WHERE<tab>TEXT"
#   out  a row a line: "key=value" fields, tab-separated; a broken block
#        is a row with a field "broken", the message that says why
#
# Bare "Physical scan is" lines outside a block are a row of their own
# (the 2023 program printed only them); so is each line of the 2023
# thread's file.  Lines stream through: what is held is the block being
# read, the line after it (to see where a block ends) and the four lines
# before (where bare lines find their size and CPU).
#
# The block's grammar (report.sh writes it; scan-report(1) has the prose).
# A line starts with a key; a line that does not goes on from the one
# above (a rewrap), and "\" at the end of a command joins it to the next:
#
#   block    = first [short] cpu machine caches kernel memory command size
#              memmap protocol [model] [physical] ratio... [between]
#              [klmodel [klphysical] klratio... [klbetween]] [kernelown]
#              warning... original...
#   first    = "scan " VERSION " report, format " (3|4) ": " ("1 model, " N " run(s)"
#              | "2 models, " N " run(s) each") ", " SIZE " simulated"
#              (format 2: "scan " VERSION " report (block 2): " N
#              " run(s) of one command" [", " SIZE " simulated"])
#   short    = "in short: " TEXT           (format 4: the headline walk's
#              ratio by each model and the kernel, a row each, indented;
#              their figures are on the lines below, read there)
#   cpu      = "cpu: " MODEL-NAME
#   machine  = "machine: host " ID ", vendor " V ", family " F ", model " M
#              ", stepping " S ", hypervisor " H ", " N " CPUs, " K
#              " NUMA nodes, RAM " SIZE
#   caches   = "caches: L2 " SIZE " (" FROM "), LLC " SIZE " (" FROM ")"
#   kernel   = "kernel: " RELEASE ", THP " POLICY
#   memory   = "memory: stream " NS " ns/line, chase " NS " ns/hop"
#   command  = "$ scan " OPTIONS          (with -s SEED)
#   size     = "size: " PAGES " pages, " SIZE " simulated, memmap " SIZE
#   memmap   = "memmap: " B "-byte struct page, " P "% in huge pages, "
#              ("cache-sized" | "not cache-sized" | "cache-sized unknown")
#   protocol = "protocol: " ("default" | OPTIONS) " (" R " round(s) a run, cache "
#              C ", --memmap-thp=" T ")"    (older blocks: --thp=)
#   physical = "physical: " FIG " ns/page " SPREAD
#   ratio    = "ratio " WALK ": " FIG " " SPREAD ", " NS " ns/folio"
#              ["; the physical walk is " X "x slower than " WALK]
#   SPREAD   = "(" LO "-" HI ", " N " runs)" | "(" LO "-" HI ", " R " round(s), 1 run)"
#   model    = "model: " WORDS            (scan's model line)
#   between  = "between runs: " TEXT      (the spread between processes)
#   klmodel, klphysical, klratio, klbetween = "kernel-like " and the same:
#              the --kernel-like model at the same size, a row of its own
#   kernelown = "kernel's own: ratio ListLRU " FIG " (" TEXT ")" [", " TEXT]
#              | "kernel's own: no ratio" (" (" TEXT ")" | ": " TEXT)
#              (format 4: where it was measured after ", scan-kernel: ",
#              and the plain reading below 1 after "; ")
#   warning  = "warning: " CODE [": " TEXT] [" (" N " of " M " runs)"]
#              (older blocks: "warning: " TEXT)
#   original = "Physical scan is " %f " faster than " WALK
#
# Any value may be "unknown".

BEGIN {
	FS = "\t"
	keys = "(in short|cpu|machine|caches|kernel|memory|size|memmap|protocol|physical|warning|model|between runs|kernel's own|kernel-like (model|physical|between runs)): "
	bare_re = "^Physical scan is [0-9.]+x? faster than [A-Za-z]"
	max_block = 65536	# bytes: a block ends there (a broken one)
}

$1 == "M" { end_message(); file = $2; mail = $3; from = $4; date = $5; next }
$1 == "L" { unjoin($3, $2) }
END { end_message() }

# ---- The lines of a message, one at a time -------------------------------

# A line of text unquoted (its quote depth counted) and, where a mailer
# joined lines of a block (a quote reflowed), split again where a key of
# the block starts inside it (in a warning, only at the keys that may
# follow it).
function unjoin(s, where,    d, p, re, at, pre) {
	d = 0
	if (match(s, /^[ \t]*(>[ \t]*)+/)) {
		p = substr(s, 1, RLENGTH)
		d = gsub(/>/, ">", p)
		s = substr(s, RLENGTH + 1)
	}
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	re = " (" keys "|(ratio|counted|kernel-like ratio) [A-Za-z0-9_]+: |Physical scan is [0-9]|\\$ scan )"
	# a kernel-like line's own key is no join ("kernel-like physical: ")
	pre = ""
	if (s ~ /^kernel-like /) {
		pre = "kernel-like "
		s = substr(s, 13)
	}
	for (;;) {
		if (s ~ /^warning: /)
			re = " (warning: |Physical scan is [0-9])"
		if (length(s) < 2 || !match(substr(s, 2), re))
			break
		at = RSTART	# (hold() may match() again)
		hold(pre substr(s, 1, at), d, where)
		pre = ""
		s = substr(s, at + 2)
	}
	hold(pre s, d, where)
}

# Each line is taken with the one after it in view: hold() keeps a line
# until the next comes; end_message() takes the last.
function hold(s, d, where) {
	if (held)
		take(hs, hd, hw, 1, s, d)
	hs = s
	hd = d
	hw = where
	held = 1
}
function end_message() {
	if (held)
		take(hs, hd, hw, 0)
	held = 0
	end_mode()
	nbefore = 0
}

# take(S, D, WHERE, MORE, NEXT, NEXT_D): line S at quote depth D, and
# the line after it if MORE: into the block or bare lines being read,
# else perhaps the start of some.
function take(s, d, where, more, ns, nd,    taken, k) {
	if (mode == "block")
		taken = block_line(s, d, where, more, ns, nd)
	else if (mode == "bare")
		taken = bare_line(s, d)
	else if (mode == "2023")
		taken = row_2023(s, d, where)
	if (!taken) {
		end_mode()
		start(s, d, where)
	}
	# the four lines before, the nearest first
	for (k = nbefore < 4 ? ++nbefore : 4; k > 1; k--)
		before[k] = before[k - 1]
	before[1] = s
}

function end_mode() {
	if (mode == "block")
		end_block()
	else if (mode == "bare")
		end_bare()
	mode = ""
}

function start(s, d, where) {
	if (is_first(s))
		start_block(s, d, where)
	else if (s ~ bare_re)
		start_bare(s, d, where)
	else if (s ~ /^# scan\.c 1\.1 figures/)
		mode = "2023"
}

function is_first(s) { return s ~ /^scan [0-9][^ ]* report( \(block [0-9]+\)|, format [0-9]+:)/ }
function is_key(s) {
	return is_first(s) || s ~ ("^" keys) || s ~ /^\$ / || s ~ /^(ratio|counted|kernel-like ratio) [A-Za-z0-9_]+: / || s ~ /^Physical scan is /
}
function is_original(s) {
	return s ~ /^Physical scan is [0-9.]+ faster than [A-Za-z0-9_]+$/
}

# ---- A block -------------------------------------------------------------

# The block's lines go to bl[1..nb], their continuations joined, with
# bw[] where each began; it ends with its last original line, or before
# a blank, a fence, a new block, a deeper quote or a mark that the quote
# was trimmed.
function start_block(s, d, where) {
	mode = "block"
	block_d = d
	nb = 1
	bl[1] = s
	bw[1] = where
	block_bytes = length(s)
	originals = ratios = 0
}

# block_line(...): 1 if the line is the block's, 0 if the block ended
# before it.  A line quoted less deeply goes on from the one above where
# the next is back at the block's depth: the mailer rewrapped the quote
# and left the pieces without their marks.
function block_line(s, d, where, more, ns, nd) {
	if (s == "" || s ~ /^```/ || is_first(s) || d > block_d || s ~ /^[[<(]?(\.\.\.|[Ss]nip|[Cc]ut|[Tt]rimmed)/)
		return 0
	if (d < block_d && !(more && nd == block_d && ns != ""))
		return 0
	if ((block_bytes += length(s)) > max_block)
		return 0
	if (is_key(s) && d == block_d) {
		bl[++nb] = s
		bw[nb] = where
	} else {
		# a rewrapped line goes on from the one above
		if (bl[nb] ~ /\\$/)
			bl[nb] = substr(bl[nb], 1, length(bl[nb]) - 1)
		sub(/ +$/, "", bl[nb])
		bl[nb] = bl[nb] " " s
	}
	if (is_original(s))
		originals++
	if (s ~ /^ratio /)
		ratios++
	if (ratios && originals >= ratios)
		end_mode()
	return 1
}

function end_block(    k) {
	for (k = 1; k <= nb; k++)
		sub(/ \\$/, "", bl[k])
	parse_block()
}

# ---- Rows ----------------------------------------------------------------

function new_row(where, d) {
	split("", row)
	split("", seenwalk)
	row["file"] = file
	row["where"] = where
	row["mail"] = mail
	row["from"] = from
	row["date"] = date
	row["quoted"] = d
	walks = ""
	nwalks = 0
	split("", orig)
	split("", kl)
}
function put(k, v) {
	if (v == "unknown" || v ~ /^unknown /)
		v = ""
	gsub(/\t/, " ", v)
	row[k] = v
}
function add_walk(w) {
	if (!(w in seenwalk)) {
		seenwalk[w] = 1
		walks = walks (nwalks++ ? " " : "") w
	}
}
function num(v) { return v ~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ }
function after(s, key) { return substr(s, length(key) + 1) }

# "23.5 GiB" in bytes; "" for unknown.
function bytes(s,    a, k, u) {
	if (split(s, a, " ") != 2 || !num(a[1]))
		return ""
	u = index("B  KiBMiBGiBTiBPiB", a[2])
	if (!u || (u - 1) % 3)
		return ""
	for (k = (u - 1) / 3; k > 0; k--)
		a[1] *= 1024
	return sprintf("%.0f", a[1])
}

# A broken block: a row that says why, for the table to report (unless
# it is a trimmed quote of a block read whole).  The line it quotes is
# cut short: the message stays one readable line.
function bad(where, why,    about) {
	about = mail ? ", mail " mail : ""
	about = about (from == "" ? "" : ", From " from) (date == "" ? "" : ", Date " date)
	put("broken", sprintf("collect.sh: %s: broken block%s: %s", where,
	    about == "" ? "" : " (" substr(about, 3) ")", why))
	print_row()
}
function quote(s,    n) {
	if (length(s) > 320) {
		# cut before a byte that starts a character
		for (n = 300; n > 290 && substr(s, n + 1, 1) ~ /[\200-\277]/; n--)
			;
		s = substr(s, 1, n) "..."
	}
	return "\"" s "\""
}

function seed_of(cmd) {
	if (!match(cmd, / -s ?[0-9]+/))
		return ""
	cmd = substr(cmd, RSTART + 3, RLENGTH - 3)
	sub(/^ /, "", cmd)
	return cmd
}

# Whether a line of a block has the whole shape its key promises (a line
# cut short or run together is a broken block, not a row with a field
# missing).
function shaped(s,    n, v) {
	v = "[^,]+"
	n = "[0-9]+(\\.[0-9]+)?"
	if (s ~ /^scan /)
		return s ~ /^scan [^ ]+ report \(block 2\): [0-9]+ runs? of one command(, [^,]+ simulated)?$/ ||
		    s ~ /^scan [^ ]+ report, format [34]: (1 model, [0-9]+ runs?|2 models, [0-9]+ runs? each), [^,]+ simulated$/
	if (s ~ /^kernel-like (physical:|ratio) /)
		return shaped(substr(s, 13))
	if (s ~ /^(model|between runs|kernel-like model|kernel-like between runs): /) return 1
	if (s ~ /^kernel's own: /)
		return s ~ ("^kernel's own: (ratio ListLRU " n " \\(.*\\)|no ratio \\(.*\\))$") ||
		    s ~ ("^kernel's own: (ratio ListLRU " n " \\([^)]*\\),|no ratio: [^;]*;) scan-kernel: .+$")
	if (s ~ /^in short: /) return 1
	if (s ~ /^cpu: /) return 1
	if (s ~ /^machine: /)
		return s ~ ("^machine: host " v ", vendor " v ", family " v ", model " v ", stepping " v ", hypervisor " v ", " v " CPUs, " v " NUMA nodes?, RAM " v "$")
	if (s ~ /^caches: /) return s ~ /^caches: L2 [^(]+ \([^)]*\), LLC [^(]+ \([^)]*\)$/
	if (s ~ /^kernel: /) return s ~ /^kernel: .+, THP [^ ,]+$/
	if (s ~ /^memory: /) return s ~ /^memory: stream [^ ]+ ns\/line, chase [^ ]+ ns\/hop$/
	if (s ~ /^size: /) return s ~ ("^size: [0-9]+ pages, " v " simulated, memmap " v "$")
	if (s ~ /^memmap: /)
		return s ~ /^memmap: [0-9]+-byte struct page, [0-9]+% in huge pages, (cache-sized|not cache-sized|cache-sized unknown)$/
	if (s ~ /^protocol: /) return s ~ /^protocol: .+ \([0-9]+ rounds? a run, cache [^,]+, --(memmap-)?thp=[^)]+\)$/
	if (s ~ /^physical: /)
		return s ~ ("^physical: " n " ns/page \\(" n "-" n ", ([0-9]+ runs|[0-9]+ rounds?, 1 run)\\)$")
	if (s ~ /^ratio /)
		return s ~ ("^ratio [A-Za-z0-9_]+: " n " \\(" n "-" n ", ([0-9]+ runs|[0-9]+ rounds?, 1 run)\\), " n " ns/folio(; the physical walk is " n "x slower than [A-Za-z0-9_]+)?$")
	if (s ~ /^counted /)	# what scan counted a page or folio: not a column here
		return s ~ ("^counted [A-Za-z0-9_]+: " n " [A-Za-z ]+(, " n " [A-Za-z ]+)* a (page|folio)(, counting [0-9]+% of the time)?$")
	if (s ~ /^Physical scan is /) return is_original(s)
	return s ~ /^(warning: |\$ scan)/
}

# The block in bl[1..nb] as a row.
function parse_block(    k, s, t, a, w) {
	new_row(bw[1], block_d)
	put("shape", 2)
	for (k = 1; k <= nb; k++) {
		s = bl[k]
		if (!shaped(s))
			return bad(bw[k], "not a line of the block: " quote(s))
		if (k == 1) {
			split(s, a, " ")
			put("version", a[2])
			put("shape", s ~ /, format 4:/ ? 4 : s ~ /, format 3:/ ? 3 : 2)
			t = s
			sub(/^[^:]*: /, "", t)
			sub(/^[12] models?, /, "", t)
			put("runs", t + 0)
		} else if (s ~ /^kernel-like /) {
			if (!kernel_like(bw[k], after(s, "kernel-like ")))
				return
		} else if (s ~ /^model: /)
			put("model", after(s, "model: "))
		else if (s ~ /^kernel's own: ratio ListLRU /) {
			split(s, a, " ")
			put("kernel_ListLRU", a[5])
			# the pfn scanner that gave it, in report.sh's words
			if (match(s, /scan-kernel: [^,;()]+ as the pfn scanner/))
				put("kernel_scanner", substr(s, RSTART + 13, RLENGTH - 32))
		} else if (s ~ /^(in short|between runs|kernel's own): /)
			;
		else if (s ~ /^cpu: /)
			put("cpu", after(s, "cpu: "))
		else if (s ~ /^machine: /)
			machine_items(after(s, "machine: "))
		else if (s ~ /^caches: /) {
			split(after(s, "caches: L2 "), a, /, LLC /)
			cache_item("l2", a[1])
			cache_item("llc", a[2])
		} else if (s ~ /^kernel: /) {
			t = after(s, "kernel: ")
			if (match(t, /, THP [^ ,]*$/)) {
				put("system_thp", substr(t, RSTART + 6))
				t = substr(t, 1, RSTART - 1)
			}
			put("kernel", t)
		} else if (s ~ /^memory: /) {
			split(s, a, " ")
			put("stream_ns", num(a[3]) ? a[3] : "")
			put("chase_ns", num(a[6]) ? a[6] : "")
		} else if (s ~ /^\$ /) {
			put("command", after(s, "$ "))
			put("seed", seed_of(row["command"]))
		} else if (s ~ /^size: /) {
			split(after(s, "size: "), a, /, /)
			put("pages", a[1] + 0)
			t = a[2]
			sub(/ simulated$/, "", t)
			put("memory_bytes", bytes(t))
			put("memmap_bytes", bytes(after(a[3], "memmap ")))
		} else if (s ~ /^memmap: /) {
			split(after(s, "memmap: "), a, /, /)
			put("struct_page", a[1] + 0)
			put("huge_pct", a[2] + 0)
			put("cache_sized", a[3] == "cache-sized" ? "yes" : a[3] == "not cache-sized" ? "no" : "")
		} else if (s ~ /^protocol: /)
			protocol(after(s, "protocol: "))
		else if (s ~ /^physical: /) {
			split(s, a, " ")
			put("physical_ns", num(a[2]) ? a[2] : "")
		} else if (s ~ /^ratio /) {
			w = after(s, "ratio ")
			sub(/:.*/, "", w)
			if (!ratio(bw[k], w, after(s, "ratio " w ": ")))
				return
		} else if (s ~ /^warning: /)
			warn(after(s, "warning: "))
		else if (is_original(s)) {
			split(s, a, " ")
			orig[a[7]] = a[4]
		}
	}
	finish(bw[1])
}

# "host ID, vendor V, family F, model M, stepping S, hypervisor H, N
# CPUs, K NUMA nodes, RAM SIZE"
function machine_items(s,    it, c, m, t, p) {
	c = split(s, it, /, /)
	for (m = 1; m <= c; m++) {
		t = it[m]
		if (t ~ /^(host|vendor|family|model|stepping|hypervisor) /) {
			p = t
			sub(/ .*/, "", p)
			put(p == "host" ? "host_id" : p == "vendor" ? "cpu_vendor" : p == "hypervisor" ? p : "cpu_" p, after(t, p " "))
		} else if (t ~ /^[0-9]+ CPUs$/)
			put("cpus", t + 0)
		else if (t ~ / NUMA nodes?$/)
			put("numa_nodes", t ~ /^unknown/ ? "" : t + 0)
		else if (t ~ /^RAM /)
			put("ram_bytes", bytes(after(t, "RAM ")))
	}
}

function cache_item(name, s,    p) {
	p = index(s, " (")
	if (!p)
		return
	put(name "_bytes", bytes(substr(s, 1, p - 1)))
	s = substr(s, p + 2)
	sub(/\).*/, "", s)
	put(name "_from", s)
}

# "default (2 rounds a run, cache cold, --memmap-thp=always)" (or --thp=)
function protocol(s,    p) {
	p = s
	sub(/ \([^(]*\)$/, "", p)
	put("protocol", p)
	if (match(s, /\([0-9]+ rounds? a run/))
		put("rounds", substr(s, RSTART + 1) + 0)
	if (match(s, /thp=[a-z]+\)$/))
		put("thp", substr(s, RSTART + 4, RLENGTH - 5))
}

function warn(s) {
	row["warnings"] = row["warnings"] (row["warnings"] == "" ? "" : " | ") s
	row["nwarn"]++
}

# A kernel-like line after "kernel-like ": its model, physical or ratio
# line, kept as kl[] (the row that finish() prints after the block's).
function kernel_like(where, s,    w, a, keep, ok) {
	if (s ~ /^model: /) {
		kl["model"] = after(s, "model: ")
		kl["any"] = 1
		return 1
	}
	if (s ~ /^physical: /) {
		split(s, a, " ")
		kl["physical_ns"] = num(a[2]) ? a[2] : ""
		return 1
	}
	if (s !~ /^ratio /)
		return 1
	w = after(s, "ratio ")
	sub(/:.*/, "", w)
	# ratio() writes the row: keep it, write, move the figures to kl[]
	keep["r"] = row["r_" w]; keep["lo"] = row["lo_" w]
	keep["hi"] = row["hi_" w]; keep["ns"] = row["ns_" w]
	keep["walks"] = walks; keep["nwalks"] = nwalks; keep["seen"] = (w in seenwalk)
	ok = ratio(where, w, after(s, "ratio " w ": "))
	if (!ok)
		return 0
	kl["r_" w] = row["r_" w]; kl["lo_" w] = row["lo_" w]
	kl["hi_" w] = row["hi_" w]; kl["ns_" w] = row["ns_" w]
	kl["walks"] = kl["walks"] (kl["walks"] == "" ? "" : " ") w
	kl["any"] = 1
	row["r_" w] = keep["r"]; row["lo_" w] = keep["lo"]
	row["hi_" w] = keep["hi"]; row["ns_" w] = keep["ns"]
	walks = keep["walks"]; nwalks = keep["nwalks"]
	if (!keep["seen"])
		delete seenwalk[w]
	return 1
}

# A ratio line after its name: "M (LO-HI, N runs), NS ns/folio".
function ratio(where, w, s,    t, r, lo, hi, p) {
	r = s
	sub(/ .*/, "", r)
	p = index(s, "(")
	t = substr(s, p + 1)
	sub(/\).*/, "", t)
	lo = t
	sub(/-.*/, "", lo)
	hi = t
	sub(/^[^-]*-/, "", hi)
	sub(/,.*/, "", hi)
	if (t ~ /, [0-9]+ rounds?, 1 run$/)
		put("spread", "rounds")
	else if (t ~ /, [0-9]+ runs$/)
		put("spread", "runs")
	if (!num(r) || !num(lo) || !num(hi) || !p) {
		bad(where, "ratio " w ": " quote(s) " is not FIGURE (LO-HI, ...)")
		return 0
	}
	t = s
	sub(/ ns\/folio.*/, "", t)
	sub(/.* /, "", t)
	add_walk(w)
	put("r_" w, r)
	put("lo_" w, lo)
	put("hi_" w, hi)
	put("ns_" w, num(t) ? t : "")
	return 1
}

# The checks every block passes, then its row.
function finish(where,    k, a, c, miss) {
	miss = ""
	if (row["version"] == "") miss = miss ", the version"
	if (row["command"] == "") miss = miss ", the command"
	if (row["pages"] == "" || row["pages"] == 0) miss = miss ", the size"
	if (row["protocol"] == "") miss = miss ", the protocol"
	if (!nwalks) miss = miss ", a ratio line"
	c = split(walks, a, " ")
	for (k = 1; k <= c; k++)
		if (!(a[k] in orig))
			miss = miss ", the original line for " a[k]
	if (miss != "")
		return bad(where, "missing " substr(miss, 3))
	put("walks", walks)
	if (row["memmap_bytes"] == "" && row["struct_page"] != "")
		put("memmap_bytes", row["pages"] * row["struct_page"])
	# the page size simulated, where the block says it
	if (row["memory_bytes"] != "")
		put("page_bytes", 2 ^ int(log(row["memory_bytes"] / row["pages"]) / log(2) + 0.5))
	print_row()
	if (kl["any"])
		kernel_like_row()
}

# The kernel-like model of a block, a row of its own: the block's row
# with its protocol and command given --kernel-like, and its figures.
function kernel_like_row(    c, a, k) {
	c = split(row["walks"], a, " ")
	for (k = 1; k <= c; k++) {
		delete row["r_" a[k]]; delete row["lo_" a[k]]
		delete row["hi_" a[k]]; delete row["ns_" a[k]]
	}
	for (k in kl)
		if (k ~ /^(r|lo|hi|ns)_/)
			row[k] = kl[k]
	put("walks", kl["walks"])
	put("model", kl["model"])
	put("physical_ns", kl["physical_ns"])
	put("protocol", row["protocol"] == "default" ? "--kernel-like" : row["protocol"] " --kernel-like")
	put("command", row["command"] " --kernel-like")
	print_row()
}

function print_row(    k, out) {
	out = ""
	for (k in row)
		out = out (out == "" ? "" : "\t") k "=" row[k]
	print out
}

# ---- Bare lines ----------------------------------------------------------

# Bare original lines (the 2023 program printed only them, and scan
# prints them too), also inside a sentence: a row of unknown machine and
# protocol; its size from a "-c N", and the words that name a CPU, on
# those lines (the last that has one) or the four above (the nearest).
function start_bare(s, d, where,    k) {
	mode = "bare"
	bare_d = d
	new_row(where, d)
	put("shape", "bare")
	put("runs", 1)
	bare_size = bare_cpu = ""
	for (k = 1; k <= nbefore; k++)
		above[k] = before[k]
	nabove = nbefore
	bare_line(s, d)
}

function bare_line(s, d,    a, w, t) {
	if (d != bare_d || s !~ bare_re)
		return 0
	split(s, a, " ")
	w = a[7]
	sub(/[^A-Za-z0-9_].*/, "", w)
	t = a[4]
	sub(/x$/, "", t)
	add_walk(w)
	put("r_" w, t)
	if (s ~ size_re())
		bare_size = s
	if (s ~ cpu_re())
		bare_cpu = s
	return 1
}

function size_re() { return "-c ?[0-9]+(\\.[0-9]+)?" }
function cpu_re() {
	return "(Intel|AMD|Core|Xeon|EPYC|Ryzen|Threadripper|Opteron|Cortex-A[0-9]+|Neoverse|Graviton|Ampere|Apple M[0-9]|Raspberry Pi|Snapdragon|POWER[0-9]+|i[3579]-[0-9][0-9A-Z]*)([^,.;:!?()]|\\.[0-9])*"
}

function end_bare(    k) {
	for (k = 1; k <= nabove && (bare_size == "" || bare_cpu == ""); k++) {
		if (bare_size == "" && above[k] ~ size_re())
			bare_size = above[k]
		if (bare_cpu == "" && above[k] ~ cpu_re())
			bare_cpu = above[k]
	}
	# pages and cpu_text even where empty: a copy of these lines quoted
	# less deeply stands for them, what it lacks included
	put("pages", "")
	put("cpu_text", "")
	if (match(bare_size, size_re())) {
		put("pages", substr(bare_size, RSTART + 2) * 1e6)
		put("command", "scan.c " substr(bare_size, RSTART, RLENGTH))
	}
	if (match(bare_cpu, cpu_re()))
		put("cpu_text", substr(bare_cpu, RSTART, RLENGTH > 48 ? 48 : RLENGTH))
	# up to the words that go on about something else
	sub(/ (with|on|at|using|running|and|I|gives|gets|got|shows|here|is|was)( .*)?$/, "", row["cpu_text"])
	sub(/ +$/, "", row["cpu_text"])
	put("walks", walks)
	print_row()
}

# ---- The 2023 thread -----------------------------------------------------

# After a "# scan.c 1.1 figures" line, to the end of its message:
# "machine | size | ListLRU | ArrayLRU | who | note" lines; "#" lines
# are notes.  Every line is taken.
function row_2023(s, d, where,    f, c, k, w, t, lo, hi) {
	if (s ~ /^#/ || s == "")
		return 1
	c = split(s, f, / *\| */)
	new_row(where, d)
	if (c < 6) {
		bad(where, "not \"machine | size | ListLRU | ArrayLRU | who | note\"")
		return 1
	}
	put("shape", "1.1")
	put("version", "scan.c 1.1")
	put("protocol", "scan.c 1.1")
	put("cpu", f[1])
	put("from", f[5])
	put("date", "2023")
	put("note", (f[3] ~ /^about / ? "about; " : "") (f[6] == "-" ? "" : f[6]))
	put("runs", 1)
	if (f[2] ~ /^-c [0-9.]+$/)
		put("pages", substr(f[2], 4) * 1e6)
	else if (f[2] == "default")
		put("pages", 1000000)
	put("command", f[2] ~ /^-c / ? "scan.c " f[2] : f[2] == "default" ? "scan.c" : "")
	for (k = 3; k <= 4; k++) {
		t = f[k]
		sub(/^about /, "", t)
		if (t !~ /^[0-9.]+(-[0-9.]+)?$/)
			continue
		w = k == 3 ? "ListLRU" : "ArrayLRU"
		lo = hi = t
		sub(/-.*/, "", lo)
		sub(/.*-/, "", hi)
		add_walk(w)
		put("r_" w, t ~ /-/ ? (lo + 0 + hi) / 2 : t)	# a range's middle
		if (t ~ /-/) {
			put("lo_" w, lo)
			put("hi_" w, hi)
		}
	}
	put("walks", walks)
	print_row()
	return 1
}
