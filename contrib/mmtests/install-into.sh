#!/bin/sh
#/ usage: install-into.sh [-s SCAN_C] MMTESTS_DIR
#/
#/ Copy scan's shellpack into an mmtests tree: shellpack_src/src/scan/
#/ (bench, install, parse-results, shellpack.yaml), drivers/driver-scan.sh
#/ and configs/config-workload-scan, with scan.c beside the install script,
#/ which mmtests embeds when it generates the shellpack.  Then, in that
#/ tree:  ./run-mmtests.sh -c configs/config-workload-scan RUNNAME
#/
#/   -s SCAN_C  the scan.c to build (default: the one in this checkout)
#/
#/ The shellpack's version is scan's and a checksum of that scan.c, so a
#/ changed scan.c is built afresh.  Running it again replaces what it
#/ copied.  Exit status: 0 done, 1 a missing file, 2 a usage error.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../scan.c

usage() {
	sed -n 's/^#\/ \{0,1\}//p' "$0"
}

usage_error() {
	echo "install-into.sh: $* (-h for help)" >&2
	exit 2
}

die() {
	echo "install-into.sh: $*" >&2
	exit 1
}

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage && exit 0 ;;
	-s) [ $# -ge 2 ] || usage_error "-s needs a SCAN_C"; src=$2; shift ;;
	--) shift && break ;;
	-?*) usage_error "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] || usage_error "no MMTESTS_DIR given"
[ $# -eq 1 ] || usage_error "one MMTESTS_DIR only, not also $2"
mmtests=$1

if [ ! -f "$mmtests/run-mmtests.sh" ] || [ ! -d "$mmtests/shellpack_src/src" ]; then
	die "$mmtests: not an mmtests tree (no run-mmtests.sh and shellpack_src/src)"
fi
[ -f "$src" ] || die "$src: no such file"
version=$(sed -n 's/^#define SCAN_VERSION "\([^"]*\)"$/\1/p' "$src")
[ -n "$version" ] || die "$src: no SCAN_VERSION: not scan's scan.c"
version=$version-$(cksum <"$src" | cut -d ' ' -f 1)

pack=shellpack_src/src/scan
mkdir -p "$mmtests/$pack"
cp "$src" "$mmtests/$pack/scan.c"
for f in scan-bench scan-install; do
	sed "s/SCANVERSION/$version/" "$here/$pack/$f" >"$mmtests/$pack/$f"
done
for f in $pack/shellpack.yaml $pack/shellpack-ns.yaml $pack/parse-results \
	drivers/driver-scan.sh configs/config-workload-scan; do
	cp "$here/$f" "$mmtests/$f"
done
chmod 755 "$mmtests/$pack/parse-results"
# mmtests' report -a ns: the same script, which reads its own name
ln -sf parse-results "$mmtests/$pack/parse-results-ns"
echo "scan $version installed into $mmtests"
