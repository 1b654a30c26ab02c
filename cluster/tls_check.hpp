#pragma once

#include <string>

#include "config/settings.hpp"

namespace parley::cluster {

/// Checks, before any connection, that the TLS files of `cluster` can serve
/// mutual TLS: the CA file holds certificates, the certificate chain and the
/// unencrypted key load and belong together, and the certificate is valid
/// and signed by that CA. CAF's OpenSSL module reads these files only when a
/// connection opens, and throws on its I/O thread (ending the process) if one
/// is missing or bad: this turns each of those into an error up front.
/// Does nothing when no TLS path is set. Throws config::config_error naming
/// the setting, with code E019, on the first problem.
void check_tls_files(const config::cluster_settings& cluster);

/// Whether `host` is a loopback address (127.0.0.0/8, ::1 or "localhost"),
/// which only processes on this machine can reach.
bool is_loopback(const std::string& host);

} // namespace parley::cluster
