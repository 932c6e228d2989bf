# Unit and property tests (run under ASan/UBSan in the sanitizer build).
# The sanitizer build runs every test, but the longest ones on fewer random trials or a share of their inputs
# (README.md, Tests): there they look for memory errors and undefined behaviour on every kind of trial or input, at
# several times the cost of each; the normal build keeps the full trial counts and inputs, and with them every
# statistical check and digest. EDAN_TEST_SANITIZED=1 tells a Python test to take its share (tests/realrun_lib.py).
if(EDAN_SANITIZE)
  set(EDAG_PROPERTY_TRIALS 800)
  set(CRITPATH_TRIALS 500)
  set(REUSE_STREAMS 50)
  set(TIMING_LANES_TRIALS 20)
  set(TIMING_SAMPLED_TRIALS 6)
else()
  set(EDAG_PROPERTY_TRIALS 1500)
  set(CRITPATH_TRIALS 2000)
  set(REUSE_STREAMS 200)
  set(TIMING_LANES_TRIALS 80)
  set(TIMING_SAMPLED_TRIALS 24)
endif()
add_executable(edag_property_test tests/edag_property_test.c tests/edag_reference.c tests/random_trace.c)
target_link_libraries(edag_property_test PRIVATE edan_core)
add_test(NAME edag_streaming_equals_explicit COMMAND edag_property_test ${EDAG_PROPERTY_TRIALS})
add_executable(golden_test tests/golden_test.c tests/edag_reference.c)
target_link_libraries(golden_test PRIVATE edan_core)
add_test(NAME golden_paper_examples COMMAND golden_test ${CMAKE_SOURCE_DIR}/tests/golden)

# Real runs: the examples under the real qemu-riscv64 with the real plugin.
# Debian's python3 sees Debian's python3-jsonschema; fall back to any python3.
find_program(PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
find_program(PYTHON3 python3)
if(RISCV_CC AND QEMU_RISCV AND PYTHON3)
  foreach(category sum pointer_chase oblivious all_examples record_analyze sweep_grouping text_compat bad_input filter qemu_disas json_csv plots critical_path rank_table per_function blocks tools)
    add_test(NAME realrun_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/realrun_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(realrun_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
  # Hostile inputs (issue 20): ctest -L hostile
  foreach(category hostile_plots hostile_options hostile_files hostile_processes hostile_inputs)
    add_test(NAME ${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/realrun_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(${category} PROPERTIES DEPENDS examples TIMEOUT 600 LABELS hostile)
  endforeach()
  # A hostile traced program (issue 35): descriptors, regions left by longjmp or exceptions, silent emptiness
  foreach(category descriptors regions silent)
    add_test(NAME hostile_guest_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/hostile_guest_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(hostile_guest_${category} PROPERTIES DEPENDS examples TIMEOUT 600 LABELS hostile)
  endforeach()
  # edan's exit status follows the traced program's (issue 40): 3 and 4 after complete results, --ignore-exit
  add_test(NAME exit_status_program
           COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/exit_status_test.py ${CMAKE_BINARY_DIR} statuses)
  set_tests_properties(exit_status_program PROPERTIES DEPENDS examples TIMEOUT 600)
  # The command line a user meets (issue 40): replaced plots and tables said, "did you mean"
  foreach(category replaced suggest help progress signals)
    add_test(NAME cli_ux_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/cli_ux_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(cli_ux_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
  # Numbers, options and near-empty inputs (issue 35)
  foreach(category totals options machine empty annotate memgaze)
    add_test(NAME hostile_numbers_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/hostile_numbers_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(hostile_numbers_${category} PROPERTIES DEPENDS examples TIMEOUT 600 LABELS hostile)
  endforeach()
  foreach(category cuts killed)
    add_test(NAME hostile_text_${category}_real
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/hostile_text_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(hostile_text_${category}_real PROPERTIES DEPENDS examples TIMEOUT 600 LABELS hostile)
  endforeach()
  # Outputs that destroy inputs, inputs that hang, partial files (issue 35)
  foreach(category cross findings signals)
    add_test(NAME hostile_outputs_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/hostile_files_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(hostile_outputs_${category} PROPERTIES DEPENDS examples TIMEOUT 600 LABELS hostile)
  endforeach()
else()
  message(WARNING "riscv64-linux-gnu-gcc, qemu-riscv64 or python3 missing: real-run tests are not registered")
endif()
add_executable(cache_test tests/cache_test.c)
target_link_libraries(cache_test PRIVATE edan_core)
add_test(NAME cache_and_cost_model COMMAND cache_test)

# RISC-V decoding: golden cases, encoding sweeps, and a cross-check against GNU objdump.
add_executable(riscv_test tests/riscv_test.c tests/riscv_cross_test.c)
target_link_libraries(riscv_test PRIVATE edan_core)
if(RISCV_CC)
  find_program(RISCV_OBJDUMP riscv64-linux-gnu-objdump)
  add_test(NAME riscv_decode_disas_parse COMMAND riscv_test ${RISCV_CC} ${RISCV_OBJDUMP})
  set_tests_properties(riscv_decode_disas_parse PROPERTIES TIMEOUT 900)
endif()

# edan's disassembly against QEMU's own, instruction by instruction, on real binaries.
add_library(qemu_disas_check SHARED tests/qemu_disas_check.c)
target_compile_definitions(qemu_disas_check PRIVATE EDAN_QEMU_PLUGIN)
target_link_libraries(qemu_disas_check PRIVATE edan_core_plain)

# Trace formats: round trips, truncation and corruption at many offsets, text shapes, write errors.
add_executable(trace_test tests/trace_test.c tests/trace_format_test.c)
target_link_libraries(trace_test PRIVATE edan_core)
add_test(NAME trace_formats COMMAND trace_test ${CMAKE_BINARY_DIR})
set_tests_properties(trace_formats PROPERTIES TIMEOUT 900)
# A text trace cut short never reads as complete (issue 20): every cut of a trace edan wrote.
# Numbers, lists and totals (issue 35): the one number grammar, lists without limits or empty elements, the
# session's bound on every total, an empty region annotated.
add_executable(numbers_test tests/numbers_test.c)
target_link_libraries(numbers_test PRIVATE edan_core)
add_test(NAME hostile_numbers_units COMMAND numbers_test)
set_tests_properties(hostile_numbers_units PROPERTIES LABELS hostile)
add_executable(hostile_text_test tests/hostile_text_test.c)
target_link_libraries(hostile_text_test PRIVATE edan_core)
add_test(NAME hostile_text_cuts COMMAND hostile_text_test ${CMAKE_SOURCE_DIR}/tests/golden)
set_tests_properties(hostile_text_cuts PROPERTIES LABELS hostile)

# The fuzz corpus replayed by a plain driver (under ASan/UBSan in the sanitizer build);
# 'make fuzz' runs the libFuzzer target itself.
add_executable(fuzz_trace_replay fuzz/fuzz_trace_reader.c fuzz/replay_main.c)
target_link_libraries(fuzz_trace_replay PRIVATE edan_core)
add_test(NAME fuzz_corpus_replay COMMAND fuzz_trace_replay ${CMAKE_SOURCE_DIR}/fuzz/corpus)
add_executable(fuzz_options_replay fuzz/fuzz_options.c fuzz/replay_main.c)
target_link_libraries(fuzz_options_replay PRIVATE edan_core)
add_test(NAME fuzz_options_replay COMMAND fuzz_options_replay ${CMAKE_SOURCE_DIR}/fuzz/corpus_options)
add_executable(fuzz_machine_replay fuzz/fuzz_machine.c fuzz/replay_main.c)
target_link_libraries(fuzz_machine_replay PRIVATE edan_core)
add_test(NAME fuzz_machine_replay COMMAND fuzz_machine_replay ${CMAKE_SOURCE_DIR}/fuzz/corpus_machine)
# The machine-readable outputs (JSON, CSV) for hostile names, options and traces, checked by strict validators
# (fuzz/strict_check.c), which their own test shows to refuse what is invalid.
add_executable(fuzz_outputs_replay fuzz/fuzz_outputs.c fuzz/strict_check.c fuzz/replay_main.c)
target_link_libraries(fuzz_outputs_replay PRIVATE edan_core)
add_test(NAME fuzz_outputs_replay COMMAND fuzz_outputs_replay ${CMAKE_SOURCE_DIR}/fuzz/corpus_outputs
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(fuzz_outputs_replay PROPERTIES LABELS hostile)
add_executable(strict_check_test fuzz/strict_check_test.c fuzz/strict_check.c)
add_test(NAME fuzz_strict_check COMMAND strict_check_test)
set_tests_properties(fuzz_strict_check PROPERTIES LABELS hostile)

# The tree follows the committed .clang-format.
find_program(CLANG_FORMAT clang-format)
if(CLANG_FORMAT)
  file(GLOB_RECURSE FORMATTED_SOURCES
       ${CMAKE_SOURCE_DIR}/src/*.c ${CMAKE_SOURCE_DIR}/src/*.h ${CMAKE_SOURCE_DIR}/tests/*.c
       ${CMAKE_SOURCE_DIR}/tests/*.h ${CMAKE_SOURCE_DIR}/fuzz/*.c ${CMAKE_SOURCE_DIR}/bench/*.c
       ${CMAKE_SOURCE_DIR}/examples/*.c ${CMAKE_SOURCE_DIR}/bench/workloads/*.c)
  add_test(NAME clang_format COMMAND ${CLANG_FORMAT} --dry-run -Werror ${FORMATTED_SOURCES})
endif()

add_executable(async_test tests/async_test.c)
target_link_libraries(async_test PRIVATE edan_core)
add_test(NAME async_consumer COMMAND async_test)

# The eDAG picture: golden DOT of the summation kernel, critical paths against the analyzer.
# The tables' name column (issue 40): C++ signatures and templates shortened, never cut mid-word.
add_executable(names_test tests/names_test.c)
target_link_libraries(names_test PRIVATE edan_core)
add_test(NAME report_names COMMAND names_test)
add_executable(dot_test tests/dot_test.c tests/random_trace.c)
target_link_libraries(dot_test PRIVATE edan_core)
add_test(NAME edag_dot COMMAND dot_test ${CMAKE_SOURCE_DIR}/tests/golden)

# Source attribution through DWARF on the examples built with -g.
add_executable(srcmap_test tests/srcmap_test.c)
target_link_libraries(srcmap_test PRIVATE edan_core)
if(RISCV_CC)
  add_test(NAME dwarf_source_lines COMMAND srcmap_test ${EXAMPLES_DIR} ${CMAKE_SOURCE_DIR}/examples)
  set_tests_properties(dwarf_source_lines PROPERTIES DEPENDS examples)
endif()

add_executable(critpath_test tests/critpath_test.c tests/edag_reference.c)
target_link_libraries(critpath_test PRIVATE edan_core)
add_test(NAME critical_path_and_memory_chain COMMAND critpath_test ${CRITPATH_TRIALS})

# Analysis tools of one session: the footprint tool against a naive reference.
add_executable(footprint_test tests/footprint_test.c tests/random_trace.c tests/random_loops.c)
target_link_libraries(footprint_test PRIVATE edan_core)
add_test(NAME tool_footprint COMMAND footprint_test 500)
add_executable(widths_test tests/widths_test.c tests/random_trace.c)
target_link_libraries(widths_test PRIVATE edan_core)
add_test(NAME tool_access_widths COMMAND widths_test 300)

# The per-function fast path against the analyzer's scoped lanes.
add_executable(scopes_test tests/scopes_test.c tests/random_trace.c)
target_link_libraries(scopes_test PRIVATE edan_core)
add_test(NAME per_function_scopes COMMAND scopes_test 1000)
# the same without the AVX2 build of the depth vectors' loop (the baseline x86-64 one)
add_test(NAME per_function_scopes_baseline COMMAND scopes_test 1000)
set_tests_properties(per_function_scopes_baseline PROPERTIES ENVIRONMENT EDAN_NO_AVX2=1)

# The text and JSON reports of the paper's examples, byte for byte (tests/golden/update.sh rewrites them).
if(PYTHON3)
  add_test(NAME golden_reports COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/golden_report_test.py ${CMAKE_BINARY_DIR}
                                       ${CMAKE_SOURCE_DIR})
endif()

# The repository stands alone: no tracked file points into a folder beside the checkout.
if(PYTHON3)
  add_test(NAME standalone_repository COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/standalone_test.py
                                              ${CMAKE_SOURCE_DIR})
endif()
# make install's man page and bash completion (issue 40, part 5): installed with DESTDIR, rendered by man -l
# without a warning, naming every command, option and exit status; the completion driven through bash.
if(PYTHON3)
  add_test(NAME install_man_completion COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/install_test.py
                                              ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties(install_man_completion PROPERTIES TIMEOUT 300)
endif()
# validation/sweep.py through a single-node Slurm cluster it starts (issue 38): ctest -L slurm.
# Exit status 77 only when the Slurm daemons cannot run on this machine (the test prints why).
if(RISCV_CC AND QEMU_RISCV AND PYTHON3)
  add_test(NAME slurm_sweep COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/slurm_test.py ${CMAKE_BINARY_DIR})
  set_tests_properties(slurm_sweep PROPERTIES DEPENDS examples TIMEOUT 600 LABELS slurm SKIP_RETURN_CODE 77)
endif()
# validation/sweep.py's edan side and compare.py's metrics without gem5 (issues 37 and 38): two sweeps
# sharing one results file, both model modes, --force-edan, the metrics against a naive computation.
if(RISCV_CC AND QEMU_RISCV AND PYTHON3)
  add_test(NAME validation_sweep COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/sweep_test.py ${CMAKE_BINARY_DIR})
  set_tests_properties(validation_sweep PROPERTIES DEPENDS examples TIMEOUT 300)
endif()
# validation/gem5_from_doc.py (gem5's times taken back from a table of docs/accuracy.md): a stand-in gem5's
# times through compare.py's table and back, within the rounding, under sweep.py's keys; its errors.
if(PYTHON3)
  add_test(NAME validation_gem5_from_doc COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/gem5_from_doc_test.py)
  set_tests_properties(validation_gem5_from_doc PROPERTIES TIMEOUT 300)
endif()
# validation/thirdparty/hpcg.sh, lulesh.sh and build.sh's HPCG and LULESH (issue 37) on stand-ins for the
# checkouts: errors, the noinline patch that keeps LagrangeLeapFrog filterable, no programs.tsv.
if(RISCV_CC AND QEMU_RISCV AND PYTHON3)
  add_test(NAME thirdparty_apps COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/thirdparty_apps_test.py ${CMAKE_BINARY_DIR})
  set_tests_properties(thirdparty_apps PROPERTIES TIMEOUT 600)
endif()
# The layers of src/ and its subsystem folders: no upward include, no modules that include each other, every folder
# used through its contract header, no folders whose objects call each other, none over 25 files (and the checker
# on trees it makes). The objects are those of the library, the command line and the plugin.
if(PYTHON3)
  add_test(NAME layers COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/layers_test.py ${CMAKE_SOURCE_DIR}/src
           "$<TARGET_OBJECTS:edan_core_plain>" "$<TARGET_OBJECTS:edan>" "$<TARGET_OBJECTS:edan_plugin>")
  add_test(NAME layers_self_test COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/layers_test.py --self-test)
  # The eDAG rule written once (src/analysis/edag/edag_rule.h), and the checker on the copies it replaced.
  add_test(NAME edag_rule_once COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/edag_rule_test.py ${CMAKE_SOURCE_DIR}/src)
  add_test(NAME edag_rule_self_test COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/edag_rule_test.py --self-test)
endif()

# The one varint and little-endian coder.
# The progress line: percentage and time left against a naive computation.
add_executable(progress_test tests/progress_test.c)
target_link_libraries(progress_test PRIVATE edan_core)
add_test(NAME util_progress COMMAND progress_test)

add_executable(varint_test tests/varint_test.c)
target_link_libraries(varint_test PRIVATE edan_core)
add_test(NAME util_varint COMMAND varint_test)

# The benchmark's table, formatted from made-up numbers (the benchmark itself is make bench).
if(PYTHON3)
  add_test(NAME bench_table_self_test COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/bench/bench.py --self-test)
  add_test(NAME bench_locality_self_test COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/bench/bench_locality.py --self-test)
endif()

# The timing model: exact answers on hand-built streams, its limits against the eDAG, batch sizes.
add_executable(timing_test tests/timing_test.c tests/random_trace.c)
target_link_libraries(timing_test PRIVATE edan_core)
add_test(NAME timing_model COMMAND timing_test)
# Serializing instructions (CSR accesses, ecall, fence.i, sc), exact answers.
# Other cores than the validation machine: the narrow, validation and in-order (minor) machine files' sizes on
# hand-built streams with exact answers.
add_executable(timing_wrongpath_test tests/timing_wrongpath_test.c)
target_link_libraries(timing_wrongpath_test PRIVATE edan_core)
add_test(NAME timing_wrongpath COMMAND timing_wrongpath_test)
add_executable(timing_cores_test tests/timing_cores_test.c)
target_link_libraries(timing_cores_test PRIVATE edan_core)
add_test(NAME timing_cores COMMAND timing_cores_test ${CMAKE_SOURCE_DIR}/machines)
add_test(NAME timing_cores_one_at_a_time COMMAND timing_cores_test ${CMAKE_SOURCE_DIR}/machines)
set_tests_properties(timing_cores_one_at_a_time PROPERTIES ENVIRONMENT EDAN_NO_AVX2=1)
add_executable(timing_serial_test tests/timing_serial_test.c)
target_link_libraries(timing_serial_test PRIVATE edan_core)
add_test(NAME timing_serial COMMAND timing_serial_test)
add_executable(timing_stall_test tests/timing_stall_test.c)
target_link_libraries(timing_stall_test PRIVATE edan_core)
add_test(NAME timing_stall COMMAND timing_stall_test)
add_test(NAME timing_stall_one_at_a_time COMMAND timing_stall_test)
set_tests_properties(timing_stall_one_at_a_time PROPERTIES ENVIRONMENT EDAN_NO_AVX2=1)
# Its memory bandwidth calendar against a naive one.
# Prefetchers (issue 38): stride and next-line prefetchers on hand-built chains with exact answers.
add_executable(prefetch_test tests/prefetch_test.c)
target_link_libraries(prefetch_test PRIVATE edan_core)
add_test(NAME timing_prefetch COMMAND prefetch_test)
# Physical pages at first touch ([machine] pages): the map against a naive one, the model against the
# stream translated by it, and two arrays initialised together that share their sets.
add_executable(pagemap_test tests/pagemap_test.c tests/random_trace.c)
target_link_libraries(pagemap_test PRIVATE edan_core)
add_test(NAME timing_pages COMMAND pagemap_test)
add_executable(timing_rep_test tests/timing_rep_test.c tests/random_trace.c)
target_link_libraries(timing_rep_test PRIVATE edan_core)
add_test(NAME timing_rep_strings COMMAND timing_rep_test)
# The kernel's zeroing of fresh pages ([machine] page_zeroing): the set against a naive one, the model
# against the stream with the reference's kernel writes inserted, and a loop over fresh pages.
add_executable(zeroing_test tests/zeroing_test.c tests/random_trace.c)
target_link_libraries(zeroing_test PRIVATE edan_core)
add_test(NAME timing_zeroing COMMAND zeroing_test)
add_executable(memtime_test tests/memtime_test.c tests/random_trace.c)
target_link_libraries(memtime_test PRIVATE edan_core)
add_test(NAME timing_bandwidth_calendar COMMAND memtime_test)
# Its DRAM ([dram]): exact answers on hand-built streams, and random streams against a naive DRAM.
add_executable(dram_test tests/dram_test.c tests/random_trace.c)
target_link_libraries(dram_test PRIVATE edan_core)
add_test(NAME timing_dram COMMAND dram_test)
# Its lanes: N latencies in one pass against N passes of one latency each, on random streams. Where the
# CPU has AVX2 the one pass takes four lanes at a time and each single pass one (two builds of the step);
# with EDAN_NO_AVX2 both take one at a time, the build every other CPU runs.
add_executable(timing_lanes_test tests/timing_lanes_test.c tests/random_trace.c)
target_link_libraries(timing_lanes_test PRIVATE edan_core)
add_test(NAME timing_lanes COMMAND timing_lanes_test ${TIMING_LANES_TRIALS})
add_test(NAME timing_lanes_one_at_a_time COMMAND timing_lanes_test ${TIMING_LANES_TRIALS})
# The sampled schedule: its estimator against a naive reference and its intervals' coverage, whole-period
# sampling equal to the unsampled model, exact counts and independent lanes when sampled.
add_executable(timing_sample_test tests/timing_sample_test.c tests/timing_sample_slope.c tests/timing_sample_prefetch.c
               tests/timing_sample_warm.c tests/random_trace.c)
target_link_libraries(timing_sample_test PRIVATE edan_core m)
add_test(NAME timing_sampled COMMAND timing_sample_test ${TIMING_SAMPLED_TRIALS})
# one at a time: the parts with more than one latency (the others compute the same under EDAN_NO_AVX2)
add_test(NAME timing_sampled_one_at_a_time COMMAND timing_sample_test ${TIMING_SAMPLED_TRIALS} multi-lane)
add_test(NAME timing_model_one_at_a_time COMMAND timing_test)
set_tests_properties(timing_lanes_one_at_a_time timing_model_one_at_a_time timing_sampled_one_at_a_time
                     PROPERTIES ENVIRONMENT EDAN_NO_AVX2=1)
if(RISCV_CC AND QEMU_RISCV AND PYTHON3)
  # other cores on real runs: the narrow machine, the in-order one (tests/cores_test.py)
  foreach(category narrow inorder)
    add_test(NAME cores_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/cores_test.py ${CMAKE_BINARY_DIR} ${category})
  endforeach()
  foreach(category machine_files prediction sampled option_needs machine_names rank_model prefetch)
    add_test(NAME prediction_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/prediction_test.py ${CMAKE_BINARY_DIR} ${category})
    # sampled: every program of make validate's list analysed four ways; under the sanitizers on a shared machine
    set_tests_properties(prediction_${category} PROPERTIES DEPENDS examples TIMEOUT 900)
  endforeach()
  # DRAM timing: machine files with [dram] in edan and gem5_machine.py, real runs on the DDR4 machine (issue 38)
  foreach(category machine_files realrun rows)
    add_test(NAME dram_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/dram_machine_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(dram_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
  # the timing model's schedule dump and validation/pipeview.py (issue 38, item 4)
  foreach(category dump window pipeview)
    add_test(NAME schedule_dump_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/schedule_dump_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(schedule_dump_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
  # validation/pftrace.py (gem5's prefetcher trace against edan's, issue 38) and EDAN_PREFETCH_TRACE
  foreach(category gem5 edan)
    add_test(NAME pftrace_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/pftrace_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(pftrace_${category} PROPERTIES DEPENDS examples TIMEOUT 300)
  endforeach()
  # The memory system calls write (read, readv, ...): warm in the caches, counted apart (issue 39)
  foreach(category riscv traces)
    add_test(NAME syscall_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/syscall_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(syscall_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
  # Warm state for filtered regions, --cold (issue 37, part 2)
  foreach(category evict traces)
    add_test(NAME warm_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/warm_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(warm_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
endif()

# Locality (issue 22): stack distance and reuse time against a brute-force LRU list and the cache model.
add_executable(reuse_test tests/reuse_test.c tests/random_trace.c)
target_link_libraries(reuse_test PRIVATE edan_core)
add_test(NAME reuse_stack_distance COMMAND reuse_test ${REUSE_STREAMS})
# MemGaze's sampled estimates, whole run and per function of a real program's symbols, against a naive reference.
add_executable(sampled_test tests/sampled_test.c tests/random_trace.c)
target_link_libraries(sampled_test PRIVATE edan_core m)
if(RISCV_CC)
  add_test(NAME sampled_estimates COMMAND sampled_test ${EXAMPLES_DIR}/spmv 300)
  set_tests_properties(sampled_estimates PROPERTIES DEPENDS examples)
endif()
if(RISCV_CC AND QEMU_RISCV AND PYTHON3)
  foreach(category reproducible program_output cxx_names cache_presets rank annotate repeated)
    add_test(NAME cli_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/cli_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(cli_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
  # Critical paths that explain themselves (issue 40): what carries each link, the data eDAG's paths
  foreach(category hand cxx loops kernels)
    add_test(NAME critpath_via_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/critpath_via_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(critpath_via_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
  # Plots (issue 40): titles, literal text, K/M/G tics, bars, file names per region; gnuplot renders them.
  foreach(category titles names tables)
    add_test(NAME plots_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/plots_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(plots_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
  foreach(category reuse classes zoom sampled sampled_only csv command locality_options threads)
    add_test(NAME locality_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/locality_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(locality_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
endif()
# MemGaze's load traces through the locality tools: random MemGaze-format traces made by the test against naive
# references (each sample on its own and --across-samples), --load-classes, --memgaze-compat's tree against
# MemGaze's own analyzer's output on a vendored trace (tests/data/memgaze-traces), bad input.
if(PYTHON3)
  foreach(category streams classes compat bad)
    add_test(NAME mgtrace_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/mgtrace_test.py ${CMAKE_BINARY_DIR} ${category})
  endforeach()
endif()
# The footprint over windows of 2^k accesses, split by set with sets settled late, against a naive count; the
# load-classes tool's windows against the reuse tool's.
add_executable(windows_test tests/windows_test.c tests/random_trace.c tests/random_loops.c)
target_link_libraries(windows_test PRIVATE edan_core)
add_test(NAME footprint_windows_by_class COMMAND windows_test 300)

# Load classes on hand-built streams whose classes are known by construction.
add_executable(classes_test tests/classes_test.c tests/random_trace.c tests/random_loops.c)
target_link_libraries(classes_test PRIVATE edan_core)
add_test(NAME tool_load_classes COMMAND classes_test)

# MemGaze's formats and footprint table (src/memgaze/): parsers on bad input, the streaming table against
# MemGaze's own algorithm on random traces, and the .gold tables of the MemGaze check cases vendored in
# tests/data/memgaze/ byte for byte (with $EDAN_MEMGAZE_CHECK naming MemGaze's mem-anlys/check/, its five
# full cases too; make check-memgaze MEMGAZE=path/to/memgaze runs those).
add_executable(memgaze_test tests/memgaze_test.c tests/mg_reference.c)
target_link_libraries(memgaze_test PRIVATE edan_core)
add_test(NAME memgaze_formats_and_table COMMAND memgaze_test 300)
add_executable(fuzz_memgaze_replay fuzz/fuzz_memgaze.c tests/mg_reference.c fuzz/replay_main.c)
target_link_libraries(fuzz_memgaze_replay PRIVATE edan_core)
add_test(NAME fuzz_memgaze_replay COMMAND fuzz_memgaze_replay ${CMAKE_SOURCE_DIR}/fuzz/corpus_memgaze)
if(PYTHON3)
  add_test(NAME memgaze_gold_tables COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/memgaze_check_test.py
                                            ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
endif()

# The loop finder (issue 23) against a naive reference on hand-built streams.
add_executable(loops_test tests/loops_test.c tests/random_trace.c)
target_link_libraries(loops_test PRIVATE edan_core)
add_test(NAME loops_from_back_edges COMMAND loops_test 300)

# The projection's arithmetic (issue 23): ExaSAT's Table 1 recomputed, the traffic of every fully
# associative size against naive LRU lists and the cache model, FP kinds and libm names.
add_executable(projection_test tests/projection_test.c tests/random_trace.c)
target_link_libraries(projection_test PRIVATE edan_core)
add_test(NAME projection_arithmetic COMMAND projection_test 200)

# The projection (issue 23) on real runs under qemu-riscv64, on a synthetic trace and per memory region.
if(RISCV_CC AND QEMU_RISCV AND PYTHON3)
  foreach(category flops traffic synthetic sweep regions options)
    add_test(NAME projection_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/projection_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(projection_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
endif()

# The (key, tag) -> value table of the locality tools against a naive list.
add_executable(keymap_test tests/keymap_test.c)
target_link_libraries(keymap_test PRIVATE edan_core)
add_test(NAME util_keymap COMMAND keymap_test)

# Arrays grown without copy or zeroing (the timing model's per-instruction rows) against a naive copy.
add_executable(zgrow_test tests/zgrow_test.c tests/random_trace.c)
target_link_libraries(zgrow_test PRIVATE edan_core)
add_test(NAME util_zgrow COMMAND zgrow_test)

# The direct-mapped block table of the reuse tracker and the footprint tool against a naive sorted list.
add_executable(blocktab_test tests/blocktab_test.c)
target_link_libraries(blocktab_test PRIVATE edan_core)
add_test(NAME util_blocktab COMMAND blocktab_test)

# Loop nests' rows of the footprint, load-classes and reuse tools, and the load classes' footprint over windows
# per function and per loop nest, against naive references.
add_executable(nests_test tests/nests_test.c tests/random_trace.c tests/random_loops.c)
target_link_libraries(nests_test PRIVATE edan_core)
if(RISCV_CC)
  add_test(NAME loop_nests COMMAND nests_test ${EXAMPLES_DIR}/spmv 200)
  set_tests_properties(loop_nests PROPERTIES DEPENDS examples)
endif()
# Rows per thread (vCPU) of the footprint and reuse tools against naive references (issue 22).
add_executable(threads_test tests/threads_test.c tests/random_trace.c)
target_link_libraries(threads_test PRIVATE edan_core)
add_test(NAME thread_rows COMMAND threads_test 300)
# Affine access functions of loop nests from the stream and the blocking and fusion replays (issue 41), on random
# generated nests, against the generator's functions and a naive LRU of the transformed loops.
add_executable(affine_test tests/affine_test.c tests/random_trace.c)
target_link_libraries(affine_test PRIVATE edan_core)
add_test(NAME affine_whatif COMMAND affine_test 300)
# The what-ifs (issue 41) on real runs of examples/stencils: access functions against the text trace, blocking and
# fusion predicted against the hand-transformed functions' measured traffic, options.
if(RISCV_CC AND QEMU_RISCV AND PYTHON3)
  foreach(category affine blocking siblings varying triangular fusion halo depend options)
    add_test(NAME whatif_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/whatif_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(whatif_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
  foreach(category timing assoc assoc_sweep)
    add_test(NAME whatif_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/whatif_machine_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(whatif_${category} PROPERTIES DEPENDS examples TIMEOUT 600)
  endforeach()
endif()

# The tool contract (issue 36): every declared JSON key documented, the tools' uses resolvable.
add_executable(table_test tests/table_test.c)
target_link_libraries(table_test PRIVATE edan_core)
add_test(NAME report_tables COMMAND table_test)
# ExaSAT-style layouts and CSV files at a path an option names (the projection's tables)
add_executable(table_layout_test tests/table_layout_test.c)
target_link_libraries(table_layout_test PRIVATE edan_core)
add_test(NAME report_table_layouts COMMAND table_layout_test)
add_executable(result_keys tests/result_keys.c)
target_link_libraries(result_keys PRIVATE edan_core)
if(PYTHON3)
  add_test(NAME result_keys COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/result_keys_test.py ${CMAKE_BINARY_DIR}
                                    ${CMAKE_SOURCE_DIR})
  # docs/json-keys.md is what the declarations generate (result_keys --markdown)
  add_test(NAME json_keys_doc COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/json_keys_test.py ${CMAKE_BINARY_DIR}
                                      ${CMAKE_SOURCE_DIR})
endif()

# The HTML report (--html, issue 40): a real run's page in headless Chromium (no console error, no network
# request, tables sort, a drawn screenshot), and a 10^5-row page within its size and load-time budget.
add_executable(html_page tests/html_page.c)
target_link_libraries(html_page PRIVATE edan_core)
find_program(CHROMIUM chromium)
if(RISCV_CC AND QEMU_RISCV AND PYTHON3 AND CHROMIUM)
  add_test(NAME html_report COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/html_report_test.py ${CMAKE_BINARY_DIR}
                                    ${CMAKE_SOURCE_DIR})
  set_tests_properties(html_report PROPERTIES DEPENDS examples TIMEOUT 300 LABELS html)
endif()

# Native programs (issue 39): x86-64 under the real qemu-x86_64, AArch64 under qemu-aarch64, built here
# with the host's gcc and Debian's aarch64-linux-gnu-gcc (tests/native_test.py).
find_program(QEMU_X86_64 qemu-x86_64)
find_program(QEMU_AARCH64 qemu-aarch64)
find_program(AARCH64_CC aarch64-linux-gnu-gcc)
if(QEMU_X86_64 AND PYTHON3 AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND CMAKE_SYSTEM_PROCESSOR STREQUAL "x86_64")
  foreach(category x86_deps x86_wide x86_stores x86_kernels x86_libraries uops dividers machines errors validation)
    add_test(NAME native_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/native_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(native_${category} PROPERTIES TIMEOUT 600 LABELS native)
  endforeach()
  add_test(NAME syscall_x86 COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/syscall_test.py ${CMAKE_BINARY_DIR} x86)
  set_tests_properties(syscall_x86 PROPERTIES TIMEOUT 600 LABELS native)
  # the kernel's zeroing of fresh pages ([machine] page_zeroing) on a real x86-64 run
  add_test(NAME zeroing_x86 COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/zeroing_run_test.py ${CMAKE_BINARY_DIR} x86)
  set_tests_properties(zeroing_x86 PROPERTIES TIMEOUT 600 LABELS native)
  # x86 rep strings on a real run: every element counted, the model's time a line at a time
  add_test(NAME rep_strings_x86 COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/rep_strings_run_test.py ${CMAKE_BINARY_DIR} x86)
  set_tests_properties(rep_strings_x86 PROPERTIES TIMEOUT 600 LABELS native)
else()
  message(WARNING "qemu-x86_64, python3 or an x86-64 host gcc missing: the x86-64 native tests are not registered")
endif()
if(QEMU_AARCH64 AND AARCH64_CC AND PYTHON3)
  foreach(category a64_deps a64_kernels a64_libraries)
    add_test(NAME native_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/native_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(native_${category} PROPERTIES TIMEOUT 600 LABELS native)
  endforeach()
  add_test(NAME syscall_aarch64 COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/syscall_test.py ${CMAKE_BINARY_DIR} aarch64)
  set_tests_properties(syscall_aarch64 PROPERTIES TIMEOUT 600 LABELS native)
else()
  message(WARNING "qemu-aarch64 or aarch64-linux-gnu-gcc missing: the AArch64 native tests are not registered")
endif()
# x86 rep strings through the one-lane run of byte accesses against the general path (edag_bytes.c)
add_executable(edag_rep_test tests/edag_rep_test.c tests/random_trace.c)
target_link_libraries(edag_rep_test PRIVATE edan_core)
add_test(NAME edag_rep_strings_equal_general COMMAND edag_rep_test 400)

# The sanitizer build's share of the longest Python tests' inputs (tests/realrun_lib.py, share()): the sampled
# schedule on a quarter of make validate's programs and cg alone, each output over one input in turn, a third of
# the options given twice and misspelt, the blocking what-ifs on the 7-point and 5-point stencils (not the 27-point
# one). The normal build runs them whole.
if(EDAN_SANITIZE AND RISCV_CC AND QEMU_RISCV AND PYTHON3)
  set_tests_properties(prediction_sampled hostile_outputs_cross cli_repeated cli_ux_suggest whatif_blocking whatif_timing
                       whatif_assoc whatif_assoc_sweep PROPERTIES ENVIRONMENT EDAN_TEST_SANITIZED=1)
endif()
# Tests that run no sanitized code, or only edan commands other tests run under the sanitizers, are the normal
# build's: the sanitizer build lists them as disabled. Python alone (the sources' layers and format, the benchmarks'
# and validation scripts' self-tests, a stand-in gem5), QEMU with the uninstrumented plugins alone (blocks=on against
# off, the disassembly against QEMU's), the sweep's, Slurm's and the build scripts' bookkeeping around edan record,
# analyze and run (prediction_sampled runs those under the sanitizers), make install's files.
if(EDAN_SANITIZE)
  foreach(name validation_gem5_from_doc layers layers_self_test edag_rule_once edag_rule_self_test clang_format
          standalone_repository bench_table_self_test bench_locality_self_test realrun_blocks realrun_qemu_disas
          validation_sweep slurm_sweep thirdparty_apps install_man_completion)
    if(TEST ${name})
      set_tests_properties(${name} PROPERTIES DISABLED TRUE)
    endif()
  endforeach()
endif()
# The longest tests first (ctest -j starts the costliest first; a fresh build has no Testing/Temporary/CTestCostData.txt
# to learn it from), so that none of them starts last and runs alone: seconds under the sanitizers (-O1), 2-core
# machine, 2026-12-02 (the normal build's longest are timing_lanes' two, about 80 s each, and html_report, 53 s).
foreach(costly html_report:85 timing_lanes:80 timing_lanes_one_at_a_time:80 cli_repeated:36 hostile_outputs_cross:33
        timing_sampled:31 timing_sampled_one_at_a_time:31 cli_ux_suggest:30 prediction_prediction:29 native_dividers:29
        reuse_stack_distance:28 golden_reports:28 hostile_numbers_totals:27 prediction_machine_files:25
        realrun_sweep_grouping:25 critical_path_and_memory_chain:24)
  string(REPLACE ":" ";" costly ${costly})
  list(GET costly 0 name)
  list(GET costly 1 cost)
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES COST ${cost})
  endif()
endforeach()

# Shared objects (issue 39): the map, and Debian's libm at a load address, stripped (the AArch64 cross library,
# libc6-arm64-cross) and with its debug file (the host's, libc6-dbg): functions, versions, the object's gaps.
add_executable(objects_test tests/objects_test.c)
target_link_libraries(objects_test PRIVATE edan_core)
add_test(NAME shared_objects
         COMMAND objects_test /usr/aarch64-linux-gnu/lib/libm.so.6
                 /lib/x86_64-linux-gnu/libm.so.6:/lib/aarch64-linux-gnu/libm.so.6:/lib/riscv64-linux-gnu/libm.so.6)

# The views that name functions while the stream runs (--footprint, --classes, the sampled tool, locality's
# --reuse and --zoom, rank) name a shared library's code, online and offline; its lines from its DWARF, else a row
# per function (issue 39: tests/library_views_test.py).
if(QEMU_X86_64 AND PYTHON3 AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND CMAKE_SYSTEM_PROCESSOR STREQUAL "x86_64")
  foreach(category views lines)
    add_test(NAME library_${category}
             COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/tests/library_views_test.py ${CMAKE_BINARY_DIR} ${category})
    set_tests_properties(library_${category} PROPERTIES TIMEOUT 600 LABELS native)
  endforeach()
endif()
