#!/usr/bin/env bash
# scripts/fetch_webgpu.sh must refuse a tarball whose npm integrity does not match: exit 3, say
# INTEGRITY MISMATCH, delete the tarball, unpack nothing. Runs offline in a temporary folder
# (WGK_THIRD_PARTY), where a planted tarball stops it before any download.
set -u
fetch=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/npm" "$tmp/src/package/dist/linux-x64"
echo "not dawn" > "$tmp/src/package/dist/linux-x64/dawn.node"
tar -czf "$tmp/npm/webgpu-0.6.2.tgz" -C "$tmp/src" package
out=$(WGK_THIRD_PARTY="$tmp" bash "$fetch" 2>&1)
rc=$?
fail() { echo "FAIL: $*"; echo "--- output:"; echo "$out"; exit 1; }
[[ $rc == 3 ]] || fail "exit code $rc, expected 3"
grep -q "INTEGRITY MISMATCH" <<<"$out" || fail "no INTEGRITY MISMATCH message"
[[ ! -e "$tmp/npm/webgpu-0.6.2.tgz" ]] || fail "the tampered tarball was not deleted"
[[ ! -e "$tmp/webgpu-0.6.2" ]] || fail "the tampered tarball was unpacked"
echo "PASS: tampered tarball refused (exit 3) and deleted"
