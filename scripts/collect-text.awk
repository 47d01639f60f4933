# collect-text.awk - what collect.sh's stages share about bytes: the
# byte tables, and safe(), through which every text a mail or a file
# name brings passes before it can reach a table, a CSV or a terminal.
# The stages run under LC_ALL=C: a character is a byte.

BEGIN { text_init() }

# byte[c]: the value of the one-byte string c; chr[v]: the byte of value
# v, chr[0] none (a NUL byte is dropped where the decoders build bytes);
# hex[c]: c written \xHH.
function text_init(    v) {
	chr[0] = ""
	hex[sprintf("%c", 0)] = "\\x00"
	for (v = 1; v < 256; v++) {
		chr[v] = sprintf("%c", v)
		byte[chr[v]] = v
		hex[chr[v]] = sprintf("\\x%02x", v)
	}
}

# safe(s): s with each control byte (C0, DEL, C1), and each byte that
# is no part of valid UTF-8, written as \xHH: an escape sequence pasted
# into a From header or a cpu line cannot move a terminal's cursor, and
# the table and CSV are valid UTF-8.
function safe(s,    out, i, n, h, c, len) {
	if (s !~ /[^ -~]/)
		return s	# printable ASCII, nearly every line
	n = length(s)
	if (n > 64) {
		h = half(s, n)
		return safe(substr(s, 1, h)) safe(substr(s, h + 1))
	}
	out = ""
	for (i = 1; i <= n; i += len) {
		c = substr(s, i, 1)
		len = c ~ /[ -~]/ ? 1 : utf8_len(s, i)
		out = out (len ? substr(s, i, len) : hex[c])
		len += !len
	}
	return out
}

# half(s, n): where to cut s (of n bytes) in two, before a byte that
# may start a character.  A long text is made safe a half at a time, so
# that its pieces join in n log n, not n^2 (awk builds a string by
# copying it).
function half(s, n,    h, b) {
	for (h = int(n / 2); h < int(n / 2) + 3; h++) {
		b = byte[substr(s, h + 1, 1)]
		if (b < 128 || b >= 192)
			break
	}
	return h
}

# utf8_len(s, i): the length of the printable character at byte i of s
# in UTF-8 (1 to 4), 0 for a control or a byte that starts none.  The
# bounds of the second byte rule out overlong forms, surrogates and code
# points past U+10FFFF (RFC 3629); C2 80 to C2 9F are the C1 controls.
function utf8_len(s, i,    b, n, k, lo, hi, c) {
	b = byte[substr(s, i, 1)]
	if (b >= 32 && b < 127)
		return 1
	if (b < 194 || b > 244)
		return 0
	n = b < 224 ? 2 : b < 240 ? 3 : 4
	if (i + n - 1 > length(s))
		return 0
	lo = b == 194 ? 160 : b == 224 ? 160 : b == 240 ? 144 : 128
	hi = b == 237 ? 159 : b == 244 ? 143 : 191
	for (k = 1; k < n; k++) {
		c = byte[substr(s, i + k, 1)]
		if (c < lo || c > hi)
			return 0
		lo = 128
		hi = 191
	}
	return n
}

# latin1(s): s, in ISO 8859-1, as UTF-8 (its bytes 128-159 are C1
# controls and stay, for safe() to escape).
function latin1(s,    out, i, n, b) {
	if (s !~ /[\200-\377]/)
		return s	# ASCII
	n = length(s)
	if (n > 64)
		return latin1(substr(s, 1, int(n / 2))) latin1(substr(s, int(n / 2) + 1))
	out = ""
	for (i = 1; i <= n; i++) {
		b = byte[substr(s, i, 1)]
		if (b >= 160)
			out = out chr[b < 192 ? 194 : 195] chr[b < 192 ? b : b - 64]
		else
			out = out substr(s, i, 1)
	}
	return out
}

# is_latin1(charset): a charset name latin1() converts from (windows-1252
# differs only in 128-159).
function is_latin1(cs) {
	return tolower(cs) ~ /^(iso-?8859-1|iso_8859-1(:1987)?|latin-?1|l1|cp819|windows-1252|cp1252)$/
}
