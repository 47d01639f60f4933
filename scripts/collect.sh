#!/bin/sh
#/ collect.sh - read the report blocks posted to a thread back into one
#/ table: who posted each, when, on which machine, at which size and
#/ protocol, each ratio with its spread, cache-sized or warned.
#/
#/ usage: scripts/collect.sh [-h] [-o FILE.csv] [-g FILE.svg] [--with-2023]
#/                           [FILE|DIR|-]...
#/
#/   -o FILE.csv   write the table as CSV too
#/   -g FILE.svg   draw the ratios by machine
#/   --with-2023   add the 2023 thread's figures (docs/thread-2023.txt)
#/
#/ Input (default stdin): mboxes, maildirs, mails, text or Markdown files,
#/ directories of them; blocks quoted at any depth, rewrapped, inside ```
#/ fences, quoted-printable or base64.  A block repeated in replies counts
#/ once, the blocks of one machine and setup make one row; bare "Physical
#/ scan is" lines are a row of unknown machine and protocol.  Rows
#/ that are not comparable (protocol, cache-sized memmap, struct page or
#/ page size) go to groups of their own.  A broken block is named on
#/ stderr with its file, line and mail.  Exit status: 0 every block read,
#/ 1 a broken block (the table holds the others) or none at all, 2 an
#/ error of usage.  See scan-collect(1).
#
# The block's grammar (report.sh writes it; scan-report(1) has the prose).
# A line starts with a key; a line that does not goes on from the one
# above (a rewrap), and "\" at the end of a command joins it to the next:
#
#   block    = first cpu machine caches kernel memory command size memmap
#              protocol [physical] ratio... warning... original...
#   first    = "scan " VERSION " report (block 2): " N " run(s) of one command"
#              [", " SIZE " simulated"]
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
#   warning  = "warning: " CODE [": " TEXT] [" (" N " of " M " runs)"]
#              (older blocks: "warning: " TEXT)
#   original = "Physical scan is " %f " faster than " WALK
#
# Any value may be "unknown".  2.0's blocks ("scan 2.0 on CPU, N CPUs, SIZE
# of RAM", then "kernel ...", "$ ...", "N pages (...)", "  WALK M (LO to
# HI), ...", the original's lines, "warning: ...") are read too.
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

csv=
svg=
with_2023=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o | -g)
		[ $# -ge 2 ] || { echo "collect.sh: $1 needs a file name" >&2; exit 2; }
		[ -n "$2" ] || usage_error "$1 '': give a file name"
		if [ "$1" = -o ]; then csv=$2; else svg=$2; fi
		shift 2 ;;
	--with-2023) with_2023=1; shift ;;
	--) shift; break ;;
	-?*) echo "collect.sh: unknown option $1 (collect.sh -h for help)" >&2; exit 2 ;;
	*) break ;;
	esac
done

need_math collect.sh
[ -z "$csv" ] || output_ok "$csv"	# before the work, not after
[ -z "$svg" ] || output_ok "$svg"
scratch
# bytes, not characters: the decoders build bytes with %c
LC_ALL=C
export LC_ALL

# The 2023 figures live in the source tree's docs/, or beside lib.awk
# where installed.
if [ "$with_2023" -eq 1 ]; then
	for thread in "$here/../docs/thread-2023.txt" "$(dirname "$0")/../share/scan/thread-2023.txt"; do
		[ -r "$thread" ] && break
	done
	[ -r "$thread" ] || {
		echo "collect.sh: --with-2023: no thread-2023.txt beside $here: give docs/thread-2023.txt as a file" >&2
		exit 1
	}
	set -- "$thread" "$@"
fi

# Every input as files: stdin copied, a maildir's mails, a directory's
# files in name order (hidden ones left out).  What never ends is
# refused: stdin past max_bytes, a file larger, what is not a regular
# file or a directory.
max_bytes=1073741824
: >"$tmp/inputs"
[ $# -gt 0 ] || set -- -
for a in "$@"; do
	if [ "$a" = - ]; then
		fold -b -w 65536 | awk -v max="$max_bytes" '
			{ n += length($0) + 1; if (n > max) exit 3; print }' >"$tmp/stdin" || {
			echo "collect.sh: stdin: more than $max_bytes bytes" >&2
			exit 1
		}
		echo "$tmp/stdin" >>"$tmp/inputs"
	elif [ -d "$a" ]; then
		if [ -d "$a/cur" ] || [ -d "$a/new" ]; then
			find "$a/cur" "$a/new" -type f 2>/dev/null | sort
		else
			find "$a" -type f ! -path "*/.*" | sort
		fi >>"$tmp/inputs"
	elif [ -f "$a" ] && [ -r "$a" ]; then
		# shellcheck disable=SC2012 # ls says the size without reading
		size=$(ls -ln "$a" | awk '{ print $5 }')
		[ "$size" -le "$max_bytes" ] || {
			echo "collect.sh: $a: $size bytes, more than $max_bytes" >&2
			exit 1
		}
		echo "$a" >>"$tmp/inputs"
	elif [ -e "$a" ]; then
		echo "collect.sh: $a: not a regular file or a directory" >&2
		exit 1
	else
		echo "collect.sh: cannot read $a" >&2
		exit 1
	fi
done
[ -s "$tmp/inputs" ] || { echo "collect.sh: no files in $*" >&2; exit 1; }

# unmail: each input as messages and their text, one line of output a
# line: "M<tab>FILE<tab>N<tab>FROM<tab>DATE" starts a message (N counts the
# mails in FILE), "L<tab>FILE:LINE<tab>TEXT" is a line of its decoded
# text.  An mbox splits at "From " lines; a file that starts with headers
# is one mail; any other file is one message of text.  Multipart mails
# give their text parts (not HTML, not attachments of other types).
unmail() {
	# shellcheck disable=SC2086 # $awk may be a command and its arguments
	$awk -v list="$tmp/inputs" -v stdin="$tmp/stdin" '
BEGIN {
	b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for (i = 0; i < 64; i++)
		val[substr(b64, i + 1, 1)] = i
	for (i = 1; i < 256; i++)
		chr[i] = sprintf("%c", i)
	for (i = 0; i < 16; i++) {
		hexv[substr("0123456789ABCDEF", i + 1, 1)] = i
		hexv[substr("0123456789abcdef", i + 1, 1)] = i
	}
	while ((getline file < list) > 0)
		read_file(file, file == stdin ? "stdin" : file)
}

# A file: an mbox, one mail, or text.
function read_file(f, name,    line, n, prev, kind, cmd) {
	n = 0
	prev = ""
	nmail = 0
	# through fold, so that a line without end cannot take all memory
	cmd = "fold -b -w 65536 <" shq(f)
	while ((cmd | getline line) > 0) {
		sub(/\r$/, "", line)
		gsub(/\t/, "        ", line)
		if (++n == 1)
			kind = line ~ /^From / ? "mbox" : line ~ /^[A-Za-z][A-Za-z0-9-]*: / ? "mail" : "text"
		if (n == 1 && kind == "text")
			start(name, "", "")
		if (n == 1 && kind == "mail")
			start_mail(name, n)
		if (kind == "mbox" && line ~ /^From / && (n == 1 || prev == "")) {
			end_part()
			end_mail()
			start_mail(name, n)
			prev = line
			continue
		}
		prev = line
		feed(name, n, line)
	}
	close(cmd)
	end_part()
	end_mail()
}

# A mail with HTML and no text part is said, not passed over in silence
# (its blocks, if any, are not read).
function end_mail() {
	if (html_only && !texts)
		printf "collect.sh: %s:%d: mail %d%s has only HTML, not read\n", mailfile, mailline, nmail,
		    mailfrom == "" ? "" : " (From " mailfrom ")" > "/dev/stderr"
	html_only = texts = 0
}

# s quoted for sh.
function shq(s,    out, i) {
	out = ""
	while ((i = index(s, "\047")) > 0) {
		out = out substr(s, 1, i - 1) "\047\\\047\047"
		s = substr(s, i + 1)
	}
	return "\047" out s "\047"
}

function start_mail(f, at) {
	mailline = at
	state = "head"
	hname = ""
	split("", hdr)
	depth = 0
	mailfile = f
	nmail++
}

function start(f, from, date) {
	mailfile = f
	printf "M\t%s\t%d\t%s\t%s\n", f, nmail, from, date
	depth = 0
	part_start("text/plain", "")
	state = "body"
}

# One line of a mail: its headers, then its body or its parts.
function feed(f, n, line,    b) {
	if (state == "head" || state == "phead") {
		if (line ~ /^[ \t]/ && hname != "") {
			hdr[hname] = hdr[hname] " " trim(line)
			return
		}
		if (line == "")
			return end_headers(f, n)
		hname = tolower(line)
		sub(/:.*/, "", hname)
		sub(/^[^:]*:[ \t]*/, "", line)
		hdr[hname] = line
		return
	}
	# a boundary of any open multipart
	if (depth > 0 && substr(line, 1, 2) == "--")
		for (b = depth; b >= 1; b--)
			if (line == "--" bound[b] || line == "--" bound[b] "--") {
				end_part()
				depth = b
				if (line == "--" bound[b] "--") {
					depth = b - 1
					state = "skip"
				} else {
					state = "phead"
					hname = ""
					split("", hdr)
				}
				return
			}
	if (state == "body") {
		np++
		pl[np] = line
		pn[np] = n
	}
}

# The end of a header block: the message starts (its From and Date), or
# a part does.
function end_headers(f, n,    ct, b) {
	if (state == "head") {
		mailfrom = clean(decode_words(hdr["from"]))
		printf "M\t%s\t%d\t%s\t%s\n", f, nmail, mailfrom, clean(day(hdr["date"]))
	}
	ct = tolower(hdr["content-type"])
	if (ct == "")
		ct = "text/plain"
	# a mail forwarded whole: its own headers, then its body
	if (ct ~ /^message\/rfc822/) {
		state = "head"
		hname = ""
		split("", hdr)
		return
	}
	if (ct ~ /^multipart\//) {
		b = hdr["content-type"]
		if (match(b, /[Bb][Oo][Uu][Nn][Dd][Aa][Rr][Yy]="[^"]*"/))
			b = substr(b, RSTART + 10, RLENGTH - 11)
		else if (match(b, /[Bb][Oo][Uu][Nn][Dd][Aa][Rr][Yy]=[^; ]*/))
			b = substr(b, RSTART + 9, RLENGTH - 9)
		else
			b = ""
		bound[++depth] = b
		state = "skip"		# the preamble
		return
	}
	# text, and attachments named as text whatever their type says
	if ((ct ~ /^text\// && ct !~ /^text\/html/) ||
	    (ct hdr["content-disposition"]) ~ /name="?[^";]*\.(txt|md|log|text)"?/) {
		part_start(ct, tolower(trim(hdr["content-transfer-encoding"])))
		pfirst = n + 1
		state = "body"
		texts++
	} else {
		if (ct ~ /^text\/html/)
			html_only = 1
		state = "skip"
	}
}

function part_start(ct, cte) {
	np = 0
	split("", pl)
	split("", pn)
	enc = cte
	pfile = mailfile
}

# The end of a part: its lines decoded, each with the line it came from.
function end_part(    i, s, t, k, nl, out) {
	if (state != "body" || np == 0) {
		np = 0
		return
	}
	if (enc == "quoted-printable") {
		s = ""
		for (i = 1; i <= np; i++) {
			if (s == "")
				k = pn[i]
			t = pl[i]
			sub(/[ \t]+$/, "", t)
			if (t ~ /=$/) {
				s = s substr(t, 1, length(t) - 1)
				continue
			}
			emit(k, unqp(s t))
			s = ""
		}
		if (s != "")
			emit(k, unqp(s))
	} else if (enc == "base64") {
		s = ""
		for (i = 1; i <= np; i++)
			s = s pl[i]
		nl = split(unbase64(s), out, "\n")
		for (i = 1; i <= nl; i++) {
			sub(/\r$/, "", out[i])
			emit(pn[1] "+" i, out[i])
		}
	} else
		for (i = 1; i <= np; i++)
			emit(pn[i], pl[i])
	np = 0
}

function emit(where, text,    parts, n, i) {
	# a decoded text may hold several lines
	n = split(text, parts, "\n")
	if (n == 0)
		parts[n = 1] = ""
	for (i = 1; i <= n; i++) {
		sub(/\r$/, "", parts[i])
		gsub(/\t/, "        ", parts[i])
		# the no-break spaces an HTML mailer leaves for indents
		gsub(/\302\240/, " ", parts[i])
		printf "L\t%s:%s\t%s\n", pfile, where, parts[i]
	}
}

# Quoted-printable: =XX is the byte XX.
function unqp(s,    out, i, c, h) {
	out = ""
	while ((i = index(s, "=")) > 0) {
		out = out substr(s, 1, i - 1)
		h = substr(s, i + 1, 2)
		if (h ~ /^[0-9A-Fa-f][0-9A-Fa-f]$/) {
			c = hexv[substr(h, 1, 1)] * 16 + hexv[substr(h, 2, 1)]
			out = out (c > 0 ? chr[c] : "")
			s = substr(s, i + 3)
		} else {
			out = out "="
			s = substr(s, i + 1)
		}
	}
	return out s
}

# Base64: four characters are three bytes; other characters are skipped.
function unbase64(s,    out, i, c, n, bits, v) {
	out = ""
	n = bits = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (!(c in val))
			continue
		bits = bits * 64 + val[c]
		if (++n == 4) {
			v = int(bits / 65536)
			out = out (v ? chr[v] : "")
			v = int(bits / 256) % 256
			out = out (v ? chr[v] : "")
			v = bits % 256
			out = out (v ? chr[v] : "")
			n = bits = 0
		}
	}
	# padding: two characters are one byte, three are two
	if (n == 2)
		out = out chr[int(bits / 16)]
	else if (n == 3)
		out = out chr[int(bits / 1024)] chr[int(bits / 4) % 256]
	return out
}

# A header word encoded as =?charset?Q?...?= or =?charset?B?...?=.
function decode_words(s,    out, w, p, e, t) {
	out = ""
	while (match(s, /=\?[^?]*\?[QqBb]\?[^?]*\?=/)) {
		w = substr(s, RSTART + 2, RLENGTH - 4)
		out = out substr(s, 1, RSTART - 1)
		s = substr(s, RSTART + RLENGTH)
		sub(/^[ \t]+=\?/, "=?", s)
		p = index(w, "?")
		e = toupper(substr(w, p + 1, 1))
		t = substr(w, p + 3)
		if (e == "Q") {
			gsub(/_/, " ", t)
			out = out unqp(t)
		} else
			out = out unbase64(t)
	}
	return out s
}

# A date as YYYY-MM-DD where it reads as a mail date, else as it is.
function day(s,    m, p) {
	if (!match(s, /[0-9]?[0-9] [A-Z][a-z][a-z] [0-9][0-9][0-9][0-9]/))
		return s
	split(substr(s, RSTART, RLENGTH), p, " ")
	m = index("JanFebMarAprMayJunJulAugSepOctNovDec", p[2])
	if (!m)
		return s
	return sprintf("%s-%02d-%02d", p[3], (m + 2) / 3, p[1])
}

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function clean(s) { gsub(/[\t\r\n]/, " ", s); return trim(s) }
'
}

# blocks: the report blocks in each message, one line of output a block:
# "key=value" fields, tab-separated; a broken block has a field broken,
# the message that says why.  Bare "Physical scan is" lines outside a
# block are a row of their own (the 2023 program printed only them); so
# is each line of the 2023 thread's file.
blocks() {
	# shellcheck disable=SC2086,SC2016 # $awk may be a command and its arguments; an awk program
	$awk -F '\t' '
$1 == "M" { message(); file = $2; mail = $3; from = $4; date = $5; n = 0; next }
$1 == "L" { n++; where[n] = $2; text[n] = $3; for (i = 4; i <= NF; i++) text[n] = text[n] " " $i }
END { message() }

# A line split into its quote depth (how many ">") and its text.
function unquote(s,    p) {
	qd = 0
	if (match(s, /^[ \t]*(>[ \t]*)+/)) {
		p = substr(s, 1, RLENGTH)
		qd = gsub(/>/, ">", p)
		s = substr(s, RLENGTH + 1)
	}
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

function is_first(s) {
	return s ~ /^scan [0-9][^ ]* report \(block [0-9]+\)/ || s ~ /^scan [0-9][^ ]* on /
}
function is_key2(s) {
	return is_first(s) || s ~ /^(cpu|machine|caches|kernel|memory|size|memmap|protocol|physical|warning): / ||
	    s ~ /^\$ / || s ~ /^ratio [A-Za-z0-9_]+: / || s ~ /^Physical scan is /
}
function is_key20(s) {
	return is_first(s) || s ~ /^kernel / || s ~ /^\$ / || s ~ /^[0-9]+ pages \(/ ||
	    s ~ /^Physical [0-9.]+ ns\/page/ || s ~ /^[A-Za-z0-9_]+ [0-9.]+ \(/ ||
	    s ~ /^Physical scan is / || s ~ /^warning: /
}
function is_original(s) {
	return s ~ /^Physical scan is [0-9.]+ faster than [A-Za-z0-9_]+$/
}

function message(    i, s) {
	if (!n)
		return
	unjoin()
	for (i = 1; i <= n; i++) {
		s = body[i]
		if (is_first(s))
			i = read_block(i) - 1
		else if (s ~ /^Physical scan is [0-9.]+x? faster than [A-Za-z]/)
			i = read_bare(i) - 1
		else if (s ~ /^# scan\.c 1\.1 figures/)
			i = read_2023(i) - 1
	}
	n = 0
}

# The lines of the message unquoted into body[] and qdepth[]; lines of a
# block that a mailer joined (a quote reflowed) are split again where a
# key of the block starts inside one (in a warning, only at the keys
# that may follow it).
function unjoin(    i, m, s, re) {
	m = 0
	for (i = 1; i <= n; i++) {
		s = unquote(text[i])
		if (s ~ /^warning: /)
			re = " (warning: |Physical scan is [0-9])"
		else if (s !~ /^scan [0-9][^ ]* on /)
			re = " ((cpu|machine|caches|kernel|memory|size|memmap|protocol|physical|warning): |ratio [A-Za-z0-9_]+: |Physical scan is [0-9]|\\$ scan )"
		else
			re = ""
		while (re != "" && match(substr(s, 2), re)) {
			split_line(++m, substr(s, 1, RSTART), qd, where[i])
			s = substr(s, RSTART + 2)
			if (s ~ /^warning: /)
				re = " (warning: |Physical scan is [0-9])"
		}
		split_line(++m, s, qd, where[i])
	}
	n = m
	for (i = 1; i <= n; i++) {
		body[i] = nbody[i]
		qdepth[i] = ndepth[i]
		where[i] = nwhere[i]
	}
}
function split_line(m, s, d, w) {
	nbody[m] = s
	ndepth[m] = d
	nwhere[m] = w
}

# read_block(I): the block from line I into bl[1..nb] (its lines with
# their continuations joined, at bw[] where each began); returns the
# line after it.
function read_block(i,    d, s, shape, k, originals, ratios) {
	d = qdepth[i]
	shape = body[i] ~ / report \(block / ? 2 : 20
	nb = 0
	originals = ratios = 0
	for (k = i; k <= n; k++) {
		s = body[k]
		# a blank, a fence, a new block, a deeper quote or a mark that
		# the quote was trimmed ends a block
		if (k > i && (s == "" || s ~ /^```/ || is_first(s) || qdepth[k] > d || s ~ /^[[<(]?(\.\.\.|[Ss]nip|[Cc]ut|[Tt]rimmed)/))
			break
		if (qdepth[k] < d && !(k < n && qdepth[k + 1] == d && body[k + 1] != ""))
			break
		if (k > i && (shape == 2 ? is_key2(s) : is_key20(s)) && qdepth[k] == d) {
			# 2.0: after the original lines only warnings and originals
			if (shape == 20 && originals && !is_original(s) && s !~ /^warning: /)
				break
			bl[++nb] = s
			bw[nb] = where[k]
		} else if (k == i) {
			bl[nb = 1] = s
			bw[1] = where[k]
		} else {
			# a rewrapped line goes on from the one above
			if (shape == 20 && originals)
				break
			if (bl[nb] ~ /\\$/)
				bl[nb] = substr(bl[nb], 1, length(bl[nb]) - 1)
			sub(/ +$/, "", bl[nb])
			bl[nb] = bl[nb] " " s
		}
		if (is_original(s))
			originals++
		if (s ~ /^ratio /)
			ratios++
		# a block of shape 2 ends with its last original line
		if (shape == 2 && ratios && originals >= ratios) {
			k++
			break
		}
	}
	for (s = 1; s <= nb; s++)
		sub(/ \\$/, "", bl[s])
	if (shape == 2)
		parse2(i)
	else
		parse20(i)
	return k
}

function new_row(i) {
	split("", row)
	split("", seenwalk)
	row["file"] = file
	row["where"] = where[i]
	row["mail"] = mail
	row["from"] = from
	row["date"] = date
	row["quoted"] = qdepth[i]
	walks = ""
	nwalks = 0
	split("", orig)
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
# it is a trimmed quote of a block read whole).
function bad(i, why) { bad_at(where[i], why) }
function bad_at(loc, why,    about) {
	about = mail ? ", mail " mail : ""
	about = about (from == "" ? "" : ", From " from) (date == "" ? "" : ", Date " date)
	put("broken", sprintf("collect.sh: %s: broken block%s: %s", loc,
	    about == "" ? "" : " (" substr(about, 3) ")", why))
	print_row()
}

# The protocol of a command: the options that change what is measured
# (as report.sh writes it), "default" for none.
function protocol_of(cmd,    a, n, k, p, o) {
	n = split(cmd, a, " ")
	p = ""
	for (k = 2; k <= n; k++) {
		o = a[k]
		if (o ~ /^-[cmsr]$/) { k++; continue }
		if (o == "-t") { p = p " -t " a[++k]; continue }
		if (o ~ /^-t./) { p = p " " o; continue }
		if (o ~ /^-[cmsr]./ || o ~ /^-[vqhV]/ || o ~ /^--(format|walks|cpu|builds)/) {
			if (o ~ /^--/ && o !~ /=/) k++
			continue
		}
		if (o ~ /^--/ && o !~ /=/ && o != "--original" && o != "--kernel-like" && k < n && a[k + 1] !~ /^-/)
			o = o "=" a[++k]
		p = p " " o
	}
	return p == "" ? "default" : substr(p, 2)
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
function shaped2(s,    n, v) {
	v = "[^,]+"
	n = "[0-9]+(\\.[0-9]+)?"
	if (s ~ /^scan /) return s ~ /^scan [^ ]+ report \(block 2\): [0-9]+ runs? of one command(, [^,]+ simulated)?$/
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
	if (s ~ /^Physical scan is /) return is_original(s)
	return s ~ /^(warning: |\$ scan)/
}
function shaped20(s,    n) {
	n = "[0-9]+(\\.[0-9]+)?"
	if (s ~ /^scan /) return s ~ /^scan [^ ]+ on .+, [0-9]+ CPUs, .+ of RAM$/
	if (s ~ /^kernel /) return s ~ /^kernel .+, THP [^ ]+ \(scan --thp=[a-z]+\)$/
	if (s ~ /^[0-9]+ pages /)
		return s ~ /^[0-9]+ pages \([^)]+ simulated\), [0-9]+% in huge pages, [0-9]+ rounds?$/
	if (s ~ /^Physical scan is /) return is_original(s)
	if (s ~ /^Physical /) return s ~ ("^Physical " n " ns/page; ratios over rounds, median \\(range\\):$")
	if (s ~ /^(warning: |\$ )/) return 1
	return s ~ ("^[A-Za-z0-9_]+ " n " \\(" n " to " n "\\), " n " ns/folio$")
}

# The block of shape 2 in bl[1..nb].
function parse2(i,    k, s, t, a, it, c, w, m, p) {
	new_row(i)
	put("shape", 2)
	for (k = 1; k <= nb; k++) {
		s = bl[k]
		line_at = bw[k]
		if (!shaped2(s))
			return bad_at(line_at, "not a line of the block: \"" s "\"")
		if (k == 1) {
			split(s, a, " ")
			put("version", a[2])
			t = s
			sub(/^[^:]*: /, "", t)
			put("runs", t + 0)
		} else if (s ~ /^cpu: /)
			put("cpu", after(s, "cpu: "))
		else if (s ~ /^machine: /) {
			c = split(after(s, "machine: "), it, /, /)
			for (m = 1; m <= c; m++) {
				t = it[m]
				if (t ~ /^(host|vendor|family|model|stepping|hypervisor) /) {
					p = t
					sub(/ .*/, "", p)
					w = after(t, p " ")
					p = p == "host" ? "host_id" : p == "vendor" ? "cpu_vendor" : p == "hypervisor" ? p : "cpu_" p
					put(p, w)
				} else if (t ~ /^[0-9]+ CPUs$/)
					put("cpus", t + 0)
				else if (t ~ / NUMA nodes?$/)
					put("numa_nodes", t ~ /^unknown/ ? "" : t + 0)
				else if (t ~ /^RAM /)
					put("ram_bytes", bytes(after(t, "RAM ")))
			}
		} else if (s ~ /^caches: /) {
			split(after(s, "caches: L2 "), it, /, LLC /)
			cache_item("l2", it[1])
			cache_item("llc", it[2])
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
			c = split(after(s, "size: "), it, /, /)
			put("pages", it[1] + 0)
			t = it[2]
			sub(/ simulated$/, "", t)
			put("memory_bytes", bytes(t))
			put("memmap_bytes", bytes(after(it[3], "memmap ")))
		} else if (s ~ /^memmap: /) {
			c = split(after(s, "memmap: "), it, /, /)
			put("struct_page", it[1] + 0)
			put("huge_pct", it[2] + 0)
			put("cache_sized", it[3] == "cache-sized" ? "yes" : it[3] == "not cache-sized" ? "no" : "")
		} else if (s ~ /^protocol: /) {
			t = after(s, "protocol: ")
			p = t
			sub(/ \([^(]*\)$/, "", p)
			put("protocol", p)
			if (match(t, /\([0-9]+ rounds? a run/))
				put("rounds", substr(t, RSTART + 1) + 0)
			if (match(t, /thp=[a-z]+\)$/))	# --memmap-thp=, older --thp=
				put("thp", substr(t, RSTART + 4, RLENGTH - 5))
		} else if (s ~ /^physical: /) {
			split(s, a, " ")
			put("physical_ns", num(a[2]) ? a[2] : "")
		} else if (s ~ /^ratio /) {
			w = after(s, "ratio ")
			sub(/:.*/, "", w)
			if (!ratio(i, w, after(s, "ratio " w ": "), " "))
				return
		} else if (s ~ /^warning: /)
			warn(after(s, "warning: "))
		else if (is_original(s)) {
			split(s, a, " ")
			orig[a[7]] = a[4]
		}
	}
	finish(i)
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

function warn(s) {
	row["warnings"] = row["warnings"] (row["warnings"] == "" ? "" : " | ") s
	row["nwarn"]++
}

# A ratio line after its name: "M (LO-HI, N runs), NS ns/folio" (shape
# 2, sep "-") or "M (LO to HI), NS ns/folio" (2.0, sep " to ").
function ratio(i, w, s, shape,    a, t, r, lo, hi, p) {
	r = s
	sub(/ .*/, "", r)
	p = index(s, "(")
	t = substr(s, p + 1)
	sub(/\).*/, "", t)
	if (shape == " ") {
		lo = t
		sub(/-.*/, "", lo)
		hi = t
		sub(/^[^-]*-/, "", hi)
		sub(/,.*/, "", hi)
		if (t ~ /, [0-9]+ rounds?, 1 run$/)
			put("spread", "rounds")
		else if (t ~ /, [0-9]+ runs$/)
			put("spread", "runs")
	} else {
		split(t, a, / to /)
		lo = a[1]
		hi = a[2]
		put("spread", "rounds")
	}
	if (!num(r) || !num(lo) || !num(hi) || !p) {
		bad_at(line_at, "ratio " w ": \"" s "\" is not FIGURE (LO-HI, ...)")
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
function finish(i,    k, a, c, w, miss) {
	miss = ""
	if (row["version"] == "") miss = miss ", the version"
	if (row["command"] == "") miss = miss ", the command"
	if (row["pages"] == "" || row["pages"] == 0) miss = miss ", the size"
	if (row["shape"] == 2 && row["protocol"] == "") miss = miss ", the protocol"
	if (!nwalks) miss = miss ", a ratio line"
	c = split(walks, a, " ")
	for (k = 1; k <= c; k++)
		if (!(a[k] in orig))
			miss = miss ", the original line for " a[k]
	split("", orig)
	if (miss != "")
		return bad(i, "missing " substr(miss, 3))
	put("walks", walks)
	if (row["memmap_bytes"] == "" && row["struct_page"] != "")
		put("memmap_bytes", row["pages"] * row["struct_page"])
	# the page size simulated, where the block says it
	if (row["memory_bytes"] != "")
		put("page_bytes", 2 ^ int(log(row["memory_bytes"] / row["pages"]) / log(2) + 0.5))
	print_row()
}

function print_row(    k, out) {
	out = ""
	for (k in row)
		out = out (out == "" ? "" : "\t") k "=" row[k]
	print out
}

# A block in the shape of 2.0 in bl[1..nb]: what it lacks stays empty.
function parse20(i,    k, s, t, a, it, w, p) {
	new_row(i)
	put("shape", "2.0")
	put("runs", 1)
	put("struct_page", 64)
	for (k = 1; k <= nb; k++) {
		s = bl[k]
		line_at = bw[k]
		if (!shaped20(s))
			return bad_at(line_at, "not a line of a block of 2.0: \"" s "\"")
		if (k == 1) {
			split(s, a, " ")
			put("version", a[2])
			t = s
			sub(/^scan [^ ]* on /, "", t)
			if (match(t, /, [0-9]+ CPUs, [^,]* of RAM$/)) {
				p = substr(t, RSTART + 2)
				t = substr(t, 1, RSTART - 1)
				put("cpus", p + 0)
				sub(/^[0-9]+ CPUs, /, "", p)
				sub(/ of RAM$/, "", p)
				put("ram_bytes", bytes(p))
			}
			put("cpu", t)
		} else if (s ~ /^kernel /) {
			t = after(s, "kernel ")
			if (match(t, /, THP [^ ,]* \(scan --thp=[a-z]+\)$/)) {
				p = substr(t, RSTART + 6)
				t = substr(t, 1, RSTART - 1)
				split(p, a, " ")
				put("system_thp", a[1])
				sub(/.*=/, "", p)
				sub(/\)$/, "", p)
				put("thp", p)
			}
			put("kernel", t)
		} else if (s ~ /^\$ /) {
			t = after(s, "$ ")
			sub(/^[^ ]*/, "scan", t)	# the binary as it was named there
			put("command", t)
			put("seed", seed_of(t))
			put("protocol", protocol_of(t))
			if (match(t, /--struct-page[= ][0-9]+/))
				put("struct_page", substr(t, RSTART + 14, RLENGTH - 14) + 0)
		} else if (s ~ /^[0-9]+ pages \(/) {
			put("pages", s + 0)
			t = s
			sub(/^[^(]*\(/, "", t)
			sub(/ simulated.*/, "", t)
			put("memory_bytes", bytes(t))
			if (match(s, /, [0-9]+% in huge pages/))
				put("huge_pct", substr(s, RSTART + 2) + 0)
			if (match(s, /, [0-9]+ rounds?$/))
				put("rounds", substr(s, RSTART + 2) + 0)
		} else if (s ~ /^Physical [0-9.]+ ns\/page/) {
			split(s, a, " ")
			put("physical_ns", a[2])
		} else if (is_original(s)) {
			split(s, a, " ")
			orig[a[7]] = a[4]
		} else if (s ~ /^warning: /) {
			t = after(s, "warning: ")
			warn(t)
			# the cache-sized warning carries the LLC
			if (match(t, /^memmap .* < 4x LLC [0-9.]+ [KMGT]?i?B/)) {
				put("cache_sized", "yes")
				sub(/.* < 4x LLC /, "", t)
				put("llc_bytes", bytes(t))
			}
		} else if (s ~ /^[A-Za-z0-9_]+ [0-9.]+ \(/) {
			w = s
			sub(/ .*/, "", w)
			if (!ratio(i, w, after(s, w " "), " to "))
				return
		}
	}
	# 2.0 warned whenever the memmap was cache-sized, unless told not to
	if (row["cache_sized"] == "" && row["command"] !~ / -q| -[a-z]*q/)
		put("cache_sized", "no")
	finish(i)
}

# Bare original lines (the 2023 program printed only them, and scan
# prints them too), also inside a sentence: a row of unknown machine and
# protocol; its size from a "-c N", and the words that name a CPU, on
# those lines or a few above, if there are.
function read_bare(i,    k, a, c, d, t, w) {
	new_row(i)
	put("shape", "bare")
	put("runs", 1)
	d = qdepth[i]
	for (k = i; k <= n && qdepth[k] == d && body[k] ~ /^Physical scan is [0-9.]+x? faster than [A-Za-z]/; k++) {
		split(body[k], a, " ")
		w = a[7]
		sub(/[^A-Za-z0-9_].*/, "", w)
		t = a[4]
		sub(/x$/, "", t)
		add_walk(w)
		put("r_" w, t)
	}
	for (c = k - 1; c >= 1 && c >= i - 4; c--) {
		if (row["pages"] == "" && match(body[c], /-c ?[0-9]+(\.[0-9]+)?/)) {
			put("pages", substr(body[c], RSTART + 2) * 1e6)
			put("command", "scan.c " substr(body[c], RSTART, RLENGTH))
		}
		if (row["cpu_text"] == "" && match(body[c], /(Intel|AMD|Core|Xeon|EPYC|Ryzen|Threadripper|Opteron|Cortex-A[0-9]+|Neoverse|Graviton|Ampere|Apple M[0-9]|Raspberry Pi|Snapdragon|POWER[0-9]+|i[3579]-[0-9][0-9A-Z]*)([^,.;:!?()]|\.[0-9])*/))
			put("cpu_text", substr(body[c], RSTART, RLENGTH > 48 ? 48 : RLENGTH))
	}
	# up to the words that go on about something else
	sub(/ (with|on|at|using|running|and|I|gives|gets|got|shows|here|is|was)( .*)?$/, "", row["cpu_text"])
	sub(/ +$/, "", row["cpu_text"])
	put("walks", walks)
	print_row()
	return k
}

# The 2023 thread as a file: "machine | size | ListLRU | ArrayLRU | who |
# note" lines after a "# scan.c 1.1 figures" line; "#" lines are notes.
function read_2023(i,    k, f, c, w, t, lo, hi) {
	for (k = i + 1; k <= n; k++) {
		if (body[k] ~ /^#/ || body[k] == "")
			continue
		c = split(body[k], f, / *\| */)
		new_row(k)
		if (c < 6) {
			bad(k, "not \"machine | size | ListLRU | ArrayLRU | who | note\"")
			continue
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
		for (w = 3; w <= 4; w++) {
			t = f[w]
			sub(/^about /, "", t)
			if (t !~ /^[0-9.]+(-[0-9.]+)?$/)
				continue
			lo = hi = t
			sub(/-.*/, "", lo)
			sub(/.*-/, "", hi)
			add_walk(w == 3 ? "ListLRU" : "ArrayLRU")
			put("r_" (w == 3 ? "ListLRU" : "ArrayLRU"), t ~ /-/ ? (lo + hi) / 2 : t)
			if (t ~ /-/) {
				put("lo_" (w == 3 ? "ListLRU" : "ArrayLRU"), lo)
				put("hi_" (w == 3 ? "ListLRU" : "ArrayLRU"), hi)
			}
		}
		put("walks", walks)
		print_row()
	}
	return k
}
'
}


# table: the rows, a repeated block once (same machine, command and
# figures; the copy not quoted, or the first, says who posted it), in
# groups of comparable rows; the table on stdout, the CSV to $tmp/csv,
# the rows in order to $tmp/drawn for the chart.  The broken blocks go to
# stderr, their number to $tmp/broken; a quoted one is left out where a
# block with its command was read whole (a reply trimmed the quote).
table() {
	# shellcheck disable=SC2086,SC2016 # $awk may be a command and its arguments; an awk program
	$awk -F '\t' -v csv="$tmp/csv" -v drawn="$tmp/drawn" -v broken="$tmp/broken" "$awklib"'
{
	split("", r)
	for (i = 1; i <= NF; i++) {
		p = index($i, "=")
		r[substr($i, 1, p - 1)] = substr($i, p + 1)
	}
	if (r["broken"] != "") {
		bmsg[++nbad] = r["broken"]
		bcmd[nbad] = r["quoted"] > 0 ? r["command"] : ""
		next
	}
	read_whole[r["command"]] = 1
	# bare lines are the same lines wherever quoted, with or without the
	# size said above them
	key = r["shape"] == "bare" ? "bare" : machine_key(r) SUBSEP r["command"] SUBSEP r["pages"]
	nw = split(r["walks"], w, " ")
	for (i = 1; i <= nw; i++)
		key = key SUBSEP w[i] "=" r["r_" w[i]] "," r["lo_" w[i]] "," r["hi_" w[i]]
	if (key in row) {
		k = row[key]
		copies[k]++
		if (r["quoted"] >= quoted[k])
			next
	} else {
		k = row[key] = ++rows
		copies[k] = 1
	}
	quoted[k] = r["quoted"]
	for (f in r)
		v[k, f] = r[f]
	v[k, "machine"] = machine_key(r)
	for (i = 1; i <= nw; i++)
		if (!(w[i] in walk)) {
			walk[w[i]] = 1
			others = others " " w[i]
		}
}

# One machine: its identity where the block gives it, else what 2.0 and
# the 2023 thread say (the model name, CPUs, RAM).
function machine_key(r) {
	if (r["host_id"] != "")
		return "host " r["host_id"]
	return r["cpu"] "|" r["cpu_vendor"] "|" r["cpu_family"] "|" r["cpu_model"] "|" \
	    r["cpu_stepping"] "|" r["hypervisor"] "|" r["cpus"] "|" r["l2_bytes"] "|" \
	    r["llc_bytes"] "|" r["numa_nodes"] "|" int(r["ram_bytes"] / 2 ^ 30 + 0.5)
}

# Rows that may be set side by side: one protocol, one size regime, one
# struct page and page size.
function group(k,    g, c) {
	if (v[k, "shape"] == "1.1")
		return "scan.c 1.1: the 2023 thread (Virtual Scanning Considered Harmful)"
	if (v[k, "shape"] == "bare")
		return "bare \"Physical scan is\" lines: machine and protocol unknown"
	g = v[k, "protocol"] == "default" ? "default protocol" : "protocol " v[k, "protocol"]
	c = v[k, "cache_sized"]
	g = g (c == "yes" ? ", cache-sized memmap" : c == "no" ? ", memmap beyond the caches" : ", cache size unknown")
	if (v[k, "struct_page"] != "" && v[k, "struct_page"] != 64)
		g = g ", " v[k, "struct_page"] "-byte struct page"
	if (v[k, "page_bytes"] != "" && v[k, "page_bytes"] != 4096)
		g = g ", " human(v[k, "page_bytes"], "%g") " pages"
	return g
}

# Groups in this order: the default protocol beyond the caches first, the
# 2023 program last; rows by machine, then size.
function rank(k,    g) {
	g = group(k)
	return (g ~ /^default protocol, memmap beyond/ ? 0 : g ~ /^default/ ? 1 : g ~ /^bare/ ? 3 : g ~ /^scan\.c/ ? 4 : 2) \
	    "|" g "|" machine(k) "|" sprintf("%015.3f", v[k, "pages"])
}

function machine(k,    s) {
	s = v[k, "cpu"] == "" ? "unknown CPU" : v[k, "cpu"]
	if (v[k, "cpu_text"] != "")
		s = s " (\"" v[k, "cpu_text"] "\" in the mail)"
	if (v[k, "host_id"] != "")
		s = s " [" v[k, "host_id"] "]"
	if (v[k, "llc_bytes"] != "")
		s = s ", LLC " human(v[k, "llc_bytes"], "%g")
	return s
}

function size(k) { return v[k, "pages"] == "" ? "not given" : sprintf("-c %g", v[k, "pages"] / 1e6) }

function figure(k, w,    s) {
	if (v[k, "r_" w] == "")
		return "-"
	s = v[k, "r_" w]
	if (v[k, "lo_" w] != "")
		s = s " (" v[k, "lo_" w] "-" v[k, "hi_" w] (v[k, "spread"] == "runs" ? ", " v[k, "runs"] " runs" : v[k, "spread"] == "rounds" ? ", rounds" : "") ")"
	return s
}

function flags(k,    s) {
	s = v[k, "cache_sized"] == "yes" ? "cache-sized" : ""
	if (v[k, "nwarn"] > 0)
		s = s (s == "" ? "" : ", ") "warned " v[k, "nwarn"] "x"
	if (blocks[k] > 1)
		s = s (s == "" ? "" : ", ") blocks[k] " blocks"
	if (copies[k] > blocks[k])
		s = s (s == "" ? "" : ", ") "posted " copies[k] "x"
	if (v[k, "note"] != "")
		s = s (s == "" ? "" : ", ") v[k, "note"]
	return s == "" ? "-" : s
}

# Posters by name where a From gives one ("Alice <a@b>" is Alice).
function poster_names(s,    out, p, n, i) {
	n = split(s, p, /; /)
	out = ""
	for (i = 1; i <= n; i++) {
		if (p[i] ~ /^[^<]*[^< ] <[^>]*>$/)
			sub(/ <[^>]*>$/, "", p[i])
		gsub(/"/, "", p[i])
		out = out (i > 1 ? "; " : "") p[i]
	}
	return out
}

function who(k) { return v[k, "from"] != "" ? v[k, "from"] : v[k, "file"] }

# CSV fields hold no commas (a plain split reads them, as scan'"'"'s CSV).
function nocomma(s) { gsub(/,/, ";", s); return s }

# One row per machine and setup: the blocks of one machine in one group
# at one size are one row, its figure the median of their figures, its
# spread from the lowest to the highest, its runs and posters all of
# theirs; the first block says the command, the date and the rest.
function merge(    k, m, key, i, j, n, nw, w, x) {
	kept = 0
	for (k = 1; k <= rows; k++) {
		# rows that name no machine are never one machine
		key = v[k, "machine"] SUBSEP group(k) SUBSEP v[k, "pages"]
		if (v[k, "shape"] == "bare" || v[k, "shape"] == "1.1")
			key = key SUBSEP k
		if (!(key in first)) {
			first[key] = k
			keep[++kept] = k
			blocks[k] = 1
			posters[k] = who(k)
			nw = split(v[k, "walks"], w, " ")
			for (i = 1; i <= nw; i++)
				if (v[k, "r_" w[i]] != "")
					fig[k, w[i], nfig[k, w[i]] = 1] = v[k, "r_" w[i]]
			continue
		}
		m = first[key]
		blocks[m]++
		if (index("; " posters[m] ";", "; " who(k) ";") == 0)
			posters[m] = posters[m] "; " who(k)
		copies[m] += copies[k]
		v[m, "runs"] += v[k, "runs"]
		v[m, "nwarn"] += v[k, "nwarn"]
		if (v[k, "warnings"] != "")
			v[m, "warnings"] = v[m, "warnings"] (v[m, "warnings"] == "" ? "" : " | ") v[k, "warnings"]
		if (v[k, "spread"] == "runs")
			v[m, "spread"] = "runs"
		nw = split(v[k, "walks"], w, " ")
		for (i = 1; i <= nw; i++) {
			x = w[i]
			if (v[k, "r_" x] == "")
				continue
			if (!nfig[m, x])
				v[m, "walks"] = v[m, "walks"] " " x
			fig[m, x, ++nfig[m, x]] = v[k, "r_" x]
			widen(m, k, x)
		}
	}
	for (j = 1; j <= kept; j++) {
		m = keep[j]
		if (blocks[m] == 1)
			continue
		nw = split(v[m, "walks"], w, " ")
		for (i = 1; i <= nw; i++)
			if ((n = nfig[m, w[i]]) > 1)
				respread(m, w[i], median_of(m, w[i], n))
	}
}

# The figure of row m for walk x, and its spread, in the decimals that show
# the spread in two digits (as report.sh prints them).
function respread(m, x, med,    lo, hi, d) {
	lo = v[m, "lo_" x] + 0
	hi = v[m, "hi_" x] + 0
	d = hi > lo ? 1 - floor(lg(hi - lo)) : 2
	d = d < 0 ? 0 : d > 6 ? 6 : d
	v[m, "r_" x] = sprintf("%." d "f", med)
	v[m, "lo_" x] = sprintf("%." d "f", lo)
	v[m, "hi_" x] = sprintf("%." d "f", hi)
}

# The spread of row m over that of row k, for walk x.
function widen(m, k, x,    lo, hi) {
	lo = v[k, "lo_" x] == "" ? v[k, "r_" x] : v[k, "lo_" x]
	hi = v[k, "hi_" x] == "" ? v[k, "r_" x] : v[k, "hi_" x]
	if (v[m, "lo_" x] == "") {
		v[m, "lo_" x] = v[m, "r_" x]
		v[m, "hi_" x] = v[m, "r_" x]
	}
	if (lo + 0 < v[m, "lo_" x] + 0)
		v[m, "lo_" x] = lo
	if (hi + 0 > v[m, "hi_" x] + 0)
		v[m, "hi_" x] = hi
}

# The median of the figures of row m for walk x.
function median_of(m, x, n,    i, j, t, a) {
	for (i = 1; i <= n; i++)
		a[i] = fig[m, x, i] + 0
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function sort_rows(    i, j, t) {
	rows = kept
	for (i = 1; i <= rows; i++) {
		ord[i] = keep[i]
		rk[keep[i]] = rank(keep[i])
	}
	for (i = 2; i <= rows; i++)
		for (j = i; j > 1 && rk[ord[j - 1]] > rk[ord[j]]; j--) {
			t = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = t
		}
}

END {
	for (i = 1; i <= nbad; i++)
		if (bcmd[i] == "" || !(bcmd[i] in read_whole)) {
			print bmsg[i] > "/dev/stderr"
			reported++
		}
	print reported + 0 > broken
	if (!rows)
		exit 0
	# ListLRU and ArrayLRU first, as the original printed them
	nwalks = 0
	if ("ListLRU" in walk) wl[++nwalks] = "ListLRU"
	if ("ArrayLRU" in walk) wl[++nwalks] = "ArrayLRU"
	n = split(others, o, " ")
	for (i = 1; i <= n; i++)
		if (o[i] != "ListLRU" && o[i] != "ArrayLRU")
			wl[++nwalks] = o[i]
	merge()
	sort_rows()
	write_csv()
	write_table()
}

function write_csv(    i, k, j, n, f, line, names) {
	names = "from date source shape version host_id cpu cpu_text cpu_vendor cpu_family cpu_model cpu_stepping hypervisor cpus numa_nodes ram_bytes l2_bytes l2_from llc_bytes llc_from kernel system_thp stream_ns chase_ns command seed pages memory_bytes memmap_bytes struct_page page_bytes huge_pct cache_sized protocol rounds thp runs spread physical_ns"
	n = split(names, f, " ")
	line = "group"
	for (j = 1; j <= n; j++)
		line = line "," f[j]
	for (j = 1; j <= nwalks; j++)
		line = line "," wl[j] "," wl[j] "_min," wl[j] "_max," wl[j] "_ns"
	print line ",warnings,copies,blocks,note" > csv
	for (i = 1; i <= rows; i++) {
		k = ord[i]
		line = nocomma(group(k))
		for (j = 1; j <= n; j++)
			line = line "," nocomma(f[j] == "source" ? v[k, "where"] : f[j] == "from" ? posters[k] : v[k, f[j]])
		for (j = 1; j <= nwalks; j++)
			line = line "," v[k, "r_" wl[j]] "," v[k, "lo_" wl[j]] "," v[k, "hi_" wl[j]] "," v[k, "ns_" wl[j]]
		print line "," nocomma(v[k, "warnings"]) "," copies[k] "," blocks[k] "," nocomma(v[k, "note"]) > csv
	}
	close(csv)
}

# The table: a heading per group, a row per machine and setup.
function write_table(    i, j, k, g, last, wd, cell, ncol, col) {
	ncol = 0
	head[++ncol] = "machine"
	head[++ncol] = "size"
	for (j = 1; j <= nwalks; j++)
		head[++ncol] = wl[j]
	head[++ncol] = "from"
	head[++ncol] = "date"
	head[++ncol] = "flags"
	for (col = 1; col <= ncol; col++)
		wd[col] = length(head[col])
	for (i = 1; i <= rows; i++) {
		k = ord[i]
		col = 0
		cell[i, ++col] = machine(k)
		cell[i, ++col] = size(k)
		for (j = 1; j <= nwalks; j++)
			cell[i, ++col] = figure(k, wl[j])
		cell[i, ++col] = poster_names(posters[k])
		cell[i, ++col] = v[k, "date"] == "" ? "-" : v[k, "date"]
		cell[i, ++col] = flags(k)
		for (col = 1; col <= ncol; col++)
			if (length(cell[i, col]) > wd[col])
				wd[col] = length(cell[i, col])
	}
	last = ""
	for (i = 1; i <= rows; i++) {
		k = ord[i]
		g = group(k)
		if (g != last) {
			printf "%s%s\n", last == "" ? "" : "\n", g
			for (col = 1; col <= ncol; col++)
				printf "  %-" wd[col] "s", head[col]
			printf "\n"
			last = g
		}
		for (col = 1; col <= ncol; col++)
			printf "  %-" wd[col] "s", cell[i, col]
		printf "\n"
		print g "\t" machine(k) "\t" size(k) "\t" v[k, "cache_sized"] > drawn
		for (j = 1; j <= nwalks; j++)
			print "\t" wl[j] "\t" v[k, "r_" wl[j]] "\t" v[k, "lo_" wl[j]] "\t" v[k, "hi_" wl[j]] > drawn
	}
	close(drawn)
}'
}

# chart: the ratios by machine as SVG, a bar from 1x to each ratio and a
# line over its spread, a heading per group; cache-sized rows hollow.
chart() {
	# shellcheck disable=SC2086,SC2016 # $awk may be a command and its arguments; an awk program
	$awk -F '\t' "$awklib"'
$1 != "" { rows++; kind[rows] = "row"; g[rows] = $1; label[rows] = $2 ", " $3; hollow[rows] = $4 == "yes"; next }
$2 != "" && $3 != "" {
	nb[rows]++
	walk[rows, nb[rows]] = $2
	r[rows, nb[rows]] = $3
	lo[rows, nb[rows]] = $4 == "" ? $3 : $4
	hi[rows, nb[rows]] = $5 == "" ? $3 : $5
	if (!(min < lo[rows, nb[rows]]) || !seen++) min = lo[rows, nb[rows]] + 0
	if (hi[rows, nb[rows]] + 0 > max) max = hi[rows, nb[rows]] + 0
	if (!($2 in colour)) {
		colour[$2] = palette(++walks)
		named[walks] = $2
	}
}
function palette(i) {
	return i == 1 ? "#1f5fa8" : i == 2 ? "#d9751a" : i == 3 ? "#2a9a48" : i == 4 ? "#8e44ad" : "#777777"
}
function x(val) { return left + width * (lg(val) - lg(min)) / (lg(max) - lg(min)) }
END {
	if (!seen)
		min = max = 1
	min = (min < 1 ? min : 1) / 1.25
	max = (max > 1 ? max : 1) * 1.25
	left = 420; width = 440; bar = 9
	y = 64
	for (i = 1; i <= rows; i++) {
		if (g[i] != g[i - 1])
			y += 26
		top[i] = y
		y += (nb[i] ? nb[i] : 1) * (bar + 3) + 8
	}
	height = y + 40
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", left + width + 70, height
	printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
	printf "<text x=\"10\" y=\"20\" font-size=\"14\">How much faster the physical walk is than each LRU walk, by machine</text>\n"
	printf "<text x=\"10\" y=\"38\" fill=\"#555\">ratio (log scale): a bar from 1x, a line over its spread; hollow: the memmap was cache-sized</text>\n"
	lx = 10
	for (i = 1; i <= walks; i++) {
		w = named[i]
		printf "<rect x=\"%d\" y=\"48\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"57\">%s</text>\n", lx, colour[w], lx + 14, esc(w)
		lx += 24 + 7 * length(w)
	}
	n = round_ticks(min, max, 1, 0, 8, t)
	for (i = 1; i <= n; i++) {
		printf "<line x1=\"%.1f\" y1=\"70\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x(t[i]), x(t[i]), height - 34
		printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%gx</text>\n", x(t[i]), height - 20, t[i]
	}
	for (i = 1; i <= rows; i++) {
		if (g[i] != g[i - 1])
			printf "<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s</text>\n", top[i] - 8, esc(g[i])
		# a label that would run off the left edge is cut
		name = length(label[i]) > 66 ? substr(label[i], 1, 64) "..." : label[i]
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", left - 8, top[i] + bar, esc(name)
		for (b = 1; b <= nb[i]; b++) {
			yb = top[i] + (b - 1) * (bar + 3)
			x0 = x(1); x1 = x(r[i, b])
			c = colour[walk[i, b]]
			printf "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" %s><title>%s %s</title></rect>\n",
			    x0 < x1 ? x0 : x1, yb, x0 < x1 ? x1 - x0 : x0 - x1, bar,
			    hollow[i] ? "fill=\"none\" stroke=\"" c "\"" : "fill=\"" c "\"", esc(walk[i, b]), r[i, b]
			printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
			    x(lo[i, b]), yb + bar / 2, x(hi[i, b]), yb + bar / 2
			# the figure, past the bar and its spread
			xe = x1 > x(hi[i, b]) ? x1 : x(hi[i, b])
			printf "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"#333\">%s</text>\n",
			    (xe > x0 ? xe : x0) + 4, yb + bar - 1, esc(r[i, b])
		}
	}
	printf "<line x1=\"%.1f\" y1=\"70\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c0392b\" stroke-dasharray=\"4 3\"/>\n", x(1), x(1), height - 34
	printf "<text x=\"%.1f\" y=\"%d\" fill=\"#c0392b\" text-anchor=\"middle\">1x: as fast</text>\n", x(1), 68
	printf "</svg>\n"
}'
}

unmail >"$tmp/lines"
blocks <"$tmp/lines" >"$tmp/rows"
table <"$tmp/rows" >"$tmp/table"
if [ ! -s "$tmp/table" ]; then
	echo "collect.sh: no report blocks in $(echo "$*" | sed 's/^-$/stdin/')" >&2
	exit 1
fi
sed 's/ *$//' "$tmp/table" >"$tmp/out"
stdout_put "$tmp/out"
# output_put: through a temporary name, so a failure leaves no half file
[ -z "$csv" ] || output_put "$tmp/csv" "$csv"
if [ -n "$svg" ]; then
	chart <"$tmp/drawn" >"$tmp/svg"
	output_put "$tmp/svg" "$svg"
fi
[ "$(cat "$tmp/broken")" -eq 0 ] || exit 1
