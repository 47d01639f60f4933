# collect-unmail.awk - collect.sh's first stage: one input, on stdin
# (through fold, so no line is longer than 64 KiB), as messages and the
# lines of their text.  Runs after lib.awk.
#
#   in   the input; ENVIRON["collect_file"] the name it is shown by;
#        max_bytes (-v), the most of it that is read
#   out  "M<tab>FILE<tab>N<tab>FROM<tab>DATE" starts a message (N counts
#        the mails in FILE); "L<tab>FILE:LINE<tab>TEXT" is a line of its
#        decoded text.  Every text is safe(): no control byte, UTF-8.
#
# An mbox splits at "From " lines (after a blank line); a file that
# starts with headers is one mail; any other file is one message of
# text.  Multipart mails give their text parts (not HTML, not
# attachments of other types), decoded as they stream by: what is held
# is one line, the headers this stage reads, and one decoded line, so
# memory does not grow with a mail.

BEGIN {
	unmail_init()
	input_name = safe(ENVIRON["collect_file"])
}

{
	if ((nbytes += length($0) + 1) > max_bytes) {
		tell(sprintf("%s: more than %d bytes, not read whole", input_name, max_bytes))
		too_much = 1
		exit 1
	}
	# no mail or text holds a NUL byte: an image, an archive, /dev/zero
	# is named and passed over at once, not escaped byte by byte
	if (nbytes - length($0) <= 65536 && index($0, sprintf("%c", 0))) {
		tell(input_name ": not text (a NUL byte in its first 64 KiB), not read")
		binary = 1
		exit 0
	}
	rec = $0
	sub(/\r$/, "", rec)
	gsub(/\t/, "        ", rec)
	if (NR == 1) {
		kind = rec ~ /^From / ? "mbox" : rec ~ /^[A-Za-z][A-Za-z0-9-]*: / ? "mail" : "text"
		if (kind == "text")
			start_text()
		else if (kind == "mail")
			start_mail(NR)
	}
	if (kind == "mbox" && rec ~ /^From / && (NR == 1 || prev == "")) {
		end_part()
		end_mail()
		start_mail(NR)
	} else
		feed(NR, rec)
	prev = rec
}

END {
	if (!too_much && !binary) {
		end_part()
		end_mail()
	}
	if (told)
		close("/dev/stderr")
	exit too_much
}

# A line on stderr.
function tell(msg) {
	print "collect.sh: " msg > "/dev/stderr"
	told = 1
}

function unmail_init(    digits, names, n, i) {
	byte_values()
	chr[0] = ""	# a NUL byte the decoders make is dropped
	for (i = 1; i < 256; i++)
		chr[i] = sprintf("%c", i)
	digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for (i = 0; i < 64; i++)
		val[substr(digits, i + 1, 1)] = i
	for (i = 0; i < 16; i++) {
		hexv[substr("0123456789ABCDEF", i + 1, 1)] = i
		hexv[substr("0123456789abcdef", i + 1, 1)] = i
	}
	# the headers read; others are passed over, so they take no memory
	n = split("from date content-type content-transfer-encoding content-disposition", names, " ")
	for (i = 1; i <= n; i++)
		wanted[names[i]] = 1
	max_depth = 16		# multiparts nested deeper are skipped
	max_line = 65536	# a decoded line, or a header, is cut there
}

function start_mail(at) {
	mailline = at
	state = "head"
	hname = ""
	split("", hdr)
	depth = 0
	nmail++
}

# A file of text: one message, from no one.
function start_text() {
	printf "M\t%s\t%d\t\t\n", input_name, nmail
	depth = 0
	part_start("text/plain", "")
	state = "body"
}

# A mail with HTML and no text part is said, not passed over in silence
# (its blocks, if any, are not read).
function end_mail() {
	if (html_only && !texts)
		tell(sprintf("%s:%d: mail %d%s has only HTML, not read", input_name, mailline, nmail,
		    mailfrom == "" ? "" : " (From " mailfrom ")"))
	html_only = texts = 0
}

# One line of a mail: its headers, then its body or its parts.
function feed(n, s,    b) {
	if (state == "head" || state == "phead") {
		if (s ~ /^[ \t]/ && hname != "") {
			if ((hname in wanted) && length(hdr[hname]) < max_line)
				hdr[hname] = hdr[hname] " " trim(s)
			return
		}
		if (s == "")
			return end_headers(n)
		hname = tolower(s)
		sub(/:.*/, "", hname)
		sub(/^[^:]*:[ \t]*/, "", s)
		if (hname in wanted)
			hdr[hname] = length(s) > max_line ? substr(s, 1, max_line) : s
		return
	}
	# a boundary of any open multipart
	if (depth > 0 && substr(s, 1, 2) == "--")
		for (b = depth; b >= 1; b--)
			if (s == "--" bound[b] || s == "--" bound[b] "--") {
				end_part()
				depth = b
				if (s == "--" bound[b] "--") {
					depth = b - 1
					state = "skip"
				} else {
					state = "phead"
					hname = ""
					split("", hdr)
				}
				return
			}
	if (state == "body")
		body_line(n, s)
}

# The end of a header block: the message starts (its From and Date), or
# a part does.
function end_headers(n,    ct, b) {
	if (state == "head") {
		mailfrom = safe(clean(decode_words(hdr["from"])))
		printf "M\t%s\t%d\t%s\t%s\n", input_name, nmail, mailfrom, safe(clean(day(hdr["date"])))
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
		if (depth < max_depth)
			bound[++depth] = b
		state = "skip"		# the preamble
		return
	}
	# text, and attachments named as text whatever their type says
	if ((ct ~ /^text\// && ct !~ /^text\/html/) ||
	    (ct hdr["content-disposition"]) ~ /name="?[^";]*\.(txt|md|log|text)"?/) {
		part_start(ct, tolower(trim(hdr["content-transfer-encoding"])))
		state = "body"
		texts++
	} else {
		if (ct ~ /^text\/html/)
			html_only = 1
		state = "skip"
	}
}

# A part starts: how it is encoded, in which charset.
function part_start(ct, cte) {
	enc = cte
	charset = ""
	if (match(ct, /charset="?[^";]+/)) {
		charset = substr(ct, RSTART + 8, RLENGTH - 8)
		sub(/^"/, "", charset)
	}
	pfirst = 0
	qp = ""
	bits = nbits = 0
	dec = ""
	ndec = 0
}

# A line of a text part, decoded as it comes.
function body_line(n, s) {
	if (!pfirst)
		pfirst = n
	if (enc == "quoted-printable")
		qp_line(n, s)
	else if (enc == "base64")
		b64_line(s)
	else
		emit(n, s)
}

# The end of a part: what its decoders still hold.
function end_part() {
	if (state != "body")
		return
	if (qp != "")
		emit(qp_at, unqp(qp))
	qp = ""
	if (enc == "base64") {
		lines(b64_end())
		if (ndec || dec != "")
			emit(pfirst "+" ++ndec, dec)
	}
	bits = nbits = 0
	dec = ""
}

# Quoted-printable: a line that ends in "=" goes on in the next (the
# line as a whole is said to be where it began).
function qp_line(n, s) {
	if (qp == "")
		qp_at = n
	sub(/[ \t]+$/, "", s)
	if (s ~ /=$/) {
		qp = qp substr(s, 1, length(s) - 1)
		if (length(qp) < max_line)
			return
	} else
		qp = qp s
	emit(qp_at, unqp(qp))
	qp = ""
}

# =XX is the byte XX.
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

# Base64: four characters are three bytes (a NUL byte is dropped),
# carried over from call to call in bits and nbits; other characters are
# skipped.  b64_end(): the bytes of what is left, as padding leaves it.
function b64(s,    out, i, n, c) {
	out = ""
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (!(c in val))
			continue
		bits = bits * 64 + val[c]
		if (++nbits == 4) {
			out = out chr[int(bits / 65536)] chr[int(bits / 256) % 256] chr[bits % 256]
			bits = nbits = 0
		}
	}
	return out
}
function b64_end(    out) {
	out = nbits == 2 ? chr[int(bits / 16)] : nbits == 3 ? chr[int(bits / 1024)] chr[int(bits / 4) % 256] : ""
	bits = nbits = 0
	return out
}

# A base64 part's bytes, as lines numbered on from the part's first line:
# FIRST+1, FIRST+2...; the last is left in dec for what comes next.
function b64_line(s) { lines(b64(s)) }
function lines(t,    i) {
	dec = dec t
	while ((i = index(dec, "\n")) > 0) {
		emit(pfirst "+" ++ndec, substr(dec, 1, i - 1))
		dec = substr(dec, i + 1)
	}
	if (length(dec) >= max_line) {
		emit(pfirst "+" ++ndec, dec)
		dec = ""
	}
}

# A line of text out, as the next stage reads it.
function emit(where, text,    parts, n, i) {
	# a quoted-printable line may decode to several
	n = split(text, parts, "\n")
	if (n == 0)
		parts[n = 1] = ""
	for (i = 1; i <= n; i++) {
		sub(/\r$/, "", parts[i])
		gsub(/\t/, "        ", parts[i])
		if (is_latin1(charset))
			parts[i] = latin1(parts[i])
		# the no-break spaces an HTML mailer leaves for indents
		gsub(/\302\240/, " ", parts[i])
		printf "L\t%s:%s\t%s\n", input_name, where, safe(parts[i])
	}
}

# Header words encoded as =?charset?Q?...?= or =?charset?B?...?=.
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
			t = unqp(t)
		} else
			t = b64(t) b64_end()
		out = out (is_latin1(substr(w, 1, p - 1)) ? latin1(t) : t)
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

# safe(s): plain(s) (lib.awk: a control byte, or a byte in no UTF-8
# character, as \xHH), a long s a half at a time, so that the pieces
# join in n log n, not n^2 (awk copies a string to add to it).
function safe(s,    n, h, k, b) {
	if (s !~ /[^ -~]/)
		return s	# printable ASCII, nearly every line
	n = length(s)
	if (n <= 64)
		return plain(s)
	# cut before a byte that may start a character (3 steps at most:
	# a longer run of continuation bytes is no character anyway)
	h = int(n / 2)
	for (k = 0; k < 3 && (b = plain_ord[substr(s, h + 1, 1)]) >= 128 && b < 192; k++)
		h--
	return safe(substr(s, 1, h)) safe(substr(s, h + 1))
}

# latin1(s): s, in ISO 8859-1, as UTF-8 (its bytes 128-159 are C1
# controls and stay, for safe() to escape); a long s a half at a time.
function latin1(s,    out, i, n, b) {
	if (s !~ /[\200-\377]/)
		return s	# ASCII
	n = length(s)
	if (n > 64)
		return latin1(substr(s, 1, int(n / 2))) latin1(substr(s, int(n / 2) + 1))
	out = ""
	for (i = 1; i <= n; i++) {
		b = plain_ord[substr(s, i, 1)]
		if (b >= 160)
			out = out chr[b < 192 ? 194 : 195] chr[b < 192 ? b : b - 64]
		else
			out = out substr(s, i, 1)
	}
	return out
}

# is_latin1(charset): a charset latin1() converts from (windows-1252
# differs only in 128-159).
function is_latin1(cs) {
	return tolower(cs) ~ /^(iso-?8859-1|iso_8859-1(:1987)?|latin-?1|l1|cp819|windows-1252|cp1252)$/
}
