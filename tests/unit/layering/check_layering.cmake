# 1. Link lines: the unit tests of the pure layers must not pull in wgk_gpu, libdl-loaded Dawn or
#    the N-API stubs. Each suite's link.txt is what the linker really ran.
set(pure_suites expr templates package plan reference io core)
set(checked 0)
foreach(suite IN LISTS pure_suites)
  file(GLOB links "${BINARY_DIR}/tests/unit/${suite}/CMakeFiles/*.dir/link.txt")
  foreach(link IN LISTS links)
    file(READ "${link}" text)
    math(EXPR checked "${checked} + 1")
    foreach(bad wgk_gpu wgk_runtime wgk_napi_stubs dawn)
      string(FIND "${text}" "${bad}" at)
      if(NOT at EQUAL -1)
        message(FATAL_ERROR "layering broken: ${link} links ${bad}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(checked LESS 5)
  message(FATAL_ERROR "layering check found only ${checked} pure test link lines under ${BINARY_DIR}/tests/unit")
endif()
# refuse(<files> <allowed folder regex> <line regex> <what>): no file outside the allowed folder
# holds a line matching the regex.
function(refuse files allowed regex what)
  foreach(f IN LISTS files)
    if(allowed AND f MATCHES "${allowed}")
      continue()
    endif()
    file(STRINGS "${f}" hits REGEX "${regex}")
    if(hits)
      message(FATAL_ERROR "layering broken: ${f} ${what}")
    endif()
  endforeach()
endfunction()
# 2. Sources: webgpu.h is included only under src/gpu/.
file(GLOB_RECURSE sources "${SOURCE_DIR}/src/*.h" "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/include/*.h")
refuse("${sources}" "/src/gpu/" "#include[ \t]*[<\"]webgpu/webgpu.h" "includes webgpu.h (only src/gpu/ may)")
# 3. No back door: runtime_impl.h is included only under src/runtime/ (wgk's own tools use
#    runtime/introspect.h), and the public headers hand out no impl().
file(GLOB_RECURSE everything "${SOURCE_DIR}/src/*.h" "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/include/*.h"
     "${SOURCE_DIR}/python/src/*.h" "${SOURCE_DIR}/python/src/*.cpp" "${SOURCE_DIR}/tests/*.h"
     "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tools/*.cpp" "${SOURCE_DIR}/fuzz/*.cpp")
refuse("${everything}" "/src/runtime/" "#include[ \t]*\"runtime/runtime_impl.h\""
       "includes runtime/runtime_impl.h (only src/runtime/ may; use runtime/introspect.h)")
file(GLOB public_headers "${SOURCE_DIR}/include/wgk/*.h")
refuse("${public_headers}" "" "[A-Za-z]+Impl& impl\\(\\)" "declares impl(); wgk's tools use runtime/introspect.h")
# 4. The Python module wgk._wgk lives on the public API: its sources (python/src, all but the
#    private test oracle reference_module.cpp) include only include/wgk/ headers and their own, and
#    its link line has no layer library (it links libwgk.so, which exports only the public API).
file(GLOB python_sources "${SOURCE_DIR}/python/src/*.h" "${SOURCE_DIR}/python/src/*.cpp")
set(python_checked 0)
foreach(f IN LISTS python_sources)
  if(f MATCHES "/reference_module\\.cpp$")
    continue()
  endif()
  math(EXPR python_checked "${python_checked} + 1")
  file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[^\"]*\"([^\"]*)\".*$" "\\1" header "${line}")
    if(NOT header MATCHES "^wgk/" AND NOT EXISTS "${SOURCE_DIR}/python/src/${header}")
      message(FATAL_ERROR "layering broken: ${f} includes \"${header}\" (wgk._wgk may include only "
                          "include/wgk/ headers and python/src's own)")
    endif()
  endforeach()
endforeach()
if(python_checked LESS 10)
  message(FATAL_ERROR "layering check found only ${python_checked} Python binding sources")
endif()
set(python_link "${BINARY_DIR}/python/CMakeFiles/wgk_python.dir/link.txt")
if(EXISTS "${python_link}")
  file(READ "${python_link}" text)
  if(text MATCHES "libwgk_[a-z]+\\.a")
    message(FATAL_ERROR "layering broken: ${python_link} links ${CMAKE_MATCH_0} (wgk._wgk links libwgk.so only)")
  endif()
endif()
# 5. runtime/introspect.h serves wgk's own tools (the harness, the CLI, tests), never the public
#    headers or the Python module.
refuse("${public_headers};${python_sources}" "" "#include[ \t]*\"runtime/introspect.h\""
       "includes runtime/introspect.h (wgk's tools only; the public API has Kernel::signature/plan)")
# 6. Options at the edges: the library reads no environment variable. Only core/environment.cpp
#    (the one reader), runtime/options.cpp (RuntimeOptions::fromEnvironment, which a caller asks
#    for) and the edges (the CLI here; python/src and tests are not under src/) may.
#    A call on a line that is not a comment: no '/' before it.
refuse("${sources}" "/src/(cli/|core/environment\\.(h|cpp)$|runtime/options\\.cpp$)"
       "^[^/]*(getenv|readEnvironment)[ \t]*\\("
       "reads the environment (only the edges may: take it from RuntimeOptions, see src/runtime/options.h)")
message(STATUS "layering ok: ${checked} pure link lines, no webgpu.h outside src/gpu, runtime_impl.h only in "
               "src/runtime, ${python_checked} Python sources on the public API, the environment read only at the edges")
