# cw_cc_library(NAME <name> SRCS ... DEPS ...)
#   One component = one static library `cw_<name>` (shared with CW_SHARED_COMPONENTS, the
#   AddressSanitizer build's default) with alias `cw::<name>`; include root is src/.
# cw_cc_test(NAME <name> SRCS ... DEPS ... [LABELS ...] [SLOW <Suite.Test>...])
#   A GoogleTest executable registered with ctest (tests discovered individually). The tests
#   named in SLOW get the label `slow` besides LABELS: sweeps that take tens of seconds under the
#   sanitizers and whose code a quicker test already runs there (`make test-asan` leaves them out).
include(GoogleTest)

function(cw_cc_library)
  cmake_parse_arguments(ARG "" "NAME" "SRCS;DEPS;PRIVATE_DEPS" ${ARGN})
  set(target cw_${ARG_NAME})
  string(REPLACE "/" "_" target ${target})
  if(CW_SHARED_COMPONENTS)
    add_library(${target} SHARED ${ARG_SRCS})
  else()
    add_library(${target} STATIC ${ARG_SRCS})
  endif()
  add_library(cw::${ARG_NAME} ALIAS ${target})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(${target} PRIVATE ${CW_WARNING_FLAGS})
  target_link_libraries(${target} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
endfunction()

function(cw_cc_test)
  cmake_parse_arguments(ARG "" "NAME" "SRCS;DEPS;LABELS;SLOW" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SRCS})
  # tests/CMakeLists.txt's CW_TEST_CODE_FLAGS: the warnings and the test code's optimisation.
  target_compile_options(${ARG_NAME} PRIVATE ${CW_TEST_CODE_FLAGS})
  # CW_SANITIZED: a sanitizer build (AddressSanitizer, or ThreadSanitizer for the tests of
  # concurrent code), which runs a test a second time, 5 to 20 times slower; sweeps that repeat
  # one code path over many inputs take fewer of them there.
  target_compile_definitions(${ARG_NAME} PRIVATE CW_SANITIZED=$<BOOL:${CW_SANITIZED_BUILD}>)
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  if(TARGET cw_test_pch)
    target_precompile_headers(${ARG_NAME} REUSE_FROM cw_test_pch)
  endif()
  set_target_properties(${ARG_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  set(environment "")
  if(CW_SANITIZE AND "mpi" IN_LIST ARG_LABELS)
    # The programs, mpirun and its daemons are not instrumented: the commands the test runs get
    # the sanitizer's runtime preloaded (tests/common/paths.h, RunCommand).
    set(environment "CW_SANITIZER_RUNTIME=${CW_ASAN_RUNTIME}")
  elseif(CW_SANITIZE)
    set(environment
        "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/lsan.supp:print_suppressions=0")
  endif()
  if(ARG_SLOW)
    list(JOIN ARG_SLOW ":" slow_filter)
    cw_discover_tests(${ARG_NAME} ${ARG_NAME}_quick_tests "-${slow_filter}" "${ARG_LABELS}"
      "${environment}")
    cw_discover_tests(${ARG_NAME} ${ARG_NAME}_slow_tests "${slow_filter}" "${ARG_LABELS};slow"
      "${environment}")
  else()
    cw_discover_tests(${ARG_NAME} ${ARG_NAME}_tests "*" "${ARG_LABELS}" "${environment}")
  endif()
endfunction()

# Registers the tests of <target> that <filter> (a --gtest_filter) selects as the list <list>,
# with <labels> and, when not empty, <environment>.
function(cw_discover_tests target list filter labels environment)
  set(properties TIMEOUT 300)
  if(environment)
    list(APPEND properties ENVIRONMENT "${environment}")
  endif()
  # MPI runs measure programmed waits of ~100 ms and compare the runtimes of two runs, with
  # more ranks than cores: any other test beside them (a second MPI run, a real-trace analysis,
  # a headless browser) delays their ranks by tens of milliseconds. They run alone, which costs
  # about 10 s of a 2-core test run.
  if("mpi" IN_LIST labels)
    list(APPEND properties RUN_SERIAL TRUE)
  endif()
  gtest_discover_tests(${target}
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
    TEST_FILTER "${filter}"
    TEST_LIST ${list}
    PROPERTIES ${properties}
    DISCOVERY_TIMEOUT 60)
  # The labels are set by a file ctest reads after the discovered tests: passed through
  # PROPERTIES, a list of labels loses its separators on the way to the discovery script and
  # turns into more key/value pairs.
  set(label_file ${CMAKE_CURRENT_BINARY_DIR}/${list}_labels.cmake)
  file(WRITE ${label_file}
    "foreach(test IN LISTS ${list})\n"
    "  set_tests_properties(\"\${test}\" PROPERTIES LABELS \"${labels}\")\n"
    "endforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${label_file})
endfunction()

# cw_embed_assets(<out_var> HEADER <header> NAMESPACE <ns> NAMES <kName>... FILES <file>...)
#   Generates ${CMAKE_CURRENT_BINARY_DIR}/<header's file name>.cc defining `extern const char
#   kName[]` with each file's bytes (cmake/EmbedAssets.cmake), rebuilt when a file changes, and
#   sets <out_var> to its path for the component's SRCS. Every self-contained page (report.html,
#   compare.html, tag.html) embeds its style, markup, script and Debian's d3 this way.
function(cw_embed_assets out_var)
  cmake_parse_arguments(ARG "" "HEADER;NAMESPACE" "NAMES;FILES" ${ARGN})
  list(LENGTH ARG_NAMES names)
  list(LENGTH ARG_FILES files)
  if(NOT names EQUAL files)
    message(FATAL_ERROR "cw_embed_assets: ${names} names for ${files} files")
  endif()
  set(pairs "")
  math(EXPR last "${names} - 1")
  foreach(i RANGE ${last})
    list(GET ARG_NAMES ${i} name)
    list(GET ARG_FILES ${i} file)
    list(APPEND pairs "${name}=${file}")
  endforeach()
  string(REPLACE ";" "|" assets_arg "${pairs}")
  get_filename_component(stem ${ARG_HEADER} NAME_WE)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/${stem}.cc)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DHEADER=${ARG_HEADER}
            -DNAMESPACE=${ARG_NAMESPACE} "-DASSETS=${assets_arg}"
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedAssets.cmake
    DEPENDS ${ARG_FILES} ${PROJECT_SOURCE_DIR}/cmake/EmbedAssets.cmake
    COMMENT "Embedding the assets of ${ARG_HEADER}"
    VERBATIM)
  # One literal of a quarter megabyte: nothing to share with the component's other sources, and
  # it stays out of the unity files that the naming check (make tidy) reads.
  set_source_files_properties(${output} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  set(${out_var} ${output} PARENT_SCOPE)
endfunction()
