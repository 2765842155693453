# Configure and build the consumer project from scratch against the install in PREFIX
# (CONFIGURE_ARGS: more configure arguments, separated by '|').
file(REMOVE_RECURSE ${BINARY})
string(REPLACE "|" ";" extra_args "${CONFIGURE_ARGS}")
foreach(step "-S;${SOURCE};-B;${BINARY};-DCMAKE_PREFIX_PATH=${PREFIX};-DCMAKE_BUILD_TYPE=RelWithDebInfo;${extra_args}"
             "--build;${BINARY};-j;2")
  execute_process(COMMAND ${CMAKE_COMMAND} ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer project step failed: cmake ${step}")
  endif()
endforeach()
