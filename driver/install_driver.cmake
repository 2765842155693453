# Run by `cmake --install` (install(SCRIPT) in driver/driver.cmake), after the
# libraries and the package config are installed: configures driver/ as a
# separate project against the prefix just installed (find_package(miopen),
# exactly as any consumer would), builds it, and installs bin/MIOpenDriver
# into the same prefix. One build directory per prefix, so installing to
# several prefixes never mixes their libraries.
# A relative --prefix is relative to where `cmake --install` runs.
get_filename_component(install_prefix "${CMAKE_INSTALL_PREFIX}" ABSOLUTE BASE_DIR "$ENV{PWD}")
set(prefix "$ENV{DESTDIR}${install_prefix}")
string(MD5 key "${prefix}")
set(build "${MIOPEN_DRIVER_BINARY}/${key}")
foreach(step "-S;${MIOPEN_DRIVER_SOURCE};-B;${build};-DCMAKE_PREFIX_PATH=${prefix};-DCMAKE_BUILD_TYPE=Release;-DCMAKE_CXX_COMPILER=${MIOPEN_DRIVER_CXX}"
             "--build;${build}"
             "--install;${build};--prefix;${install_prefix}")
  execute_process(COMMAND ${CMAKE_COMMAND} ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "MIOpenDriver: cmake ${step} failed:\n${out}")
  endif()
endforeach()
message(STATUS "Installing: ${prefix}/bin/MIOpenDriver (built against ${prefix})")
