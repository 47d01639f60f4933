#!/bin/sh
# vm-init.sh - the init (PID 1) of scan-vm's guest, copied in as /init.
# It sets the machine up as scan-kernel needs it, runs the command that
# vm.sh wrote to /scan-vm/cmd as root in /out, and powers the guest off
# however the command ends.  What it leaves for vm.sh:
#   ttyS0  the console: the kernel's messages and this script's
#   the virtio-serial ports scan-vm.stdout and scan-vm.stderr: the
#          command's stdout and stderr, byte for byte
#   vdb    a tar of "status" (the command's exit status, or "setup:" and
#          why the set-up failed) and out/ (what the command left in /out)
# Never set -e: PID 1 must not end before the poweroff.
set -u
# Only as a guest's PID 1: on a host it would mount over /dev and power
# the machine off.
if [ "$$" -ne 1 ]; then
	echo "vm-init.sh: the init of scan-vm's guest, run by the kernel there; not to be run here" >&2
	exit 2
fi
PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
export PATH
/bin/busybox mount -t devtmpfs dev /dev 2>/dev/null
exec </dev/null >/dev/ttyS0 2>&1
/bin/busybox --install -s /bin

# end STATUS: the tar on vdb, then power off (no return).
end() {
	# /mnt/scratch: the disk where it is mounted, else the rootfs
	mkdir -p /mnt/scratch/out
	echo "$1" >/mnt/scratch/status
	tar -cf /dev/vdb -C /mnt/scratch status out
	sync
	poweroff -f
	sleep 10
}

# setup WHAT CMD...: CMD, or the end with "setup: WHAT".
setup() {
	what=$1
	shift
	"$@" || end "setup: $what"
}

setup "mount proc" mount -t proc proc /proc
setup "mount sysfs" mount -t sysfs sysfs /sys
setup "mount tmpfs on /tmp" mount -t tmpfs -o mode=1777 tmp /tmp
setup "mount tmpfs on /run" mount -t tmpfs run /run
mkdir -p /sys/fs/cgroup /root /mnt/scratch /out /var/tmp
setup "mount cgroup2 (CONFIG_CGROUPS)" mount -t cgroup2 cgroup2 /sys/fs/cgroup
setup "enable the memory controller (CONFIG_MEMCG)" \
	sh -c 'echo +memory >/sys/fs/cgroup/cgroup.subtree_control'
setup "mount tracefs (CONFIG_FTRACE)" mount -t tracefs tracefs /sys/kernel/tracing
setup "mount debugfs (CONFIG_DEBUG_FS)" mount -t debugfs debugfs /sys/kernel/debug

# the modules vm.sh picked, dependencies first (an empty list where the
# kernel has what it needs built in)
while read -r ko; do
	insmod "/scan-vm/modules/$ko" || end "setup: insmod $ko"
done </scan-vm/modules.list

# the disks: vda the scratch file system, vdb the way back
tries=0
while [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; do
	[ "$tries" -lt 100 ] || end "setup: no /dev/vda and /dev/vdb: the kernel needs CONFIG_VIRTIO_BLK (=y, or a module in --modules)"
	sleep 0.1
	tries=$((tries + 1))
done
setup "mount the scratch disk, ext4 (CONFIG_EXT4_FS)" mount -t ext4 /dev/vda /mnt/scratch
mkdir -p /mnt/scratch/out /mnt/scratch/tmp
chmod 1777 /mnt/scratch/tmp
setup "bind /out" mount -o bind /mnt/scratch/out /out
setup "bind /var/tmp" mount -o bind /mnt/scratch/tmp /var/tmp

# CMD's stdout and stderr: virtio-serial ports, named by vm.sh (a write
# returns once qemu has the bytes: nothing is lost at the poweroff)
stdout="" stderr=""
for port in /sys/class/virtio-ports/*; do
	case $(cat "$port/name" 2>/dev/null) in
	scan-vm.stdout) stdout=/dev/${port##*/} ;;
	scan-vm.stderr) stderr=/dev/${port##*/} ;;
	esac
done
if [ ! -c "$stdout" ] || [ ! -c "$stderr" ]; then
	end "setup: no virtio-serial ports for stdout and stderr (CONFIG_VIRTIO_CONSOLE)"
fi

# the environment vm.sh wrote: SCAN_VM_ACCEL and the rest
set -a
# shellcheck disable=SC1091 # written by vm.sh
. /scan-vm/env
set +a
HOME=/root
export HOME
# the command's deadline: --timeout less the boot so far and a margin
# for the tar and the poweroff; then SIGTERM to it and all it started
# (timeout's process group), so that /out still comes back
up=$(cut -d. -f1 /proc/uptime)
left=$((SCAN_VM_TIMEOUT - up - 30))
[ "$left" -gt 0 ] || left=1
echo "scan-vm: guest ready after $up s, running the command for at most $left s"
(cd /out && exec timeout -s TERM "$left" sh /scan-vm/cmd) </dev/null >"$stdout" 2>"$stderr"
status=$?
if [ "$status" -eq 124 ] && [ "$(cut -d. -f1 /proc/uptime)" -ge $((up + left)) ]; then
	status=timeout
fi
echo "scan-vm: the command ended with status $status"
end "$status"
