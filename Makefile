# scan - physical vs LRU-order walks over a simulated memmap
#
#   make            build ./scan
#   make run        build, then run it with the defaults
#   make test       run every tests/t-*.sh; ends with "N passed, M failed"
#   make install    install to $(DESTDIR)$(PREFIX)/bin
#   make WERROR=1   warnings are errors (CI)

CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin

# The project's warnings, kept apart from the user's CFLAGS.
WARN     = -Wall -Wextra
WARN    += $(if $(WERROR),-Werror)
# Setup shares large work among threads (older C libraries need this).
THREADS  = -pthread

all: scan

scan: scan.c
	$(CC) $(CPPFLAGS) $(WARN) $(THREADS) $(CFLAGS) $(LDFLAGS) -o $@ scan.c $(LDLIBS)

run: scan
	./scan

test: scan
	sh tests/run.sh

install: scan
	mkdir -p $(DESTDIR)$(BINDIR)
	cp scan $(DESTDIR)$(BINDIR)/scan
	chmod 755 $(DESTDIR)$(BINDIR)/scan

clean:
	rm -f scan

.PHONY: all run test install clean
