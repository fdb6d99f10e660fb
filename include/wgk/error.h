// wgk/error.h — the one error type of wgk.
//
// Every failure wgk reports is a wgk::Error (an exception): a code saying what kind of failure it
// is, a message saying what was wrong, and a context chain saying where (which package, which
// variant, which JSON path, which expression), innermost first. Layers add context as the error
// rises, so the text a user reads names everything needed to find the fault. A context entry is a
// whole phrase ("in variant vec4", "while reading manifest.json"): the error adds no word of its
// own, only one indented line per entry.
//
//
//   try {
//     auto kernel = runtime.load("webgpu-kernels/com.microsoft.FastGelu");
//   } catch (const wgk::Error& e) {
//     std::cerr << e.what() << "\n";   // message, then one "\n  <context>" line per entry
//     if (e.code() == wgk::ErrorCode::NotFound) { ... }
//     if (e.location()) editor.open(e.location()->file, e.location()->line);  // a template's error
//   }
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wgk/export.h"

namespace wgk {

enum class ErrorCode {
  InvalidArgument,  // a caller passed something malformed (usage, bad option value)
  Parse,            // malformed JSON, expression or template syntax
  Expression,       // an expression failed to evaluate (unknown name, type error, division by zero)
  Template,         // template rendering failed or exceeded a limit
  Manifest,         // a manifest, metadata, test or bench file does not match its schema
  Contract,         // a request breaks the op contract (missing input, wrong dtype/rank/shape, attribute)
  NoVariant,        // no variant is eligible for the request
  Io,               // file system or tensor-file error
  Integrity,        // a digest or npm integrity check failed
  Network,          // download failed (HTTP status, timeout, connection)
  NotFound,         // a package, file, revision or symbol does not exist
  Trust,            // a package outside the trusted organisations was refused
  Setup,            // the WebGPU library, driver or adapter is missing or unusable
  Gpu,              // a WebGPU validation error, shader compilation error or failed operation
  OutOfMemory,      // the device could not allocate
  DeviceLost,       // the device was lost
  Unsupported,      // valid, but not implemented by this build or device
  Internal,         // a bug in wgk
};

// Stable lower-case name of a code ("no-variant", "out-of-memory", ...), used in JSON output.
WGK_API std::string_view errorCodeName(ErrorCode code);

// Where in a source file an error is, as fields (the text says it too, in a context entry):
// a template's file (relative to the package's build/webgpu/), 1-based line and column (0: only
// the line is known). Lines are the file's own, also for a file another one includes.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

class WGK_API Error : public std::exception {
 public:
  Error(ErrorCode code, std::string message);
  Error(ErrorCode code, std::string message, std::vector<std::string> context);

  // The same context chain with another code and message (a layer that reclassifies an error it
  // caught keeps where it happened): `throw e.recoded(ErrorCode::Contract, e.message());`.
  Error recoded(ErrorCode code, std::string message) const;

  ErrorCode code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }
  // Innermost first: {"in expression `a + b`", "in variant vec4", "in package ..."}.
  const std::vector<std::string>& context() const noexcept { return context_; }

  // Appends an outer context entry and returns *this, for `catch (Error& e) { throw e.with(..); }`.
  Error& with(std::string context);

  // Where the error is in a source file, when the layer that found it knew (template errors).
  const std::optional<SourceLocation>& location() const noexcept { return location_; }
  // Sets (or, for a layer that maps it to the real file, replaces) the location; returns *this.
  Error& at(SourceLocation location);

  // The message followed by one "\n  <context>" line per entry, innermost first.
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  void rebuild();
  ErrorCode code_;
  std::string message_;
  std::vector<std::string> context_;
  std::optional<SourceLocation> location_;
  std::string text_;
};

// Runs fn(); a wgk::Error escaping it gets `context` (a whole phrase: "while reading x") appended
// and is rethrown as it is (`throw;`, never a copy rebuilt from what()).
template <class Fn>
decltype(auto) withContext(std::string_view context, Fn&& fn) {
  try {
    return std::forward<Fn>(fn)();
  } catch (Error& e) {
    e.with(std::string(context));
    throw;
  }
}

}  // namespace wgk
