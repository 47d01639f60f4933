# human.awk - awk functions the scripts share; each script puts this
# file's text before its own program (POSIX awk takes one program).

# human(v, fmt): bytes v in binary units, the number printed with fmt:
# human(1536, "%.1f") is "1.5 KiB".
function human(v, fmt,    u, k) {
	split("B KiB MiB GiB TiB PiB", u, " ")
	for (k = 1; v >= 1024 && k < 6; k++)
		v /= 1024
	return sprintf(fmt " %s", v, u[k])
}
