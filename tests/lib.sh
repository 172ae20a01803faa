# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Helpers for tests/cli and tests/root suites; source it with
#   . "$TESTS_DIR/lib.sh"
# It knows how the tree was built (SANITIZE, exported by tests/Makefile)
# and whether this is a valgrind pass (VALGRIND=1, see run.sh):
#
#   is_sanitized             true when the library was built with SANITIZE=...
#   skip_if_sanitized WHY    exit 77 with WHY under sanitizers
#   run_ours CMD [ARG...]    run one of our binaries (programs, $BIN tools);
#                            under VALGRIND=1 it runs inside valgrind
#   with_our_lib CMD [ARG...]  run a foreign, uninstrumented binary (say
#                            /usr/sbin/getcap) against our libcap.so.2; under
#                            sanitizers the runtimes are preloaded, as ASan
#                            must come first, and leaks are not checked since
#                            the program's own are not ours to fix

is_sanitized() {
	[ -n "${SANITIZE:-}" ]
}

skip_if_sanitized() {
	if is_sanitized; then
		echo "skipped under SANITIZE=$SANITIZE: $*"
		exit 77
	fi
}

run_ours() {
	${VALGRIND_CMD:-} "$@"
}

# The sanitizer runtimes the library links, as LD_PRELOAD wants them.
sanitizer_preload() {
	preload=
	for lib in $(ldd "$TOP/libcap/libcap.so.2" 2>/dev/null |
		     awk '/lib(asan|ubsan|tsan|lsan)\.so/ {print $3}'); do
		case $lib in
		*asan*) preload="$lib${preload:+:$preload}" ;;	# ASan first
		*) preload="${preload:+$preload:}$lib" ;;
		esac
	done
	echo "$preload"
}

with_our_lib() {
	if is_sanitized; then
		LD_PRELOAD="$(sanitizer_preload)${LD_PRELOAD:+:$LD_PRELOAD}" \
		ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		LD_LIBRARY_PATH="$TOP/libcap${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
	else
		LD_LIBRARY_PATH="$TOP/libcap${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
	fi
}
