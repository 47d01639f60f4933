# report-wrap.awk - the block at 72 columns, between words, never inside
# a parenthesis: a line breaks after the last comma outside one in its
# second half, else at the last space outside one, and goes on indented by
# two.  The command breaks with a backslash, so it can still be pasted
# into a shell.  A word longer than a line: cut at 72 (at a character's
# start), but in the command kept whole (a cut would change the command),
# its line breaking at the first space after it.
{
	line = $0
	cmd = substr(line, 1, 2) == "$ "
	while (length(line) > 72) {
		limit = 73 - 2 * cmd
		cut = comma = later = depth = 0
		# from the third byte: a break in the indent would not move on
		for (i = 1; i <= length(line); i++) {
			ch = substr(line, i, 1)
			if (ch == "(") depth++
			else if (ch == ")") depth--
			else if (ch == " " && depth == 0 && i >= 3) {
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
		if (!cut && !cmd) {
			cut = whole_chars(line, 72)
			print substr(line, 1, cut)
			line = "  " substr(line, cut + 1)
			continue
		}
		if (!cut)
			cut = later
		if (!cut)
			break
		print substr(line, 1, cut - 1) (cmd ? " \\" : "")
		line = "  " substr(line, cut + 1)
	}
	print line
}
