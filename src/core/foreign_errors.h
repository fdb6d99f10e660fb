// core/foreign_errors.h — filesystem and JSON exceptions become wgk::Error at a layer's boundary.
//
// Inside a layer, std::filesystem and nlohmann::json may throw their own exceptions (a directory
// that cannot be created, a JSON value of the wrong type). No such exception leaves a layer's
// entry points: each is wrapped in asWgkErrors, which turns them into wgk::Error with a code
// (filesystem -> Io, JSON syntax -> Parse, JSON shape -> Manifest) and the text of the original.
// wgk::Error itself, and every other exception, pass through untouched (the context chain stays).
#pragma once

#include <new>
#include <string>
#include <utility>

#include "wgk/error.h"

namespace wgk {

// Call only inside a catch block: rethrows the exception being handled, as a wgk::Error when it
// is a std::filesystem::filesystem_error or a nlohmann::json::exception, else as it is.
[[noreturn]] void rethrowAsWgkError();

template <class Fn>
decltype(auto) asWgkErrors(Fn&& fn) {
  try {
    return std::forward<Fn>(fn)();
  } catch (const Error&) {
    throw;
  } catch (...) {
    rethrowAsWgkError();
  }
}

// Runs fn(); a std::bad_alloc escaping it (the host's memory exhausted by something an input made
// wgk build) becomes Error(code, "ran out of host memory <what> ..."): a clear error with the exit
// code of the input's kind (a package's Manifest: 4, a server's answer Network: 5), never an abort.
[[noreturn]] void throwOutOfHostMemory(ErrorCode code, const std::string& what);

template <class Fn>
decltype(auto) hostMemoryErrorsAs(ErrorCode code, const std::string& what, Fn&& fn) {
  try {
    return std::forward<Fn>(fn)();
  } catch (const std::bad_alloc&) {
    throwOutOfHostMemory(code, what);
  }
}

}  // namespace wgk
