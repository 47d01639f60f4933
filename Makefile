# scan - physical vs LRU-order walks over a simulated memmap
#
#   make            build ./scan
#   make run        build, then run it at -c auto: a size whose memmap is
#                   not cache-sized here (scan says which), then the
#                   kernel-like model at that size, and on stderr the two
#                   models' ratios side by side (scripts/report.sh --brief)
#   make test       run every tests/t-*.sh; ends with "N passed, M failed"
#   make test-vm    boot Debian's 6.12 kernel under qemu (scripts/vm.sh) and run
#                   scan-kernel's every path in it, live (minutes)
#   make sanitize   build ./scan-sanitize (ASan + UBSan) and run the tests on it
#   make valgrind   run a tiny scan under valgrind's memcheck
#   make fuzz       build the libFuzzer target and fuzz the options for FUZZ_SECONDS
#   make install    install scan, the scripts (as scan-NAME) and their man
#                   pages under $(DESTDIR)$(PREFIX), a line a group; make uninstall
#                   removes them, and the directories install made where empty
#   make yardstick  build the textbook 2023 method, for scripts/vs-yardstick.sh
#   make WERROR=1   warnings are errors (CI)

CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
# The scripts, installed as scan-NAME; what they share goes to DATADIR/scan.
SCRIPTS  = sweep plot report compare explain snapshot trace-lru vs-yardstick collect results kernel vm
# The awk programs are files (run_awk reads them with -f): a program in
# argv fails exec under ulimit -s 16.
# vm-init.sh: scan-vm's guest's init.
SHARED   = scan-env.sh vm-init.sh $(notdir $(wildcard scripts/*.awk))
# kernel.sh's parts, a file a scanner (its recipe says what one holds),
# installed in DATADIR/scan/kernel, where the installed scan-kernel looks.
KERNEL_PARTS = $(notdir $(wildcard scripts/kernel/*.sh))
# Data a script reads (collect.sh --with-2023), installed beside SHARED.
DATA     = docs/thread-2023.txt
# scan.1, and a page per script, scripts/scan-NAME.1, for those that have one.
MANPAGES = scan.1 $(wildcard scripts/scan-*.1)
# In the tree a script finds what it shares at $(dirname "$0")/../share/scan
# when it is not beside it; install writes DATADIR/scan there instead, so
# any DATADIR works.  DATADIR must then be a path the shell need not quote.
SHARE_AT = s|\$$(dirname "\$$0")/\.\./share/scan|$(DATADIR)/scan|g
CLANG   ?= clang
FUZZ_SECONDS ?= 60

# The project's language and warnings, kept apart from the user's CFLAGS.
STD      = -std=gnu11
WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
WARN    += $(if $(WERROR),-Werror)
# Setup and -t share work among threads (older C libraries need this).
THREADS  = -pthread
# Bind every library call at start-up, on a shallow stack: a call bound
# lazily, deep in the report, ran the dynamic linker's resolver (3 KiB
# of stack with AVX-512's register state) and crashed 2 runs in 300 of a
# clang build under ulimit -s 16 on an AMD EPYC (Zen 5); 0 in 300 bound
# at start-up.  GNU and LLVM linkers on Linux take it.
ifeq ($(shell uname -s),Linux)
BIND_NOW = -Wl,-z,now
endif
# Sanitizers stop at the first report, so a test sees it as a failure.
SANITIZE = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	   -fno-sanitize-recover=all

all: scan

scan: scan.c
	$(CC) $(CPPFLAGS) $(STD) $(WARN) $(THREADS) $(CFLAGS) $(BIND_NOW) $(LDFLAGS) -o $@ scan.c $(LDLIBS)

scan-sanitize: scan.c
	$(CC) $(CPPFLAGS) $(STD) $(WARN) $(THREADS) $(SANITIZE) $(LDFLAGS) -o $@ scan.c $(LDLIBS)

fuzz-options: tests/fuzz-options.c scan.c
	$(CLANG) $(CPPFLAGS) $(STD) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(THREADS) -o $@ tests/fuzz-options.c

yardstick: docs/yardstick.c
	$(CC) $(CPPFLAGS) -O2 $(LDFLAGS) -o $@ docs/yardstick.c $(LDLIBS)

limits: docs/limits.c	# this host's limits measured apart from scan: ./limits -c 10
	$(CC) $(CPPFLAGS) $(STD) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ docs/limits.c $(LDLIBS)

# stdout: ./scan -c auto's two lines, as it prints them
run: scan
	sh scripts/report.sh --brief

test: scan
	sh tests/run.sh

test-slow: scan
	TEST_TIER=slow sh tests/run.sh

# t-vm-live.sh's lines, and "N passed, M failed" (its own skips itself
# under make test, where SCAN_VM_LIVE is unset)
test-vm: scan
	@SCAN_VM_LIVE=1 sh tests/t-vm-live.sh | awk '{ print } /^not ok / { f++ } /^ok / { p++ } \
		END { printf "%d passed, %d failed\n", p, f; exit f > 0 || p == 0 }'

test-full: scan
	TEST_TIER=all sh tests/run.sh

sanitize: scan-sanitize
	SCAN=./scan-sanitize TEST_TIER=all sh tests/run.sh

valgrind: scan
	valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		./scan -c 0.01 -r 2 -vvv
	valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		./scan -c 0.01 -r 2 --kernel-like --walks=list,array,xarray --struct-page=8 --format=json
	# a replayed memmap of 1024 order-0 LRU pfns, every other one in memcg 1,
	# the first 100 in a traced order
	mkdir -p valgrind.tmp
	i=0; while [ $$i -lt 1024 ]; do printf '\040\000\000\000\000\000\000\000'; \
		i=$$((i + 1)); done >valgrind.tmp/kpageflags
	i=0; while [ $$i -lt 1024 ]; do printf "\\00$$((1 + i % 2))\\000\\000\\000\\000\\000\\000\\000"; \
		i=$$((i + 1)); done >valgrind.tmp/kpagecgroup
	i=0; while [ $$i -lt 100 ]; do echo $$((99 - i)); i=$$((i + 1)); done >valgrind.tmp/lru-order
	valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		./scan -r 2 -vvv --memmap-from=valgrind.tmp/kpageflags --memcg=1 \
		--memcg-from=valgrind.tmp/kpagecgroup --lru-order=valgrind.tmp/lru-order

fuzz: fuzz-options
	mkdir -p tests/fuzz-corpus.tmp
	./fuzz-options -max_total_time=$(FUZZ_SECONDS) -max_len=512 -timeout=10 \
		tests/fuzz-corpus.tmp tests/fuzz-seeds

# install says a line a group, not its commands.  It keeps in
# DATADIR/scan/installed-dirs the directories it made (every one that
# was not there), so that uninstall removes them again where they are
# empty, and never one that was there before or holds other files.
DIRS_MADE = $(DESTDIR)$(DATADIR)/scan/installed-dirs

install: scan
	@case '$(DATADIR)' in [!/]* | *[!A-Za-z0-9_./+,:@%=~-]*) \
		echo "make install: DATADIR=$(DATADIR): give an absolute path of letters, digits and _./+,:@%=~-" >&2; \
		exit 1;; esac
	@made=$$(for d in '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(DATADIR)/scan/kernel'; do \
		while [ -n "$$d" ] && [ ! -d "$$d" ]; do \
			printf '%s\n' "$${d#'$(DESTDIR)'}"; d=$${d%/*}; \
		done; \
	done); \
	mkdir -p '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(DATADIR)/scan/kernel' && \
	{ cat '$(DIRS_MADE)' 2>/dev/null; printf '%s\n' "$$made"; } | grep -v '^$$' | sort -u >'$(DIRS_MADE).new'; \
	mv -f '$(DIRS_MADE).new' '$(DIRS_MADE)' && chmod 644 '$(DIRS_MADE)'
	@echo "install scan in $(DESTDIR)$(BINDIR)"
	@cp scan '$(DESTDIR)$(BINDIR)/scan' && chmod 755 '$(DESTDIR)$(BINDIR)/scan'
	@echo "install $(words $(MANPAGES)) man pages in $(DESTDIR)$(MANDIR)/man1"
	@for m in $(MANPAGES); do \
		cp $$m '$(DESTDIR)$(MANDIR)/man1/'$${m##*/} && \
		chmod 644 '$(DESTDIR)$(MANDIR)/man1/'$${m##*/} || exit 1; \
	done
	@echo "install $(words $(SCRIPTS)) scripts as scan-NAME in $(DESTDIR)$(BINDIR): $(SCRIPTS)"
	@for s in $(SCRIPTS); do \
		sed '$(SHARE_AT)' scripts/$$s.sh >'$(DESTDIR)$(BINDIR)/scan-'$$s && \
		chmod 755 '$(DESTDIR)$(BINDIR)/scan-'$$s || exit 1; \
	done
	@echo "install what they share ($(words $(SHARED) $(DATA)) files) in $(DESTDIR)$(DATADIR)/scan"
	@for f in $(SHARED); do \
		sed '$(SHARE_AT)' scripts/$$f >'$(DESTDIR)$(DATADIR)/scan/'$$f && \
		chmod 644 '$(DESTDIR)$(DATADIR)/scan/'$$f || exit 1; \
	done
	@echo "install scan-kernel's $(words $(KERNEL_PARTS)) parts in $(DESTDIR)$(DATADIR)/scan/kernel"
	@for f in $(KERNEL_PARTS); do \
		sed '$(SHARE_AT)' scripts/kernel/$$f >'$(DESTDIR)$(DATADIR)/scan/kernel/'$$f && \
		chmod 644 '$(DESTDIR)$(DATADIR)/scan/kernel/'$$f || exit 1; \
	done
	@for f in $(DATA); do \
		cp $$f '$(DESTDIR)$(DATADIR)/scan/'$${f##*/} && \
		chmod 644 '$(DESTDIR)$(DATADIR)/scan/'$${f##*/} || exit 1; \
	done

# The directories install made, deepest first, each removed if empty.
uninstall:
	@echo "uninstall scan, its scripts, man pages and $(DESTDIR)$(DATADIR)/scan"
	@rm -f '$(DESTDIR)$(BINDIR)/scan'
	@for m in $(MANPAGES); do rm -f '$(DESTDIR)$(MANDIR)/man1/'$${m##*/}; done
	@for s in $(SCRIPTS); do rm -f '$(DESTDIR)$(BINDIR)/scan-'$$s; done
	@for f in $(SHARED); do rm -f '$(DESTDIR)$(DATADIR)/scan/'$$f; done
	@for f in $(KERNEL_PARTS); do rm -f '$(DESTDIR)$(DATADIR)/scan/kernel/'$$f; done
	@for f in $(DATA); do rm -f '$(DESTDIR)$(DATADIR)/scan/'$${f##*/}; done
	@made=$$(awk '{ print length($$0) "\t" $$0 }' '$(DIRS_MADE)' 2>/dev/null | sort -rn | cut -f 2-); \
	rm -f '$(DIRS_MADE)'; \
	rmdir '$(DESTDIR)$(DATADIR)/scan/kernel' '$(DESTDIR)$(DATADIR)/scan' 2>/dev/null; \
	printf '%s\n' "$$made" | while IFS= read -r d; do \
		[ -z "$$d" ] || rmdir '$(DESTDIR)'"$$d" 2>/dev/null || :; \
	done

clean:
	rm -rf scan scan-sanitize fuzz-options yardstick limits tests/fuzz-corpus.tmp valgrind.tmp

.PHONY: all run test test-slow test-vm test-full sanitize valgrind fuzz install uninstall clean
