# SPDX-License-Identifier: BSD-3-Clause
# uniprof-flame — top-level build.
#
#   make            build build/uniprof-flame
#   make check      install test deps if root, build, run every suite (ASan+UBSan)
#   make check-quick  the edit-test loop: no guest boots, no browsers, Linux examples only
#   make demo       profile the bundled example and write demo.svg
#   make bench      benchmark figures (never fails the build)
#   make bench-peers    render and diff beside inferno, interleaved (issue 32)
#   make bench-browser  SVG open/click times in Chromium and Firefox
#   make mutate     mutation score per module (slow, not in check/CI; MUTATE_ARGS=...)
#   make install    PREFIX=/usr/local DESTDIR=
#   make fuzz       libFuzzer harnesses, FUZZ_S seconds each (tests/fuzz/fuzz.mk)
#
# Sources are discovered per module folder, so adding a file to a module
# needs no edit here.  Each variant (release, asan) builds into its own tree.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
PKG_CONFIG ?= pkg-config

# fold itself has no .c now (its rooms do); kept so a file merged into fold/ still builds
MODULES := util fold fold/model fold/in fold/out fold/embed render symtab unwind sampler ptrace-if gdb-if record cli
# Xen support is built when libxen-dev is present on an x86-64 host (xen-if
# reads x86-64 vCPU state: it does not compile for Arm); else xen-if/stub.c.
XEN_PC := xencontrol xenforeignmemory xenstore
HAVE_XEN := $(if $(filter x86_64,$(shell uname -m)),$(shell $(PKG_CONFIG) --exists $(XEN_PC) 2>/dev/null && echo 1))

PKGS := libelf libdw libxml-2.0
ifeq ($(HAVE_XEN),1)
PKGS += xencontrol xencall xenforeignmemory xenstore xentoollog
endif

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
# libxml2 is dlopen()ed on first SVG input (fold/in/xml.h): not linked
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(filter-out libxml-2.0,$(PKGS)) 2>/dev/null) -ldl

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
BASE_CFLAGS := -std=gnu11 -g $(WARN) -I. -Ibuild/gen $(PKG_CFLAGS) -D_GNU_SOURCE
CFLAGS  ?= -O2
LDLIBS  := $(PKG_LIBS) -lprotobuf-c -ldeflate -lz -llzma -lbz2 -lm -lpthread

SAN_FLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

SRCS := $(foreach m,$(MODULES),$(wildcard $(m)/*.c))
ifeq ($(HAVE_XEN),1)
SRCS += $(filter-out xen-if/stub.c,$(wildcard xen-if/*.c))
else
SRCS += $(wildcard xen-if/stub.c)
endif
# fold/out/profile.proto -> build/gen/profile.pb-c.[ch] by protoc-c (pprof export)
PROTO_C := build/gen/profile.pb-c.c
LIB_SRCS := $(filter-out cli/%,$(SRCS)) $(PROTO_C)
CLI_SRCS := $(filter cli/%,$(SRCS)) uniprof-flame.c

# The SVG's script is written in parts (templates/js/NN-name.js), joined in
# name order by bin2c into the one template templates/flamegraph.js.
JS_PARTS  := $(sort $(wildcard templates/js/*.js))
TEMPLATES := $(JS_PARTS) $(wildcard templates/*.js templates/*.css)
comma     := ,
empty     :=
space     := $(empty) $(empty)
GEN_HDR   := build/gen/templates.h build/gen/profile.pb-c.h

REL_OBJS  := $(patsubst %.c,build/rel/%.o,$(LIB_SRCS))
ASAN_OBJS := $(patsubst %.c,build/asan/%.o,$(LIB_SRCS))

UNIT_SRCS := $(wildcard tests/unit/test-*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,build/asan/tests/%,$(UNIT_SRCS))

.PHONY: all check check-quick examples-linux demo bench bench-peers bench-browser install clean deps-build deps-check unit mutate
.SECONDARY:

# deps-build installs libxen-dev on x86-64; without Xen support, one line.
all: deps-build
	@if [ "$$(uname -m)" != x86_64 ]; then \
		echo "uniprof-flame: building without Xen support (xen-if needs an x86-64 host; --version lists the targets)"; \
	elif ! $(PKG_CONFIG) --exists $(XEN_PC) 2>/dev/null; then \
		echo "uniprof-flame: building without Xen support (libxen-dev not installed; --version lists the targets)"; fi
	@$(MAKE) --no-print-directory build/uniprof-flame

deps-build:
	@scripts/deps.sh build

# V=1 shows the full commands
Q := $(if $(V),,@)

# The release binary links every library but glibc from its static archive
# (Debian's -dev packages ship them), as a Rust or Go program links its
# crates: each shared object costs every run its load and relocation, and
# a render of the 646 KB perf capture is ~2.5 ms in all (issue 32).
#  - The Xen toolstack's 10 objects: 0.4 ms (--version 1.15 -> 0.75 ms
#    of CPU), and libxenctrl.so.4.17 is tied to one Xen release anyway.
#  - libdw, libelf and what they pull (zlib, liblzma, libbz2): 0.23-0.27
#    ms (session 20, interleaved, best: --version 1.22 -> 0.99 ms in 101
#    runs, the capture's render 2.54 -> 2.27 ms in 61; its peak RSS
#    3.1-3.4 -> 2.7 MiB), and a dom0 copy needs nothing but libc.  Issue 31 item 7 asked that no dependency be hidden: none
#    is; there is none to find at run time, and `--version` names the
#    version of each library linked in, for a security advisory's check.
#    The cost: a fix in one of them reaches us by a rebuild (Debian's
#    Built-Using), not by the library's own update.  UF_SHARED_LIBS=1
#    links libdw, libelf, zlib, liblzma and libbz2 shared, for a
#    distribution's package.
#  - libdeflate and protobuf-c, likewise; libm because we call five of its
#    functions (fmax, fmin, lround, llround, nextafter; nearbyint is
#    util/fmt.h's uf_round_even, as glibc's static one is an ifunc that
#    needs ld.so), and the shared libm put 344 KB of mapped pages into
#    every run's peak RSS.
# glibc stays shared: libxml2 is dlopen()ed on a foreign SVG (fold/in/xml.h)
# and needs the process's libc to be a shared one.  The ASan, unit and
# fuzz builds link everything shared (LDLIBS).
DW_LIBS = $(filter-out -pthread -lpthread,$(shell $(PKG_CONFIG) --static --libs libdw libelf))
ifeq ($(UF_SHARED_LIBS),1)
REL_LINKED = -Wl,-Bdynamic $(shell $(PKG_CONFIG) --libs libdw libelf) -lz -llzma -lbz2 -Wl,-Bstatic
else
REL_LINKED = $(DW_LIBS)
endif
REL_LIBS = -ldl -Wl,-Bstatic $(REL_LINKED) \
	   $(if $(filter 1,$(HAVE_XEN)),$(shell $(PKG_CONFIG) --static --libs $(XEN_PC) xencall xentoollog)) \
	   -lprotobuf-c -ldeflate -lm -Wl,-Bdynamic -lpthread
build/uniprof-flame: $(REL_OBJS) $(patsubst %.c,build/rel/%.o,$(CLI_SRCS))
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(REL_LIBS)

# Fully static binary for a Xen dom0 without our shared libraries (tests/xen).
STATIC_LIBS = $(shell $(PKG_CONFIG) --static --libs $(filter-out libxml-2.0,$(PKGS))) -lprotobuf-c -ldeflate -lz -ldl -lm -lpthread
build/uniprof-flame-static: $(REL_OBJS) $(patsubst %.c,build/rel/%.o,$(CLI_SRCS))
	$(CC) $(CFLAGS) -static -o $@ $^ $(STATIC_LIBS)

# The same plus a test-only crash reporter (tests/xen/segv-trace.c): the copy the Xen test runs.
build/xen-test/uniprof-flame-static: tests/xen/segv-trace.c $(REL_OBJS) $(patsubst %.c,build/rel/%.o,$(CLI_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -static -o $@ $^ $(STATIC_LIBS)

build/asan/uniprof-flame: $(ASAN_OBJS) $(patsubst %.c,build/asan/%.o,$(CLI_SRCS))
	@echo "  LD      $@"
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

# UF_EXIT_FREES=0: the release build leaves render's and diff's trie to the
# exit (cli/inputs.h cli_trie_done); the ASan, unit and fuzz builds free it.
build/rel/%.o: %.c $(GEN_HDR)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -DUF_EXIT_FREES=0 -MMD -MP -c -o $@ $<

build/asan/%.o: %.c $(GEN_HDR)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

build/asan/tests/test-%: tests/unit/test-%.c $(ASAN_OBJS)
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -o $@ $< $(ASAN_OBJS) $(LDLIBS) -lcmocka

build/bin2c: build-aux/bin2c.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<

build/gen/templates.h: build/bin2c $(TEMPLATES)
	@mkdir -p $(dir $@)
	build/bin2c $@ templates/flamegraph.js=$(subst $(space),$(comma),$(JS_PARTS)) $(wildcard templates/*.js templates/*.css)

build/gen/profile.pb-c.c build/gen/profile.pb-c.h &: fold/out/profile.proto
	@mkdir -p build/gen
	@echo "  PROTOC  $<"
	$(Q)protoc-c -Ifold/out --c_out=build/gen $<

unit: $(UNIT_BINS)

check:
	@scripts/deps.sh check
	@$(MAKE) --no-print-directory all build/asan/uniprof-flame unit examples
	@tests/run-all.sh

# The edit-test loop (issue 31): every suite but those that boot QEMU, Xen
# or the AArch64 guest or drive a browser (tests/run-all.sh QUICK_OUT), and
# only the Linux example programs.  make check runs everything.
check-quick:
	@$(MAKE) --no-print-directory all build/asan/uniprof-flame unit examples-linux
	@QUICK=1 tests/run-all.sh

# make demo needs the profiler and the QEMU example guest only, not the
# AArch64 and hostile guests or the Linux programs (issue 31).
demo:
	@scripts/deps.sh build
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory -C examples qemu-guest
	@scripts/demo.sh

bench: all
	@bench/run.sh
	@bench/vs-inferno.sh

# Only the side-by-side table against inferno (issue 32)
bench-peers: all
	@bench/vs-inferno.sh

# SVG open/click times in Chromium and Firefox beside flamegraph.pl's (issue 17)
bench-browser: all
	@bench/browser/run.sh

# Mutation testing (issue 21): tests/mutate/mutate.py, in a copy of the tree.
mutate: all
	@$(MAKE) --no-print-directory build/asan/uniprof-flame unit examples
	@nice python3 tests/mutate/mutate.py $(MUTATE_ARGS)

examples:
	@if [ -f examples/Makefile ]; then $(MAKE) --no-print-directory -C examples; fi

# The Linux workloads of examples/Makefile (its BINS) without the guests.
EXAMPLES_LINUX := app-test-1 app-test-1-pie app-test-1-so app-test-2 app-threads libufwork.so \
		  app-test-1-fp app-qsort app-leaf app-uklibs app-inline app-lines app-phases app-pool
examples-linux:
	@$(MAKE) --no-print-directory -C examples $(addprefix ../build/examples/,$(EXAMPLES_LINUX))

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0755 build/uniprof-flame $(DESTDIR)$(PREFIX)/bin/uniprof-flame
	install -m 0644 uniprof-flame.1 $(DESTDIR)$(PREFIX)/share/man/man1/uniprof-flame.1
	install -m 0644 scripts/uniprof-flame.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/uniprof-flame

clean:
	rm -rf build
	@if [ -f examples/Makefile ]; then $(MAKE) --no-print-directory -C examples clean; fi

include tests/fuzz/fuzz.mk

.PHONY: examples
-include $(shell find build -name '*.d' 2>/dev/null)
