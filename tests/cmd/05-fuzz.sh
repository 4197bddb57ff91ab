#!/usr/bin/env bash
# The libFuzzer harnesses (tests/fuzz/fuzz_*.c) on their committed seeds plus a few thousand
# mutations each, under ASan and UBSan: no crash, hang or invariant failure. `make test`
# builds them into build-fuzz/ (make fuzz-bins); `make fuzz FUZZ_TIME=S` runs them longer.
. "$(dirname "$0")/lib.sh"

dir=${FUZZ_BUILD:-build-fuzz}
if ! ls "$dir"/fuzz/fuzz_* >/dev/null 2>&1; then
	skip "no fuzz harnesses in $dir/fuzz (make fuzz-bins: clang with libFuzzer, from libclang-rt-14-dev)"
	exit 0
fi
out=$("$(dirname "$0")/../fuzz/run.sh" seeds "$dir")
while IFS= read -r line; do
	case "$line" in
	"ok "* | "not ok "*)
		name=${line#* - }
		if [ "${line#not ok}" != "$line" ]; then
			check "$name" false
		else
			check "$name" true
		fi
		;;
	"#"*) echo "$line" ;;
	esac
done <<<"$out"
