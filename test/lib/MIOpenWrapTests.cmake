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
# miopen_wrap_checked_test(<name> COMMAND <command>... [ARGS <arg>...]
#                          [NEGATIVE <name> [ARGS <arg>...] FAILS_WITH <regex>]...
#                          [LABELS <label>...] [ENVIRONMENT <NAME=VALUE>...]
#                          [FIXTURES <fixture>...] [WORKING_DIRECTORY <dir>]
#                          [PROPERTIES <property> <value>...])
#   a checked test and its negative controls: <name> runs COMMAND with its
#   ARGS; each NEGATIVE runs COMMAND with its own ARGS and passes only when
#   its output matches FAILS_WITH (the failure it must print). All of them get
#   the labels (miopen_wrap_label_tests), the environment, FIXTURES_REQUIRED
#   and the PROPERTIES.
# miopen_wrap_differential_tests(<manifest> CHECKER <command>... BINARY <program>
#                                [ENVIRONMENT ...] [FIXTURES ...])
#   the CTests of a family's differential manifest
#   (test/consumers/differential/<group>.json): each of its tests and
#   negatives through miopen_wrap_checked_test, with the manifest's labels;
#   @VAR@ in their arguments is the CMake variable's value. Nothing when the
#   manifest's needs_group is not in MIOPEN_HIPDNN_FORWARD_GROUPS.
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

function(miopen_wrap_checked_test name)
  set(keywords COMMAND ARGS NEGATIVE FAILS_WITH LABELS ENVIRONMENT FIXTURES WORKING_DIRECTORY PROPERTIES)
  set(command)
  set(args)
  set(negatives)
  set(labels)
  set(environment)
  set(fixtures)
  set(properties)
  set(workdir)
  set(section)
  set(negative)
  foreach(token IN LISTS ARGN)
    if(token IN_LIST keywords AND NOT section STREQUAL "PROPERTIES")
      set(section ${token})
      if(section STREQUAL "NEGATIVE")
        set(negative "")
      endif()
      continue()
    endif()
    if(section STREQUAL "COMMAND")
      list(APPEND command "${token}")
    elseif(section STREQUAL "ARGS" AND negative STREQUAL "")
      message(FATAL_ERROR "miopen_wrap_checked_test(${name}): ARGS after NEGATIVE before its name")
    elseif(section STREQUAL "ARGS" AND DEFINED negative)
      list(APPEND args_${negative} "${token}")
    elseif(section STREQUAL "ARGS")
      list(APPEND args "${token}")
    elseif(section STREQUAL "NEGATIVE")
      set(negative ${token})
      list(APPEND negatives ${token})
      set(args_${token})
    elseif(section STREQUAL "FAILS_WITH")
      set(regex_${negative} "${token}")
    elseif(section STREQUAL "LABELS")
      list(APPEND labels ${token})
    elseif(section STREQUAL "ENVIRONMENT")
      list(APPEND environment "${token}")
    elseif(section STREQUAL "FIXTURES")
      list(APPEND fixtures ${token})
    elseif(section STREQUAL "WORKING_DIRECTORY")
      set(workdir WORKING_DIRECTORY ${token})
    elseif(section STREQUAL "PROPERTIES")
      list(APPEND properties "${token}")
    else()
      message(FATAL_ERROR "miopen_wrap_checked_test(${name}): unexpected ${token}")
    endif()
  endforeach()
  if(NOT command)
    message(FATAL_ERROR "miopen_wrap_checked_test(${name}): no COMMAND")
  endif()
  add_test(NAME ${name} COMMAND ${command} ${args} ${workdir})
  set(tests ${name})
  foreach(n IN LISTS negatives)
    if(NOT DEFINED regex_${n} OR regex_${n} STREQUAL "")
      message(FATAL_ERROR "miopen_wrap_checked_test(${name}): negative ${n} names no FAILS_WITH")
    endif()
    add_test(NAME ${n} COMMAND ${command} ${args_${n}} ${workdir})
    set_tests_properties(${n} PROPERTIES PASS_REGULAR_EXPRESSION "${regex_${n}}")
    list(APPEND tests ${n})
  endforeach()
  if(environment)
    set_tests_properties(${tests} PROPERTIES ENVIRONMENT "${environment}")
  endif()
  if(fixtures)
    set_tests_properties(${tests} PROPERTIES FIXTURES_REQUIRED "${fixtures}")
  endif()
  if(properties)
    set_tests_properties(${tests} PROPERTIES ${properties})
  endif()
  if(labels)
    miopen_wrap_label_tests(LABELS ${labels} TESTS ${tests})
  endif()
endfunction()

# A JSON array of strings at <path...> of <json> as a CMake list, @VAR@ replaced.
function(_miopen_wrap_json_strings out json)
  set(list)
  string(JSON n LENGTH "${json}" ${ARGN})
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON item GET "${json}" ${ARGN} ${i})
      string(CONFIGURE "${item}" item @ONLY)
      list(APPEND list "${item}")
    endforeach()
  endif()
  set(${out} "${list}" PARENT_SCOPE)
endfunction()

function(miopen_wrap_differential_tests manifest)
  cmake_parse_arguments(A "" "BINARY" "CHECKER;ENVIRONMENT;FIXTURES" ${ARGN})
  file(READ ${manifest} json)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${manifest})
  string(JSON group ERROR_VARIABLE none GET "${json}" needs_group)
  string(REPLACE "," ";" groups "${MIOPEN_HIPDNN_FORWARD_GROUPS}")
  if(NOT none AND NOT group IN_LIST groups)
    return()
  endif()
  _miopen_wrap_json_strings(labels "${json}" labels)
  string(JSON n LENGTH "${json}" tests)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${json}" tests ${i} name)
    _miopen_wrap_json_strings(args "${json}" tests ${i} args)
    set(spec ARGS ${args} --work-dir ${CMAKE_CURRENT_BINARY_DIR}/differential/${name})
    string(JSON k ERROR_VARIABLE no_negatives LENGTH "${json}" tests ${i} negatives)
    if(no_negatives)
      set(k 0)
    endif()
    if(k GREATER 0)
      math(EXPR klast "${k} - 1")
      foreach(j RANGE ${klast})
        string(JSON nname GET "${json}" tests ${i} negatives ${j} name)
        string(JSON regex GET "${json}" tests ${i} negatives ${j} fails_with)
        _miopen_wrap_json_strings(nargs "${json}" tests ${i} negatives ${j} args)
        list(APPEND spec NEGATIVE ${nname} ARGS ${nargs} --work-dir ${CMAKE_CURRENT_BINARY_DIR}/differential/${nname}
             FAILS_WITH "${regex}")
      endforeach()
    endif()
    set(more)
    if(A_ENVIRONMENT)
      list(APPEND more ENVIRONMENT ${A_ENVIRONMENT})
    endif()
    if(A_FIXTURES)
      list(APPEND more FIXTURES ${A_FIXTURES})
    endif()
    miopen_wrap_checked_test(${name} COMMAND ${A_CHECKER} --manifest ${manifest} --binary ${A_BINARY}
      ${spec} LABELS ${labels} ${more})
  endforeach()
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
