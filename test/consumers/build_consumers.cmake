# Configure and build the consumer project from scratch against the install in PREFIX.
file(REMOVE_RECURSE ${BINARY})
foreach(step "-S;${SOURCE};-B;${BINARY};-DCMAKE_PREFIX_PATH=${PREFIX};-DCMAKE_BUILD_TYPE=RelWithDebInfo"
             "--build;${BINARY};-j;2")
  execute_process(COMMAND ${CMAKE_COMMAND} ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer project step failed: cmake ${step}")
  endif()
endforeach()
