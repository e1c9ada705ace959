#include "granite/io/atomic_file.hpp"

#include "granite/core/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace granite::io {

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  std::FILE* file = std::fopen(tmp.c_str(), "wb");
  if (!file) throw InputError("cannot write '" + tmp + "': " + std::strerror(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const int write_errno = errno;
  if (std::fclose(file) != 0 || !written) {
    std::remove(tmp.c_str());
    throw InputError("cannot write '" + tmp + "': " + std::strerror(written ? errno : write_errno));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(tmp.c_str());
    throw InputError("cannot rename '" + tmp + "' to '" + path +
                     "': " + std::strerror(rename_errno));
  }
}

}  // namespace granite::io
