#include "io/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "wgk/error.h"

namespace wgk {
namespace {
[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw Error(ErrorCode::Io, what + " '" + path + "': " + std::strerror(err));
}

// Closes the descriptor on every path out of a function.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};
}  // namespace

std::vector<std::byte> readFileBytes(const std::string& path) {
  // O_NONBLOCK: opening a FIFO without a writer would otherwise block before fstat() can refuse it
  // (it changes nothing for regular files).
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) fail("cannot open", path, errno);
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) fail("cannot stat", path, errno);
  if (S_ISDIR(st.st_mode)) throw Error(ErrorCode::Io, "'" + path + "' is a directory, not a file");
  // A device or pipe has no size and may never end (/dev/zero, /dev/urandom): reading it whole
  // would exhaust memory, so only regular files are read.
  if (!S_ISREG(st.st_mode))
    throw Error(ErrorCode::Io,
                "'" + path + "' is not a regular file (a device, pipe or socket cannot be read)");
  std::vector<std::byte> out;
  out.reserve(static_cast<size_t>(st.st_size));
  std::byte buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot read", path, errno);
    }
    if (n == 0) break;
    out.insert(out.end(), buf, buf + n);
  }
  return out;
}

void prepareOutputFolder(const std::string& dir) {
  if (dir.empty()) throw Error(ErrorCode::Io, "the output folder is empty");
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      throw Error(ErrorCode::Io, "output folder '" + dir + "' exists and is not a folder");
  } else {
    // Create each missing level; a level that exists as a file is reported by name.
    std::string prefix;
    size_t pos = 0;
    while (pos != std::string::npos) {
      pos = dir.find('/', pos + 1);
      prefix = dir.substr(0, pos);
      if (prefix.empty() || prefix == "/") continue;
      if (::stat(prefix.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode))
          throw Error(ErrorCode::Io, "cannot create output folder '" + dir + "': '" + prefix + "' is a file");
        continue;
      }
      if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST)
        fail("cannot create output folder", prefix, errno);
    }
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) fail("cannot write into output folder", dir, errno);
}

std::string pathInsideFolder(const std::string& dir, const std::string& name, const std::string& extension) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
      name.find('\0') != std::string::npos || name.size() > 200)
    throw Error(ErrorCode::Io, "refusing to write output '" + name.substr(0, 80) +
                                   "': not a plain file name inside '" + dir + "'");
  return dir + (dir.ends_with('/') ? "" : "/") + name + extension;
}

void writeFileAtomic(const std::string& path, std::span<const std::byte> bytes) {
  static std::atomic<unsigned> counter{0};
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  {
    Fd f{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
    if (f.fd < 0) fail("cannot create", tmp, errno);
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(f.fd, bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        const int err = errno;
        ::unlink(tmp.c_str());
        fail("cannot write", tmp, err);
      }
      done += static_cast<size_t>(n);
    }
    int err = ::fsync(f.fd) != 0 ? errno : 0;
    if (::close(f.fd) != 0 && err == 0) err = errno;
    f.fd = -1;
    if (err != 0) {
      ::unlink(tmp.c_str());
      fail("cannot flush", tmp, err);
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail("cannot rename a temporary file onto", path, err);
  }
}

}  // namespace wgk
