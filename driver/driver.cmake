# MIOpenDriver in the project build: included by the top-level CMakeLists
# after the libraries' install rules, so `cmake --install` ships
# bin/MIOpenDriver built against the installed libraries (install_driver.cmake);
# and the CTest that runs the committed command-line samples in the three
# configurations against the suite's install.
install(CODE "set(MIOPEN_DRIVER_SOURCE [[${CMAKE_CURRENT_LIST_DIR}]])
set(MIOPEN_DRIVER_BINARY [[${CMAKE_BINARY_DIR}/driver-build]])
set(MIOPEN_DRIVER_CXX [[${CMAKE_CXX_COMPILER}]])")
install(SCRIPT ${CMAKE_CURRENT_LIST_DIR}/install_driver.cmake)

if(BUILD_TESTING)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(driver_dir ${CMAKE_CURRENT_LIST_DIR})
  set(driver_run ${Python3_EXECUTABLE} ${driver_dir}/tests/run_sample.py
    --driver ${CMAKE_BINARY_DIR}/test-install/bin/MIOpenDriver --baseline-dir ${CMAKE_BINARY_DIR}/baseline)
  # 40 model-list lines (batch 2) and 15 logging-command lines, x 3 configurations.
  add_test(NAME driver_samples_three_configs
    COMMAND ${driver_run} --sample ${driver_dir}/tests/model_sample.txt
            --sample ${driver_dir}/tests/logging_cmd_sample.txt)
  # Negative: an output perturbed after the library wrote it must fail verification.
  add_test(NAME driver_samples_negative_corrupt
    COMMAND ${driver_run} --sample ${driver_dir}/tests/logging_cmd_sample.txt --limit 3 --configs disabled
            --corrupt wrw)
  set_tests_properties(driver_samples_negative_corrupt PROPERTIES
    PASS_REGULAR_EXPRESSION "verification FAILED or missing for \\['wrw'\\]")
  # Negative: forwarding rolled back (MIOPEN_DISABLE_HIPDNN_FOR=*) must fail the enabled routing check.
  add_test(NAME driver_samples_negative_routing
    COMMAND ${driver_run} --sample ${driver_dir}/tests/logging_cmd_sample.txt --limit 1 --configs enabled
            --enabled-env MIOPEN_DISABLE_HIPDNN_FOR=*)
  set_tests_properties(driver_samples_negative_routing PROPERTIES
    PASS_REGULAR_EXPRESSION "convolution calls not executed by hipDNN")
  set_tests_properties(driver_samples_three_configs driver_samples_negative_corrupt driver_samples_negative_routing
    PROPERTIES FIXTURES_REQUIRED installed
               ENVIRONMENT "MIOPEN_USER_DB_PATH=${CMAKE_BINARY_DIR}/test-user-db;HIPDNN_BACKEND_LIBRARY_PATH=${CMAKE_BINARY_DIR}/test/mini-hipdnn/lib")
  miopen_wrap_label_tests(LABELS driver TESTS driver_samples_three_configs driver_samples_negative_corrupt
    driver_samples_negative_routing)
endif()
