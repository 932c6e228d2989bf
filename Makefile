# edan: the two commands of the README, and a few conveniences.
#   make demo   install missing Debian packages, build everything, analyse a bundled example
#   make test   install, build normally and with ASan/UBSan, run every test (ctest)
BUILD ?= build
SAN_BUILD ?= build-sanitize
JOBS ?= $(shell nproc)

.PHONY: all deps build install sanitize-build demo test test-fast check-memgaze fuzz fuzz-memgaze bench bench-quick bench-instructions bench-rows clean format

all: build

deps:
	@sh scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) -- --no-print-directory

sanitize-build: deps
	@cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DEDAN_SANITIZE=ON >/dev/null
	@cmake --build $(SAN_BUILD) -j $(JOBS) -- --no-print-directory

# make install [PREFIX=/usr/local] [DESTDIR=]: PREFIX/bin/edan, PREFIX/lib/edan/libedan_plugin.so and
# PREFIX/share/edan/machines/*.ini (the machines --machine=NAME finds), PREFIX/share/man/man1/edan.1 and
# PREFIX/share/bash-completion/completions/edan (generated from edan's --help), under DESTDIR when given.
PREFIX ?= /usr/local
install: build
	@cmake -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target edan edan_plugin edan_preload edan_docs -- --no-print-directory
	@DESTDIR=$(DESTDIR) cmake --install $(BUILD)

demo: build
	@echo "== edan run --filter=kernel --cache='none;32K' $(BUILD)/examples/spmv 2000"
	@$(BUILD)/edan run --filter=kernel --cache='none;32K' $(BUILD)/examples/spmv 2000

# Every test, in the normal build and under ASan/UBSan. ctest prints the summary.
test: build sanitize-build
	@cd $(SAN_BUILD) && ctest --output-on-failure -j $(JOBS)
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-fast: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# MemGaze's five full check cases (pnnl/memgaze, mem-anlys/check/), as memgaze_gold_tables checks the cuts of
# them vendored in tests/data/memgaze/: each .gold table and the .gold-oe per-function lines byte for byte.
# MEMGAZE is a clone of https://github.com/pnnl/memgaze (its check cases are those of commit 5545a59).
MEMGAZE ?=
check-memgaze:
	@if [ -z "$(MEMGAZE)" ] || [ ! -d "$(MEMGAZE)/mem-anlys/check" ]; then \
	    echo "make check-memgaze: no MemGaze checkout at '$(MEMGAZE)' (no $(MEMGAZE)/mem-anlys/check/). Clone it with"; \
	    echo "  git clone https://github.com/pnnl/memgaze path/to/memgaze"; \
	    echo "and give its path: make check-memgaze MEMGAZE=path/to/memgaze"; exit 2; fi
	@$(MAKE) --no-print-directory build
	@python3 tests/memgaze_check_test.py $(BUILD) . --full "$(MEMGAZE)/mem-anlys/check"

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(SAN_BUILD)

# Speed and memory targets (issue 3): a table of ratios measured in one run; takes several minutes.
# HPCG=DIR LULESH=DIR (checkouts of hpcg-benchmark/hpcg, LLNL/LULESH) add the timing model's targets on
# them (bench/bench_apps.py, issue 37); without them that part is skipped with a line saying so.
bench: build
	@python3 bench/bench.py $(BUILD) --update-docs
	@python3 bench/bench_memory.py $(BUILD) --update-docs
	@python3 bench/bench_online.py $(BUILD) --update-docs
	@python3 bench/bench_sampled.py $(BUILD) --update-docs
	@python3 bench/bench_locality.py $(BUILD) --update-docs
	@python3 bench/bench_cachegrind.py $(BUILD) --update-docs
	@python3 bench/bench_timing.py $(BUILD) --update-docs
	@python3 bench/bench_warm_functions.py $(BUILD) --update-docs
	@python3 bench/bench_apps.py $(BUILD) --hpcg "$(HPCG)" --lulesh "$(LULESH)" --update-docs

bench-quick: build
	@python3 bench/bench.py $(BUILD) --quick --runs 1
	@python3 bench/bench_memory.py $(BUILD) --quick
	@python3 bench/bench_online.py $(BUILD) --quick
	@python3 bench/bench_sampled.py $(BUILD) --quick
	@python3 bench/bench_locality.py $(BUILD) --quick
	@python3 bench/bench_timing.py $(BUILD) --quick
	@python3 bench/bench_warm_functions.py $(BUILD) --quick

# Coverage-guided fuzzing (libFuzzer, clang): the trace readers, the options, the machine files and the
# machine-readable outputs (JSON and CSV checked by strict validators), each for FUZZ_SECONDS (600 by default),
# the four at once. Any ASan or UBSan report, or an invalid output, stops a target and fails make fuzz.
FUZZ_SECONDS ?= 600
FUZZ_FLAGS = -std=c17 -D_GNU_SOURCE -I src -I $(BUILD)/generated -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -Wno-unknown-attributes
FUZZ_LIBS = -lzstd -lelf -ldw -linih -liberty -lcapstone -lm -lpthread
fuzz: deps
	@mkdir -p $(BUILD)/fuzz-work $(BUILD)/fuzz-work-options $(BUILD)/fuzz-work-machine $(BUILD)/fuzz-work-outputs
	@mkdir -p $(BUILD)/generated && cmake -DOUT=$(BUILD)/generated/html_assets.h \
	    "-DINPUTS=edan_html_js=src/report/html_report.js;edan_html_css=src/report/html_report.css" -P cmake/embed.cmake
	@clang $(FUZZ_FLAGS) fuzz/fuzz_trace_reader.c $(wildcard src/util/*.c src/util/*/*.c src/isa/*.c src/memgaze/*.c src/trace/*.c) \
	    $(FUZZ_LIBS) -o $(BUILD)/fuzz_trace_reader
	@clang $(FUZZ_FLAGS) fuzz/fuzz_options.c \
	    $(wildcard src/util/*.c src/util/*/*.c src/isa/*.c src/memgaze/*.c src/trace/*.c src/analysis/*.c src/analysis/*/*.c src/config/*.c src/report/*.c src/tool/*.c src/tool/*/*.c) \
	    $(FUZZ_LIBS) -o $(BUILD)/fuzz_options
	@clang $(FUZZ_FLAGS) fuzz/fuzz_machine.c $(wildcard src/util/*.c src/util/*/*.c src/isa/*.c src/memgaze/*.c src/trace/*.c src/analysis/*.c src/analysis/*/*.c src/config/*.c) \
	    $(FUZZ_LIBS) -o $(BUILD)/fuzz_machine
	@clang $(FUZZ_FLAGS) -fsanitize-coverage-ignorelist=fuzz/outputs_coverage_ignore.txt fuzz/fuzz_outputs.c fuzz/strict_check.c \
	    $(wildcard src/util/*.c src/util/*/*.c src/isa/*.c src/memgaze/*.c src/trace/*.c src/analysis/*.c src/analysis/*/*.c src/config/*.c src/report/*.c src/tool/*.c src/tool/*/*.c) \
	    $(FUZZ_LIBS) -o $(BUILD)/fuzz_outputs
	@$(BUILD)/fuzz_trace_reader -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -dict=fuzz/trace.dict \
	    $(BUILD)/fuzz-work fuzz/corpus > $(BUILD)/fuzz-trace.log 2>&1 & trace=$$!; \
	$(BUILD)/fuzz_machine -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    $(BUILD)/fuzz-work-machine fuzz/corpus_machine > $(BUILD)/fuzz-machine.log 2>&1 & machine=$$!; \
	$(BUILD)/fuzz_outputs -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -timeout=60 -dict=fuzz/outputs.dict \
	    $(BUILD)/fuzz-work-outputs fuzz/corpus_outputs > $(BUILD)/fuzz-outputs.log 2>&1 & outputs=$$!; \
	$(BUILD)/fuzz_options -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    $(BUILD)/fuzz-work-options fuzz/corpus_options > $(BUILD)/fuzz-options.log 2>&1; options=$$?; \
	wait $$trace; trace=$$?; wait $$machine; machine=$$?; wait $$outputs; outputs=$$?; \
	grep -h "stat::number_of_executed_units" $(BUILD)/fuzz-trace.log $(BUILD)/fuzz-options.log $(BUILD)/fuzz-machine.log \
	    $(BUILD)/fuzz-outputs.log; \
	if [ $$trace -ne 0 ] || [ $$options -ne 0 ] || [ $$machine -ne 0 ] || [ $$outputs -ne 0 ]; then \
	    echo "make fuzz: a target failed (see $(BUILD)/fuzz-*.log)"; exit 1; fi

# MemGaze's trace and load-class readers and its footprint table (src/memgaze/), for FUZZ_SECONDS.
fuzz-memgaze: deps
	@mkdir -p $(BUILD)/fuzz-work-memgaze
	@clang $(FUZZ_FLAGS) fuzz/fuzz_memgaze.c tests/mg_reference.c $(wildcard src/util/*.c src/memgaze/*.c) \
	    $(FUZZ_LIBS) -o $(BUILD)/fuzz_memgaze
	@$(BUILD)/fuzz_memgaze -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    $(BUILD)/fuzz-work-memgaze fuzz/corpus_memgaze

# Instructions per traced instruction (callgrind; deterministic on a noisy machine).
bench-instructions: build
	@sh bench/instructions.sh $(BUILD)

# The sampled model's per-function and per-line rows against --exact (issue 37): the examples of
# bench/workloads/rows.tsv recorded whole and sampled at --sample-timing=1000,2000,16000,10 (short runs
# would otherwise be exact); the rows' slope error summed over the whole slope, per program.
bench-rows: build
	@nice python3 bench/bench_timing_sampled.py $(BUILD) --list bench/workloads/rows.tsv --whole \
	    --sample 1000,2000,16000,10 --no-speed --name bench-rows

# Accuracy against gem5 (issue 21): a memory-latency sweep of VALIDATION_LIST in gem5 and edan, the
# tables written into docs/accuracy.md. Reruns run only what changed (results in VALIDATION_RESULTS).
GEM5 ?= /opt/gem5src/build/RISCV/gem5.opt
VALIDATION_LIST ?= validation/programs.tsv
VALIDATION_JOBS ?= 1
VALIDATION_LATENCIES ?= 50,100,150,200,250,300
VALIDATION_RESULTS ?= $(BUILD)/validation/results.json
# The third-party programs (validation/thirdparty/README.md): POLYBENCH, XSBENCH, OLDEN, GAPBS and NPB
# name checkouts (make validation-programs POLYBENCH=DIR ...); their list is $(THIRDPARTY)/programs.tsv.
THIRDPARTY ?= $(BUILD)/validation/thirdparty
.PHONY: validation-programs
validation-programs:
	@sh validation/thirdparty/build.sh "$(THIRDPARTY)"

.PHONY: validate
validate: build
	@if [ ! -x "$(GEM5)" ]; then \
	    echo "make validate: no gem5 at $(GEM5). Build gem5 v22.1 from source with"; \
	    echo "  sh validation/build-gem5.sh GEM5_SOURCE_DIR   (validation/README.md)"; \
	    echo "or point GEM5 at an existing build/RISCV/gem5.opt."; exit 2; fi
	@python3 validation/sweep.py --gem5 "$(GEM5)" --edan $(BUILD)/edan -j $(VALIDATION_JOBS) \
	    --latencies "$(VALIDATION_LATENCIES)" --results "$(VALIDATION_RESULTS)" "$(VALIDATION_LIST)"; \
	status=$$?; [ $$status -le 1 ] || exit $$status; \
	python3 validation/compare.py --results "$(VALIDATION_RESULTS)" --update-doc docs/accuracy.md \
	    --command "make validate VALIDATION_LIST=$(VALIDATION_LIST) VALIDATION_LATENCIES=$(VALIDATION_LATENCIES)" \
	    && echo "make validate: tables written into docs/accuracy.md" && exit $$status

# Several machines (issue 38): a sweep of VALIDATION_LIST per machine file of VALIDATION_MACHINES (names in
# machines/), one after another, each into $(VALIDATION_DIR)/results-NAME.json, the timing model in the modes
# of VALIDATION_MODEL_MODE; then compare.py --compact's tables (issue 38's metrics against the targets, sampled
# against --exact) into $(VALIDATION_DIR)/compare-NAME.md. VALIDATION_SWEEP_FLAGS adds sweep.py options:
# --no-gem5 refreshes edan's side alone (after a model change: the new edan's records are missing, gem5's
# cached), --no-edan runs gem5 alone. Results files may be shared with a sweep running in the background.
# VALIDATION_DOC=docs/accuracy.md also writes each machine's tables there, between its markers
# <!-- machines-NAME:begin --> and <!-- machines-NAME:end --> (docs/accuracy.md, "Results on four machines").
VALIDATION_MACHINES ?= gem5-validation gem5-validation-stride gem5-validation-narrow gem5-validation-ddr4
VALIDATION_DIR ?= $(BUILD)/validation
VALIDATION_MODEL_MODE ?= sampled,exact
VALIDATION_SWEEP_FLAGS ?=
VALIDATION_DOC ?=
.PHONY: validate-machines
validate-machines: build
	@mkdir -p "$(VALIDATION_DIR)"
	@for m in $(VALIDATION_MACHINES); do \
	    [ -f machines/$$m.ini ] || { echo "make validate-machines: no machines/$$m.ini"; exit 2; }; \
	    nice python3 validation/sweep.py --gem5 "$(GEM5)" --edan $(BUILD)/edan -j $(VALIDATION_JOBS) \
	        --latencies "$(VALIDATION_LATENCIES)" --machine machines/$$m.ini \
	        --model-mode "$(VALIDATION_MODEL_MODE)" --results "$(VALIDATION_DIR)/results-$$m.json" \
	        $(VALIDATION_SWEEP_FLAGS) "$(VALIDATION_LIST)"; \
	    status=$$?; [ $$status -le 1 ] || exit $$status; \
	    python3 validation/compare.py --compact --results "$(VALIDATION_DIR)/results-$$m.json" \
	        >"$(VALIDATION_DIR)/compare-$$m.md" || exit $$?; \
	    echo "make validate-machines: $$m: tables in $(VALIDATION_DIR)/compare-$$m.md"; \
	    if [ -n "$(VALIDATION_DOC)" ]; then \
	        python3 validation/compare.py --compact --results "$(VALIDATION_DIR)/results-$$m.json" \
	            --update-doc "$(VALIDATION_DOC)" --marker machines-$$m --command "make validate-machines \
	VALIDATION_MACHINES=$$m VALIDATION_LATENCIES=$(VALIDATION_LATENCIES) VALIDATION_LIST=$(VALIDATION_LIST)" \
	            || exit $$?; fi; \
	done

# The sampled timing model against --exact on every program of VALIDATION_LIST (issue 37): edan only, no
# gem5; each region recorded once, analysed both ways; the table and the targets (2 % median, 5 % worst,
# intervals covering exact in 95 % of the programs) printed, and written to $(BUILD)/validate-sampled.md.
# VALIDATION_ONLY=REGEX: the programs whose name matches.
VALIDATION_ONLY ?=
.PHONY: validate-sampled
validate-sampled: build
	@nice python3 bench/bench_timing_sampled.py $(BUILD) --list "$(VALIDATION_LIST)" --no-speed \
	    --only "$(VALIDATION_ONLY)" --name validate-sampled --check

# The timing model against the host itself (issue 39): the validation suites built for x86-64 with the host's
# gcc and g++ (validation/thirdparty/*.sh at the RISC-V builds' inputs), the kernels' measured times (the
# thread's CPU time, median of 5, pinned) against the model's with the host core's machine file (zen4, zen5,
# spr or neoverse-v1 from /proc/cpuinfo; NATIVE_MACHINE=NAME to choose) at the measured clock; tables into
# docs/accuracy.md. NATIVE_ALSO=A,B predicts the same kernels with more machine files, on the same measured times;
# NATIVE_RUNS rounds of one run of every kernel (5); NATIVE_MEASURED=FILE predicts against an earlier native.json's times
# instead of measuring. Not niced: the kernels are measured. POLYBENCH, XSBENCH, OLDEN, NPB and GAPBS name checkouts (any of them, at
# least one; validation/thirdparty/README.md names the repositories).
NATIVE_MACHINE ?=
NATIVE_ALSO ?=
NATIVE_CPU ?= 1
NATIVE_RUNS ?= 5
NATIVE_MEASURED ?=
.PHONY: validate-native
validate-native: build
	@if [ -z "$(POLYBENCH)$(XSBENCH)$(OLDEN)$(NPB)$(GAPBS)" ]; then \
	    echo "make validate-native: name at least one checkout: POLYBENCH=DIR XSBENCH=DIR OLDEN=DIR NPB=DIR GAPBS=DIR"; \
	    exit 2; fi
	@python3 validation/native.py --edan $(BUILD)/edan \
	    $(if $(POLYBENCH),--polybench "$(POLYBENCH)") $(if $(XSBENCH),--xsbench "$(XSBENCH)") \
	    $(if $(OLDEN),--olden "$(OLDEN)") $(if $(NPB),--npb "$(NPB)") $(if $(GAPBS),--gapbs "$(GAPBS)") \
	    --out $(BUILD)/validation/native $(if $(NATIVE_MACHINE),--machine $(NATIVE_MACHINE)) $(if $(NATIVE_ALSO),--also $(NATIVE_ALSO)) --cpu $(NATIVE_CPU) \
	    --runs $(NATIVE_RUNS) $(if $(NATIVE_MEASURED),--measured "$(NATIVE_MEASURED)") --update-doc docs/accuracy.md \
	    --command "make validate-native$(if $(POLYBENCH), POLYBENCH=DIR)$(if $(XSBENCH), XSBENCH=DIR)$(if $(OLDEN), OLDEN=DIR)$(if $(NPB), NPB=DIR)$(if $(GAPBS), GAPBS=DIR)"

# The blocking what-if's best tile (issue 41) against the timing model's best on the hand-blocked stencils and
# against their native times on the host (gcc -O2, median of 5, pinned): figures for docs/accuracy.md.
.PHONY: validate-whatif
validate-whatif: build
	@python3 tests/whatif_machine_test.py $(BUILD) timing
	@python3 tests/whatif_machine_test.py $(BUILD) native
