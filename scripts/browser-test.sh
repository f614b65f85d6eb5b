#!/usr/bin/env bash
# The server's pages in a real browser: headless Chromium (Debian's chromium and
# chromium-driver) driven by PyPI's selenium at phone size. Builds jump-forms, starts
# `jump-forms serve` (a free port, a temporary database, the repository's example flow) and
# `jump-forms preview`, runs Tests/Browser/test_pages.py, stops both, and exits with the tests'
# status. Screenshots go to .build/browser-screenshots/.
#
# Needs: chromium chromium-driver python3-venv (apt); selenium is installed into
# .build/browser-venv the first time.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/browser-venv
if ! "$venv/bin/python" -c 'import selenium' >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet selenium
fi

swift build --product jump-forms
binary="$(swift build --show-bin-path)/jump-forms"

work="$(mktemp -d "${TMPDIR:-/tmp}/jump-forms-browser.XXXXXX")"
serve_pid=""
preview_pid=""
cleanup() {
  for pid in $serve_pid $preview_pid; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# Waits for the line a server prints with its URL; prints the URL.
url_of() {
  local file="$1" prefix="$2" pid="$3"
  for _ in $(seq 1 300); do
    if grep -q "^$prefix" "$file" 2>/dev/null; then
      grep "^$prefix" "$file" | head -n 1 | sed "s|^$prefix||"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "the server did not start:" >&2
  cat "$file" "$file.err" >&2 || true
  return 1
}

export HOME="$work/home" XDG_DATA_HOME="$work/home/data"
mkdir -p "$HOME"
database="$work/capture.sqlite"
"$binary" serve --config jump.yaml --port 0 --db "$database" >"$work/serve" 2>"$work/serve.err" &
serve_pid=$!
# The preview runs on a copy of the example project, which the gallery test edits.
mkdir -p "$work/project"
cp -R flows locales jump.yaml identities.yaml "$work/project/"
"$binary" preview --config "$work/project/jump.yaml" --port 0 --no-open >"$work/preview" 2>"$work/preview.err" &
preview_pid=$!
server_url="$(url_of "$work/serve" "jump-forms serving flow standard at " "$serve_pid")"
preview_url="$(url_of "$work/preview" "jump-forms preview at " "$preview_pid")"
echo "serve: $server_url  preview: $preview_url"

mkdir -p .build/browser-screenshots
status=0
JUMP_FORMS_URL="$server_url" JUMP_FORMS_PREVIEW_URL="$preview_url" \
  JUMP_FORMS_PREVIEW_FLOW="$work/project/flows/standard.yaml" JUMP_FORMS_BIN="$binary" \
  JUMP_FORMS_CONFIG="$PWD/jump.yaml" JUMP_FORMS_DB="$database" SCREENSHOTS="$PWD/.build/browser-screenshots" \
  timeout 110 "$venv/bin/python" Tests/Browser/test_pages.py || status=$?
echo "screenshots: .build/browser-screenshots/"
if [ "$status" -ne 0 ]; then
  echo "--- serve's standard error" >&2
  tail -n 40 "$work/serve.err" >&2 || true
fi
exit "$status"
