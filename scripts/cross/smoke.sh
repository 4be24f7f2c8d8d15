#!/usr/bin/env bash
# The end-to-end smoke set of scripts/cross-test.sh: every strider command on
# small files, run by the native amd64 binary (whose outputs match NumPy's:
# the parity suite checks that) and by a binary for another platform under
# its emulator, compared byte for byte: exit status, standard output,
# standard error and every file a case leaves in its folder.
#
#   scripts/cross/smoke.sh WORK NATIVE TARGET-NAME RUNNER...
#
# WORK is an empty folder; NATIVE the amd64 binary; RUNNER the command line
# that runs the target binary (qemu-aarch64-static ./strider-arm64, or
# wine64 strider.exe). Needs the testdata fixtures; never NumPy.
#
# A case is "name | marks | command", run by bash in a folder of its own
# holding a copy of the inputs under in/, with S as strider. Marks:
#   -             everything must match
#   os-text       the one error line ends in the system's own words ("no such
#                 file or directory"): it is compared up to the command's
#                 prefix, "strider: CMD: ", and must be one line
#   gap-windows   a known gap on Windows whose fix is elsewhere (see the
#                 comment above the case): a difference there is reported as
#                 KNOWN GAP and passes; a match fails, so that the mark goes
# Every command in `strider --help` must appear in some case, so a new
# command is never silently left out.
set -uo pipefail
work=$1 native=$2 target=$3
shift 3
runner=("$@")
cd "$(dirname "$0")/../.."
repo=$PWD
fail=0

# The inputs, the same bytes for both sides: fixtures written by NumPy and
# PyTorch, and index and text files made here.
in=$work/in
mkdir -p "$in"
cp testdata/example_f4_2x3x4_c.npy "$in/f4.npy"          # (2, 3, 4) <f4
cp testdata/roundtrip_f8be_3x4_f.npy "$in/f8bf.npy"      # (3, 4) >f8, Fortran, NaN, inf, -0
cp testdata/roundtrip_c16be_3x4_c.npy "$in/c16.npy"      # (3, 4) >c16
cp testdata/roundtrip_f2le_3x4_c.npy "$in/f2.npy"        # (3, 4) <f2
cp testdata/roundtrip_u1_3x4_c.npy "$in/u1.npy"          # (3, 4) |u1
cp testdata/roundtrip_i4be_scalar_c.npy "$in/scalar.npy" # () >i4
cp testdata/roundtrip_f8le_0x3_c.npy "$in/empty.npy"     # (0, 3) <f8
cp testdata/archive.npz "$in/a.npz"                      # a: (3, 4) <f4; b: (5,) >i8
cp testdata/torch/dtypes.safetensors "$in/t.safetensors"
cp testdata/torch/param.pt "$in/param.pt"
printf '2\n0\n-1\n' >"$in/idx.txt"
printf '0 1 2 0\n2 2 1 0\n' >"$in/idx2.txt"
printf '1.5 2 3\n4 -5e3 nan\n# a comment\n7 8 inf\n' >"$in/t.txt"
printf 'a,b\n1,2\n3,4\n' >"$in/t.csv"
"$native" from-text --dtype int64 "$in/idx.txt" -o "$in/idx.npy" &&
  "$native" from-text --dtype int64 "$in/idx2.txt" -o "$in/idx2.npy" || {
  echo "smoke: cannot make the index inputs with $native" >&2
  exit 1
}

cases=$(
  cat <<'EOF'
info              | -       | S info in/f4.npy in/f8bf.npy in/a.npz in/scalar.npy in/empty.npy in/c16.npy
info-json         | -       | S info --json in/a.npz in/f2.npy
info-tensor-files | -       | S info in/t.safetensors in/param.pt
transpose         | -       | S transpose in/f4.npy -o out.npy
transpose-axes    | -       | S transpose --axes 1,0,-1 in/f4.npy -o out.npy
transpose-fortran | -       | S transpose in/f8bf.npy -o out.npy
diagonal          | -       | S diagonal --offset 1 --axis1 1 --axis2 2 in/f4.npy -o out.npy
gather            | -       | S gather --indices in/idx.npy --axis 1 in/f4.npy -o out.npy
gather-literal    | -       | S gather --index '[2,-1]' --axis 0 in/f8bf.npy -o out.npy
gather-elements   | -       | S gather-elements --indices in/idx2.npy --axis 0 in/a.npz:a -o out.npy
tril-indices      | -       | S tril-indices 4 5 --offset -1 -o out.npy
triu-indices      | -       | S triu-indices 4 --dtype int32 -o out.npy
sort              | -       | S sort --axis 0 --indices idx.npy in/f8bf.npy -o out.npy
sort-descending   | -       | S sort --descending in/a.npz:a -o out.npy
sort-argsort      | -       | S sort --argsort in/c16.npy -o out.npy
slice             | -       | S slice in/f4.npy '1:, ::-1, None, [0,2]' -o out.npy
slice-negative    | -       | S slice in/f8bf.npy -1 -o out.npy
reshape           | -       | S reshape in/f8bf.npy 2,6 --order F -o out.npy
unique            | -       | S unique-consecutive in/u1.npy --inverse inv.npy --counts cnt.npy -o out.npy
cast-nan-to-int   | -       | S cast in/f8bf.npy --dtype int32 -o out.npy
cast-big-to-uint  | -       | S cast in/a.npz:a --dtype uint8 -o out.npy
cast-half         | -       | S cast in/f4.npy --dtype float16 -o out.npy
cast-refused      | -       | S cast in/f8bf.npy --dtype int32 --casting safe -o out.npy
concat            | -       | S concat in/a.npz:a in/f8bf.npy --axis 0 -o out.npy
stack             | -       | S stack in/a.npz:a in/a.npz:a --axis 1 -o out.npy
show              | -       | S show in/f8bf.npy
show-repr-expr    | -       | S show --repr --precision 3 in/f4.npy '0, ::2'
show-member       | -       | S show in/a.npz:b
show-half         | -       | S show in/f2.npy
show-complex      | -       | S show --sign + in/c16.npy
show-tensor       | -       | S show in/t.safetensors:x_bf16
show-torch        | -       | S show in/param.pt
stats             | -       | S stats in/f8bf.npy
stats-json        | -       | S stats --json in/f4.npy 1
to-text           | -       | S to-text in/f8bf.npy -o out.txt
to-text-csv       | -       | S to-text --csv --fmt '%.3e' in/a.npz:a
to-text-json      | -       | S to-text --json in/f8bf.npy
from-text         | -       | S from-text in/t.txt -o out.npy
from-text-csv     | -       | S from-text --csv --skiprows 1 --dtype float32 in/t.csv -o out.npy
compare-equal     | -       | S compare in/a.npz:a in/a.npz:a
compare-different | -       | S compare in/f8bf.npy in/a.npz:a
compare-archives  | -       | S compare in/a.npz in/a.npz
reduce-sum        | -       | S reduce sum in/f4.npy --axis 1 -o out.npy
reduce-argmax     | -       | S reduce argmax in/f8bf.npy --axis 0 -o out.npy
reduce-std        | -       | S reduce std in/a.npz:a --keepdims -o out.npy
convert-st        | -       | S convert in/a.npz out.safetensors && S info out.safetensors
convert-npz       | -       | S convert in/t.safetensors out.npz && S info out.npz
safetensors-member| -       | S transpose in/f4.npy -o out.safetensors:t && S info out.safetensors
as-numpy          | -       | S transpose --as-numpy in/a.npz:a -o out.npy
completion        | -       | S completion bash
stdin-file        | -       | S transpose - -o out.npy <in/f4.npy
stdin-pipe        | -       | cat in/f4.npy | S sort - -o out.npy
stdout-pipe       | -       | S transpose in/f8bf.npy | cat >out.npy
stdout-dash       | -       | S gather --index 1 in/f4.npy -o - >out.npy
pipe-through      | -       | cat in/f8bf.npy | S sort --axis 0 - | cat >out.npy
pipe-show         | -       | cat in/f4.npy | S show -
replace           | -       | printf 'junk' >out.npy; S transpose in/f4.npy -o out.npy
replace-bigger    | -       | S tril-indices 40 -o out.npy && S tril-indices 3 -o out.npy
replace-input     | -       | cp in/f4.npy x.npy && S transpose x.npy -o x.npy
# diagonal reads its input piece by piece (pread) and keeps it open until
# the output is renamed over it: Windows refuses to replace an open file
# ("Access denied") until cmd/flags.go's writeSparse closes it first.
replace-input-open|             | cp in/f4.npy x.npy && S diagonal x.npy -o x.npy
replace-read-only | -       | cp in/f4.npy ro.npy && chmod a-w ro.npy && S transpose in/f4.npy -o ro.npy; chmod u+w ro.npy
npz-new           | -       | S transpose in/f4.npy -o out.npz:t && S info out.npz
npz-replace       | -       | cp in/a.npz out.npz && S cast in/a.npz:b --dtype float32 -o out.npz:b && S info out.npz
npz-bare-refused  | -       | S transpose in/f4.npy -o out.npz
# Paths in the platform's own spelling: ABS is the case's folder (Z:\tmp\...
# under Wine, whose drive Z: is /), SEP the separator, DRIVE the drive.
abs-member        | -       | S show "$ABS${SEP}in${SEP}a.npz:b"
abs-output-member | -       | S transpose "$ABS${SEP}in${SEP}f4.npy" -o "$ABS${SEP}out.npz:t" && S info out.npz
drive-slashes     | -       | S stats "$DRIVE$PWD/in/a.npz:a" && S cast "$DRIVE$PWD/in/f4.npy" --dtype i2 -o "$DRIVE$PWD/out.npy"
relative-sep      | -       | mkdir sub && S sort "in${SEP}f8bf.npy" -o "sub${SEP}out.npy"
err-missing       | os-text | S info in/nope.npy
err-missing-member| -       | S show in/a.npz:zz
err-axis          | -       | S transpose --axes 0,1,5 in/f4.npy -o out.npy
err-usage         | -       | S transpose
err-malformed     | -       | S info in/t.txt
# A reader that closes the pipe early: strider ends silently, status 141
# (SIGPIPE on Linux). On Windows a closed pipe is not EPIPE, so strider
# reports it as an error until cmd/run.go asks brokenPipe (cmd/pipe_*.go).
broken-pipe       |             | S tril-indices 3000 -o - | head -c 10 >/dev/null; echo "strider exit ${PIPESTATUS[0]}"
EOF
)

# S runs strider on the side being run.
side_run() { # side folder runner...
  local side=$1 dir=$2
  shift 2
  local n=0 name marks command
  while IFS='|' read -r name marks command; do
    name=$(echo $name) marks=$(echo $marks)
    [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
    n=$((n + 1))
    local c
    c=$dir/$(printf '%02d' $n)-$name
    mkdir -p "$c"
    cp -r "$in" "$c/in"
    (
      cd "$c" || exit 1
      if [ "$side" = windows ]; then
        DRIVE=Z: SEP='\' ABS="Z:$(pwd | tr / '\\')"
      else
        DRIVE= SEP=/ ABS=$PWD
      fi
      eval "S() { $(printf '%q ' "$@") \"\$@\"; }"
      eval "$command"
    ) </dev/null >"$c/_stdout" 2>"$c/_stderr"
    echo $? >"$c/_status"
  done <<<"$cases"
}

start=$SECONDS
side_run native "$work/native" "$native"
side_run "$target" "$work/$target" "${runner[@]}"

# On Windows the lock file of a member output stays beside the archive (an
# open file cannot be removed there; formats/output/lock_windows.go): ignored. So are
# Wine's own diagnostics ("wine client error:...", seen now and then on a
# loaded machine): they come from the emulator, not from strider.
if [ "$target" = windows ]; then
  find "$work/$target" -name '.*.strider-lock' -delete
  find "$work/$target" -name _stderr -exec sed -i -E '/^wine( client error)?:/d' {} +
fi

n=0 known=0
while IFS='|' read -r name marks command; do
  name=$(echo $name) marks=$(echo $marks)
  [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
  n=$((n + 1))
  c=$(printf '%02d' $n)-$name
  a=$work/native/$c b=$work/$target/$c
  if [ "$marks" = os-text ]; then
    for s in "$a" "$b"; do
      if [ "$(wc -l <"$s/_stderr")" != 1 ]; then
        echo "  $c: standard error is not one line: $(head -c 300 "$s/_stderr")"
      fi
      sed -i -E 's/^(strider: [a-z-]+: ).*/\1.../' "$s/_stderr"
    done
  fi
  if out=$(diff -r "$a" "$b" 2>&1); then
    if [[ $marks == gap-$target ]]; then
      echo "FAIL $c: matches now on $target; remove its gap-$target mark in scripts/cross/smoke.sh"
      fail=1
    fi
    continue
  fi
  if [[ $marks == gap-$target ]]; then
    echo "KNOWN GAP ($target) $c: $command"
    echo "$out" | head -n 6 | sed 's/^/    /'
    known=$((known + 1))
    continue
  fi
  echo "FAIL $c: $command"
  echo "$out" | head -n 20 | sed 's/^/    /'
  for f in $(cd "$a" && find . -type f ! -path './in/*' -name '*.np[yz]'); do
    if [ -f "$b/$f" ] && ! cmp -s "$a/$f" "$b/$f"; then
      echo "    $f, first differing bytes (offset, native, $target; octal):"
      cmp -l "$a/$f" "$b/$f" | head -n 5 | sed 's/^/      /'
    fi
  done
  fail=1
done <<<"$cases"

# Every command of the binary is in some case.
for cmd in $("$native" --help | awk '/^COMMANDS:/ { on = 1; next } on && /^[A-Z]/ { on = 0 } on && NF { print $1 }' | tr -d ,); do
  [ "$cmd" = help ] && continue
  if ! grep -qE "(^|[|;&(] *)S $cmd( |$)" <<<"$cases"; then
    echo "FAIL: the smoke set has no case for the command $cmd (scripts/cross/smoke.sh)"
    fail=1
  fi
done

if [ "$fail" = 0 ]; then
  echo "smoke ($target): $n cases, outputs byte-identical to the native amd64 binary's" \
    "$([ "$known" -gt 0 ] && echo "except $known known gap(s) above")" "($((SECONDS - start))s)"
fi
exit "$fail"
