#include "wgk/error.h"

namespace wgk {

std::string_view errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument: return "invalid-argument";
    case ErrorCode::Parse: return "parse";
    case ErrorCode::Expression: return "expression";
    case ErrorCode::Template: return "template";
    case ErrorCode::Manifest: return "manifest";
    case ErrorCode::Contract: return "contract";
    case ErrorCode::NoVariant: return "no-variant";
    case ErrorCode::Io: return "io";
    case ErrorCode::Integrity: return "integrity";
    case ErrorCode::Network: return "network";
    case ErrorCode::NotFound: return "not-found";
    case ErrorCode::Trust: return "trust";
    case ErrorCode::Setup: return "setup";
    case ErrorCode::Gpu: return "gpu";
    case ErrorCode::OutOfMemory: return "out-of-memory";
    case ErrorCode::DeviceLost: return "device-lost";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::Internal: return "internal";
  }
  return "unknown";
}

Error::Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) { rebuild(); }

Error::Error(ErrorCode code, std::string message, std::vector<std::string> context)
    : code_(code), message_(std::move(message)), context_(std::move(context)) {
  rebuild();
}

Error Error::recoded(ErrorCode code, std::string message) const {
  Error e(code, std::move(message), context_);
  e.location_ = location_;
  return e;
}

Error& Error::at(SourceLocation location) {
  location_ = std::move(location);
  return *this;
}

Error& Error::with(std::string context) {
  context_.push_back(std::move(context));
  rebuild();
  return *this;
}

void Error::rebuild() {
  text_ = message_;
  for (const auto& c : context_) {
    text_ += "\n  ";
    text_ += c;
  }
}

}  // namespace wgk
