# One version string for --version, the protocol hello and the packages:
# the project version, plus the git description when built from a checkout.
set(RACKSCOPE_VERSION "${PROJECT_VERSION}")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${CMAKE_SOURCE_DIR}/.git")
    execute_process(
        COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --match "v*"
        WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
        OUTPUT_VARIABLE _rackscope_git OUTPUT_STRIP_TRAILING_WHITESPACE
        ERROR_QUIET RESULT_VARIABLE _rackscope_git_rc)
    if(_rackscope_git_rc EQUAL 0 AND _rackscope_git)
        string(REGEX REPLACE "^v" "" _rackscope_git "${_rackscope_git}")
        if(NOT _rackscope_git MATCHES "^${PROJECT_VERSION}")
            set(RACKSCOPE_VERSION "${PROJECT_VERSION}+g${_rackscope_git}")
        else()
            set(RACKSCOPE_VERSION "${_rackscope_git}")
        endif()
    endif()
endif()
message(STATUS "rackscope version ${RACKSCOPE_VERSION}")
configure_file("${CMAKE_SOURCE_DIR}/cmake/rackscope_version.h.in"
               "${CMAKE_BINARY_DIR}/generated/rackscope_version.h" @ONLY)
