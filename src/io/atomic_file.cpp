#include "granite/io/atomic_file.hpp"

#include "granite/comm/environment.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

namespace granite::io {
namespace {

// GRANITE_FAIL_WRITE=RANK:N[:NAME], parsed once.
struct FaultPlan {
  bool active = false;
  long long rank = 0;
  long long nth = 0;
  std::string name;
};

const FaultPlan& fault_plan() {
  static const FaultPlan plan = [] {
    FaultPlan p;
    const char* text = std::getenv("GRANITE_FAIL_WRITE");
    if (!text || !*text) return p;
    char name[256] = "";
    const int fields = std::sscanf(text, "%lld:%lld:%255s", &p.rank, &p.nth, name);
    if (fields < 2 || p.nth < 1) {
      std::fprintf(stderr, "warning: GRANITE_FAIL_WRITE='%s' ignored (expected RANK:N[:NAME])\n",
                   text);
      return p;
    }
    p.name = fields == 3 ? name : "";
    p.active = p.rank == comm::launcher_rank();
    return p;
  }();
  return plan;
}

// Writes all of `size` bytes, retrying short writes and EINTR; false with errno on failure.
bool write_fully(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += written;
    size -= std::size_t(written);
  }
  return true;
}

}  // namespace

std::string write_error(const std::string& path, int error) {
  return "cannot write '" + path + "': " + std::strerror(error);
}

bool write_fault_injected(const std::string& path) {
  const FaultPlan& plan = fault_plan();
  if (!plan.active) return false;
  const std::string file = path.substr(path.find_last_of('/') + 1);
  if (!plan.name.empty() && file.find(plan.name) == std::string::npos) return false;
  static long long count = 0;
  if (++count != plan.nth) return false;
  errno = ENOSPC;
  return true;
}

std::string injected_failure(const std::string& path) {
  return write_fault_injected(path) ? write_error(path, ENOSPC) + " (GRANITE_FAIL_WRITE)" : "";
}

int create_new(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return -1;
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
}

void create_new_empty(const std::string& path) {
  const int fd = create_new(path);
  if (fd < 0 || ::close(fd) != 0) throw IoFailure(write_error(path, errno));
}

void rename_into_place(const std::string& tmp, const std::string& path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(tmp.c_str());
    throw IoFailure("cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(error));
  }
}

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  const int fd = create_new(tmp);
  if (fd < 0) throw IoFailure(write_error(tmp, errno));
  std::string failure = injected_failure(path);
  if (failure.empty() && !write_fully(fd, text.data(), text.size()))
    failure = write_error(path, errno);
  if (::close(fd) != 0 && failure.empty()) failure = write_error(path, errno);
  if (!failure.empty()) {
    ::unlink(tmp.c_str());
    throw IoFailure(failure);
  }
  rename_into_place(tmp, path);
}

AppendFile::AppendFile(const std::string& path, const std::string& header, bool append) :
    path_(path) {
  if (append) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    if (fd_ < 0 && errno == ELOOP)
      throw IoFailure("cannot append to '" + path +
                      "': it is a symbolic link (granite appends only to files it wrote; remove "
                      "the link)");
    if (fd_ >= 0) {
      struct stat info {};
      if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd_);
        fd_ = -1;
        throw IoFailure("cannot append to '" + path + "': not a regular file");
      }
      return;
    }
    if (errno != ENOENT) throw IoFailure(write_error(path, errno));
  }
  // A new file: the header under PATH.tmp, renamed over PATH; the descriptor stays valid.
  const std::string tmp = path + ".tmp";
  fd_ = create_new(tmp);
  if (fd_ < 0) throw IoFailure(write_error(tmp, errno));
  if (!write_fully(fd_, header.data(), header.size())) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    ::unlink(tmp.c_str());
    throw IoFailure(write_error(path, error));
  }
  try {
    rename_into_place(tmp, path);
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

AppendFile::AppendFile(AppendFile&& other) noexcept :
    path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

AppendFile& AppendFile::operator=(AppendFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

AppendFile::~AppendFile() {
  if (fd_ >= 0) ::close(fd_);
}

void AppendFile::write(const std::string& text) {
  if (fd_ < 0) return;
  const std::string injected = injected_failure(path_);
  if (!injected.empty()) throw IoFailure(injected);
  if (!write_fully(fd_, text.data(), text.size())) throw IoFailure(write_error(path_, errno));
}

void AppendFile::close() {
  if (fd_ < 0) return;
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) throw IoFailure(write_error(path_, errno));
}

}  // namespace granite::io
