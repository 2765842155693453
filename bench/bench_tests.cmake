# The pass-through hop regression test (instructions, not time): bench/ is
# built against the suite's install, as bench/run.sh builds it.
if(BUILD_TESTING)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(bench_bin ${CMAKE_BINARY_DIR}/test-bench)
  add_test(NAME bench_build
    COMMAND ${CMAKE_COMMAND} -DSOURCE=${CMAKE_CURRENT_LIST_DIR} -DBINARY=${bench_bin}
            -DPREFIX=${CMAKE_BINARY_DIR}/test-install
            -P ${PROJECT_SOURCE_DIR}/test/consumers/build_consumers.cmake)
  set_tests_properties(bench_build PROPERTIES FIXTURES_REQUIRED installed FIXTURES_SETUP bench)
  set(hop_check ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_hop.py --bench-dir ${bench_bin}
    --baseline-dir ${CMAKE_BINARY_DIR}/baseline)
  add_test(NAME bench_hop_instructions COMMAND ${hop_check} --max-extra 3)
  # Negative: one instruction less allowed than the stub has must fail.
  add_test(NAME bench_hop_instructions_negative COMMAND ${hop_check} --max-extra 2)
  set_tests_properties(bench_hop_instructions_negative PROPERTIES PASS_REGULAR_EXPRESSION "FAIL: hop regression")
  set_tests_properties(bench_hop_instructions bench_hop_instructions_negative PROPERTIES
    FIXTURES_REQUIRED bench SKIP_RETURN_CODE 77)
  miopen_wrap_label_tests(LABELS bench TESTS bench_build bench_hop_instructions bench_hop_instructions_negative)
endif()
