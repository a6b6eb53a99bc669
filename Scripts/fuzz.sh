#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each for a while, as many at once as there are cores.
#
#   Scripts/fuzz.sh                 every target for 5 minutes
#   Scripts/fuzz.sh 20              every target for 20 seconds
#   Scripts/fuzz.sh 600 FuzzCSV     one target for 10 minutes
#   Scripts/fuzz.sh --smoke         what CI runs: every target for 10 seconds
#   FUZZ_KEEP_GOING=1 Scripts/fuzz.sh 3600   an hour each, collecting every crash instead of stopping
#
# Each target grows a working corpus in .build-fuzz/corpus/<target>/, seeded from the checked-in
# Fuzz/Corpus/<target>/, which is only read. A crash, a sanitizer report, a leak or an input that takes
# longer than 10 s is written to fuzz-crashes/<target>/ and makes the script exit with status 1 once
# every target has run. Reproduce one with `.build-fuzz/debug/<target> fuzz-crashes/<target>/crash-…`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=300
if [ "${1:-}" = "--smoke" ]; then
    seconds=10
    shift
elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzCSV FuzzXML FuzzManifest FuzzPredicate)

# The longest input each target tries: several rows, a few elements, a manifest, a long predicate.
max_len() {
    case "$1" in
        FuzzCSV) echo 4096 ;;
        FuzzXML) echo 8192 ;;
        FuzzManifest) echo 4096 ;;
        FuzzPredicate) echo 512 ;;
        *) echo "fuzz.sh: no target named '$1' (FuzzCSV, FuzzXML, FuzzManifest, FuzzPredicate)" >&2; exit 64 ;;
    esac
}
for target in "${targets[@]}"; do max_len "$target" >/dev/null; done

scratch=.build-fuzz
# Swift's own backtracer reads the stack in a way AddressSanitizer reports as an error of its own.
export SWIFT_BACKTRACE=enable=no
# Swift keeps enum tags in a pointer's spare bits, where LeakSanitizer cannot see the reference, so a cache
# filled once (a time zone, a formatter, the statistics catalog) is reported as a leak: by libFuzzer after an
# input (-detect_leaks=0 below) and by AddressSanitizer when a process ends (fork mode's workers do).
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
echo "== building the fuzz targets (debug, -sanitize=fuzzer,address) in $scratch"
# ld.gold warns once per ASan helper symbol that it cannot export it; those lines say nothing.
if ! swift build --package-path Fuzz --scratch-path "$scratch" -c debug -Xswiftc -sanitize=fuzzer,address 2>&1 \
        | { grep -v "Cannot export local symbol" || true; }; then
    echo "fuzz.sh: the fuzz targets did not build" >&2
    exit 1
fi
bin=$(swift build --package-path Fuzz --scratch-path "$scratch" -c debug -Xswiftc -sanitize=fuzzer,address --show-bin-path)

# Runs one target; its summary or its failure goes to $scratch/<target>.out, printed once it has ended.
fuzz() {
    local target=$1 corpus="$scratch/corpus/$1" crashes="fuzz-crashes/$1"
    mkdir -p "$corpus" "$crashes"
    local options=(
        -max_total_time="$seconds"
        -max_len="$(max_len "$target")"
        -timeout=10
        -rss_limit_mb=2048
        -detect_leaks=0
        -artifact_prefix="$crashes/"
        -print_final_stats=1
    )
    if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
        options+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    fi
    [ -f "Fuzz/Dictionaries/$target.dict" ] && options+=(-dict="Fuzz/Dictionaries/$target.dict")
    local found_before status=0
    found_before=$(find "$crashes" -type f | wc -l)
    {
        echo "== $target for ${seconds}s: working corpus $corpus, crashes to $crashes/"
        if "$bin/$target" "${options[@]}" "$corpus" "Fuzz/Corpus/$target" >"$scratch/$target.log" 2>&1 \
                && [ "$(find "$crashes" -type f | wc -l)" -eq "$found_before" ]; then
            tail -n 12 "$scratch/$target.log" | grep -E "^(stat::|Done|INFO: a corpus)" || true
        else
            status=$?
            grep -E "Fatal error|==[0-9]+== ?ERROR|^SUMMARY" "$scratch/$target.log" | sort | uniq -c | head -n 10 || true
            grep -E "^ +#[0-9]+ .* /[^ ]*/(Modules|Plugins|Fuzz)/" "$scratch/$target.log" | head -n 8 || true
            grep -E "Test unit written to" "$scratch/$target.log" | sort -u || true
            echo "fuzz.sh: $target failed (status $status); the full log is $scratch/$target.log"
            touch "$scratch/$target.failed"
        fi
    } >"$scratch/$target.out" 2>&1
}

# As many targets at once as there are cores: each fuzzes on one.
parallel=$(nproc 2>/dev/null || echo 1)
echo "== ${#targets[@]} target(s), $parallel at a time"
running=0
for target in "${targets[@]}"; do
    rm -f "$scratch/$target.failed" "$scratch/$target.out"
    if [ "$running" -ge "$parallel" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    fuzz "$target" &
    running=$((running + 1))
done
wait

failed=()
for target in "${targets[@]}"; do
    cat "$scratch/$target.out" 2>/dev/null || true
    if [ -e "$scratch/$target.failed" ]; then failed+=("$target"); fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: crashes in ${failed[*]}; inputs in fuzz-crashes/" >&2
    exit 1
fi
echo "fuzz.sh: no crash in ${targets[*]} (${seconds}s each)"
