# collect-say.awk - a message of collect.sh's that names a file, on
# stderr: "collect.sh: " and ENVIRON["collect_say"], made safe() (a file
# name may hold a newline or an escape).  Runs after collect-text.awk.
BEGIN {
	print "collect.sh: " safe(ENVIRON["collect_say"]) > "/dev/stderr"
	close("/dev/stderr")
}
