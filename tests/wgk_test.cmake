# wgk_add_test(NAME name SOURCES ... LIBS ... [GPU]) : one GoogleTest binary, registered with ctest.
# GPU suites get the label "gpu" and run serially (one adapter, 2 cores); unit suites get "unit".
function(wgk_add_test)
  cmake_parse_arguments(T "GPU" "NAME" "SOURCES;LIBS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  # tests/support/: helpers every suite shares (#include "support/...").
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${T_NAME} PRIVATE
    WGK_SOURCE_DIR="${PROJECT_SOURCE_DIR}" WGK_SEEDS_DIR="${PROJECT_SOURCE_DIR}/tests/data/seeds")
  if(T_GPU)
    gtest_discover_tests(${T_NAME} PROPERTIES LABELS gpu RUN_SERIAL TRUE DISCOVERY_TIMEOUT 60)
  else()
    gtest_discover_tests(${T_NAME} PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
  endif()
endfunction()
