#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>

namespace parley::test {

/// A file in the temporary directory holding `text` byte for byte, removed
/// when the test ends.
class temp_file {
public:
  explicit temp_file(const std::string& text)
      : path_(std::filesystem::temp_directory_path() /
              ("parley_test_" + std::to_string(std::random_device{}()) + ".json")) {
    std::ofstream{path_, std::ios::binary} << text;
  }

  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;

  ~temp_file() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }

  std::string path() const { return path_.string(); }

private:
  std::filesystem::path path_;
};

} // namespace parley::test
