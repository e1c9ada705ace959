#pragma once
// Output files that are either complete or absent, created without following symbolic links,
// and whose every write is checked (docs/output.md, "Full disks and symbolic links"):
// - a file is written under PATH.tmp, created new (a stale PATH.tmp or a link planted there is
//   unlinked first; O_CREAT|O_EXCL|O_NOFOLLOW), and renamed over PATH, so a link planted at
//   PATH is replaced, never followed;
// - a failed write, close or rename throws IoFailure "cannot write '<file>': <system error>"
//   (exit code 1) and removes PATH.tmp;
// - io::collectively makes every rank throw the same IoFailure when any rank failed;
// - GRANITE_FAIL_WRITE=RANK:N[:NAME] makes the Nth write on MPI rank RANK (of files whose name
//   contains NAME) fail with ENOSPC, for tests (docs/testing.md).
#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"

#include <exception>
#include <string>

namespace granite::io {

/// Writes `text` to `path + ".tmp"` and renames it to `path`. Throws IoFailure naming the path.
void write_text_atomically(const std::string& path, const std::string& text);

/// "cannot write '<path>': <strerror(error)>".
std::string write_error(const std::string& path, int error);

/// Counts one write of `path` on this process; true (errno = ENOSPC) if GRANITE_FAIL_WRITE
/// selects it.
bool write_fault_injected(const std::string& path);

/// The failure message of an injected fault of a write of `path`, "" if none is injected.
std::string injected_failure(const std::string& path);

/// Creates `path` new for writing: unlinks what is there (a stale file or a planted link,
/// never its target), then opens with O_CREAT|O_EXCL|O_NOFOLLOW. The descriptor, or -1 with
/// errno set.
int create_new(const std::string& path);

/// Creates `path` as a new empty file (create_new) and closes it; throws IoFailure if not.
void create_new_empty(const std::string& path);

/// Renames `tmp` to `path`; removes `tmp` and throws IoFailure on failure.
void rename_into_place(const std::string& tmp, const std::string& path);

/// Runs `action` on every rank; if it throws on any rank, every rank throws IoFailure with the
/// message of the lowest failing rank. Collective.
template <class Action>
void collectively(const comm::Communicator& comm, Action&& action) {
  std::string message;
  try {
    action();
  } catch (const std::exception& error) {
    message = error.what();
    if (message.empty()) message = "unknown error";
  }
  const std::string first = comm::first_failure(message, comm);
  if (!first.empty()) throw IoFailure(first);
}

/// collectively(), with `action` run on rank 0 only.
template <class Action>
void on_root_collectively(const comm::Communicator& comm, Action&& action) {
  collectively(comm, [&] {
    if (comm.is_root()) action();
  });
}

/// A table that grows by rows (thermo.csv, statistics.csv). Every row is one checked write(2),
/// so nothing waits in a buffer and every failure is seen at once.
class AppendFile {
public:
  AppendFile() = default;
  /// `append` and an existing PATH: opens it for appending, refusing (IoFailure) a symbolic
  /// link or anything but a regular file; otherwise creates PATH new holding `header`
  /// (PATH.tmp renamed over PATH).
  AppendFile(const std::string& path, const std::string& header, bool append);
  AppendFile(AppendFile&& other) noexcept;
  AppendFile& operator=(AppendFile&& other) noexcept;
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;
  ~AppendFile();

  bool is_open() const { return fd_ >= 0; }
  /// Appends `text`; throws IoFailure naming the file on failure.
  void write(const std::string& text);
  /// Closes and checks the result; throws IoFailure on failure.
  void close();

private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace granite::io
