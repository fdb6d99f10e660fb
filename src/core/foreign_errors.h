// core/foreign_errors.h — filesystem and JSON exceptions become wgk::Error at a layer's boundary.
//
// Inside a layer, std::filesystem and nlohmann::json may throw their own exceptions (a directory
// that cannot be created, a JSON value of the wrong type). No such exception leaves a layer's
// entry points: each is wrapped in asWgkErrors, which turns them into wgk::Error with a code
// (filesystem -> Io, JSON syntax -> Parse, JSON shape -> Manifest) and the text of the original.
// wgk::Error itself, and every other exception, pass through untouched (the context chain stays).
#pragma once

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

}  // namespace wgk
