#include "hub/fs_util.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "wgk/error.h"

namespace wgk::hub {

std::string readFileBytes(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw Error(ErrorCode::NotFound, "file not found: " + path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::Io, "cannot open " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) throw Error(ErrorCode::Io, "cannot read " + path.string());
  return out.str();
}

static std::string randomSuffix() {
  static thread_local std::mt19937_64 rng{std::random_device{}() ^ (uint64_t(::getpid()) << 32)};
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 12; ++i) s += digits[rng() % 16];
  return s;
}

void writeFileAtomic(const fs::path& path, const std::string& bytes) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  fs::path tmp = path;
  tmp += ".tmp-" + randomSuffix();
  // The system's reason ("No space left on device", "Read-only file system") is the useful part.
  auto why = [] { return std::string(": ") + (errno ? std::strerror(errno) : "unknown error"); };
  {
    // A new file only (O_EXCL), never through a link planted under the temporary name.
    errno = 0;
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw Error(ErrorCode::Io, "cannot write " + tmp.string() + why());
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    const std::string reason = done < bytes.size() ? why() : std::string();
    if (::close(fd) != 0 || done < bytes.size()) {
      removeQuietly(tmp);
      throw Error(ErrorCode::Io, "cannot write " + tmp.string() + (reason.empty() ? why() : reason));
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    removeQuietly(tmp);
    throw Error(ErrorCode::Io, "cannot rename into " + path.string() + ": " + ec.message());
  }
}

std::vector<std::string> listFilesRecursive(const fs::path& root) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw Error(ErrorCode::NotFound, "folder not found: " + root.string());
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file()) out.push_back(fs::relative(it->path(), root).generic_string());
  }
  if (ec) throw Error(ErrorCode::Io, "cannot list " + root.string() + ": " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

void checkSafeRelativePath(const std::string& rel, const std::string& what) {
  auto bad = [&](const std::string& why) {
    throw Error(ErrorCode::Integrity, what + " names an unsafe file path \"" + rel + "\" (" + why + ")");
  };
  if (rel.empty()) bad("empty");
  if (rel.front() == '/') bad("absolute");
  if (rel.find('\\') != std::string::npos) bad("backslash");
  if (rel.find('\0') != std::string::npos) bad("NUL byte");
  size_t start = 0;
  while (start <= rel.size()) {
    size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    std::string seg = rel.substr(start, end - start);
    if (seg.empty() || seg == "." || seg == "..") bad("empty, '.' or '..' segment");
    start = end + 1;
  }
}

TempDir::TempDir(const fs::path& parent, const std::string& prefix) {
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw Error(ErrorCode::Io, "cannot create the folder " + parent.string() + ": " + ec.message());
  for (int attempt = 0; attempt < 16; ++attempt) {
    fs::path p = parent / (prefix + randomSuffix());
    if (fs::create_directory(p, ec)) {
      path_ = p;
      return;
    }
  }
  throw Error(ErrorCode::Io, "cannot create a temporary folder in " + parent.string() +
                                 (ec ? ": " + ec.message() : std::string()));
}

TempDir::~TempDir() {
  if (!released_ && !path_.empty()) removeQuietly(path_);
}

void removeQuietly(const fs::path& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

// Absolute and normal, without a trailing separator ("out/" and "out" compare equal).
static fs::path lexical(const fs::path& p) {
  fs::path r = fs::absolute(p).lexically_normal();
  return r.has_filename() ? r : r.parent_path();
}

void refuseLinksBelow(const fs::path& base, const fs::path& path, const std::string& action) {
  const fs::path b = lexical(base), p = lexical(path);
  const fs::path rel = p.lexically_relative(b);
  if (rel.empty() || *rel.begin() == "..")
    throw Error(ErrorCode::Internal,
                "refusing to " + action + " " + p.string() + ": it is not inside " + b.string());
  fs::path cur = b;
  for (const auto& part : rel) {
    if (part == ".") continue;
    cur /= part;
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(cur, ec);
    if (ec || !fs::exists(st)) return;  // absent: nothing below it exists either
    if (fs::is_symlink(st)) {
      const fs::path target = fs::read_symlink(cur, ec);
      throw Error(ErrorCode::Io, "refusing to " + action + " " + p.string() + ": " + cur.string() +
                                     " is a symbolic link (to " + target.string() +
                                     "); wgk never deletes or writes through a link");
    }
  }
}

void removeTreeBelow(const fs::path& base, const fs::path& path) {
  refuseLinksBelow(base, path, "remove");
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) throw Error(ErrorCode::Io, "cannot remove " + path.string() + ": " + ec.message());
}

static fs::path resolved(const fs::path& p) {
  std::error_code ec;
  const fs::path r = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? lexical(p) : lexical(r);
}

bool isSameOrInside(const fs::path& inner, const fs::path& outer) {
  const fs::path i = resolved(inner), o = resolved(outer);
  const fs::path rel = i.lexically_relative(o);
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace wgk::hub
