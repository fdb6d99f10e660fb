// Body of the N-API stubs in libwgk_napi_stubs.so (see CMakeLists.txt). dawn.node references these
// functions only from its Node module entry points, which wgk never calls; if one is ever reached,
// stop with a message naming it rather than jumping to a null address.
#pragma once

#include <stdio.h>
#include <stdlib.h>

static void wgk_napi_stub_called(const char* name) {
  fprintf(stderr,
          "wgk: fatal: dawn.node called the N-API function %s. wgk loads dawn.node outside Node.js and "
          "uses only its WebGPU C functions; this Dawn build is not the one wgk supports (npm "
          "webgpu@0.6.2).\n",
          name);
  abort();
}

#define WGK_NAPI_STUB(name)                                \
  __attribute__((visibility("default"))) void name(void) { \
    wgk_napi_stub_called(#name);                           \
  }
