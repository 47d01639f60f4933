#!/bin/sh
# Bad input: exit 2, one line on stderr naming the option, nothing on
# stdout; sizes that do not fit: exit 1 before allocating.
. tests/lib.sh

bad "-c 0" -c 0
bad "-c -1" -c -1
bad "-c abc" -c abc
bad "-c 1x" -c 1x
bad "-c ''" -c ''
bad "-c ' 1'" -c ' 1'
bad "-c +1" -c +1
bad "-c 0x10" -c 0x10
bad "-c inf" -c inf
bad "-c nan" -c nan
bad "-c 1e400" -c 1e400
bad "-c 1e-400" -c 1e-400
bad "-c 0.0000015 (not whole pages)" -c 0.0000015
bad "-c 1e12 (beyond the address space)" -c 1e12
bad "-s abc" -s abc
bad "-s -1" -s -1
bad "-s 1.5" -s 1.5
bad "-s 99999999999999999999999" -s 99999999999999999999999
bad "-m 0" -m 0
bad "-m 12Q" -m 12Q
bad "-m 1000 (not whole pages)" -m 1000
bad "-m 1GG" -m 1GG
bad "-m G" -m G
bad "-c 1 -m 1G" -c 1 -m 1G
bad "-m 1G -c 1" -m 1G -c 1
bad "-r 0" -r 0
bad "-r 100000" -r 100000
bad "--thp=maybe" --thp=maybe
bad "--thp=" --thp=
bad "--cache=hot" --cache=hot
bad "--cpu=abc" --cpu=abc
bad "--cpu=-1" --cpu=-1
bad "--builds=0" --builds=0
bad "--builds=65 (a round each, 64 at most)" --builds=65
bad "unknown short option" -x
bad "unknown long option" --bogus
bad "long option with a stray value" --help=yes
bad "missing argument to -c" -c
bad "missing argument to -s" -s
bad "missing argument to --thp" --thp
bad "stray argument" extra
bad "stray argument after --" -c 0.01 -- extra
bad "lone dash" -

run -c abc
check "the message names the option and the value" err_has "^scan: -c 'abc': "
run -c 1 -m 1G
check "the conflict names both options" err_has '-c and -m'
run --bogus
check "an unknown option is named" err_has "'--bogus'"

run -c 1000000
check "-c 1000000: exit 1" [ "$rc" -eq 1 ]
check "-c 1000000: nothing on stdout" [ ! -s "$tmp/out" ]
check "-c 1000000: says what it needs and what is available" \
	err_has '^scan: -c 1000000 needs [0-9.]+ TiB \(memmap [0-9.]+ TiB \+ LRU array [0-9.]+ TiB\), only [0-9.]+ [KMGT]iB available \([A-Za-z].*\)$'
run -m 100T
check "-m 100T: refused with exit 1" [ "$rc" -eq 1 ]
run -m 16E
check "-m 16E: refused with exit 1" [ "$rc" -eq 1 ]
check "-m 16E: nothing on stdout" [ ! -s "$tmp/out" ]

run --cpu=65000 -c 0.01
check "--cpu on a CPU that does not exist: exit 1" [ "$rc" -eq 1 ]
check "--cpu failure names the CPU" err_has '^scan: --cpu 65000'

# One line per error, whatever the value holds; exact sizes; hex only
# for the seed; bounds as written.
bad "-c with a newline in its value" -c "$(printf '0.01\nx')"
check "a control character is escaped in the message" err_has "^scan: -c '0\\.01\\\\x0ax'"
bad "-c 0.01000001 (10000.01 pages)" -c 0.01000001
bad "-m 40960001 (not whole pages)" -m 40960001
bad "-s 0x0x1" -s 0x0x1
bad "--lists=0x10 (hex only for the seed)" -c 0.01 --lists=0x10
bad "-r 0x2" -r 0x2
run --locality=0
check "bounds are printed as integers" err_has "must be from 1 to 8388607 "
run --walks=foo
check "one help hint" sh -c "[ \$(grep -o 'scan -h' '$tmp/err' | wc -l) -eq 1 ]"

# --original fixes its protocol; what would change it is refused
bad "--original with -r" -c 0.01 --original -r 2
bad "--original with --thp" -c 0.01 --original --thp=never
bad "--original with --cache" -c 0.01 --original --cache=cold
bad "--original with --walks" -c 0.01 --original --walks=list
bad "--original with --builds" -c 0.01 --original --builds=2
bad "--original with --kernel-like" -c 0.01 --original --kernel-like
# the message names the option as it was typed: --thp is --memmap-thp's
# old name, and was once called --memmap-thp
for opt in --thp=never --memmap-thp=never --cache=warm --builds=2; do
	usage_error -c 0.01 --original "$opt"
	check "--original with $opt: the message names ${opt%%=*}" \
		err_has "fixes what ${opt%%=*} sets: drop one"
done

# an error in one item of a list value quotes the whole value, then the item
run -c 0.01 --folios=0:50,12:50
check "--folios: the whole value and the bad order" \
	err_has "^scan: --folios '0:50,12:50': order '12': must be from 0 to 10 "
run -c 0.01 --rmap=0.5:x
check "--rmap: the whole value and the bad part" \
	err_has "^scan: --rmap '0.5:x': hops 'x': not a whole number "
