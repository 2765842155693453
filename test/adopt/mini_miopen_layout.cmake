# The mini MIOpen in MIOpen's own layout, for `miopen-wrap adopt` (which, as
# on a real tree, renames src/ only): a copy of test/mini-miopen without its
# op folders, each op's src/ merged into src/ (the same merge the test bed's
# split build makes: cmake/MiniMIOpen.cmake, mini_miopen_merge_sources).
#   cmake -DSOURCE=<test/mini-miopen> -DDEST=<dir> -P mini_miopen_layout.cmake
foreach(var SOURCE DEST)
  if(NOT ${var})
    message(FATAL_ERROR "mini_miopen_layout.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${DEST})
file(COPY ${SOURCE}/ DESTINATION ${DEST} PATTERN ops EXCLUDE)
file(GLOB op_sources LIST_DIRECTORIES true ${SOURCE}/ops/*/src)
if(NOT op_sources)
  message(FATAL_ERROR "mini_miopen_layout.cmake: no op folder with a src/ under ${SOURCE}/ops")
endif()
foreach(op_src IN LISTS op_sources)
  file(COPY ${op_src}/ DESTINATION ${DEST}/src)
endforeach()
