#include "granite/core/log.hpp"

#include <cstdio>

namespace granite::log {
namespace {
int g_rank = 0;
int g_size = 1;

void print(std::FILE* stream, std::string_view level, std::string_view message) {
  if (g_size > 1)
    std::fprintf(stream, "[rank %d] %.*s%.*s\n", g_rank, int(level.size()), level.data(),
                 int(message.size()), message.data());
  else
    std::fprintf(stream, "%.*s%.*s\n", int(level.size()), level.data(), int(message.size()),
                 message.data());
  std::fflush(stream);
}
}  // namespace

void set_rank(int rank, int size) {
  g_rank = rank;
  g_size = size;
}
int rank() { return g_rank; }

void info(std::string_view message) {
  if (g_rank != 0) return;
  std::fprintf(stdout, "%.*s\n", int(message.size()), message.data());
  std::fflush(stdout);
}
void warn(std::string_view message) { print(stderr, "warning: ", message); }
void error(std::string_view message) { print(stderr, "error: ", message); }

}  // namespace granite::log
