# shellcheck shell=sh
# scan: the config's SCAN_* variables as the shellpack's options; a size
# is passed only when set, as the shellpack takes one of the two.
run_bench() {
	set -- --runs "$SCAN_RUNS" --iterations "$SCAN_ITERATIONS"
	[ -z "$SCAN_COUNT" ] || set -- "$@" --count "$SCAN_COUNT"
	[ -z "$SCAN_MEMORY" ] || set -- "$@" --memory "$SCAN_MEMORY"
	"$SHELLPACK_INCLUDE/shellpack-bench-scan" "$@"
	return $?
}
