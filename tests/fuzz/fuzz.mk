# SPDX-License-Identifier: BSD-3-Clause
# tests/fuzz/fuzz.mk — libFuzzer harnesses (included by the top Makefile).
#
#   make fuzz-build            build every harness into build/fuzz/
#   make fuzz                  run each harness FUZZ_S seconds (default 60)
#   make fuzz FUZZ=svg FUZZ_S=3600   one harness, an hour
#
# Harnesses are tests/fuzz/fuzz-NAME.c; each links the library objects
# built by clang with coverage instrumentation, ASan and UBSan into
# build/fuzz/.  Seeds: tests/fuzz/corpus/NAME/, dictionaries:
# tests/fuzz/dict/NAME.dict, past crashes: tests/fuzz/crashes/NAME/.  A
# long run grows its working corpus in build/fuzz/corpus/NAME (not
# committed) and prints execs and coverage (tests/fuzz/run.sh).

FUZZ_CC ?= clang
FUZZ_S  ?= 60
FUZZ    ?=
FUZZ_SAN := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

FUZZ_NAMES := $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
ifneq ($(HAVE_XEN),1)
FUZZ_NAMES := $(filter-out xen-walk,$(FUZZ_NAMES))
endif
FUZZ_BINS := $(addprefix build/fuzz/fuzz-,$(FUZZ_NAMES))
FUZZ_OBJS := $(patsubst %.c,build/fuzz/%.o,$(LIB_SRCS))

.PHONY: fuzz fuzz-build

fuzz-build: $(FUZZ_BINS)

fuzz: deps-build
	@$(MAKE) --no-print-directory fuzz-build
	@tests/fuzz/run.sh $(FUZZ_S) $(or $(FUZZ),$(FUZZ_NAMES))

build/fuzz/%.o: %.c $(GEN_HDR)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

build/fuzz/libuf.a: $(FUZZ_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

# the gdb-target harness sizes the target's socket buffer (see its header)
build/fuzz/fuzz-gdb-target: FUZZ_LDEXTRA := -Wl,--wrap=connect

build/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h build/fuzz/libuf.a
	@echo "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer $(FUZZ_LDEXTRA) -o $@ $< build/fuzz/libuf.a $(LDLIBS)
