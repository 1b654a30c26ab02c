#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace parley::test {

/// A path for a SQLite store in the temporary directory, unique to this
/// object; the database and its WAL files are removed when it goes away.
class temp_store {
public:
  temp_store()
      : path_((std::filesystem::temp_directory_path() /
               ("parley_store_" + std::to_string(std::random_device{}()) + ".db"))
                  .string()) {}

  temp_store(const temp_store&) = delete;
  temp_store& operator=(const temp_store&) = delete;

  ~temp_store() {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm"})
      std::filesystem::remove(path_ + suffix, ignored);
  }

  const std::string& path() const noexcept { return path_; }

private:
  std::string path_;
};

} // namespace parley::test
