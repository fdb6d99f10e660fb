# Install rules. `cmake --install build --prefix P` gives a relocatable tree (core/install_layout.h):
#   component "library": P/<libdir>/libwgk.so, P/<includedir>/wgk/, the CMake package
#                        (find_package(wgk) -> wgk::wgk), P/<libdir>/pkgconfig/wgk.pc, the Dawn
#                        run-time files P/<libdir>/wgk/{dawn.node, libwgk_napi_stubs.so} and the
#                        embedded packages P/<datadir>/wgk/packages
#   component "cli":     P/<bindir>/wgk
# `--component library` installs the library alone. Nothing installed names a path of the build or
# source tree: the library finds its files relative to its own location.
include(CMakePackageConfigHelpers)

# wgk_install_runtime_files(DESTINATION_PREFIX <folder> COMPONENT <c> [EXCLUDE_FROM_ALL]): the files
# libwgk.so looks for at run time, under <folder> (the prefix itself, or the Python package folder).
function(wgk_install_runtime_files)
  cmake_parse_arguments(A "EXCLUDE_FROM_ALL" "DESTINATION_PREFIX;COMPONENT" "" ${ARGN})
  set(exclude)
  if(A_EXCLUDE_FROM_ALL)
    set(exclude EXCLUDE_FROM_ALL)
  endif()
  set(root "${A_DESTINATION_PREFIX}")
  if(root)
    string(APPEND root "/")
  endif()
  install(TARGETS wgk_napi_stubs LIBRARY DESTINATION "${root}${CMAKE_INSTALL_LIBDIR}/wgk"
    COMPONENT ${A_COMPONENT} ${exclude})
  if(EXISTS "${WGK_DAWN_NODE}")
    install(FILES "${WGK_DAWN_NODE}" DESTINATION "${root}${CMAKE_INSTALL_LIBDIR}/wgk"
      COMPONENT ${A_COMPONENT} ${exclude})
    get_filename_component(dawn_package "${WGK_DAWN_NODE}/../../.." ABSOLUTE)
    if(EXISTS "${dawn_package}/LICENSE.md")
      install(FILES "${dawn_package}/LICENSE.md" DESTINATION "${root}${CMAKE_INSTALL_LIBDIR}/wgk"
        RENAME dawn.node.LICENSE.md COMPONENT ${A_COMPONENT} ${exclude})
    endif()
  else()
    message(WARNING "dawn.node not found at '${WGK_DAWN_NODE}' (run scripts/setup.sh): it will not be "
                    "installed, and an installed wgk will need WGK_DAWN_NODE or WGK_WEBGPU_LIBRARY")
  endif()
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/packages/" DESTINATION "${root}${CMAKE_INSTALL_DATADIR}/wgk/packages"
    COMPONENT ${A_COMPONENT} ${exclude})
endfunction()
if(NOT WGK_INSTALL)
  return()
endif()

# Stripped by default in optimised builds: the default RelWithDebInfo tree installs 314 MB with its
# debug info (bin/wgk 191 MB, libwgk.so 98 MB) and about 33 MB stripped. The same as `cmake --install
# --strip`; -DWGK_INSTALL_STRIP=OFF keeps the debug info. Debug builds are never stripped. The rule
# comes before every other install rule (CMP0082: a directory's rules run in the order written),
# for every component.
option(WGK_INSTALL_STRIP "strip installed binaries of Release, RelWithDebInfo and MinSizeRel builds" ON)
if(WGK_INSTALL_STRIP AND CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo|MinSizeRel)$")
  install(CODE "set(CMAKE_INSTALL_DO_STRIP TRUE)" ALL_COMPONENTS)
endif()

install(TARGETS wgk EXPORT wgkTargets COMPONENT library
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/wgk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT library)
install(EXPORT wgkTargets NAMESPACE wgk:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/wgk COMPONENT library)
configure_package_config_file(cmake/wgkConfig.cmake.in "${PROJECT_BINARY_DIR}/wgkConfig.cmake"
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/wgk)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/wgkConfigVersion.cmake" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/wgkConfig.cmake" "${PROJECT_BINARY_DIR}/wgkConfigVersion.cmake"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/wgk COMPONENT library)

# pkg-config: the prefix is computed from the .pc file's own folder, so it too survives a move.
file(RELATIVE_PATH wgk_pc_to_prefix "/wgk-prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/wgk-prefix")
configure_file(cmake/wgk.pc.in "${PROJECT_BINARY_DIR}/wgk.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/wgk.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT library)

wgk_install_runtime_files(COMPONENT library)

install(TARGETS wgk_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
