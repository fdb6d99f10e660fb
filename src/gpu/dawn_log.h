// Dawn's own messages routed into wgk's log (core/log.h) instead of straight onto stderr.
// Two paths: the device's logging callback (messages Dawn emits through the device), and, around
// instance and adapter setup, Dawn's direct stderr writes (limits "artificially reduced ... to fit
// dawn's internal limits" are written by dawn::WarningLog with no callback). Both land in the log
// as level info (Dawn warnings: not actionable by a wgk user) or warn (Dawn errors).
#pragma once

#include <cstdio>
#include <string>

#include "gpu/webgpu_procs.h"

namespace wgk::gpu {

// The device logging callback (userdata unused).
void onDawnLog(WGPULoggingType type, WGPUStringView message, void*, void*);

// Redirects file descriptor 2 into a temporary file for its lifetime and, on destruction, writes
// each captured line into the log (source "dawn"). Process-wide: another thread's stderr output
// during the capture is logged too (at info), so capture only short setup calls. Nests as a no-op.
class DawnStderrCapture {
 public:
  DawnStderrCapture();
  ~DawnStderrCapture();
  DawnStderrCapture(const DawnStderrCapture&) = delete;
  DawnStderrCapture& operator=(const DawnStderrCapture&) = delete;

 private:
  int saved_ = -1;
  int exceptions_ = 0;  // uncaught at construction: more at destruction means setup failed
  std::FILE* file_ = nullptr;
};

// Writes one Dawn message (maybe several lines; a "Warning: " prefix is dropped) into the log.
void logDawnText(const std::string& text, bool isError);

}  // namespace wgk::gpu
