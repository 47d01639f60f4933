# vs-yardstick-row.awk - one scan run's line for vs-yardstick.sh's log:
# "scan:OPTIONS LISTLRU ARRAYLRU WALL" (-v w; ENVIRON opts, as plain text,
# its blanks as _), from the original's lines; exit 1 without both ratios.
/faster than ListLRU$/ { l = $4 }
/faster than ArrayLRU$/ { a = $4 }
END {
	if (l + 0 <= 0 || a + 0 <= 0)
		exit 1
	o = plain(ENVIRON["opts"])
	gsub(/[ \t]/, "_", o)
	print "scan:" o, l, a, w
}
