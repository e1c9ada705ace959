// Checks on user-named input files (see include/granite/io/input_file.hpp).
#include "granite/io/input_file.hpp"

#include "granite/core/error.hpp"

#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace granite::io {

namespace {

[[noreturn]] void cannot(const char* verb, const std::string& path, const std::string& kind,
                         const std::string& reason) {
  throw InputError(path + ": cannot " + verb + " the " + kind + " (" + reason + ")");
}

// Opens PATH for reading; a directory opens successfully on Linux and fails only on the first
// read (as an exception from the stream buffer), so it is rejected here.
std::ifstream open_checked(const std::string& path, const std::string& kind) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) cannot("open", path, kind, "no such file");
  if (fs::is_directory(status)) cannot("open", path, kind, "it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) cannot("open", path, kind, errno != 0 ? std::strerror(errno) : "unreadable");
  if (fs::is_regular_file(status) && fs::file_size(path, ec) == 0 && !ec)
    throw InputError(path + ": the " + kind + " is empty");
  return in;
}

}  // namespace

void check_input_file(const std::string& path, const std::string& kind) {
  open_checked(path, kind);
}

std::string read_input_file(const std::string& path, const std::string& kind) {
  std::ifstream in = open_checked(path, kind);
  std::string text;
  errno = 0;
  try {  // libstdc++'s file buffer throws on a read error rather than setting badbit
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception& e) {
    cannot("read", path, kind, errno != 0 ? std::strerror(errno) : e.what());
  }
  if (text.empty()) throw InputError(path + ": the " + kind + " is empty");
  return text;
}

}  // namespace granite::io
