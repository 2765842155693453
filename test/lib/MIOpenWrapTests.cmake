# What every test directory of this repository shares (test/lib):
#
#   MIOPEN_WRAP_TEST_FACTS   the code's facts, `miopen-wrap facts` written into
#                            the build tree at build time (target
#                            miopen_wrap_test_facts); test/lib/wrapper_test.py
#                            reads it through MIOPEN_WRAP_FACTS
#   MIOPEN_WRAP_TEST_HELPER  test/lib/wrapper_test.py (`... run --set K=V -- PROGRAM`
#                            runs a program in the tests' scrubbed environment)
#
# miopen_wrap_label_tests(LABELS <label>... [TESTS <test>...])
#   gives the tests (default: every test of the current directory defined so
#   far) the labels (`ctest -L <label>`) and MIOPEN_WRAP_FACTS. Call it after
#   the tests' own ENVIRONMENT is set: it appends to it.
# miopen_wrap_label_discovered_tests(<gtest target> LABELS <label>... [ENVIRONMENT <NAME=VALUE>...]
#                                    [ENVIRONMENT_MODIFICATION <op>...])
#   the same for the tests gtest_discover_tests() finds in <gtest target>
#   (call it after that): they exist only when ctest runs, so a file ctest
#   includes after the discovered ones sets the properties (the PROPERTIES
#   of gtest_discover_tests() cannot carry a list).
# miopen_wrap_test_bed_environment(<out-var>)
#   "NAME=unset:" for every hipDNN and test-bed variable of
#   test/lib/test-environment.json, for ENVIRONMENT_MODIFICATION of the test
#   beds' own suites (they run without the Python helper).
include_guard(GLOBAL)

# Cache entries: every directory sees them, wherever this file was included.
set(MIOPEN_WRAP_TEST_FACTS ${CMAKE_BINARY_DIR}/test-facts.json CACHE INTERNAL "the code's facts for the tests")
set(MIOPEN_WRAP_TEST_HELPER ${CMAKE_CURRENT_LIST_DIR}/wrapper_test.py CACHE INTERNAL "test/lib/wrapper_test.py")

if(TARGET miopen-wrap AND NOT TARGET miopen_wrap_test_facts)
  add_custom_command(OUTPUT ${MIOPEN_WRAP_TEST_FACTS}
    COMMAND miopen-wrap facts --output ${MIOPEN_WRAP_TEST_FACTS}
    DEPENDS miopen-wrap $<TARGET_FILE:miopen-wrap>
    COMMENT "miopen-wrap facts: what the tests check against, from the code"
    VERBATIM)
  add_custom_target(miopen_wrap_test_facts ALL DEPENDS ${MIOPEN_WRAP_TEST_FACTS})
endif()

function(miopen_wrap_label_tests)
  cmake_parse_arguments(A "" "" "LABELS;TESTS" ${ARGN})
  if(NOT A_TESTS)
    get_property(A_TESTS DIRECTORY PROPERTY TESTS)
  endif()
  if(NOT A_LABELS OR NOT A_TESTS)
    message(FATAL_ERROR "miopen_wrap_label_tests: no labels, or no tests to label")
  endif()
  set_property(TEST ${A_TESTS} APPEND PROPERTY LABELS ${A_LABELS})
  set_property(TEST ${A_TESTS} APPEND PROPERTY ENVIRONMENT MIOPEN_WRAP_FACTS=${MIOPEN_WRAP_TEST_FACTS})
endfunction()

function(miopen_wrap_label_discovered_tests target)
  cmake_parse_arguments(A "" "" "LABELS;ENVIRONMENT;ENVIRONMENT_MODIFICATION" ${ARGN})
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${target}_properties.cmake)
  set(properties "LABELS [==[${A_LABELS}]==]")
  foreach(p ENVIRONMENT ENVIRONMENT_MODIFICATION)
    if(A_${p})
      string(APPEND properties " ${p} [==[${A_${p}}]==]")
    endif()
  endforeach()
  file(WRITE ${file} "# Written by miopen_wrap_label_discovered_tests() (test/lib/MIOpenWrapTests.cmake).
if(${target}_TESTS)
  set_tests_properties(\${${target}_TESTS} PROPERTIES ${properties})
endif()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${file})
endfunction()

function(miopen_wrap_test_bed_environment out)
  set(list_file ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/test-environment.json)
  file(READ ${list_file} json)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list_file})
  set(ops)
  foreach(section hipdnn test_beds)
    string(JSON n LENGTH "${json}" ${section} names)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON name GET "${json}" ${section} names ${i})
      list(APPEND ops "${name}=unset:")
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES ops)
  set(${out} "${ops}" PARENT_SCOPE)
endfunction()
