#pragma once

#include <cstdint>
#include <string>

namespace parley::actors::store {

/// Whether the files of an SQLite store are still the ones a connection
/// opened, and whether they could take a write: a look at their paths with
/// a few system calls, never a write. SQLite in WAL mode goes on committing
/// into a database or log file that was deleted or replaced (its open
/// descriptors still work), and those commits are gone once the process is:
/// this is how the store learns it.
class sqlite_files {
public:
  /// The free space below which the file system counts as full: a commit
  /// of the API's writes grows the log by tens of KiB (8 KiB pages).
  static constexpr std::uint64_t min_free_bytes = 256 * 1024;

  /// Watches the store at `path` (and its log, `path`-wal).
  explicit sqlite_files(std::string path);

  /// Remembers which files are at the paths now: call once the connection
  /// opened them. The log, if not there yet, is remembered when first seen.
  void remember();

  /// Why the files at the paths are no longer the ones remembered (deleted,
  /// or replaced by another file), or empty. Once lost, always lost: the
  /// answer is kept and no longer looked up.
  const std::string& lost();

  /// What `lost` found so far, without looking again.
  const std::string& lost_known() const noexcept { return lost_; }

  /// Why the files could not take a write now, or empty: lost, not
  /// writable (their mode, an immutable file, a read-only file system), or
  /// their file system has less than `min_free_bytes` free.
  std::string unwritable();

private:
  /// A file's identity: its device and inode (0 and 0: none remembered).
  struct identity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
  };

  /// Why the file at `path` is not `id` (remembering it if `id` is none
  /// and the file is there), or empty.
  static std::string moved(const std::string& path, identity& id, bool must_exist);

  std::string path_;
  std::string log_path_;
  identity file_;
  identity log_;
  std::string lost_;
};

} // namespace parley::actors::store
