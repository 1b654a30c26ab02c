#!/usr/bin/env bash
# Makes a private CA for a Parley cluster and a certificate for each NAME,
# with the openssl command line: DIR/ca.pem (the CA certificate every node and
# client is given as --tls-ca), DIR/ca.key (the CA's key: keep it off the
# nodes), and DIR/NAME.pem + DIR/NAME.key for each NAME (--tls-cert and
# --tls-key of one node or client). Keys are unencrypted EC P-256 keys, mode
# 0600. An existing DIR/ca.pem and ca.key are reused, so more names can be
# added later. Certificates are valid for DAYS days (default 365).
#
#   scripts/make-certs.sh [--days DAYS] DIR NAME...
#
# Any certificate signed by the CA is accepted by every node: use one CA per
# cluster, never a public or shared one (docs/cluster.md).
set -euo pipefail

days=365
if [ "${1:-}" = "--days" ]; then
  days="$2"
  shift 2
fi
if [ "$#" -lt 2 ]; then
  echo "usage: $0 [--days DAYS] DIR NAME..." >&2
  exit 2
fi
dir="$1"
shift
mkdir -p "$dir"
umask 077

if [ ! -f "$dir/ca.pem" ] || [ ! -f "$dir/ca.key" ]; then
  openssl ecparam -name prime256v1 -genkey -noout -out "$dir/ca.key"
  openssl req -x509 -new -key "$dir/ca.key" -sha256 -days "$days" \
    -subj "/CN=parley cluster CA" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -out "$dir/ca.pem" 2>/dev/null
fi

for name in "$@"; do
  case "$name" in
    */* | "" ) echo "$0: bad NAME \"$name\"" >&2; exit 2 ;;
  esac
  openssl ecparam -name prime256v1 -genkey -noout -out "$dir/$name.key"
  openssl req -new -key "$dir/$name.key" -subj "/CN=$name" -out "$dir/$name.csr"
  printf '%s\n' "basicConstraints=CA:FALSE" \
    "keyUsage=critical,digitalSignature" \
    "extendedKeyUsage=serverAuth,clientAuth" \
    "subjectAltName=DNS:$name" > "$dir/$name.ext"
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" \
    -CAcreateserial -days "$days" -sha256 -extfile "$dir/$name.ext" \
    -out "$dir/$name.pem" 2>/dev/null
  rm -f "$dir/$name.csr" "$dir/$name.ext"
done
chmod 0644 "$dir/ca.pem"
for name in "$@"; do chmod 0644 "$dir/$name.pem"; done
