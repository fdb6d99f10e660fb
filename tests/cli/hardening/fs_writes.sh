#!/usr/bin/env bash
# fs_writes.sh WGK SRC: convert, publish-layout and `wgk cache` never write into their own input,
# never delete or write through a symbolic link planted below --out or inside the cache, re-sign
# only a folder that matches its metadata.json (--no-verify opts out), and take --org only as an
# organisation name. Each refusal must leave the would-be victim exactly as it was.
set -u
wgk=$1 src=$2
expect="bash $src/tests/cli/wgk/expect.sh"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
failed=0
check() { "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log"; failed=1; }; grep -h '^PASS' "$tmp/log"; }
fail() { echo "FAIL: $*"; failed=1; }
id=com.microsoft.FastGelu
copy() {  # copy NAME -> a fresh copy of FastGelu under $tmp/NAME/webgpu-kernels/
  local pkg=$tmp/$1/webgpu-kernels/$id
  mkdir -p "$pkg" && cp -r "$src/packages/webgpu-kernels/$id/build" "$pkg/" && chmod -R u+w "$pkg" && echo "$pkg"
}
victim() {  # victim NAME -> a folder holding build/webgpu/precious.txt, outside every --out
  local v=$tmp/victims/$1
  mkdir -p "$v/build/webgpu" && echo precious >"$v/build/webgpu/precious.txt" && echo "$v"
}
intact() { [[ $(cat "$1/build/webgpu/precious.txt" 2>/dev/null) == precious ]] || fail "$2 reached $1"; }
export WGK_CACHE=$tmp/cache WGK_OFFLINE=1
pkg=$(copy src)

# An output folder that is the package or inside it is refused; the package still verifies.
check $expect 2 "overlaps the package .* it converts" -- "$wgk" convert "$pkg" --to 2.1 --out "$pkg/build/webgpu"
check $expect 2 "overlaps the package" -- "$wgk" convert "$pkg" --to 2.1 --out "$(dirname "$pkg")"
check $expect 2 "overlaps the package .* it publishes" -- "$wgk" publish-layout "$pkg" --out "$pkg/build/webgpu/site"
check $expect 2 "overlaps the package" -- "$wgk" publish-layout "$pkg" --out "$pkg" --spec 2.1
[[ ! -e $pkg/build/webgpu/site && ! -e $pkg/build/webgpu/com.microsoft.FastGelu ]] || fail "wrote into the package"
check $expect 0 "^ok: " -- "$wgk" digest "$pkg"

# A link below --out is never deleted through, nor written through.
v=$(victim convert-pkg)
mkdir -p "$tmp/out1" && ln -s "$v" "$tmp/out1/$id"
check $expect 5 "out1/$id is a symbolic link \(to .*convert-pkg\); wgk never deletes or writes through a link" \
  -- "$wgk" convert "$pkg" --to 2.1 --out "$tmp/out1"
intact "$v" "convert through out/<id> -> victim"
v=$(victim convert-build)
mkdir -p "$tmp/out2/$id" && ln -s "$v/build" "$tmp/out2/$id/build"
check $expect 5 "is a symbolic link" -- "$wgk" convert "$pkg" --to 2.1 --out "$tmp/out2/$id"
intact "$v" "convert through out/<id>/build -> victim"
v=$(victim publish-org)
mkdir -p "$tmp/site1" && ln -s "$v" "$tmp/site1/webgpu-kernels"
mkdir -p "$v/$id/resolve/v1/build/webgpu" && echo precious >"$v/$id/resolve/v1/build/webgpu/precious.txt"
check $expect 5 "site1/webgpu-kernels is a symbolic link" -- "$wgk" publish-layout "$pkg" --out "$tmp/site1"
intact "$v/$id/resolve/v1" "publish-layout through <out>/<org> -> victim"
check $expect 5 "is a symbolic link" -- "$wgk" publish-layout "$pkg" --out "$tmp/site1" --spec 2.1
intact "$v/$id/resolve/v1" "publish-layout --spec 2.1 through <out>/<org> -> victim"
# The folder named by --out may itself be reached through a link (the user's own choice).
mkdir -p "$tmp/real-out" && ln -s "$tmp/real-out" "$tmp/linked-out"
check $expect 0 "manifest 2\.1" -- "$wgk" convert "$pkg" --to 2.1 --out "$tmp/linked-out"
check $expect 0 "^ok: " -- "$wgk" digest "$tmp/real-out/$id" --org webgpu-kernels

# A tampered folder is not re-signed: convert and publish-layout --spec 2.1 check it first.
bad=$(copy tampered)
echo "// tampered" >>"$bad/build/webgpu/elementwise-bias-gelu.wgsl.jinja"
check $expect 6 "while verifying .* before converting it" -- "$wgk" convert "$bad" --to 2.1 --out "$tmp/conv-bad"
check $expect 6 "^mismatch: elementwise-bias-gelu.wgsl.jinja" -- "$wgk" convert "$bad" --to 2.1 --out "$tmp/conv-bad"
[[ ! -e $tmp/conv-bad/$id/build/webgpu/metadata.json ]] || fail "convert signed a tampered folder"
check $expect 6 "does not match its metadata.json" -- "$wgk" publish-layout "$bad" --out "$tmp/site-bad" --spec 2.1
[[ ! -e $tmp/site-bad ]] || fail "publish-layout --spec 2.1 published a tampered folder"
check $expect 0 "manifest 2\.1" -- "$wgk" convert "$bad" --to 2.1 --out "$tmp/conv-bad" --no-verify

# --org is an organisation name, never a path or an option.
for org in '../../evil' 'a/b' '' '-x'; do
  check $expect 2 "--org '$org' is not an organisation name" -- "$wgk" convert "$pkg" --to 2.1 --out "$tmp/org" --org "$org"
  check $expect 2 "--org '$org' is not an organisation name" -- "$wgk" publish-layout "$pkg" --out "$tmp/org-site" --org "$org"
done
[[ ! -e $tmp/org && ! -e $tmp/org-site ]] || fail "an invalid --org wrote something"

# wgk cache: a linked staging folder, repo folder or organisation folder is refused, not followed.
mkdir -p "$WGK_CACHE"
v=$(victim staging)
ln -s "$v/build/webgpu" "$WGK_CACHE/.tmp"
check $expect 5 "cache/\.tmp is a symbolic link" -- "$wgk" cache clean --staging-only
intact "$v" "cache clean --staging-only through a linked .tmp"
check $expect 5 "cache/\.tmp is a symbolic link" -- "$wgk" cache prune
intact "$v" "cache prune through a linked .tmp"
rm "$WGK_CACHE/.tmp"
v=$(victim repo)
mkdir -p "$WGK_CACHE/webgpu-kernels" && ln -s "$v" "$WGK_CACHE/webgpu-kernels/$id"
check $expect 5 "webgpu-kernels/$id is a symbolic link" -- "$wgk" cache clean "webgpu-kernels/$id"
intact "$v" "cache clean REPO through a linked repo folder"
commit=0123456789abcdef0123456789abcdef01234567
mkdir -p "$v/$commit/build/webgpu" && echo precious >"$v/$commit/build/webgpu/precious.txt"
check $expect 5 "webgpu-kernels/$id is a symbolic link" -- "$wgk" cache prune
intact "$v/$commit" "cache prune through a linked repo folder"
rm "$WGK_CACHE/webgpu-kernels/$id" && rmdir "$WGK_CACHE/webgpu-kernels"
v=$(victim org)
ln -s "$v" "$WGK_CACHE/webgpu-kernels"
check $expect 5 "cache/webgpu-kernels is a symbolic link" -- "$wgk" cache clean "webgpu-kernels/$id"
intact "$v" "cache clean REPO through a linked organisation folder"
# A whole clean removes the link itself, never what it points at.
check $expect 0 "." -- "$wgk" cache clean
intact "$v" "cache clean through a link inside the cache"
[[ ! -e $WGK_CACHE/webgpu-kernels && ! -L $WGK_CACHE/webgpu-kernels ]] || fail "cache clean left the link"
exit $failed
