# MIOpenHipdnnWrapper.cmake -- turn a MIOpen implementation library into the
# public/private pair of RFC 0001:
#
#   lib<OUTPUT_NAME>.so.<X>   thin wrapper (Rust staticlib linked whole), exports
#                             the public C API verbatim, DT_NEEDED on Private
#   lib<private>.so.<X>       the implementation, entry points renamed to _impl
#
# Usage (the runtime crate imported with miopen_wrap_import_runtime(), see
# MIOpenWrapCorrosion.cmake):
#
#   miopen_wrap_add_wrapper(
#     WRAPPER_TARGET MIOpen             # new target
#     PRIVATE_TARGET MIOpen_private     # the existing implementation library target
#     PUBLIC_HEADER  <path>/miopen/miopen.h
#     PARSE_INCLUDE_DIRS <dir>...       # what parsing the header needs (config.h, export.h, HIP)
#     PUBLIC_INCLUDE_DIRS <dir>...      # BUILD_INTERFACE include dirs of the public API
#     VERSION_NODE   MIOPEN_HIP_1       # version node of the pre-wrapper library's exports
#     [OUTPUT_NAME   <name>]            # lib<name>.so (default: WRAPPER_TARGET)
#     [VERSION <x.y.z>] [SOVERSION <X>] # default: the private target's VERSION / SOVERSION
#     [RELEASE_VERSION <x.y.z>]         # MIOpen's release, stamped into both libraries
#                                       #   for the co-versioning gate (default: VERSION)
#     [EXPORT_MAP    <file>]            # version script (default: the generated libMIOpen.map)
#     [GENERATOR     <exe|target>]      # miopen-wrap (default: target miopen-wrap, else
#                                       #   MIOPEN_WRAP_EXECUTABLE)
#     [RUNTIME_LIBRARY <target>]        # the runtime staticlib (default miopen_abi_runtime-static)
#     [RENAME_REPORT <json>]            # `miopen-wrap rename --report`: survivors get stubs
#     [RENAME_TARGET <target>]          # the target that produces RENAME_REPORT
#     [CHECK_SURVIVOR_CALLS_IN <src>...] # the private target's sources that define the
#                                       #   survivors the forwarding handlers call
#                                       #   (src_patches/survivor-calls.json): the generated
#                                       #   prototypes are force-included there, so the
#                                       #   compiler checks them against the definitions
#     [FORWARD_GROUPS <group>...]       # the family groups this build forwards (default:
#                                       #   MIOPEN_HIPDNN_FORWARD_GROUPS, else the generator's
#                                       #   default, convolution; `none`: no group)
#     [INSTALL]                         # install miopen_impl.h, hipdnn_forwarding.h, the manifest
#     [INSTALL_EXPORT <export-set>])    # INSTALL, and both libraries into this export set
#
# The generated files (stubs, miopen_impl.h, export map, manifest, type check)
# live in ${CMAKE_CURRENT_BINARY_DIR}/<WRAPPER_TARGET>_generated only.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(${CMAKE_CURRENT_LIST_DIR}/MIOpenWrapCorrosion.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/MIOpenWrapInstall.cmake)
# The wrapper's own public headers (include/ of this repository).
set(_MIOPEN_WRAP_INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include)
set(MIOPEN_WRAP_EXECUTABLE "" CACHE FILEPATH
  "An installed miopen-wrap (used when this build does not build the tool itself)")
# The compile-time forwarding set (RFC §4.4): empty means the generator's
# default (convolution, this RFC's set, through its three APIs); the accepted names are the groups of
# rust/forwarding-core/src/family.rs, checked by `miopen-wrap generate`.
set(MIOPEN_HIPDNN_FORWARD_GROUPS "" CACHE STRING
  "Family groups the wrapper forwards to hipDNN, a list (e.g. convolution;fusion;find2;batchnorm), or none; empty: convolution;fusion;find2")


function(_miopen_wrap_generator out)
  if(TARGET miopen-wrap)
    set(${out} miopen-wrap PARENT_SCOPE)
  elseif(MIOPEN_WRAP_EXECUTABLE)
    set(${out} ${MIOPEN_WRAP_EXECUTABLE} PARENT_SCOPE)
  else()
    message(FATAL_ERROR "miopen_wrap_add_wrapper: no miopen-wrap: pass GENERATOR, set "
      "-DMIOPEN_WRAP_EXECUTABLE=<installed miopen-wrap>, or import the tool (miopen_wrap_import_tool)")
  endif()
endfunction()

function(miopen_wrap_add_wrapper)
  set(one WRAPPER_TARGET PRIVATE_TARGET PUBLIC_HEADER VERSION_NODE VERSION SOVERSION OUTPUT_NAME
          RELEASE_VERSION EXPORT_MAP GENERATOR RUNTIME_LIBRARY RENAME_REPORT RENAME_TARGET INSTALL_EXPORT)
  set(multi PARSE_INCLUDE_DIRS PUBLIC_INCLUDE_DIRS CHECK_SURVIVOR_CALLS_IN FORWARD_GROUPS)
  cmake_parse_arguments(W "INSTALL" "${one}" "${multi}" ${ARGN})
  foreach(req WRAPPER_TARGET PRIVATE_TARGET PUBLIC_HEADER VERSION_NODE)
    if(NOT W_${req})
      message(FATAL_ERROR "miopen_wrap_add_wrapper: ${req} is required")
    endif()
  endforeach()
  if(NOT W_OUTPUT_NAME)
    set(W_OUTPUT_NAME ${W_WRAPPER_TARGET})
  endif()
  # The pair is one release: the wrapper carries the private library's version.
  foreach(p VERSION SOVERSION)
    if(NOT W_${p})
      get_target_property(W_${p} ${W_PRIVATE_TARGET} ${p})
    endif()
    if(NOT W_${p})
      message(FATAL_ERROR "miopen_wrap_add_wrapper: pass ${p} or set it on ${W_PRIVATE_TARGET}")
    endif()
  endforeach()
  if(NOT W_RUNTIME_LIBRARY)
    set(W_RUNTIME_LIBRARY miopen_abi_runtime-static)
  endif()
  if(NOT TARGET ${W_RUNTIME_LIBRARY})
    message(FATAL_ERROR "miopen_wrap_add_wrapper: no runtime library target `${W_RUNTIME_LIBRARY}`; "
      "import the runtime crate first (miopen_wrap_import_runtime)")
  endif()
  if(NOT W_GENERATOR)
    _miopen_wrap_generator(W_GENERATOR)
  endif()

  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${W_WRAPPER_TARGET}_generated)
  set(survivor_calls_check ${gen}/include/miopen_wrap/survivor_calls_check.h)
  set(outputs ${gen}/bindings.rs ${gen}/entry_points.rs ${gen}/stubs.rs ${gen}/include/miopen/miopen_impl.h ${gen}/libMIOpen.map
              ${gen}/manifest.json ${gen}/impl_typecheck.cpp ${survivor_calls_check})
  if(NOT W_EXPORT_MAP)
    set(W_EXPORT_MAP ${gen}/libMIOpen.map)
  endif()
  set(args generate --header ${W_PUBLIC_HEADER} --version-node ${W_VERSION_NODE} --out-dir ${gen})
  foreach(d IN LISTS W_PARSE_INCLUDE_DIRS)
    list(APPEND args -I ${d})
  endforeach()
  if(NOT DEFINED W_FORWARD_GROUPS)
    set(W_FORWARD_GROUPS ${MIOPEN_HIPDNN_FORWARD_GROUPS})
  endif()
  if(W_FORWARD_GROUPS)
    list(JOIN W_FORWARD_GROUPS "," groups)
    list(APPEND args --forward-groups ${groups})
  endif()
  set(deps ${W_PUBLIC_HEADER} ${W_GENERATOR})
  if(W_RENAME_REPORT)
    list(APPEND args --rename-report ${W_RENAME_REPORT})
    list(APPEND deps ${W_RENAME_REPORT})
  endif()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${W_GENERATOR} ${args}
    DEPENDS ${deps}
    COMMENT "miopen-wrap generate: stubs, miopen_impl.h, export map, manifest"
    VERBATIM)
  add_custom_target(${W_WRAPPER_TARGET}_generate DEPENDS ${outputs})
  if(W_RENAME_TARGET)
    add_dependencies(${W_WRAPPER_TARGET}_generate ${W_RENAME_TARGET})
  endif()

  # The Rust staticlib includes the generated stubs (see rust/wrapper/build.rs).
  string(REGEX REPLACE "-static$" "" runtime_crate ${W_RUNTIME_LIBRARY})
  corrosion_set_env_vars(${runtime_crate} MIOPEN_WRAP_GENERATED_DIR=${gen})
  miopen_wrap_before_cargo(${runtime_crate} ${W_WRAPPER_TARGET}_generate)

  # Version metadata embedded in both libraries for the co-versioning gate:
  # the release (MIOpen 3.3.0), not the file version (MIOpen's libraries are
  # libMIOpen.so.1.0 for every 3.x release).
  if(NOT W_RELEASE_VERSION)
    set(W_RELEASE_VERSION ${W_VERSION})
  endif()
  if(NOT W_RELEASE_VERSION MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+$")
    message(FATAL_ERROR "miopen_wrap_add_wrapper: RELEASE_VERSION '${W_RELEASE_VERSION}' is not "
      "<major>.<minor>.<patch>, the form of the .miopen_version stamp")
  endif()
  set(stamp ${gen}/miopen_version_stamp.c)
  file(CONFIGURE OUTPUT ${stamp} CONTENT
"/* Generated by MIOpenHipdnnWrapper.cmake: the release both libraries belong to. */
__attribute__((used, section(\".miopen_version\")))
static const char miopen_version_stamp[] = \"miopen-version:@W_RELEASE_VERSION@\";
" @ONLY)

  # --- MIOpen Private ------------------------------------------------------
  get_target_property(private_output ${W_PRIVATE_TARGET} OUTPUT_NAME)
  if(NOT private_output)
    set(private_output ${W_PRIVATE_TARGET})
  endif()
  if(private_output STREQUAL W_OUTPUT_NAME)
    message(FATAL_ERROR "miopen_wrap_add_wrapper: ${W_PRIVATE_TARGET} and ${W_WRAPPER_TARGET} would both be "
      "lib${W_OUTPUT_NAME}.so; give ${W_PRIVATE_TARGET} its own OUTPUT_NAME (e.g. ${W_PRIVATE_TARGET})")
  endif()
  set_target_properties(${W_PRIVATE_TARGET} PROPERTIES
    OUTPUT_NAME ${private_output} VERSION ${W_VERSION} SOVERSION ${W_SOVERSION})
  target_sources(${W_PRIVATE_TARGET} PRIVATE ${stamp})
  # The survivors the forwarding handlers call are bound from the prototypes
  # they assume; the sources defining them see those prototypes first, so a
  # definition of another type does not compile.
  foreach(src IN LISTS W_CHECK_SURVIVOR_CALLS_IN)
    set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS -include ${survivor_calls_check})
    set_property(SOURCE ${src} APPEND PROPERTY OBJECT_DEPENDS ${survivor_calls_check})
  endforeach()
  if(W_CHECK_SURVIVOR_CALLS_IN)
    add_dependencies(${W_PRIVATE_TARGET} ${W_WRAPPER_TARGET}_generate)
  endif()
  # miopen_impl.h reaches consumers of the private library only (INTERFACE):
  # the implementation itself never sees it.
  target_include_directories(${W_PRIVATE_TARGET} INTERFACE
    $<BUILD_INTERFACE:${gen}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/miopen_private>)

  # --- MIOpen Public (the wrapper) -------------------------------------------
  add_library(${W_WRAPPER_TARGET} SHARED ${stamp})
  # Whole archive: every stub is an export even though nothing in the .so
  # references it. Private comes after the archive, which is what gives the
  # wrapper its DT_NEEDED on the private library. Private is linked as its
  # file, not as its target: the target's usage requirements (MIOpen links
  # Boost and librt into its interface) are the implementation's, and the
  # wrapper needs nothing but the private library and the C runtime.
  target_link_libraries(${W_WRAPPER_TARGET} PRIVATE
    "$<LINK_LIBRARY:WHOLE_ARCHIVE,${W_RUNTIME_LIBRARY}>" "$<TARGET_LINKER_FILE:${W_PRIVATE_TARGET}>")
  add_dependencies(${W_WRAPPER_TARGET} ${W_PRIVATE_TARGET})
  target_link_options(${W_WRAPPER_TARGET} PRIVATE
    "LINKER:--version-script=${W_EXPORT_MAP}" "LINKER:--no-undefined")
  set_target_properties(${W_WRAPPER_TARGET} PROPERTIES
    OUTPUT_NAME ${W_OUTPUT_NAME} VERSION ${W_VERSION} SOVERSION ${W_SOVERSION}
    LINKER_LANGUAGE C LINK_DEPENDS ${W_EXPORT_MAP}
    # The pair is installed side by side: the wrapper finds its private
    # library next to itself wherever the pair is installed or bundled.
    INSTALL_RPATH "$ORIGIN")
  add_dependencies(${W_WRAPPER_TARGET} ${W_WRAPPER_TARGET}_generate)
  foreach(d IN LISTS W_PUBLIC_INCLUDE_DIRS)
    target_include_directories(${W_WRAPPER_TARGET} INTERFACE $<BUILD_INTERFACE:${d}>)
  endforeach()
  # The wrapper's own public header (miopenGetLastForwardedError), next to miopen.h.
  target_include_directories(${W_WRAPPER_TARGET} INTERFACE
    $<BUILD_INTERFACE:${_MIOPEN_WRAP_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

  # --- compile-time conformance: &miopenFoo and &miopenFoo_impl agree --------
  add_library(${W_WRAPPER_TARGET}_impl_typecheck OBJECT ${gen}/impl_typecheck.cpp)
  # Order after the one target that runs the generator, so the rule never runs twice at once.
  add_dependencies(${W_WRAPPER_TARGET}_impl_typecheck ${W_WRAPPER_TARGET}_generate)
  target_include_directories(${W_WRAPPER_TARGET}_impl_typecheck PRIVATE
    ${gen}/include ${W_PUBLIC_INCLUDE_DIRS} ${W_PARSE_INCLUDE_DIRS})
  target_compile_definitions(${W_WRAPPER_TARGET}_impl_typecheck PRIVATE MIOPEN_BETA_API=1)
  target_compile_features(${W_WRAPPER_TARGET}_impl_typecheck PRIVATE cxx_std_17)
  add_dependencies(${W_WRAPPER_TARGET} ${W_WRAPPER_TARGET}_impl_typecheck)

  # For tests and gates in the same build: where the generated files are.
  set_property(TARGET ${W_WRAPPER_TARGET} PROPERTY MIOPEN_WRAP_GENERATED_DIR ${gen})

  # --- install: the one place -------------------------------------------------
  if(W_INSTALL_EXPORT)
    install(TARGETS ${W_WRAPPER_TARGET} ${W_PRIVATE_TARGET} EXPORT ${W_INSTALL_EXPORT}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  endif()
  if(W_INSTALL OR W_INSTALL_EXPORT)
    # The private include subtree, which only the private library's interface points at.
    _miopen_wrap_install_file(${gen}/include/miopen/miopen_impl.h ${CMAKE_INSTALL_INCLUDEDIR}/miopen_private/miopen)
    _miopen_wrap_install_file(${_MIOPEN_WRAP_INCLUDE_DIR}/miopen/hipdnn_forwarding.h ${CMAKE_INSTALL_INCLUDEDIR}/miopen)
    _miopen_wrap_install_file(${gen}/manifest.json ${CMAKE_INSTALL_DATADIR}/miopen-wrap)
  endif()

  message(STATUS "MIOpen hipDNN wrapper: lib${W_OUTPUT_NAME}.so.${W_SOVERSION} (version ${W_VERSION}, "
    "exports at ${W_VERSION_NODE}) wraps lib${private_output}.so.${W_SOVERSION}; stubs generated by ${W_GENERATOR}")
endfunction()
