#include "gpu/dawn_log.h"

#include <unistd.h>

#include <atomic>
#include <exception>
#include <sstream>

#include "core/log.h"

namespace wgk::gpu {
namespace {
std::atomic<bool> capturing{false};
}

void logDawnText(const std::string& text, bool isError) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    bool error = isError;
    for (const char* prefix : {"Warning: ", "Info: ", "Debug: "})
      if (line.rfind(prefix, 0) == 0) line = line.substr(std::string(prefix).size());
    if (line.rfind("Error: ", 0) == 0) {
      line = line.substr(7);
      error = true;
    }
    log::write(error ? log::Level::Warn : log::Level::Info, "dawn", line);
  }
}

void onDawnLog(WGPULoggingType type, WGPUStringView message, void*, void*) {
  const std::string text = fromView(message);
  if (type == WGPULoggingType_Verbose) {
    log::debug("dawn", text);
    return;
  }
  logDawnText(text, type == WGPULoggingType_Error);
}

DawnStderrCapture::DawnStderrCapture() {
  if (capturing.exchange(true)) return;  // an outer capture is active
  exceptions_ = std::uncaught_exceptions();
  std::fflush(stderr);
  file_ = std::tmpfile();
  saved_ = file_ ? dup(STDERR_FILENO) : -1;
  if (saved_ < 0 || dup2(fileno(file_), STDERR_FILENO) < 0) {
    if (saved_ >= 0) close(saved_);
    if (file_) std::fclose(file_);
    saved_ = -1;
    file_ = nullptr;
    capturing = false;
  }
}

DawnStderrCapture::~DawnStderrCapture() {
  if (!file_) return;
  std::fflush(stderr);
  dup2(saved_, STDERR_FILENO);
  close(saved_);
  std::string text;
  std::rewind(file_);
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, file_)) > 0;) text.append(buf, n);
  std::fclose(file_);
  capturing = false;
  // Setup failed (an exception is unwinding): what Dawn said may explain it, so it is a warning.
  logDawnText(text, std::uncaught_exceptions() > exceptions_);
}

}  // namespace wgk::gpu
