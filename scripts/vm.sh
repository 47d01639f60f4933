#!/bin/sh
#/ vm.sh - run a command as root in a virtual machine of a Linux kernel
#/ that has MGLRU, DAMON and memory hotplug, with scan and its scripts
#/ built from this source tree: scan-kernel's every path, live.
#/
#/ usage: scripts/vm.sh [-h] [-o DIR] [--kernel BZIMAGE] [--modules DIR]
#/                      [--package NAME] [--mem SIZE] [--maxmem SIZE]
#/                      [--cpus N] [--disk SIZE] [--timeout SECONDS]
#/                      [--accel=kvm|tcg] [--console FILE] [--tree DIR]
#/                      [--check] -- CMD [ARG...]
#/
#/ It boots the kernel under qemu-system-x86_64 with an initramfs of
#/ busybox-static, a static scan (cc -O2 -static -pthread scan.c), the
#/ tree's scripts/ (in /scan/scripts; each NAME.sh on PATH as scan-NAME)
#/ and the modules the guest needs, and a scratch disk (ext4, mounted on
#/ /mnt/scratch; /var/tmp and /out are on it); sets the guest up as
#/ scan-kernel needs it (cgroup v2 with the memory controller enabled for
#/ its children, tracefs, debugfs); runs CMD as root in /out with stdin
#/ from /dev/null; and powers the guest off as CMD ends.  CMD's stdout
#/ and stderr come back as they are written (two virtio-serial ports),
#/ what CMD left in /out comes back into DIR (-o), and CMD's exit status
#/ is vm.sh's.  The first line on stdout says how the CPU runs: KVM
#/ where /dev/kvm opens, else TCG, an emulated CPU whose figures are the
#/ emulator's; the guest's environment has SCAN_VM_ACCEL=kvm or tcg.
#/ qemu and the scratch files are gone however it ends: CMD's end, a
#/ signal to vm.sh, --timeout, a kernel panic, qemu killed.
#/
#/   -o DIR         copy what CMD left in the guest's /out into DIR
#/                  (made if need be; files there of the same name are
#/                  replaced)
#/   --package NAME the Debian kernel package to boot (default: the
#/                  newest linux-image-6.12.*-amd64-unsigned in apt's
#/                  lists, else the newest in the cache), fetched with
#/                  apt-get download and unpacked (dpkg-deb -x) into the
#/                  cache, never installed
#/   --kernel BZIMAGE  boot this kernel instead (a developer's own build);
#/                  it needs MEMCG, LRU_GEN, DAMON_PADDR, DAMON_SYSFS,
#/                  MEMORY_HOTREMOVE, FTRACE, DEBUG_FS, SERIAL_8250_CONSOLE,
#/                  VIRTIO_PCI, and VIRTIO_BLK and EXT4_FS =y or in --modules
#/   --modules DIR  where --kernel's modules are (its lib/modules/VERSION,
#/                  or any directory holding the .ko files)
#/   --mem SIZE     the guest's memory, M or G (2G: 16 memory blocks of
#/                  128 MiB, room for scan-kernel -m 64M to 512M)
#/   --maxmem SIZE  the most memory it may have with hotplugged DIMMs (4G;
#/                  --mem's SIZE for none)
#/   --cpus N       its CPUs (2)
#/   --disk SIZE    the scratch disk and the disk that brings /out back,
#/                  sparse files in TMPDIR (8G: twice a 1G working set and
#/                  room)
#/   --timeout SECONDS  stop CMD with SIGTERM in the guest after this long
#/                  less the boot and 30 s (its /out still comes back), and
#/                  power the guest off at SECONDS (3600)
#/   --accel=A      kvm or tcg, instead of KVM where /dev/kvm opens
#/   --console FILE keep the guest's console (the kernel's messages) in FILE
#/   --tree DIR     the source tree to build the guest's scan and scripts
#/                  from (default: the one vm.sh is in)
#/   --check        check that it can run here and say what it would boot,
#/                  then stop (nothing fetched or booted)
#/   -h             this help
#/
#/ The cache: SCAN_VM_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/scan-vm.
#/ Exit status: CMD's; 2 a usage error; 1 it cannot run here (no qemu,
#/ no busybox-static, no kernel) or the guest ended before CMD did (a
#/ kernel panic, qemu killed: the console's last lines follow); 124
#/ --timeout; 128+N ended by signal N, after powering the guest off.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

# What it starts or makes, undone however it ends (scan-env.sh's traps
# run at_exit, then remove $tmp): qemu, under timeout(1) as $child; a
# download's directory in the cache, $fetching.
child="" fetching=""
# shellcheck disable=SC2317 # run by scan-env.sh's cleanup
undo() {
	if [ -n "$child" ]; then
		kill "$child" 2>/dev/null || true	# timeout(1) passes it to qemu
		wait "$child" 2>/dev/null || true
		child=""
	fi
	[ -z "$fetching" ] || rm -rf "$fetching"
	fetching=""
}
at_exit=undo

# mib_of OPTION VALUE: $mib, VALUE (M or G) in MiB.
mib_of() {
	case $2 in
	[1-9]*[Mm]) mib=${2%?} ;;
	[1-9]*[Gg]) mib=${2%?}000 ;;	# checked below, then scaled
	*) mib=x ;;
	esac
	case $mib in
	'' | *[!0-9]* | ???????*) usage_error "$1 '$2': give a size in M or G (256M to 1024G)" ;;
	esac
	case $2 in *[Gg]) mib=$((${2%?} * 1024)) ;; esac
	if [ "$mib" -lt 256 ] || [ "$mib" -gt 1048576 ]; then
		usage_error "$1 '$2': give a size in M or G (256M to 1024G)"
	fi
}

out="" kernel="" modules="" package="" accel="" console="" check=""
mem=2048 maxmem=4096 cpus=2 disk=8192 timeout_s=3600
tree=$here/..
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--check) check=1 ;;
	-o) [ -n "${2:-}" ] || usage_error "-o needs a directory"; out=$2; shift ;;
	--kernel) [ -n "${2:-}" ] || usage_error "--kernel needs a bzImage"; kernel=$2; shift ;;
	--modules) [ -n "${2:-}" ] || usage_error "--modules needs a directory"; modules=$2; shift ;;
	--package) [ -n "${2:-}" ] || usage_error "--package needs a package name"; package=$2; shift
		case $package in
		linux-image-*[!a-z0-9.+-]* | linux-image-) usage_error "--package '$package': not a package name" ;;
		linux-image-*) ;;
		*) usage_error "--package '$package': give a linux-image-* package" ;;
		esac ;;
	--mem) [ $# -ge 2 ] || usage_error "--mem needs a SIZE"; mib_of --mem "$2"; mem=$mib; shift ;;
	--maxmem) [ $# -ge 2 ] || usage_error "--maxmem needs a SIZE"; mib_of --maxmem "$2"; maxmem=$mib; shift ;;
	--disk) [ $# -ge 2 ] || usage_error "--disk needs a SIZE"; mib_of --disk "$2"; disk=$mib; shift ;;
	--cpus) [ $# -ge 2 ] || usage_error "--cpus needs a number"; whole --cpus "$2"
		[ "$2" -le 64 ] || usage_error "--cpus '$2': give 1 to 64"; cpus=$2; shift ;;
	--timeout) [ $# -ge 2 ] || usage_error "--timeout needs SECONDS"; whole --timeout "$2"; timeout_s=$2; shift ;;
	--accel=kvm | --accel=tcg) accel=${1#*=} ;;
	--accel=* | --accel) usage_error "$1: give --accel=kvm or --accel=tcg" ;;
	--console) [ -n "${2:-}" ] || usage_error "--console needs a file"; console=$2; shift ;;
	--tree) [ -n "${2:-}" ] || usage_error "--tree needs a directory"; tree=$2; shift ;;
	--) shift; break ;;
	*) usage_error "unknown argument '$1' (the command goes after --)" ;;
	esac
	shift
done
[ $# -gt 0 ] || [ -n "$check" ] || usage_error "no command: give it after --, e.g. -- scan-kernel -m 64M"
[ -z "$kernel" ] || [ -z "$package" ] || usage_error "--kernel and --package: give one"
[ -z "$modules" ] || [ -n "$kernel" ] || usage_error "--modules goes with --kernel"
[ "$maxmem" -ge "$mem" ] || usage_error "--maxmem ${maxmem}M is less than --mem ${mem}M"

# ---- what it needs here ----------------------------------------------

# tool NAME: the path of NAME, also in the sbin directories a user's PATH
# may lack; nothing when there is none.
tool() {
	command -v "$1" 2>/dev/null && return 0
	for tool_dir in /usr/sbin /sbin; do
		[ ! -x "$tool_dir/$1" ] || { echo "$tool_dir/$1"; return 0; }
	done
}
qemu=$(tool qemu-system-x86_64)
[ -n "$qemu" ] || fail "needs qemu-system-x86_64 (Debian: apt-get install qemu-system-x86)"
busybox=""
for bb in /bin/busybox /usr/bin/busybox $(tool busybox); do
	# a static one: ldd says it is not a dynamic executable
	[ -x "$bb" ] && ! ldd "$bb" >/dev/null 2>&1 && { busybox=$bb; break; }
done
[ -n "$busybox" ] || fail "needs a static busybox (Debian: apt-get install busybox-static)"
mkfs=$(tool mkfs.ext4)
[ -n "$mkfs" ] || fail "needs mkfs.ext4 (Debian: apt-get install e2fsprogs)"
for t in timeout tar; do
	[ -n "$(tool "$t")" ] || fail "needs $t"
done
if [ ! -f "$tree/scan.c" ] || [ ! -d "$tree/scripts" ]; then
	fail "no source tree at $tree (scan.c and scripts/): give --tree DIR, a checkout of scan"
fi
[ -z "$kernel" ] || [ -r "$kernel" ] || fail "cannot read the kernel $kernel"
[ -z "$modules" ] || [ -d "$modules" ] || fail "no directory $modules (--modules)"

# the guest's awk: one with math (BusyBox's has none), copied in with
# the libraries it links
guest_awk=""
for a in gawk mawk awk; do
	a=$(command -v "$a" 2>/dev/null) || continue
	"$a" 'BEGIN { exit !(log(10) > 2.3) }' 2>/dev/null || continue
	guest_awk=$a
	break
done
[ -n "$guest_awk" ] || fail "needs an awk with math here, for the guest (gawk or mawk)"

if [ -z "$accel" ]; then
	accel=tcg
	# where /dev/kvm is a device that opens for reading and writing (<>
	# alone would make a file where there is none)
	if [ -c /dev/kvm ] && (: <>/dev/kvm) 2>/dev/null; then accel=kvm; fi
fi
case $accel in
kvm) accel_args="-accel kvm -cpu host" ;;
# TCG: its most complete CPU but for 5-level paging, which the guest's
# kernel took (CR4.LA57) where five of about thirty boots panicked
# ("Fatal exception in interrupt"); whether TCG's LA57 caused them is
# not established
*) accel_args="-accel tcg -cpu max,la57=off" ;;
esac

cache=${SCAN_VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/scan-vm}

# newest_package: the newest linux-image-6.12.*-amd64-unsigned that apt
# knows, else the newest in the cache; nothing where neither has one.
# The plain flavour: not -rt-amd64 nor -cloud-amd64.
newest_package() {
	{
		apt-cache search --names-only '^linux-image-6\.12\.[0-9]' 2>/dev/null |
			sed -n 's/^\(linux-image-6\.12\.[0-9][^ -]*-amd64-unsigned\) .*/\1/p'
		for np_dir in "$cache"/linux-image-6.12.[0-9]*-amd64-unsigned; do
			np_dir=${np_dir##*/}
			case ${np_dir#linux-image-} in *-*-amd64-unsigned | *'*'*) ;; *) echo "$np_dir" ;; esac
		done
	} | sort -u | sort -V | tail -n 1
}

if [ -z "$kernel" ]; then
	[ -n "$package" ] || package=$(newest_package)
	[ -n "$package" ] || fail "no linux-image-6.12.*-amd64-unsigned in apt's lists or the cache ($cache): run apt-get update, or give --kernel"
	what="$package"
	[ -d "$cache/$package" ] || what="$what (to fetch into $cache)"
else
	what=$kernel
fi
if [ -n "$check" ]; then
	echo "scan-vm: would boot $what under $accel: ${mem}M (maxmem ${maxmem}M), $cpus CPUs, a ${disk}M scratch disk"
	exit 0
fi

# ---- the kernel --------------------------------------------------------

# fetch PACKAGE: $cache/PACKAGE, the package unpacked (apt-get download,
# dpkg-deb -x), made whole or not at all.
fetch() {
	mkdir -p "$cache" || fail "cannot make the cache directory $cache"
	fetching=$(mktemp -d "$cache/.fetch.XXXXXX") || fail "cannot write in the cache directory $cache"
	say_line "$me: fetching $1 into $cache"
	(cd "$fetching" && apt-get download "$1" >download.log 2>&1) ||
		fail "apt-get download $1 failed: $(tail -n 1 "$fetching/download.log")"
	dpkg-deb -x "$fetching"/*.deb "$fetching/tree" ||
		fail "cannot unpack $1 (dpkg-deb -x) in $cache: the disk full?"
	mv "$fetching/tree" "$cache/$1" 2>/dev/null || [ -d "$cache/$1" ] ||
		fail "cannot move $1 into place in $cache"
	rm -rf "$fetching"
	fetching=""
}

if [ -z "$kernel" ]; then
	[ -d "$cache/$package" ] || fetch "$package"
	for kernel in "$cache/$package"/boot/vmlinuz-*; do :; done
	[ -r "$kernel" ] || fail "no kernel in $cache/$package/boot: remove that directory and run again"
	for modules in "$cache/$package"/lib/modules/*; do :; done
	release=${kernel##*/vmlinuz-}
else
	release=${kernel##*/}
fi

# ---- the initramfs -----------------------------------------------------

scratch
root=$tmp/root
mkdir -p "$root/bin" "$root/usr/bin" "$root/usr/local/bin" "$root/scan" \
	"$root/scan-vm/modules" "$root/dev" "$root/proc" "$root/sys" "$root/tmp" \
	"$root/run" "$root/mnt" "$root/root" "$root/var/tmp" "$root/out"
cp "$busybox" "$root/bin/busybox"
cp "$share/vm-init.sh" "$root/init"
chmod 755 "$root/init"

# the tree: a static scan, scan.c beside it (scan-env.sh's source tree),
# scripts/ whole, and a scan-NAME on PATH for each scripts/NAME.sh
cc=${CC:-cc}
"$cc" -O2 -static -pthread -o "$root/scan/scan" "$tree/scan.c" 2>"$tmp/cc.log" ||
	fail "cannot build a static scan ($cc -O2 -static -pthread scan.c): $(tail -n 1 "$tmp/cc.log")"
cp "$tree/scan.c" "$root/scan/scan.c"
cp -R "$tree/scripts" "$root/scan/scripts"
for s in "$tree"/scripts/*.sh; do
	s=${s##*/}
	printf '#!/bin/sh\nexec /scan/scripts/%s "$@"\n' "$s" >"$root/usr/local/bin/scan-${s%.sh}"
	chmod 755 "$root/usr/local/bin/scan-${s%.sh}"
done

# guest_copy PROGRAM PATH: PROGRAM at PATH in the guest, and the
# libraries it links at their own paths.
guest_copy() {
	cp "$1" "$root$2"
	ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
	while read -r gc_lib; do
		mkdir -p "$root${gc_lib%/*}"
		cp -L "$gc_lib" "$root$gc_lib"
	done
}
# awk with math; and the shell: dash where the host has it, the shell
# the scripts are tested with (BusyBox's sh runs its own awk, without
# math, before any on PATH)
guest_copy "$guest_awk" /usr/bin/awk
dash=$(command -v dash 2>/dev/null) || dash=""
# the host's own of the tools the scripts use where BusyBox's differ: dd
# that prints its time (the aging walk's clock), env --default-signal,
# fallocate -p, getconf (none in BusyBox), taskset, timeout; on PATH
# before BusyBox's
for t in dd env fallocate getconf taskset timeout; do
	t_path=$(command -v "$t" 2>/dev/null) || continue
	case $t_path in /*) guest_copy "$t_path" "/usr/bin/$t" ;; esac
done
if [ -n "$dash" ]; then
	guest_copy "$dash" /bin/dash
	ln -s dash "$root/bin/sh"
else
	ln -s busybox "$root/bin/sh"
fi

# modules: virtio_blk and ext4 where they are modules, their dependencies
# first (each file's depends=), decompressed here
find "$modules" \( -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz' \) \
	2>/dev/null | awk '{ n = $0; sub(/.*\//, "", n); sub(/\.ko.*/, "", n); gsub(/-/, "_", n); print n, $0 }' \
	>"$tmp/modules.index" || true
: >"$root/scan-vm/modules.list"
mods_done=" "
# mod_add NAME: NAME's dependencies, then NAME, on the list; false where
# there is no such module file.
mod_add() {
	case $mods_done in *" $1 "*) return 0 ;; esac
	mods_done="$mods_done$1 "
	mod_from=$(awk -v n="$1" '$1 == n { print $2; exit }' "$tmp/modules.index")
	[ -n "$mod_from" ] || return 1
	mod_to=$root/scan-vm/modules/$1.ko
	case $mod_from in
	*.xz) xz -dc "$mod_from" >"$mod_to" ;;
	*.zst) zstd -qdc "$mod_from" >"$mod_to" ;;
	*.gz) gzip -dc "$mod_from" >"$mod_to" ;;
	*) cp "$mod_from" "$mod_to" ;;
	esac || fail "cannot decompress $mod_from"
	for mod_dep in $(tr '\0' '\n' <"$mod_to" | sed -n 's/^depends=//p' | tr ',' ' '); do
		mod_add "$mod_dep" || fail "no module $mod_dep (a dependency) in $modules"
	done
	echo "$1.ko" >>"$root/scan-vm/modules.list"
}
for m in virtio_blk ext4; do
	mod_add "$m" && continue
	# elsewhere built in, or so we must suppose for a kernel of one's own
	[ -z "$package" ] || grep -q "/$m\.ko" "$modules/modules.builtin" 2>/dev/null ||
		fail "no module $m in $modules, nor built in"
done
mod_add crc32c_generic || true	# ext4's metadata_csum, where it is a module

command_line "$@"
printf '%s\n' "$line" >"$root/scan-vm/cmd"
printf 'SCAN_VM=1\nSCAN_VM_ACCEL=%s\nSCAN_VM_KERNEL=%s\nSCAN_VM_OUT=/out\nSCAN_VM_TIMEOUT=%s\nAWK=/usr/bin/awk\n' \
	"$accel" "$release" "$timeout_s" >"$root/scan-vm/env"
(cd "$root" && find . | "$busybox" cpio -o -H newc -R 0:0 2>/dev/null) >"$tmp/initrd" ||
	fail "cannot write the initramfs in TMPDIR (${TMPDIR:-/tmp}): full?"

# the disks: sparse files, the scratch one ext4 without a journal (a
# working set's page cache needs none), its inode tables written now, not
# by a kernel thread in the middle of a measurement
truncate -s "${disk}M" "$tmp/scratch.img" "$tmp/back.img" ||
	fail "cannot make the disks in TMPDIR (${TMPDIR:-/tmp})"
"$mkfs" -q -F -T largefile -O ^has_journal -E lazy_itable_init=0 "$tmp/scratch.img" >"$tmp/mkfs.log" 2>&1 ||
	fail "mkfs.ext4 failed: $(tail -n 1 "$tmp/mkfs.log")"

# ---- the run -----------------------------------------------------------

if [ "$accel" = tcg ]; then
	echo "vm: TCG (emulated CPU): figures are the emulator's, not to be quoted"
else
	echo "vm: KVM (the host's CPU)"
fi
say_line "$me: $release, ${mem}M (maxmem ${maxmem}M), $cpus CPUs: booting"
memory_arg=${mem}M
[ "$maxmem" -eq "$mem" ] || memory_arg="${mem}M,slots=4,maxmem=${maxmem}M"
: >"$tmp/console"
# shellcheck disable=SC2086 # $accel_args: words
timeout "$timeout_s" "$qemu" -nodefaults -no-user-config -display none -no-reboot \
	$accel_args -smp "$cpus" -m "$memory_arg" \
	-kernel "$kernel" -initrd "$tmp/initrd" -append "console=ttyS0 quiet panic=-1" \
	-chardev "file,id=con,path=$tmp/console" -serial chardev:con \
	-device virtio-serial-pci \
	-chardev file,id=out,path=/proc/self/fd/1,append=on -device virtserialport,chardev=out,name=scan-vm.stdout \
	-chardev file,id=err,path=/proc/self/fd/2,append=on -device virtserialport,chardev=err,name=scan-vm.stderr \
	-drive "file=$tmp/scratch.img,format=raw,if=virtio,cache=unsafe" \
	-drive "file=$tmp/back.img,format=raw,if=virtio,cache=unsafe" \
	</dev/null &
child=$!
rc=0
wait "$child" || rc=$?
child=""

[ -z "$console" ] || output_put "$tmp/console" "$console"
mkdir "$tmp/back"
tar -xf "$tmp/back.img" -C "$tmp/back" 2>/dev/null || true
status=""
[ ! -f "$tmp/back/status" ] || read -r status <"$tmp/back/status" || true

# console_tail: the console's last lines, on stderr: from a little before
# the first oops where there is one (its RIP and call trace), else 15
console_tail() {
	tr -d '\r' <"$tmp/console" | awk '{ line[NR] = $0 }
		!first && /(BUG:|Oops:|general protection|RIP: )/ { first = NR }
		END { from = first ? first - 3 : NR - 14; if (from < 1) from = 1
			to = first ? from + 44 : NR; if (to > NR) to = NR
			for (i = from; i <= to; i++) print line[i] }' | while IFS= read -r c; do
		say_line "$me: console: $c"
	done
}
# /out, where the guest wrote its tar: also after a timeout in the guest
if [ -n "$out" ] && [ -n "$status" ] && [ "${status#setup:}" = "$status" ]; then
	mkdir -p "$out" || fail "cannot make $out"
	cp -R "$tmp/back/out/." "$out/" || fail "cannot copy the guest's /out into $out"
fi
case $status in
'' | *[!0-9]*)
	if [ "$status" = timeout ]; then
		say_line "$me: the command ran past --timeout $timeout_s s (less the boot): stopped in the guest by SIGTERM${out:+; its /out copied back}"
		exit 124
	elif [ "$rc" -eq 124 ]; then
		say_line "$me: the guest ran past --timeout $timeout_s s: powered off"
		exit 124
	fi
	case $status in
	setup:*) say_line "$me: the guest's set-up failed: ${status#setup: }" ;;
	*) say_line "$me: the guest stopped before the command ended (a kernel panic, qemu killed or failed: status $rc); the console's last lines:" ;;
	esac
	console_tail
	exit 1 ;;
esac
exit "$status"
