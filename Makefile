# Makefile: `make` builds libtimeline (static, and shared with the link its
# SONAME names, lib/libtimeline.so.0), the timeline program, the generated
# event headers, the examples, the stress helper and the benchmarks, and
# needs no Check; `make check` builds and runs the Check tests. `make V=1`
# shows the commands.
# Variants build in trees of their own, library and program included:
#   make check SANITIZE=1    AddressSanitizer + UBSan, in build/san/
#   make check TL_NO_ASM=1   lib/append.c instead of asm/append.S, in build/noasm/
#   make BUILD=DIR           everything under DIR
# `make install PREFIX=DIR` builds what it installs (see the README).

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# The Python package (python/timeline): for the interpreter Debian's
# python3-numpy and python3-pandas serve, in PREFIX's directory that it
# searches (scripts/python-site says which, and whether it needs PYTHONPATH).
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
PYTHON_SITE = $(shell PYTHON=$(PYTHON) sh scripts/python-site $(PREFIX) 2>/dev/null)
PYTHONDIR ?= $(firstword $(PYTHON_SITE))

CC ?= cc
CFLAGS ?= -O2 -g
STD = -std=gnu11 -Wall -Wextra -Werror
CPPFLAGS += -Ilib -I$(BUILD)/gen
LDLIBS_CHECK = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -pthread)
CFLAGS_CHECK = $(shell pkg-config --cflags check 2>/dev/null)
SOVERSION = 0
VERSION = 0.1.0

ifeq ($(SANITIZE)$(TL_NO_ASM),11)
BUILD ?= build/san-noasm
else ifeq ($(SANITIZE),1)
BUILD ?= build/san
else ifeq ($(TL_NO_ASM),1)
BUILD ?= build/noasm
else
BUILD ?= build
endif
ifeq ($(SANITIZE),1)
SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
SAN =
endif
# The default build keeps the library and the program where they always were.
ifeq ($(BUILD),build)
LIBA = lib/libtimeline.a
LIBSO = lib/libtimeline.so
BIN = timeline
else
LIBA = $(BUILD)/libtimeline.a
LIBSO = $(BUILD)/libtimeline.so
BIN = $(BUILD)/timeline
endif
# The name the loader looks for (the SONAME), a link beside the library, so
# that a program linked in the tree runs (rpath or LD_LIBRARY_PATH).
LIBSO0 = $(LIBSO).$(SOVERSION)
# What libtimeline itself links: on the shared library, and after $(LIBA)
# wherever the static one is linked (timeline.pc says the same).
LIB_LIBS = -lzstd
ALL_CFLAGS = $(STD) $(CFLAGS) $(SAN) -fPIC -pthread
DEPFLAGS = -MMD -MP   # each object's header dependencies, in a .d beside it

ifeq ($(V),1)
Q =
say = @:
else
Q = @
say = @printf '  %-6s %s\n'
endif

ARCH := $(shell $(CC) -dumpmachine)
LIB_SRC = $(wildcard lib/*.c)
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
# asm/append.S on x86-64; elsewhere, or with TL_NO_ASM=1, lib/append.c is
# tl_append() and tl_event() itself.
ifeq ($(TL_NO_ASM),1)
ASM_OBJ =
$(BUILD)/lib/append.o: CPPFLAGS += -DTL_NO_ASM
else ifneq ($(findstring x86_64,$(ARCH)),)
ASM_OBJ = $(BUILD)/asm/append.o
else
ASM_OBJ =
endif
CLI_SRC = $(wildcard cli/*.c cli/*/*.c)   # the shared modules, and each family's folder
CLI_OBJ = $(CLI_SRC:%.c=$(BUILD)/%.o)
AN_SRC = $(wildcard analysis/*.c)
AN_OBJ = $(AN_SRC:%.c=$(BUILD)/%.o)
EVENTS = $(wildcard events/*.events)
GEN_H = $(EVENTS:events/%.events=$(BUILD)/gen/%_events.h)
TEST_GEN_H = $(BUILD)/gen/pf_events.h   # the tests' own program's events (tests/pf.events)
TEST_SRC = $(wildcard tests/check_*.c)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/main.o $(BUILD)/tests/util.o $(AN_OBJ)
TEST_BIN = $(BUILD)/tests/check_timeline
STRESS = $(BUILD)/tests/stress
EXAMPLE = $(BUILD)/examples/hello
READER = $(BUILD)/examples/read
ENGINE = $(BUILD)/examples/engine/engine
ENGINE_OBJ = $(BUILD)/examples/engine/engine.o $(BUILD)/examples/engine/apps.o
KV = $(BUILD)/examples/kv/kv             # a program not shaped like Snabb (examples/kv)
KV_GEN_H = $(BUILD)/gen/kv_events.h
BENCH = $(BUILD)/bench/logger $(BUILD)/bench/instructions $(BUILD)/bench/fill \
	$(BUILD)/bench/runcmd $(BUILD)/bench/threads $(BUILD)/bench/firstlap $(BUILD)/bench/gaps
MAN = $(wildcard man/*.[135])   # into MANDIR/manN; timeline-python.3 is the Python package's
FIXTURES ?= tests/fixtures

.SECONDARY: $(BUILD)/bench/logger.o $(BUILD)/bench/instructions.o $(BUILD)/bench/fill.o \
	$(BUILD)/bench/runcmd.o $(BUILD)/bench/threads.o $(BUILD)/bench/firstlap.o \
	$(BUILD)/bench/gaps.o

.PHONY: all check install install-lib install-include install-pc install-man install-python \
	uninstall \
	demo bench bench-quick bench-deps clean deps fuzz fuzz-corpus fuzz-replay

all: $(LIBA) $(LIBSO) $(LIBSO0) $(BIN) $(GEN_H) $(TEST_GEN_H) $(EXAMPLE) $(READER) $(ENGINE) $(KV) \
	$(STRESS) $(BENCH)

$(BUILD)/%.o: %.c
	$(say) CC $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(DEPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/asm/%.o: asm/%.S
	$(say) AS $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(DEPFLAGS) $(SAN) -fPIC -c -o $@ $<

# The library's objects hide every symbol but those lib/timeline.h declares
# (inside its #pragma GCC visibility push(default)): libtimeline.so exports
# the public API alone, and the internal tl_ functions stay inside it.
$(LIB_OBJ): ALL_CFLAGS += -fvisibility=hidden

$(LIBA): $(LIB_OBJ) $(ASM_OBJ)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

# -z defs: a symbol the library uses from a library it does not link is an error.
$(LIBSO): $(LIB_OBJ) $(ASM_OBJ)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libtimeline.so.$(SOVERSION) -Wl,-z,noexecstack \
		-Wl,-z,defs -o $@ $^ $(LIB_LIBS)

$(LIBSO0): $(LIBSO)
	$(say) LN $@
	$(Q)ln -sf $(notdir $(LIBSO)) $@

$(BUILD)/cli/%.o $(BUILD)/tests/%.o: CPPFLAGS += -Ianalysis
$(BUILD)/cli/%.o: CPPFLAGS += -Icli   # "out.h": a shared module; "stats/readall.h": a family's
# libcurl: `export --endpoint`'s HTTP client (TLS, proxies, HTTP/1.1 and 2,
# redirects, timeouts), Debian's libcurl4-openssl-dev: its header here, the
# library loaded by post.c when --endpoint is given (linked, every command
# would load it and its thirty libraries at start).
CURL_CFLAGS = $(shell pkg-config --cflags libcurl 2>/dev/null)
$(BUILD)/cli/export/post.o: CPPFLAGS += $(CURL_CFLAGS)
$(BIN): $(CLI_OBJ) $(AN_OBJ) $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@.tmp $(CLI_OBJ) $(AN_OBJ) $(LIBA) $(LIB_LIBS) -lcsv -lm && \
		mv -f $@.tmp $@

# `timeline gen` writes the event headers. They depend on what generates them,
# cli/gen/ and the events parser, not on the whole program: a change to
# another command regenerates nothing. The program only has to be up to date.
vpath %.events events bench tests examples/kv examples/dpdk
$(BUILD)/gen/%_events.h: %.events $(BUILD)/cli/gen/gen.o $(BUILD)/cli/gen/genheader.o \
	$(BUILD)/lib/events.o | $(BIN)
	$(say) GEN $@
	@mkdir -p $(@D)
	$(Q)$(abspath $(BIN)) gen -o $@ $<

# Objects that include generated headers wait for them the first time (|);
# afterwards their .d files say which ones they include.
$(BUILD)/tests/%.o: tests/%.c | $(GEN_H) $(TEST_GEN_H)
	$(say) CC $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(DEPFLAGS) $(CFLAGS_CHECK) $(ALL_CFLAGS) -c -o $@ $<

$(TEST_BIN): $(TEST_OBJ) $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(TEST_OBJ) $(LIBA) $(LIB_LIBS) $(LDLIBS_CHECK) -lcsv -lm

$(BUILD)/examples/%.o $(BUILD)/bench/%.o: CPPFLAGS += -Iexamples
$(EXAMPLE): $(BUILD)/examples/hello.o $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIB_LIBS)

$(READER): $(BUILD)/examples/read.o $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIB_LIBS)

$(BUILD)/examples/hello.o: | $(GEN_H)
$(ENGINE_OBJ): | $(GEN_H)
$(ENGINE): $(ENGINE_OBJ) $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(ENGINE_OBJ) $(LIBA) $(LIB_LIBS)
$(BUILD)/examples/kv/kv.o: | $(KV_GEN_H)
$(KV): $(BUILD)/examples/kv/kv.o $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIB_LIBS)
$(BUILD)/bench/logger.o: | $(BUILD)/gen/bench_events.h
$(BUILD)/bench/threads.o: | $(BUILD)/gen/bench_events.h
# each case and its loop at a 64-byte boundary: the cases compare loops of a few
# instructions, and one straddling two fetch windows by chance of layout
# pays for it (bench/README.md, "The disabled rows")
$(BUILD)/bench/logger.o: CFLAGS += -falign-functions=64 -falign-loops=64
$(BUILD)/bench/fill.o: | $(GEN_H)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIB_LIBS) -lm

# The torture and soak helper (tests/torture.sh).
$(STRESS): $(BUILD)/tests/stress.o $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIB_LIBS)

# The DPDK forwarder (examples/dpdk) builds only where pkg-config finds
# libdpdk (Debian's libdpdk-dev, DPDK 22.11), linked shared so that the
# null PMD loads from DPDK's plugin directory; the tests run it when built.
DPDK := $(shell pkg-config --exists libdpdk 2>/dev/null && echo yes)
ifeq ($(DPDK),yes)
DPDK_CFLAGS = $(shell pkg-config --cflags libdpdk)
DPDK_LIBS = $(shell pkg-config --libs libdpdk)
FWD = $(BUILD)/examples/dpdk/fwd
$(BUILD)/examples/dpdk/fwd.o: CPPFLAGS += $(DPDK_CFLAGS)
$(BUILD)/examples/dpdk/fwd.o: | $(BUILD)/gen/fwd_events.h
$(FWD): $(BUILD)/examples/dpdk/fwd.o $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIB_LIBS) $(DPDK_LIBS)
# rte_trace against ours (bench/dpdk.sh): rte_trace is experimental API
BENCH_DPDK = $(BUILD)/bench/dpdk_trace
$(BUILD)/bench/dpdk_tp.o $(BUILD)/bench/dpdk_trace.o: CPPFLAGS += $(DPDK_CFLAGS) -DALLOW_EXPERIMENTAL_API
$(BUILD)/bench/dpdk_trace.o: | $(BUILD)/gen/bench_events.h
$(BENCH_DPDK): $(BUILD)/bench/dpdk_trace.o $(BUILD)/bench/dpdk_tp.o $(LIBA)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIB_LIBS) $(DPDK_LIBS)
all: $(FWD) $(BENCH_DPDK)
endif

# Runs the Check suite; TIMELINE_BIN lets the CLI tests find the program.
# Under the sanitizers a test runs several times slower: its time limits too.
# The install suite builds programs against this tree's libraries (with its
# sanitizers) and runs `make install` with its variables.
# The tests run python3 as the interpreter itself (a link in $(BUILD)/tests/bin
# first on PATH), not through a version manager's shim: pyenv's costs 0.4 s
# of CPU a call, seconds on a loaded machine.
check: $(TEST_BIN) $(BIN) $(ENGINE) $(KV) $(FWD) $(GEN_H) $(LIBA) $(LIBSO0)
	$(Q)mkdir -p $(BUILD)/tests/bin && rm -f $(BUILD)/tests/bin/python3 && \
		if py=$$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$$py" ]; \
		then ln -s "$$py" $(BUILD)/tests/bin/python3; fi
	$(Q)PATH=$(abspath $(BUILD))/tests/bin:$$PATH \
		CK_TIMEOUT_MULTIPLIER=$(if $(SAN),4,$${CK_TIMEOUT_MULTIPLIER:-1}) \
		TIMELINE_BIN=$(abspath $(BIN)) TIMELINE_GEN_DIR=$(abspath $(BUILD)/gen) \
		TIMELINE_LIB_DIR=$(abspath $(dir $(LIBSO))) TIMELINE_SAN_FLAGS='$(SAN)' \
		TIMELINE_MAKE_VARS='BUILD=$(BUILD)$(if $(SANITIZE), SANITIZE=$(SANITIZE))$(if $(TL_NO_ASM), TL_NO_ASM=$(TL_NO_ASM))' \
		TIMELINE_ENGINE=$(abspath $(ENGINE)) TIMELINE_KV=$(abspath $(KV)) \
		TIMELINE_FWD=$(if $(FWD),$(abspath $(FWD))) \
		TIMELINE_PYTHON=$(PYTHON) \
		TIMELINE_SRC=$(abspath .) TIMELINE_FIXTURES=$(abspath $(FIXTURES)) $(TEST_BIN)

# The tests against real servers, slower than check (about a minute): node_exporter
# serving the files of `stats --format openmetrics --interval` and `top -b
# --format openmetrics -o`, Prometheus scraping them (tests/prometheus.sh). CI
# runs it after check.
.PHONY: check-integration
check-integration: $(BIN) $(ENGINE)
	$(Q)TIMELINE=$(abspath $(BIN)) ENGINE=$(abspath $(ENGINE)) sh tests/prometheus.sh

# Mutation testing, not part of check or CI (about 10 min): each mutation of
# tests/mutations.txt applied alone to a copy of the tree, built, and the
# suites it names run; prints killed or survived, the score, and stale lines.
# `make mutate MUTATIONS="id ..."` tries only those.
.PHONY: mutate
mutate:
	$(Q)sh tests/mutate.sh $(MUTATIONS)

# `make mutate-check`: every mutation's line still in its file, once (CI).
.PHONY: mutate-check
mutate-check:
	$(Q)MUTATE_CHECK=1 sh tests/mutate.sh

# The main job: engines, then ls, copy, info, stats and diff on their logs.
demo: $(ENGINE) $(BIN)
	$(Q)ENGINE=$(ENGINE) TIMELINE=$(abspath $(BIN)) sh examples/engine/demo.sh

# The LTTng-UST comparison builds only where its headers are installed.
LTTNG_UST := $(shell pkg-config --exists lttng-ust 2>/dev/null && echo yes)
ifeq ($(LTTNG_UST),yes)
BENCH_LTTNG = $(BUILD)/bench/lttng
$(BENCH_LTTNG): bench/lttng.c bench/lttng_tp.h $(LIBA)
	$(say) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -Ibench $(ALL_CFLAGS) -o $@ bench/lttng.c $(LIBA) $(LIB_LIBS) \
		-llttng-ust -ldl
endif

# Logger costs in TSC ticks (ratios to RDTSC and to the ordered floor in
# the same run), what the demo engine feels (ENGINE_RUNS interleaved runs of
# each of off, auto and all, default 20), instruction counts with
# callgrind, the reading side, the report's scale targets (bench/report.sh,
# with Chromium), LTTng-UST side by side, and the CPU `timeline top` takes
# while it watches, and the Python package against pandas.read_csv and
# babeltrace2's Python API (bench/python.sh), the DPDK forwarder's cost
# and rte_trace beside ours (bench/dpdk.sh, where libdpdk is); all land in
# bench/results/latest.csv. Peers that are
# missing are skipped. `make bench-quick` runs every benchmark of bench/
# (summary.sh and calibrate.sh too) with small counts in about a minute, to
# show each still runs: it fails when one does, and CI runs it
# (bench/quick.sh).
ENGINE_RUNS ?= 20
DPDK_RUNS ?= 10
bench: $(BENCH) $(BENCH_LTTNG) $(BENCH_DPDK) $(FWD) $(BIN) $(STRESS) $(ENGINE) $(LIBSO0)
	$(Q)$(abspath $(BUILD))/bench/logger
	$(Q)$(abspath $(BUILD))/bench/threads
	$(Q)$(abspath $(BUILD))/bench/firstlap
	$(Q)$(abspath $(BUILD))/bench/gaps 10
	$(Q)sh bench/engine.sh $(BUILD) $(ENGINE_RUNS)
	$(Q)sh bench/callgrind.sh $(BUILD)/bench/instructions
	$(Q)TIMELINE=$(abspath $(BIN)) sh bench/read.sh $(BUILD)
	$(Q)TIMELINE=$(abspath $(BIN)) sh bench/report.sh $(BUILD)
	$(Q)sh bench/lttng.sh $(BUILD)/bench/lttng
	$(Q)TIMELINE=$(abspath $(BIN)) sh bench/top.sh $(BUILD)
	$(Q)TIMELINE=$(abspath $(BIN)) TIMELINE_LIB=$(abspath $(LIBSO0)) PYTHON=$(PYTHON) \
		sh bench/python.sh $(BUILD)
	$(Q)sh bench/dpdk.sh $(BUILD) $(DPDK_RUNS)

bench-quick: $(BENCH) $(BENCH_LTTNG) $(BENCH_DPDK) $(FWD) $(BIN) $(STRESS) $(ENGINE) $(LIBSO0)
	$(Q)TIMELINE=$(abspath $(BIN)) TIMELINE_LIB=$(abspath $(LIBSO0)) PYTHON=$(PYTHON) \
		sh bench/quick.sh $(BUILD)

# The optional peers of `make bench`: LTTng-UST and its session daemon,
# babeltrace2, and valgrind for the instruction counts.
bench-deps:
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq liblttng-ust-dev lttng-tools \
		babeltrace2 valgrind

deps:
	$(Q)sh scripts/install-deps

# Each install target depends on what it installs, so `make install` works
# first thing in a fresh clone. timeline.pc is written for this PREFIX at
# every install, never kept from an install with another one.
install: $(BIN) install-lib install-include install-pc install-man install-python
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/timeline

install-lib: $(LIBA) $(LIBSO)
	install -d $(DESTDIR)$(LIBDIR)
	install -m 0644 $(LIBA) $(DESTDIR)$(LIBDIR)/libtimeline.a
	install -m 0755 $(LIBSO) $(DESTDIR)$(LIBDIR)/libtimeline.so.$(VERSION)
	ln -sf libtimeline.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libtimeline.so.$(SOVERSION)
	ln -sf libtimeline.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libtimeline.so

install-include:
	install -d $(DESTDIR)$(INCLUDEDIR)
	install -m 0644 lib/timeline.h $(DESTDIR)$(INCLUDEDIR)/timeline.h

install-pc: timeline.pc.in
	install -d $(DESTDIR)$(PKGCONFIGDIR) $(BUILD)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' $< > $(BUILD)/timeline.pc
	install -m 0644 $(BUILD)/timeline.pc $(DESTDIR)$(PKGCONFIGDIR)/timeline.pc

# The package, and _config.py: where it finds the library and the program.
install-python:
	@test -n "$(PYTHONDIR)" || { echo "install: no $(PYTHON) to place the Python package for" >&2; exit 1; }
	install -d $(DESTDIR)$(PYTHONDIR)/timeline
	install -m 0644 $(filter-out %/_config.py,$(wildcard python/timeline/*.py)) \
		$(DESTDIR)$(PYTHONDIR)/timeline/
	printf '"""_config.py: written by make install."""\nLIBRARY = "%s"\nPROGRAM = "%s"\n' \
		'$(LIBDIR)/libtimeline.so.$(SOVERSION)' '$(BINDIR)/timeline' \
		> $(DESTDIR)$(PYTHONDIR)/timeline/_config.py
	@echo "install: the Python package timeline is in $(PYTHONDIR)$(if $(filter no,$(lastword \
		$(PYTHON_SITE))),: not on $(PYTHON)'s path; use PYTHONPATH=$(PYTHONDIR), on $(PYTHON)'s path)"

install-man:
	for m in $(MAN); do s=$${m##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s; \
		install -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/timeline $(DESTDIR)$(INCLUDEDIR)/timeline.h \
		$(DESTDIR)$(LIBDIR)/libtimeline.a $(DESTDIR)$(LIBDIR)/libtimeline.so \
		$(DESTDIR)$(LIBDIR)/libtimeline.so.$(SOVERSION) \
		$(DESTDIR)$(LIBDIR)/libtimeline.so.$(VERSION) $(DESTDIR)$(PKGCONFIGDIR)/timeline.pc
	for m in $(MAN); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done
	test -z "$(PYTHONDIR)" || rm -rf $(DESTDIR)$(PYTHONDIR)/timeline

clean:
	rm -rf build $(BUILD) lib/libtimeline.a lib/libtimeline.so lib/libtimeline.so.$(SOVERSION) \
		timeline timeline.pc

# The header dependencies of this tree's objects (not of the variants in
# build/san, build/noasm, ... nested under the default tree).
-include $(wildcard $(addprefix $(BUILD)/,$(addsuffix /*.d,lib asm cli cli/* analysis tests \
	examples examples/engine examples/kv examples/dpdk bench)))

# Fuzzing (tests/fuzz): libFuzzer harnesses built by clang with ASan and
# UBSan, from generated seed corpora; `make fuzz FUZZ_SECONDS=N` runs each
# for N seconds, keeping what it finds in build/fuzz/corpus/<harness>.
# `make fuzz-replay` runs the corpora and tests/fuzz/regressions through the
# same harnesses built by $(CC) with the sanitizers: seconds, no clang.
FUZZ_SECONDS ?= 60
FUZZ = native snabb defs events zstd summary
FUZZ_CC ?= clang
FUZZ_DIR = build/fuzz
FUZZ_LIB = $(LIB_SRC) asm/append.S
FUZZ_CLI =
FUZZ_AN = -Ianalysis $(AN_SRC)   # the summary harness: the analysis engine
FUZZ_FLAGS = -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-Ilib -Icli -Itests/fuzz
REPLAY_FLAGS = -std=gnu11 -Wall -Wextra -Werror -g -O1 -fsanitize=address,undefined \
	-fno-sanitize-recover=all -Ilib -Icli -Itests/fuzz

$(FUZZ_DIR)/seeds: tests/fuzz/seeds.c $(AN_SRC) $(LIBA)
	@mkdir -p $(@D)
	$(Q)$(CC) $(STD) $(CPPFLAGS) -Ianalysis -o $@ $< $(AN_SRC) $(LIBA) -lzstd -lm

$(FUZZ_DIR)/%: tests/fuzz/%.c tests/fuzz/util.c $(FUZZ_LIB) $(FUZZ_CLI) $(AN_SRC)
	$(say) FUZZ $@
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< tests/fuzz/util.c $(FUZZ_LIB) \
		$(if $(filter zstd,$*),$(FUZZ_CLI) -lcsv) $(if $(filter summary,$*),$(FUZZ_AN)) \
		-lzstd -lm -pthread

$(FUZZ_DIR)/replay-%: tests/fuzz/%.c tests/fuzz/util.c tests/fuzz/replay.c $(FUZZ_LIB) $(FUZZ_CLI) \
	$(AN_SRC)
	@mkdir -p $(@D)
	$(Q)$(CC) $(REPLAY_FLAGS) -o $@ $< tests/fuzz/util.c tests/fuzz/replay.c $(FUZZ_LIB) \
		$(if $(filter zstd,$*),$(FUZZ_CLI) -lcsv) $(if $(filter summary,$*),$(FUZZ_AN)) \
		-lzstd -lm -pthread

fuzz-corpus: $(FUZZ_DIR)/seeds
	$(Q)rm -rf $(FUZZ_DIR)/seed && $(FUZZ_DIR)/seeds $(FUZZ_DIR)/seed
	$(Q)for h in $(FUZZ); do mkdir -p $(FUZZ_DIR)/corpus/$$h; \
		cp $(FUZZ_DIR)/seed/$$h/* $(FUZZ_DIR)/corpus/$$h/ 2>/dev/null || true; done

fuzz: fuzz-corpus $(FUZZ:%=$(FUZZ_DIR)/%)
	$(Q)for h in $(FUZZ); do echo "== fuzz $$h, $(FUZZ_SECONDS) s"; \
		$(FUZZ_DIR)/$$h -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -max_len=65536 \
			-artifact_prefix=$(FUZZ_DIR)/crash-$$h- $(FUZZ_DIR)/corpus/$$h 2>&1 | \
			grep -E '^(#[0-9]+ +DONE|Done|==[0-9]+==ERROR|SUMMARY)' || exit 1; done

fuzz-replay: fuzz-corpus $(FUZZ:%=$(FUZZ_DIR)/replay-%)
	$(Q)for h in $(FUZZ); do $(FUZZ_DIR)/replay-$$h $(FUZZ_DIR)/corpus/$$h \
		$$(ls -d tests/fuzz/regressions/$$h 2>/dev/null) || exit 1; done
