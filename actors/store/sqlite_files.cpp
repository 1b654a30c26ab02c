#include "actors/store/sqlite_files.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace parley::actors::store {

namespace {

/// Why the file at `path` cannot be written (`access`), or empty; a file
/// that is not there is not asked about.
std::string not_writable(const std::string& path) {
  if (::access(path.c_str(), W_OK) == 0 || errno == ENOENT)
    return {};
  return "the SQLite store file " + path + " is not writable: " + std::strerror(errno);
}

} // namespace

sqlite_files::sqlite_files(std::string path)
    : path_(std::move(path)), log_path_(path_ + "-wal") {}

void sqlite_files::remember() {
  file_ = {};
  log_ = {};
  moved(path_, file_, false);
  moved(log_path_, log_, false);
}

std::string sqlite_files::moved(const std::string& path, identity& id,
                                bool must_exist) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT)
      return "the SQLite store file " + path +
             " cannot be looked at: " + std::strerror(errno);
    if (!must_exist)
      return {};
    return "the SQLite store file " + path + " was deleted while the store had it open";
  }
  identity now{static_cast<std::uint64_t>(st.st_dev),
               static_cast<std::uint64_t>(st.st_ino)};
  if (id.device == 0 && id.inode == 0) {
    id = now;
    return {};
  }
  if (now.device != id.device || now.inode != id.inode)
    return "the SQLite store file " + path +
           " was replaced by another file while the store had it open";
  return {};
}

const std::string& sqlite_files::lost() {
  if (!lost_.empty())
    return lost_;
  auto why = moved(path_, file_, true);
  if (why.empty())
    why = moved(log_path_, log_, log_.inode != 0 || log_.device != 0);
  if (!why.empty())
    lost_ = why + ": what it commits from now on would be lost; restore the file "
                  "(or start a new store) and restart";
  return lost_;
}

std::string sqlite_files::unwritable() {
  if (const auto& why = lost(); !why.empty())
    return why;
  for (const auto* path : {&path_, &log_path_})
    if (auto why = not_writable(*path); !why.empty())
      return why;
  struct statvfs fs {};
  if (::statvfs(path_.c_str(), &fs) != 0)
    return "the file system of " + path_ +
           " cannot be looked at: " + std::strerror(errno);
  auto free = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  if (free < min_free_bytes)
    return "the file system of " + path_ + " is full (" + std::to_string(free) +
           " bytes free; a commit needs at least " + std::to_string(min_free_bytes) +
           ")";
  return {};
}

} // namespace parley::actors::store
