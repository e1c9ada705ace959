# Sourced by the CLI tests of bad input files (needs `granite` and a `fail` function):
# refused_at_ranks NAME REGEX CONFIG OUTPUT_DIR: `granite run CONFIG` at 1 and 2 ranks must exit
# with code 2 and print one error line (one per rank at most: each rank may say it), matching
# REGEX (mpirun's own banner lines are not counted).
refused_at_ranks() {
  local name=$1 regex=$2 config=$3 output=$4 n out rc lines
  for n in 1 2; do
    out=$(mpirun -np $n --oversubscribe "$granite" run "$config" --output "$output" 2>&1)
    rc=$?
    [ "$rc" -eq 2 ] || fail "$name at $n ranks: exit code $rc, expected 2: $out"
    lines=$(grep -c "^error: " <<<"$out")
    [ "$lines" -ge 1 ] && [ "$lines" -le "$n" ] || fail "$name at $n ranks: $lines error lines: $out"
    grep -Eq -- "$regex" <<<"$out" || fail "$name at $n ranks: the message does not match /$regex/: $out"
  done
}
