#!/bin/sh
# Machine identity in every output (CSV, JSON, -v's machine line), the
# hosts it tells apart, and the cache-sized warning's advice.  Hosts are
# faked with SCAN_MACHINE_ROOT (scan then reads /proc and /sys under it
# and leaves CPUID and getconf out).  Tiny sizes; no speed is asserted.
. tests/lib.sh
# the chase that measures the LLC where sysfs gives none: checked here
unset SCAN_LLC_PROBE

fields='cpu_vendor cpu_family cpu_model cpu_stepping hypervisor l2_bytes l2_from llc_from numa_nodes stream_ns chase_ns host_id'

# fake_host DIR L3: an Intel KVM guest as its files say, "family 6 model
# 167", with an L3 of L3 (sysfs's words: 107520K) and 2 NUMA nodes.
fake_host() {
	c=$1/sys/devices/system/cpu/cpu0/cache
	mkdir -p "$1/proc" "$1/sys/devices/system/node" \
		"$1/sys/kernel/mm/transparent_hugepage" \
		"$c/index0" "$c/index1" "$c/index2" "$c/index3"
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 167\nmodel name\t: Intel(R) Xeon(R) Processor\nstepping\t: 1\nflags\t\t: fpu sse2 hypervisor avx2\n' >"$1/proc/cpuinfo"
	echo 'MemTotal:       65843896 kB' >"$1/proc/meminfo"
	echo 0-1 >"$1/sys/devices/system/node/online"
	echo 'always [madvise] never' >"$1/sys/kernel/mm/transparent_hugepage/enabled"
	# index1 is the L1 instruction cache: never the L2 nor the LLC
	printf '1\n' >"$c/index0/level"; printf 'Data\n' >"$c/index0/type"; printf '48K\n' >"$c/index0/size"
	printf '1\n' >"$c/index1/level"; printf 'Instruction\n' >"$c/index1/type"; printf '32K\n' >"$c/index1/size"
	printf '2\n' >"$c/index2/level"; printf 'Unified\n' >"$c/index2/type"; printf '2048K\n' >"$c/index2/size"
	printf '3\n' >"$c/index3/level"; printf 'Unified\n' >"$c/index3/type"; printf '%s\n' "$2" >"$c/index3/size"
}

# field NAME: NAME's value in the CSV of the last run, if every row agrees.
field() {
	awk -F, -v name="$1" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; if (!c) exit; next }
	NR == 2 { v = $c }
	$c "" != v "" { many = 1 }
	END { if (c && NR > 1 && !many) print v }' "$tmp/out"
}

# identity_ok: every field present, in order right after memcg (columns
# never move: a later knob's goes after them), and well formed on every row.
identity_ok() {
	awk -F, -v names="$fields" '
	NR == 1 {
		n = split(names, want, " ")
		for (i = 1; i <= NF; i++)
			if ($i == "memcg")
				first = i
		for (i = 1; i <= n; i++)
			if (!first || $(first + i) != want[i]) { print "# column " want[i] " not after memcg"; bad = 1 }
		next
	}
	{
		v = $(first + 1); if (v == "" || v ~ / /) bad = 1
		for (i = 2; i <= 4; i++) if ($(first + i) !~ /^[0-9]*$/) { print "# " want[i] " " $(first + i); bad = 1 }
		if ($(first + 5) == "") bad = 1
		if ($(first + 6) !~ /^[0-9]+$/) bad = 1
		if ($(first + 7) !~ /^(sysfs|cpuid|getconf|none)$/) { print "# " want[7] " " $(first + 7); bad = 1 }
		if ($(first + 8) !~ /^(sysfs|cpuid|getconf|measured|none)$/) { print "# " want[8] " " $(first + 8); bad = 1 }
		if ($(first + 9) !~ /^[1-9][0-9]*$/) bad = 1
		for (i = 10; i <= 11; i++) if ($(first + i) !~ /^[0-9]+\.[0-9]+$/ || $(first + i) + 0 <= 0) { print "# " want[i] " " $(first + i); bad = 1 }
		# mawk has no {8}
		if ($(first + 12) !~ /^[0-9a-f]+$/ || length($(first + 12)) != 8) bad = 1
	}
	END { exit bad || NR < 2 }' "$tmp/out"
}

# same_machine: each identity field has one value over the rows.
same_machine() {
	awk -F, -v names="$fields" '
	NR == 1 {
		n = split(names, want, " ")
		for (i = 1; i <= NF; i++)
			col[$i] = i
		for (k = 1; k <= n; k++)
			if (!(want[k] in col))
				bad = 1
		next
	}
	{
		for (k = 1; k <= n; k++) {
			v = $(col[want[k]]) ""
			if (NR > 2 && v != seen[k])
				bad = 1
			seen[k] = v
		}
	}
	END { exit bad || NR < 2 }' "$tmp/out"
}

run -c 0.01 -r 2 -s 5 --format=csv -v
check "csv: exit 0" [ "$rc" -eq 0 ]
check "csv: the identity columns after memcg, each well formed" identity_ok
check "csv: the documented columns stay" csv_ok "$tmp/out" 3
check "csv: every row the same machine" same_machine
id=$(field host_id)
llc=$(field llc_bytes)
check "-v: one machine line, with the CSV's host id" \
	sh -c "[ \$(grep -c '^machine: host $id, ' '$tmp/err') -eq 1 ]"
# a measured LLC has the claim it overrode beside it, if any
check "-v: the machine line names the caches' sources" \
	err_has "^machine: .*, L2 [0-9.]+ [KMG]?i?B \\(($(field l2_from))\\), LLC [0-9.]+ [KMG]?i?B \\(($(field llc_from))(; (cpuid|getconf) [0-9.]+ [KMG]?i?B)?\\), [0-9]+ NUMA nodes?, "
check "-v: the machine line has this run's limits" \
	err_has '; stream [0-9]+\.[0-9]{2} ns/line, chase [0-9]+\.[0-9] ns/hop$'
cp "$tmp/out" "$tmp/csv"

run -c 0.01 -r 2 -s 5 --format=json
if have python3; then
	check "json: the same identity as the csv, limits measured" python3 -c '
import csv, json, sys
d = json.load(open(sys.argv[1]))
row = next(csv.DictReader(open(sys.argv[2])))
for k in sys.argv[3].split():
    assert k in d, k
    if k in ("stream_ns", "chase_ns"):
        assert d[k] > 0, (k, d[k])
    elif k in ("cpu_family", "cpu_model", "cpu_stepping") and row[k] == "":
        assert d[k] is None, (k, d[k])
    else:
        assert str(d[k]) == row[k], (k, d[k], row[k])
' "$tmp/out" "$tmp/csv" "$fields"
else
	skip "json: the same identity as the csv" "no python3"
fi

run -c 0.01 -r 2 -s 6 --format=csv
check "host_id: the same on another run (the limits are not in it)" same "$(field host_id)" "$id"

run -c 0.01 --original --format=csv -v
check "--original: no limits measured, the fields empty" \
	sh -c "[ -z '$(field stream_ns)' ] && [ -z '$(field chase_ns)' ] && [ '$(field host_id)' = '$id' ]"
check "--original -v: the machine line says so" err_has '^machine: .*; limits not measured$'
run -c 0.01 --original --format=json
if have python3; then
	check "--original json: null limits" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stream_ns"] is None and d["chase_ns"] is None, d
' "$tmp/out"
else
	skip "--original json: null limits" "no python3"
fi

# Two hosts alike but for their L3 (105 MiB and 480 MiB) are two hosts.
fake_host "$tmp/small" 107520K
fake_host "$tmp/large" 491520K
SCAN_MACHINE_ROOT=$tmp/small run -c 0.01 -r 1 --format=csv
small=$(field host_id)
check "fake host: its files' identity" \
	sh -c "[ '$(field cpu_vendor),$(field cpu_family),$(field cpu_model),$(field cpu_stepping)' = 'GenuineIntel,6,167,1' ] &&
	       [ '$(field llc_bytes),$(field llc_from),$(field l2_bytes),$(field l2_from)' = '110100480,sysfs,2097152,sysfs' ] &&
	       [ '$(field numa_nodes),$(field hypervisor),$(field cpu)' = '2,unknown,Intel(R) Xeon(R) Processor' ]"
check "fake host: the warning sizes -c from its LLC and says where it came from" \
	err_has '^scan: warning: cache-sized: memmap < 4x LLC 105\.0 MiB \(sysfs\): caches skew the ratios; use -c 6\.9$'
SCAN_MACHINE_ROOT=$tmp/large run -c 0.01 -r 1 --format=csv
large=$(field host_id)
check "fake hosts: 105 MiB and 480 MiB of L3, two host ids" \
	sh -c "[ -n '$small' ] && [ -n '$large' ] && [ '$small' != '$large' ]"
check "fake host: a 480 MiB L3 takes -c 32" err_has 'LLC 480\.0 MiB \(sysfs\): caches skew the ratios; use -c 32$'
SCAN_MACHINE_ROOT=$tmp/large run -m 40M -r 1
check "-m: the advice in -m" err_has 'caches skew the ratios; use -m 120G$'
SCAN_MACHINE_ROOT=$tmp/small run -c 0.01 -r 1 --format=csv
check "fake host: the same files, the same host id" same "$(field host_id)" "$small"

# No cache in sysfs, and neither CPUID nor getconf asked: a chase
# measures the LLC (llc_probe(); its size is this machine's, not the
# files', so only its form is checked), or finds none: then sizes 0 from
# none, and no cache-sized warning without a size to compare with.
rm -r "$tmp/small/sys/devices/system/cpu" "$tmp/small/sys/devices/system/node"
SCAN_MACHINE_ROOT=$tmp/small run -c 0.01 -r 1 --format=csv -v
check "no cache information: L2 0 from none, one NUMA node" \
	sh -c "[ '$(field l2_bytes),$(field l2_from),$(field numa_nodes)' = '0,none,1' ]"
case $(field llc_from) in
measured)
	check "no sysfs caches: a measured LLC, its size in the csv" \
		sh -c "[ '$(field llc_bytes)' -gt 0 ]"
	check "no sysfs caches: -v says measured, with no claim beside it" \
		err_has '^machine: .*, LLC [0-9.]+ [KMG]?i?B \(measured\), 1 NUMA node, '
	check "no sysfs caches: the warning's LLC is the measured one" \
		err_has '^scan: warning: cache-sized: memmap < 4x LLC [0-9.]+ [KMG]?i?B \(measured\): caches skew the ratios; use -c [0-9.]+$' ;;
*)
	check "no cache information: LLC 0 from none" \
		sh -c "[ '$(field llc_bytes),$(field llc_from)' = '0,none' ]"
	check "no cache information: no cache-sized warning" sh -c "! grep -q 'warning: cache-sized' '$tmp/err'" ;;
esac
SCAN_LLC_PROBE=off SCAN_MACHINE_ROOT=$tmp/small run -c 0.01 -r 1 --format=csv
check "SCAN_LLC_PROBE=off: no chase, the LLC as the files say (none here)" \
	sh -c "[ '$(field llc_bytes),$(field llc_from)' = '0,none' ]"
id=$(field host_id)
SCAN_MACHINE_ROOT=$tmp/small run -c 0.01 -r 1 --format=csv
check "no sysfs caches: the same host id again (a measured LLC is not in it)" \
	same "$(field host_id)" "$id"

# arm64 says who made the core in cpuinfo's MIDR fields, in hex.
mkdir -p "$tmp/arm/proc"
printf 'processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd0c\nCPU revision\t: 1\n' >"$tmp/arm/proc/cpuinfo"
SCAN_MACHINE_ROOT=$tmp/arm run -c 0.01 -r 1 --format=csv
check "arm64: implementer, variant, part, revision" \
	sh -c "[ '$(field cpu_vendor),$(field cpu_family),$(field cpu_model),$(field cpu_stepping),$(field hypervisor)' = '0x41,1,3340,1,none' ]"
check "arm64: a model name unknown" same "$(field cpu)" unknown

# A replay cannot grow: the warning says so, and advises no -c.
i=0
while [ $i -lt 1024 ]; do
	printf '\040\000\000\000\000\000\000\000'
	i=$((i + 1))
done >"$tmp/kpageflags"
fake_host "$tmp/replay" 32768K
SCAN_MACHINE_ROOT=$tmp/replay run -r 1 --memmap-from="$tmp/kpageflags"
check "replay: exit 0" [ "$rc" -eq 0 ]
check "replay: the warning says the file is cache-bound" \
	err_has '^scan: warning: cache-sized: memmap < 4x LLC 32\.0 MiB \(sysfs\): caches skew the ratios; replay a larger memmap$'
check "replay: no -c advised" sh -c "! grep -q -- ' -c' '$tmp/err'"

# Machine files that are no files, or no end: each read within the
# replay files' bounds (a regular file only, to its size or 16 MiB, lines
# of 4 KiB) and skipped past them, its fields unknown, the run exit 0.
# A FIFO once blocked scan for ever, a link to /dev/zero grew it past
# 875 MB (here under a ulimit of 256 MiB, where it would fail instead).
odd_host() {	# odd_host DIR MAKE: fake_host's files, each made by MAKE PATH
	fake_host "$1" 32768K
	for f in proc/cpuinfo proc/meminfo sys/devices/system/node/online \
	    sys/kernel/mm/transparent_hugepage/enabled \
	    sys/devices/system/cpu/cpu0/cache/index3/size; do
		rm -f "$1/$f"
		"$2" "$1/$f"
	done
}
zero() { ln -s /dev/zero "$1"; }
sparse() { : >"$1"; truncate -s 1G "$1" 2>/dev/null || dd if=/dev/zero of="$1" bs=1 count=0 seek=1073741824 2>/dev/null; }
# the memory bound, where the build can run under one: the emulator's
# JIT and ASan's shadow pass no ulimit -v (t-warnings)
case $SCAN in
*qemu* | *sanitize*) odd_kib=unlimited ;;
*) odd_kib=262144 ;;
esac
odd_run() {	# odd_run DIR: scan on that host, bounded in time and memory
	echo "SCAN_MACHINE_ROOT=$1 $SCAN -c 0.01 -r 1 --format=csv" >"$tmp/cmd"
	# shellcheck disable=SC3045 # ulimit -v: dash, bash and BusyBox sh have it
	( ulimit -v "$odd_kib"; SCAN_MACHINE_ROOT=$1 exec timeout 30 "$SCAN" -c 0.01 -r 1 --format=csv ) \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(field cpu_vendor),$(field cpu)" = "unknown,unknown" ]
}
if have mkfifo; then
	odd_host "$tmp/fifo" mkfifo
	check "machine files that are FIFOs: skipped, not waited on, exit 0" odd_run "$tmp/fifo"
else
	skip "machine files that are FIFOs" "no mkfifo"
fi
odd_host "$tmp/zero" zero
check "machine files linked to /dev/zero: skipped, exit 0" odd_run "$tmp/zero"
odd_host "$tmp/sparse" sparse
check "machine files of a sparse GiB: read to a line's bound, exit 0" odd_run "$tmp/sparse"
# a cpuinfo whose model comes after 16 MiB is read no further
fake_host "$tmp/far" 32768K
{ awk 'BEGIN { for (i = 0; i < 300000; i++) print "processor\t: 0123456789012345678901234567890123456789012345678901234" }'
	printf 'vendor_id\t: GenuineIntel\nmodel name\t: Far\n'; } >"$tmp/far/proc/cpuinfo"
check "a cpuinfo is read to 16 MiB: a model past it unknown" odd_run "$tmp/far"

# this host, as scan sees it: -c 0.01 is always cache-sized where an LLC is known
run -c 0.01 -r 1
if [ -n "$llc" ] && [ "$llc" -gt 0 ]; then
	check "this host: the warning gives a -c and the LLC's source" \
		err_has 'LLC [0-9.]+ [KMG]iB \((sysfs|cpuid|getconf|measured)\): caches skew the ratios; use -c [0-9.]+$'
else
	skip "this host: the warning gives a -c" "scan saw no last-level cache size"
fi

echo "$n checks"
