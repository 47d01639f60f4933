# report-wrap.awk - the block at 72 columns, between words, never inside
# a parenthesis: a line breaks after the last comma outside one in its
# second half, else at the last space outside one, and goes on indented by
# two.  The command breaks with a backslash, so it can still be pasted
# into a shell, and never inside its quotes (a backslash there is no
# continuation).  scan-collect reads the pieces back joined by one space,
# so a line breaks only after its key (a key alone is no line of the
# block) and only at a space between two words (two spaces would come
# back as one), never after a backslash (it would read as the command's).  A word longer than a line is kept whole, its line going
# past 72 to the first space after it: a cut would come back as a space
# inside a path.
{
	line = $0
	cmd = substr(line, 1, 2) == "$ "
	# the first break after the key: "protocol: " and "$ scan " stay on
	# the line whose value they name
	first = cmd ? 7 : index(line, ": ") + 2
	if (first < 3)
		first = 3	# a break in the indent would not move on
	while (length(line) > 72) {
		limit = 73 - 2 * cmd
		cut = comma = later = depth = quoted = 0
		for (i = 1; i <= length(line); i++) {
			ch = substr(line, i, 1)
			if (cmd && ch == "\\" && !quoted)
				i++	# \' outside quotes: a quote, not one opening
			else if (cmd && ch == "'")
				quoted = !quoted
			else if (ch == "(" && !cmd) depth++
			else if (ch == ")" && !cmd) depth--
			else if (ch == " " && !depth && !quoted && i >= first &&
			    substr(line, i - 1, 1) !~ /[ \\]/ && substr(line, i + 1, 1) != " ") {
				if (i > limit) {
					later = i
					break
				}
				cut = i
				if (substr(line, i - 1, 1) == "," && i > 36)
					comma = i
			}
		}
		if (comma)
			cut = comma
		if (!cut)
			cut = later
		if (!cut)
			break
		print substr(line, 1, cut - 1) (cmd ? " \\" : "")
		line = "  " substr(line, cut + 1)
		first = 3
	}
	print line
}
