# Parley as an installed library (README, "Use Parley as a library"):
# `cmake --install BUILD` puts the `parley` executable in bin/, the libraries
# (static) in lib/, their headers under include/parley/ with the include paths
# they have in this tree ("runtime/world.hpp"), and a CMake package in
# lib/cmake/Parley/, so that another project writes
#   find_package(Parley 0.1 CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE Parley::parley)
# (or one library's target: Parley::runtime, Parley::actors, ...).
# `cpack -G DEB` in the build directory packs the same files as a .deb.
# Included from the top CMakeLists.txt once every target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# From the top floor down (README, "Layout"), the order they link in.
set(parley_libraries parley_cli parley_scenario parley_tournament parley_service parley_runtime
    parley_cluster parley_store parley_actors parley_config parley_messages
    parley_outcomes)
set(parley_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/Parley")

# Installed, includes are rooted at include/parley/ as they are at the
# repository root in this tree (the top CMakeLists.txt's BUILD_INTERFACE).
foreach(library parley_messages parley_outcomes)
  target_include_directories(${library} PUBLIC
                             "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/parley>")
  target_compile_features(${library} PUBLIC cxx_std_17)
endforeach()
# A sanitized build's libraries call the sanitizers' runtime: whatever links
# them must link it too (with the compiler Parley was built with).
if(PARLEY_SANITIZE)
  target_link_options(parley_messages INTERFACE
                      "$<INSTALL_INTERFACE:-fsanitize=address,undefined>")
endif()

# Parley::<folder> for each library, and Parley::parley for all of them.
foreach(library IN LISTS parley_libraries)
  string(REGEX REPLACE "^parley_" "" component "${library}")
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${component})
endforeach()
add_library(parley_package INTERFACE)
set_target_properties(parley_package PROPERTIES EXPORT_NAME parley)
target_link_libraries(parley_package INTERFACE ${parley_libraries})

install(TARGETS parley RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS ${parley_libraries} parley_package EXPORT ParleyTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")

# The headers of the libraries' folders, each under its own path, and the
# generated runtime/version.hpp.
foreach(folder messages outcomes config actors cluster runtime service tournament cli)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}"
       "${PROJECT_SOURCE_DIR}/${folder}/*.hpp")
  foreach(header IN LISTS headers)
    get_filename_component(header_dir "${header}" DIRECTORY)
    install(FILES "${PROJECT_SOURCE_DIR}/${header}"
            DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/parley/${header_dir}")
  endforeach()
endforeach()
install(FILES "${PROJECT_BINARY_DIR}/generated/runtime/version.hpp"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/parley/runtime")

# The package: the targets, its version, the config that finds what they
# link against, and the find modules of the libraries without a CMake package
# of their own on Debian (CAF, libpqxx).
install(EXPORT ParleyTargets NAMESPACE Parley:: DESTINATION "${parley_cmake_dir}")
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/ParleyConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/ParleyConfig.cmake"
  INSTALL_DESTINATION "${parley_cmake_dir}")
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/ParleyConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/ParleyConfig.cmake"
              "${PROJECT_BINARY_DIR}/ParleyConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/FindCAF.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/FindPQXX.cmake"
        DESTINATION "${parley_cmake_dir}")

# `cpack -G DEB`: one package, parley, with all of the above. Its Depends come
# from the shared libraries the executable links (dpkg-shlibdeps, from
# dpkg-dev); the development packages that building against the library
# needs are recommended.
set(PARLEY_PACKAGE_MAINTAINER
    "Parley maintainers <maintainers@users.noreply.a-seed-05c1ff6c.example>"
    CACHE STRING "Maintainer field of the .deb that cpack builds")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME parley)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "actor runtime for automated negotiation (C++17, CAF 0.17)")
# The summary is the Description's first line; this, the lines after it.
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Parley runs bilateral negotiations, ballots, auctions and multi-party channels\n"
    "between agents with rule, scripted or LLM brains, as CAF actors. This package\n"
    "holds the parley command (demo, run, bench, serve, node, db, stats) and the\n"
    "static libraries, headers and CMake package (find_package(Parley)) to build\n"
    "programs with brains of their own.")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PARLEY_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# zstd, as dpkg-deb itself chooses since Debian 12: the 800 MB of a sanitizer
# build (scripts/check-install.sh) pack in about half of gzip's CPU time.
set(CPACK_DEBIAN_COMPRESSION_TYPE zstd)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "g++ | clang, cmake, libcaf-dev, nlohmann-json3-dev, libcli11-dev, libcurl4-openssl-dev, libsqlite3-dev, libpqxx-dev, libboost-dev, prometheus-cpp-dev, libssl-dev")
include(CPack)
