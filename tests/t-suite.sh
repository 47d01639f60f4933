#!/bin/sh
# The suite itself: its log is text, whatever a test prints (a NUL in a
# check's name, a control byte from a program under test); and what the
# README says of it holds: the targets CI runs, by the names .ci/run
# uses, and the time make test takes, with the host it was measured on,
# as docs/testing.md records it.
. tests/lib.sh

# run.sh in a tree of its own, with one test file that prints control
# bytes in a name and in a line of its output
tree=$tmp/tree
mkdir -p "$tree/tests" "$tree/scripts"
cp tests/run.sh tests/lib.sh "$tree/tests/"
cp scripts/lib.awk scripts/plain-lines.awk "$tree/scripts/"
cat >"$tree/tests/t-bytes.sh" <<'EOF'
#!/bin/sh
. tests/lib.sh
check 'a name with a \1 and a \0 in it' true
printf '# a line with a NUL \000 and a ^A \001 and an escape \033[1m\n'
EOF
(cd "$tree" && TEST_LANES=2 sh tests/run.sh) >"$tmp/log" 2>&1
check "run.sh: the fixture's check passed" grep -q '^1 passed, 0 failed, 0 skipped$' "$tmp/log"
check "run.sh: the log holds no control byte" \
	sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$tmp/log'"
check "run.sh: ... the bytes written as \\xNN" \
	grep -qF '# a line with a NUL \x00 and a ^A \x01 and an escape \x1b[1m' "$tmp/log"
check "lib.sh: a check's name as written, its backslashes kept" \
	grep -qF 'ok 1 a name with a \1 and a \0 in it' "$tmp/log"

# The README names what CI runs as .ci/run runs it: each make target
# .ci/run runs for the suite, and no other target said to be CI's.
ci_targets=$(sed -n 's/^make \(test[a-z-]*\)$/\1/p' .ci/run | tr '\n' ' ')
ci_named() {
	for t in $ci_targets; do
		grep -q "\`make $t\`" README.md || return 1
	done
	# a paragraph that names CI calls make test-full no more than both
	[ -n "$ci_targets" ] &&
		awk '{ p = p " " $0 } /^$/ { check() } END { check() }
		function check() {
			if (p ~ /CI/ && p ~ /`make test-full`/ && p !~ /`make test-full`: both in one go/)
				bad = 1
			p = ""
		}
		END { exit bad }' README.md
}
check "README: CI's test targets as .ci/run runs them ($ci_targets)" ci_named
check "run.sh: its log names the same targets" \
	sh -c "grep -q 'CI runs make test, then make test-slow' tests/run.sh && [ '$ci_targets' = 'test test-slow test-vm ' ]"

# The README's time for make test names the host it was measured on,
# and docs/testing.md records that measurement: the same figure, host.
said=$(awk '/`make test` runs the quick checks/ { on = 1 } on { printf "%s ", $0 } /^$/ { on = 0 }' README.md |
	sed -n 's/.*K skipped`: \([0-9][0-9]* s\) on host \([0-9a-f]\{8\}\).*/\1|\2/p')
check "README: make test's time, with the host it was measured on" [ -n "$said" ]
check "docs/testing.md: records that time on that host" \
	grep -q "make test.* ${said%|*} on host ${said#*|}" docs/testing.md
