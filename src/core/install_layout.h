// Where an installed wgk keeps its run-time files, found from where wgk's own code is.
//
// `cmake --install build --prefix P` lays out
//   P/<libdir>/libwgk.so                      the library (what wgk::wgk links)
//   P/<libdir>/wgk/dawn.node                  Dawn (npm webgpu@0.6.2) and
//   P/<libdir>/wgk/libwgk_napi_stubs.so       the N-API stubs it is loaded with (docs/setup.md)
//   P/<datadir>/wgk/packages/                 the embedded kernel packages
//   P/<bindir>/wgk                            the command (links the layers statically)
// and the Python wheel nests the same layout inside its wgk/ package folder. The module holding
// this code (libwgk.so, or an executable linking the layers statically) finds P from its own file:
// when its folder ends in <libdir> or <bindir>, P is what precedes that. No path of the build or
// source tree is involved, so a prefix can be moved or copied anywhere; the WGK_* environment
// variables still come first wherever these paths are used (src/gpu/loader.cpp,
// src/runtime/package_loader.cpp).
//
//   if (auto dir = wgk::install::packagesDir()) open(*dir / "webgpu-kernels" / ...);
#pragma once

#include <filesystem>
#include <optional>

namespace wgk::install {

// The file of the module (shared library or executable) that contains this code; empty when the
// dynamic loader cannot say.
std::filesystem::path moduleFile();

// The install prefix holding that module, when the module lies in its <libdir> or <bindir>.
std::optional<std::filesystem::path> prefix();

// P/<datadir>/wgk/packages and P/<libdir>/wgk of that prefix (whether or not they exist); nullopt
// when the module is not in an install prefix (e.g. it runs from the build tree).
std::optional<std::filesystem::path> packagesDir();
std::optional<std::filesystem::path> runtimeFilesDir();

// The prefix a module in folder `moduleDir` belongs to, for the relative install folders `libdir`
// and `bindir` (exposed for tests): "/opt/wgk/lib" with libdir "lib" gives "/opt/wgk".
std::optional<std::filesystem::path> prefixOf(const std::filesystem::path& moduleDir,
                                              const std::filesystem::path& libdir,
                                              const std::filesystem::path& bindir);

}  // namespace wgk::install
