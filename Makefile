# ptk: one binary for Linux performance analysis.
# make            build build/ptk
# make run        install deps (root), build, run `ptk check` on this machine
# make test       install deps (root), build, run every test (ASan/UBSan build)
# make lint       clang-format check and warnings as errors
# make install    PREFIX=/usr/local DESTDIR=

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
BUILD ?= build

PKGS := json-c ncursesw libnl-genl-3.0 libbpf libelf libdw zlib sqlite3 libtracefs libtraceevent
# libmicrohttpd: its header only; the exporter opens it (output/prom_http.c), so that it and
# GnuTLS are not loaded by every command
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) libmicrohttpd 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -ljson-c -lncursesw -ltinfo -lnl-genl-3 -lnl-3 -lbpf -lelf -ldw -lz -lsqlite3 -ltracefs -ltraceevent)

WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wno-unused-parameter -Wmissing-prototypes \
	-Wstrict-prototypes -Wvla -Wno-missing-field-initializers
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -D_GNU_SOURCE \
	-DPTK_VERSION='"$(VERSION)"' -Isrc -I$(BUILD)/bpf $(PKG_CFLAGS) -MMD -MP
LDLIBS := $(PKG_LIBS) -lm

# Everything but main.c goes into a static library that the unit tests link.
LIB_SRC := $(sort $(filter-out %.bpf.c,$(wildcard src/lib/*.c src/model/*.c src/output/*.c \
	src/source/*.c src/source/*/*.c)))
CMD_SRC := $(sort $(wildcard src/cmd/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/main.o
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all run test unit lint format install clean deps deps-test bench fuzz fuzz-bins fuzz-bins-inner
all: $(BUILD)/ptk

# BPF programs: clang -target bpf against vmlinux.h (from this kernel's BTF, or the committed
# copy when the build machine has none), then bpftool gen skeleton; the skeletons embed the
# objects in the ptk binary.
CLANG ?= clang
BPFTOOL ?= bpftool
# DWARF is not needed at run time (BTF is): strip it so the embedded objects stay small
LLVM_STRIP ?= $(shell command -v llvm-strip || command -v llvm-strip-14 || echo true)
BPF_SRC := $(sort $(wildcard src/source/bpf/*.bpf.c))
BPF_OBJ := $(BPF_SRC:src/source/bpf/%.bpf.c=$(BUILD)/bpf/%.bpf.o)
SKELS := $(BPF_SRC:src/source/bpf/%.bpf.c=$(BUILD)/bpf/%.skel.h)
VMLINUX := $(BUILD)/bpf/vmlinux.h
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -I$(BUILD)/bpf -Isrc/source/bpf -Wall \
	-Wno-unused-function

$(VMLINUX):
	@mkdir -p $(dir $@)
	@if [ -r /sys/kernel/btf/vmlinux ] && $(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux \
		format c > $@.tmp 2>/dev/null; then mv $@.tmp $@; \
	else echo "no kernel BTF here: using the committed vmlinux.h"; \
		gunzip -c src/source/bpf/vmlinux.h.gz > $@; rm -f $@.tmp; fi

$(BUILD)/bpf/%.bpf.o: src/source/bpf/%.bpf.c $(wildcard src/source/bpf/*.h) | $(VMLINUX)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	$(LLVM_STRIP) -g $@

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@

# Light skeletons (bpftool gen skeleton -L) for the programs on a one-shot hot path: the
# kernel applies the CO-RE relocations itself, so loading does not parse the 5 MB vmlinux BTF
# in user space (libbpf's open/load spends ~25 ms there).
# A tool with a tp_btf/raw_tp pair of hooks gets one light skeleton per flavour
# (NAME_btf, NAME_raw): the kernel-side loader cannot leave a program out.
# A tool that keeps its libbpf skeleton as the fallback gets NAME_l (struct NAME_l_bpf).
LSKELS := $(BUILD)/bpf/taskiter.lskel.h $(BUILD)/bpf/runqlat_btf.lskel.h \
	$(BUILD)/bpf/runqlat_raw.lskel.h $(BUILD)/bpf/execsnoop_l.lskel.h \
	$(BUILD)/bpf/opensnoop_l.lskel.h $(BUILD)/bpf/offcputime_btf.lskel.h \
	$(BUILD)/bpf/offcputime_raw.lskel.h $(BUILD)/bpf/biolatency_btf.lskel.h \
	$(BUILD)/bpf/biolatency_raw.lskel.h $(BUILD)/bpf/biosnoop_btf.lskel.h \
	$(BUILD)/bpf/biosnoop_raw.lskel.h $(BUILD)/bpf/shortlived_btf.lskel.h \
	$(BUILD)/bpf/shortlived_raw.lskel.h $(BUILD)/bpf/agg_tp_l.lskel.h \
	$(BUILD)/bpf/systrace_l.lskel.h
$(BUILD)/bpf/%_l.lskel.h: $(BUILD)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton -L $< name $(subst -,_,$*)_l_bpf > $@.tmp && mv $@.tmp $@
$(BUILD)/bpf/%.lskel.h: $(BUILD)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton -L $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@
$(BUILD)/bpf/%_btf.bpf.o: src/source/bpf/%.bpf.c $(wildcard src/source/bpf/*.h) | $(VMLINUX)
	$(CLANG) $(BPF_CFLAGS) -DPTK_ONLY_TP_BTF -c $< -o $@
	$(LLVM_STRIP) -g $@
# agg's light skeleton holds its two tracepoint programs only (PTK_AGG_TP_ONLY): the
# kernel-side loader loads every program it holds, and the others need a target first
$(BUILD)/bpf/agg_tp.bpf.o: src/source/bpf/agg.bpf.c $(wildcard src/source/bpf/*.h) | $(VMLINUX)
	$(CLANG) $(BPF_CFLAGS) -DPTK_AGG_TP_ONLY -c $< -o $@
	$(LLVM_STRIP) -g $@
$(BUILD)/bpf/%_raw.bpf.o: src/source/bpf/%.bpf.c $(wildcard src/source/bpf/*.h) | $(VMLINUX)
	$(CLANG) $(BPF_CFLAGS) -DPTK_ONLY_RAW_TP -c $< -o $@
	$(LLVM_STRIP) -g $@

$(LIB_OBJ) $(CMD_OBJ) $(MAIN_OBJ): | $(SKELS) $(LSKELS)

# The x86_64 syscall table is generated from its declarative list; the generated header is
# committed (no awk needed to build) and regenerated whenever the list or the script changes.
src/source/ptrace/syscallent.h: src/source/ptrace/syscalls.list scripts/gen-syscalls.sh
	scripts/gen-syscalls.sh $< > $@.tmp && mv $@.tmp $@
$(BUILD)/src/source/ptrace/syscalls.o $(BUILD)/src/source/ptrace/decode.o: src/source/ptrace/syscallent.h
src/source/ptrace/xlatent.h: $(sort $(wildcard src/source/ptrace/xlat/*.in)) scripts/gen-xlat.sh
	scripts/gen-xlat.sh $(sort $(wildcard src/source/ptrace/xlat/*.in)) > $@.tmp && mv $@.tmp $@
$(BUILD)/src/source/ptrace/xlat.o: src/source/ptrace/xlatent.h

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libptk.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/ptk: $(MAIN_OBJ) $(CMD_OBJ) $(BUILD)/libptk.a
	$(CC) $(ALL_CFLAGS) -o $@ $(MAIN_OBJ) $(CMD_OBJ) $(BUILD)/libptk.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libptk.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -DPTK_FIXTURES='"$(CURDIR)/tests/fixtures"' -o $@ $< $(BUILD)/libptk.a $(LDFLAGS) $(LDLIBS) -lcmocka

# Fuzzing: a libFuzzer harness per parser (tests/fuzz/fuzz_NAME.c, seeds in
# tests/fuzz/corpus/NAME/), built with clang, ASan and UBSan into build-fuzz/. `make test` runs
# each on its seeds and a few thousand mutations; `make fuzz FUZZ_TIME=S [FUZZ_JOBS=N]` runs
# each for S seconds, N at a time, and keeps what it finds in build-fuzz/found/NAME/.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_TIME ?= 60
FUZZ_JOBS ?= 2

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(BUILD)/libptk.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -Itests -o $@ $< $(BUILD)/libptk.a $(LDFLAGS) $(LDLIBS)

fuzz-bins:
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		LDFLAGS="$(FUZZ_SAN)" fuzz-bins-inner

fuzz-bins-inner: $(FUZZ_BIN)

fuzz: deps-test fuzz-bins
	tests/fuzz/run.sh long build-fuzz $(FUZZ_TIME) $(FUZZ_JOBS)

deps:
	@scripts/deps.sh

deps-test:
	@scripts/deps.sh test

run: deps
	$(MAKE) all
	$(BUILD)/ptk check

# Tests run against a sanitizer build in build-san/ so the release build stays clean.
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
test: deps-test
	$(MAKE) BUILD=build-san CFLAGS="-O1 -g $(SAN)" LDFLAGS="$(SAN)" build-san/ptk unit-bins
	$(MAKE) fuzz-bins
	PTK=$(CURDIR)/build-san/ptk BUILD=build-san tests/run.sh

unit-bins: $(UNIT_BIN)

lint:
	@# syscallent.h and xlatent.h are generated (scripts/gen-syscalls.sh, gen-xlat.sh): their layout is the generator's
	@clang-format --dry-run --Werror $$( (git ls-files 'src/*.c' 'src/*.h' 'tests/*.c' 'tests/*.h' 2>/dev/null || find src tests -name '*.[ch]') | grep -v '/syscallent.h$$\|/xlatent.h$$')
	$(MAKE) BUILD=build-lint EXTRA_CFLAGS=-Werror build-lint/ptk unit-bins

format:
	clang-format -i $$(find src tests -name '*.[ch]')

bench: all
	bench/run.sh

install: all
	install -D -m 0755 $(BUILD)/ptk $(DESTDIR)$(PREFIX)/bin/ptk
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf build build-san build-lint build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
