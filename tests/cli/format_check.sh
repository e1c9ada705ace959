#!/usr/bin/env bash
# Every tracked C++ file (*.cpp, *.hpp, *.h, *.cpp.in) is formatted as .clang-format says
# (clang-format 14, Debian package clang-format); fails naming the files that differ.
# Files: `git ls-files` when SOURCE_DIR is a git checkout, else src/ include/ tests/ benchmarks/.
# Fix: clang-format -i FILE...
# usage: format_check.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: format_check.sh SOURCE_DIR}
cd "$src"

cf=""
for c in clang-format-14 clang-format; do
  if command -v "$c" >/dev/null 2>&1; then cf=$c; break; fi
done
if [ -z "$cf" ]; then
  echo "FAIL: clang-format not found: install the Debian package clang-format (version 14;" \
       "./scripts/test installs it)"
  exit 1
fi
version=$("$cf" --version)
case "$version" in
  *"version 14."*) ;;
  *) echo "FAIL: $cf is not clang-format 14 ($version); other versions format differently"
     exit 1 ;;
esac
[ -f .clang-format ] || { echo "FAIL: no .clang-format in $src"; exit 1; }

files=()
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  while IFS= read -r -d '' f; do
    [ -f "$f" ] && files+=("$f")  # tracked but deleted in the work tree: skipped
  done < <(git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.cpp.in')
else
  while IFS= read -r -d '' f; do files+=("$f"); done < <(
    find src include tests benchmarks -type f \
         \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cpp.in' \) -print0 | sort -z)
fi
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no C++ files found under $src"; exit 1; }

# *.cpp.in is C++ with @VARIABLES@: told apart by --assume-filename.
out=$(mktemp); trap 'rm -f "$out" "$out.in"' EXIT
status=0
plain=() templates=()
for f in "${files[@]}"; do
  case "$f" in *.in) templates+=("$f") ;; *) plain+=("$f") ;; esac
done
[ ${#plain[@]} -eq 0 ] || "$cf" --style=file --dry-run --Werror "${plain[@]}" 2>>"$out" || status=1
for f in ${templates[@]+"${templates[@]}"}; do
  "$cf" --style=file --dry-run --Werror --assume-filename="${f%.in}" <"$f" 2>"$out.in" \
    || status=1
  sed "s|^<stdin>:|$f:|; s|^${f%.in}:|$f:|" "$out.in" >>"$out"
done

if [ $status -ne 0 ]; then
  bad=$(sed -nE 's/^(.+):[0-9]+:[0-9]+: (error|warning): .*/\1/p' "$out" | sort -u)
  if [ -n "$bad" ]; then
    echo "FAIL: not formatted as .clang-format says (fix: clang-format -i FILE...):"
    sed 's/^/  /' <<<"$bad"
  else
    echo "FAIL: $cf failed:"; cat "$out"
  fi
  exit 1
fi
echo "ok: ${#files[@]} files formatted ($cf)"
