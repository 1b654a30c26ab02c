# Finds libpqxx and libpq (Debian's libpqxx-dev ships no CMake package) and
# defines PQXX::pqxx: libpqxx, linking libpq.
find_path(PQXX_INCLUDE_DIR pqxx/pqxx)
find_library(PQXX_LIBRARY pqxx)
find_library(PQ_LIBRARY pq)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PQXX
  REQUIRED_VARS PQXX_LIBRARY PQ_LIBRARY PQXX_INCLUDE_DIR)

if(PQXX_FOUND AND NOT TARGET PQXX::pqxx)
  add_library(PQXX::pqxx UNKNOWN IMPORTED)
  set_target_properties(PQXX::pqxx PROPERTIES
    IMPORTED_LOCATION "${PQXX_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PQXX_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${PQ_LIBRARY}")
endif()
mark_as_advanced(PQXX_INCLUDE_DIR PQXX_LIBRARY PQ_LIBRARY)
