#include "cluster/tls_check.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include "config/loader.hpp"
#include "messages/error_code.hpp"

namespace parley::cluster {

namespace {

template <class T, void (*Free)(T*)> struct openssl_deleter {
  void operator()(T* x) const { Free(x); }
};

using ssl_ctx_ptr = std::unique_ptr<SSL_CTX, openssl_deleter<SSL_CTX, SSL_CTX_free>>;
using pkey_ptr = std::unique_ptr<EVP_PKEY, openssl_deleter<EVP_PKEY, EVP_PKEY_free>>;
using store_ctx_ptr =
    std::unique_ptr<X509_STORE_CTX,
                    openssl_deleter<X509_STORE_CTX, X509_STORE_CTX_free>>;

/// Throws the config_error of setting `path` (file `file`), with E019.
[[noreturn]] void refuse(const char* path, const std::string& file,
                         const std::string& why) {
  throw config::config_error(std::string{"cluster."} + path,
                             messages::to_code(messages::error_code::invalid_config) +
                                 " \"" + file + "\": " + why);
}

/// OpenSSL's queued errors, oldest first, or `fallback` when there are none.
std::string openssl_errors(const char* fallback) {
  std::string text;
  while (auto code = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof(buf));
    text += text.empty() ? "" : "; ";
    text += buf;
  }
  return text.empty() ? fallback : text;
}

using file_ptr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

/// Opens `file` for reading, or refuses it with the system's reason.
file_ptr open_or_refuse(const char* path, const std::string& file) {
  file_ptr f{std::fopen(file.c_str(), "rb"), &std::fclose};
  if (!f)
    refuse(path, file, std::string{"cannot read it: "} + std::strerror(errno));
  return f;
}

/// A passphrase callback that refuses: OpenSSL's default would prompt on the
/// terminal, from CAF's I/O thread.
int no_passphrase(char*, int, int, void*) {
  return -1;
}

} // namespace

void check_tls_files(const config::cluster_settings& cluster) {
  if (!cluster.tls())
    return;
  open_or_refuse("tls_ca", cluster.tls_ca);
  open_or_refuse("tls_certificate", cluster.tls_certificate);
  auto key_file = open_or_refuse("tls_key", cluster.tls_key);
  ERR_clear_error();
  ssl_ctx_ptr ctx{SSL_CTX_new(TLS_method())};
  if (!ctx)
    throw std::runtime_error(openssl_errors("cannot create an OpenSSL context"));
  if (SSL_CTX_load_verify_locations(ctx.get(), cluster.tls_ca.c_str(), nullptr) != 1)
    refuse("tls_ca", cluster.tls_ca,
           "not a PEM file of CA certificates: " + openssl_errors("no certificate"));
  if (SSL_CTX_use_certificate_chain_file(ctx.get(), cluster.tls_certificate.c_str()) !=
      1)
    refuse("tls_certificate", cluster.tls_certificate,
           "not a PEM certificate: " + openssl_errors("no certificate"));
  pkey_ptr key{PEM_read_PrivateKey(key_file.get(), nullptr, no_passphrase, nullptr)};
  if (!key)
    refuse("tls_key", cluster.tls_key,
           "not an unencrypted PEM private key: " + openssl_errors("no key"));
  if (X509_check_private_key(SSL_CTX_get0_certificate(ctx.get()), key.get()) != 1)
    refuse("tls_key", cluster.tls_key,
           "does not belong to the certificate \"" + cluster.tls_certificate +
               "\": " + openssl_errors("key mismatch"));
  // Peers check our certificate against the same CA: one that fails here
  // would be refused by every one of them.
  store_ctx_ptr verify{X509_STORE_CTX_new()};
  if (!verify || X509_STORE_CTX_init(verify.get(), SSL_CTX_get_cert_store(ctx.get()),
                                     SSL_CTX_get0_certificate(ctx.get()), nullptr) != 1)
    throw std::runtime_error(openssl_errors("cannot set up a certificate check"));
  STACK_OF(X509)* chain = nullptr;
  SSL_CTX_get0_chain_certs(ctx.get(), &chain);
  X509_STORE_CTX_set0_untrusted(verify.get(), chain);
  if (X509_verify_cert(verify.get()) != 1)
    refuse("tls_certificate", cluster.tls_certificate,
           std::string{"not valid under the CA \""} + cluster.tls_ca + "\": " +
               X509_verify_cert_error_string(X509_STORE_CTX_get_error(verify.get())));
}

bool is_loopback(const std::string& host) {
  if (host == "localhost")
    return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1)
    return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

} // namespace parley::cluster
