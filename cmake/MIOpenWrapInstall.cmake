# MIOpenWrapInstall.cmake -- _miopen_wrap_install_file(<file> <destination>):
# install(FILES) through rocm_install when the project has it (ROCm
# packaging components), plain install() otherwise. Used by
# MIOpenHipdnnWrapper.cmake and by src_patches/cmake/MIOpenWrapAdopt.cmake
# (which needs it also when the wrapper is off and nothing else of this
# repository's CMake is loaded).
include_guard(GLOBAL)

function(_miopen_wrap_install_file file dest)
  if(COMMAND rocm_install)
    rocm_install(FILES ${file} DESTINATION ${dest})
  else()
    install(FILES ${file} DESTINATION ${dest})
  endif()
endfunction()
