#!/bin/sh
# vm.sh (scan-vm) without booting: its refusals, and its host side run
# against a stand-in for qemu that plays the guest's part (an exit
# status and /out on the way-back disk, a set-up that failed, a panic, a
# guest that never ends): the status passed through, /out copied back,
# the initramfs's contents, qemu's arguments, and no qemu and no scratch
# left after a timeout, a SIGTERM or a kill -9 of qemu.  The live boot is
# t-vm-live.sh (make test-vm).
. tests/lib.sh

vm=scripts/vm.sh
check "vm.sh -h: exit 0 and a usage line" sh -c "$vm -h | grep -q '^usage: scripts/vm.sh '"
for args in "" "--bogus -- true" "--mem abc -- true" "--mem 100M -- true" \
	"--mem 2T -- true" "--mem 0G -- true" "--maxmem 1G -- true" "--cpus 0 -- true" \
	"--cpus 65 -- true" "--timeout 0 -- true" "--timeout 1.5 -- true" "--accel=xen -- true" \
	"--accel -- true" "--kernel k --package linux-image-x -- true" "--modules d -- true" \
	"--package foo -- true" "--package linux-image-a/b -- true" "-o" "--disk 1x -- true" \
	"true"; do
	# shellcheck disable=SC2086 # the words of a case
	check "vm.sh $args: a usage error, one line" refused 2 "$vm" $args
done
check "vm-init.sh, not PID 1: refuses, one line, exit 2" refused 2 sh scripts/vm-init.sh

# What the host side needs that no stand-in replaces.
why=""
bb_static=""
for bb in /bin/busybox /usr/bin/busybox; do
	[ -x "$bb" ] && ! ldd "$bb" >/dev/null 2>&1 && bb_static=$bb
done
[ -n "$bb_static" ] || why="no static busybox (busybox-static)"
have mkfs.ext4 || [ -x /usr/sbin/mkfs.ext4 ] || [ -x /sbin/mkfs.ext4 ] || why="no mkfs.ext4"
have timeout || why="no timeout"
awk 'BEGIN { exit !(log(10) > 2.3) }' 2>/dev/null || have gawk || have mawk || why="no awk with math"
names="--check; exit status and /out back; the initramfs; qemu's arguments; a set-up that failed; a panic; --timeout; SIGTERM; kill -9 of qemu"
if [ -n "$why" ]; then
	skip "vm.sh's host side ($names)" "$why"
	exit 0
fi

# The stand-ins: a cc that writes an empty program, and a qemu that does
# what $fake/mode says, recording its pid and arguments in $fake.
fake=$tmp/fake
mkdir -p "$fake/bin" "$tmp/scratch"
cat >"$fake/bin/cc" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" != -o ] || : >"$2"; shift; done
EOF
cat >"$fake/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
fake=${0%/bin/*}
echo $$ >"$fake/pid"
printf '%s\n' "$@" >"$fake/args"
prev=""
for a; do
	case $a in
	file=*back.img,*) back=${a#file=}; back=${back%%,*} ;;
	file,id=con,path=*) con=${a#file,id=con,path=} ;;
	esac
	[ "$prev" != -initrd ] || cp "$a" "$fake/initrd"
	prev=$a
done
read -r mode <"$fake/mode"
case $mode in
exit*|setup|timeout)
	mkdir -p "$fake/guest/out"
	echo "made in the guest" >"$fake/guest/out/r.csv"
	if [ "$mode" = setup ]; then
		echo "setup: mount cgroup2 (CONFIG_CGROUPS)" >"$fake/guest/status"
	elif [ "$mode" = timeout ]; then
		echo timeout >"$fake/guest/status"
	else
		echo "${mode#exit}" >"$fake/guest/status"
	fi
	tar -cf "$back" -C "$fake/guest" status out
	echo "guest stdout"
	echo "guest stderr" >&2 ;;
panic) printf 'Kernel panic - not syncing: a stand-in\r\n' >>"$con" ;;
sleep) exec sleep 60 ;;
esac
EOF
chmod +x "$fake/bin/cc" "$fake/bin/qemu-system-x86_64"
: >"$tmp/bzImage"

# fake_run MODE ARGS...: vm.sh against the stand-ins, TMPDIR its own.
fake_run() {
	echo "$1" >"$fake/mode"
	shift
	rm -f "$fake/pid" "$fake/args" "$fake/initrd"
	PATH=$fake/bin:$PATH CC=$fake/bin/cc TMPDIR=$tmp/scratch run_cmd "$vm" --accel=tcg \
		--kernel "$tmp/bzImage" --disk 256M "$@"
}
# gone: the stand-in qemu no longer runs, and the scratch directory is empty.
gone() {
	pid=$(cat "$fake/pid" 2>/dev/null) || return 1
	[ -z "$(state "$pid")" ] && [ -z "$(ls -A "$tmp/scratch")" ]
}

fake_run exit0 --check
check "--check: exit 0, one line naming the kernel and TCG, nothing booted" \
	sh -c "[ $rc -eq 0 ] && grep -q '^scan-vm: would boot .*bzImage under tcg' '$tmp/out' &&
		[ ! -e '$fake/pid' ]"
check "--check: accepts no command" [ "$rc" -eq 0 ]

# shellcheck disable=SC2016 # the guest's words, quoted as given
fake_run exit3 -o "$tmp/back" -- sh -c 'echo "$1"' x 'a b'
check "the command's exit status (3) is vm.sh's" [ "$rc" -eq 3 ]
check "the first line on stdout says TCG, and that no figure is to be quoted" \
	sh -c "head -n 1 '$tmp/out' | grep -qx 'vm: TCG (emulated CPU): figures are the emulator.s, not to be quoted'"
check "the guest's stdout on stdout, its stderr on stderr" \
	sh -c "sed -n 2p '$tmp/out' | grep -qx 'guest stdout' && grep -qx 'guest stderr' '$tmp/err'"
check "-o: the guest's /out copied back" grep -qx "made in the guest" "$tmp/back/r.csv"
check "after the command's end: no qemu, no scratch" gone
args=$(tr '\n' ' ' <"$fake/args")
check "qemu: TCG with -cpu max less 5-level paging, 2 CPUs, 2G with slots to 4G, no reboot, a panic ends it" \
	sh -c "case '$args' in *'-accel tcg -cpu max,la57=off '*'-smp 2 -m 2048M,slots=4,maxmem=4096M '*) ;; *) exit 1 ;; esac &&
		case '$args' in *-no-reboot*'panic=-1'*) ;; *) exit 1 ;; esac"
if [ -s "$fake/initrd" ]; then
	mkdir "$tmp/initrd"
	(cd "$tmp/initrd" && "$bb_static" cpio -i -d <"$fake/initrd" 2>/dev/null)
	check "initramfs: init, busybox, sh, an awk with math, scan" \
		sh -c "cd '$tmp/initrd' && [ -x init ] && [ -x bin/busybox ] && [ -L bin/sh ] &&
			[ -x usr/bin/awk ] && [ -f scan/scan ] && [ -f scan/scan.c ]"
	missing=$(cd scripts && find . -type f | while read -r f; do
		[ -f "$tmp/initrd/scan/scripts/$f" ] || echo "$f"
	done)
	check "initramfs: scripts/ whole, subfolders too" [ -z "$missing" ]
	check "initramfs: scan-kernel on PATH" [ -x "$tmp/initrd/usr/local/bin/scan-kernel" ]
	check "initramfs: the command, its words quoted" \
		grep -qxF "sh -c 'echo \"\$1\"' x 'a b'" "$tmp/initrd/scan-vm/cmd"
	check "initramfs: SCAN_VM_ACCEL=tcg in the guest's environment" \
		grep -qx 'SCAN_VM_ACCEL=tcg' "$tmp/initrd/scan-vm/env"
else
	check "the initramfs reached qemu" false
fi

fake_run exit0 --mem 1G --maxmem 1G --cpus 1 -- true
args=$(tr '\n' ' ' <"$fake/args")
check "--mem 1G --maxmem 1G --cpus 1: -m 1024M without slots, -smp 1" \
	sh -c "[ $rc -eq 0 ] && case '$args' in *'-smp 1 -m 1024M '*) ;; *) exit 1 ;; esac"

fake_run setup -- true
check "a set-up that failed: exit 1, named" \
	sh -c "[ $rc -eq 1 ] && grep -q 'set-up failed: mount cgroup2' '$tmp/err'"
check "after a failed set-up: no qemu, no scratch" gone

fake_run panic -- true
check "a panic: exit 1, the console's last lines on stderr" \
	sh -c "[ $rc -eq 1 ] && grep -q 'stopped before the command ended' '$tmp/err' &&
		grep -q 'console: Kernel panic - not syncing: a stand-in\$' '$tmp/err'"
check "after a panic: no qemu, no scratch" gone

rm -rf "$tmp/back"
fake_run timeout -o "$tmp/back" --timeout 60 -- true
check "the command stopped at its deadline in the guest: exit 124, said, /out back" \
	sh -c "[ $rc -eq 124 ] && grep -q 'ran past --timeout 60 s (less the boot): stopped in the guest' '$tmp/err' &&
		grep -qx 'made in the guest' '$tmp/back/r.csv'"
fake_run exit0 --timeout 77 -- true
mkdir "$tmp/env"
(cd "$tmp/env" && "$bb_static" cpio -i -d scan-vm/env <"$fake/initrd" 2>/dev/null)
check "the guest's environment has the deadline (SCAN_VM_TIMEOUT=77)" \
	grep -qx 'SCAN_VM_TIMEOUT=77' "$tmp/env/scan-vm/env"

fake_run sleep --timeout 2 -- true
check "--timeout 2: exit 124, said" sh -c "[ $rc -eq 124 ] && grep -q 'past --timeout 2 s' '$tmp/err'"
check "after --timeout: no qemu, no scratch" gone

# signal MODE SIG: vm.sh against a guest that never ends, SIG sent to
# vm.sh (or, for KILL, to qemu) once qemu runs; sets rc.
signal() {
	echo sleep >"$fake/mode"
	rm -f "$fake/pid"
	PATH=$fake/bin:$PATH CC=$fake/bin/cc TMPDIR=$tmp/scratch "$vm" --accel=tcg \
		--kernel "$tmp/bzImage" --disk 256M -- true >"$tmp/out" 2>"$tmp/err" &
	vm_pid=$!
	waited=0
	while [ ! -s "$fake/pid" ] && [ "$waited" -lt 300 ]; do
		nap
		waited=$((waited + 1))
	done
	if [ "$1" = KILL ]; then
		kill -KILL "$(cat "$fake/pid")"
	else
		kill "-$1" "$vm_pid"
	fi
	wait "$vm_pid"
	rc=$?
}
signal TERM
check "SIGTERM to vm.sh: exit 143, said" sh -c "[ $rc -eq 143 ] && grep -q 'interrupted' '$tmp/err'"
check "after SIGTERM: no qemu, no scratch" gone
signal KILL
check "kill -9 of qemu: exit 1, said" sh -c "[ $rc -eq 1 ] && grep -q 'stopped before the command ended' '$tmp/err'"
check "after kill -9 of qemu: no qemu, no scratch" gone
