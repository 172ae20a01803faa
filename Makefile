# libcap-perfmon: a drop-in libcap.so.2, its programs and pam_cap.
topdir := .
include Make.Rules

SUBDIRS := libcap psx common progs pam_cap

all:
	@for d in $(SUBDIRS); do $(MAKE) -C $$d all || exit 1; done

install: all
	@for d in $(SUBDIRS); do $(MAKE) -C $$d install || exit 1; done
	@if [ -f man/Makefile ]; then $(MAKE) -C man install; fi

# Removes what "make install" wrote, given the same DESTDIR, prefix and
# other paths (and LIBCAP_LAYOUT): exactly those files, and the directories
# only this package uses once they are empty. Nothing is built.
uninstall:
	@for d in $(SUBDIRS) man; do \
		[ -f $$d/Makefile ] && { $(MAKE) -C $$d uninstall || exit 1; }; done; true

# Runs every tier of the suite; installs missing build and test dependencies
# first when run as root (and says what to install otherwise). Then, unless
# this run is already a sanitizer or valgrind one, the unit and cli tiers
# (and the root suites tests/suites.conf lists under "sanitize") again
# under ASan+UBSan (built in build/address-undefined while the first
# pass runs) and under valgrind: tests/run.sh runs the three passes' suites
# side by side (JOBS=N at a time; default twice the CPUs) and prints each
# pass in turn. TEST_PASSES=plain keeps to the first pass. The builds use
# every CPU unless make was given -j.
TEST_PASSES ?= plain sanitize valgrind
ifneq ($(SANITIZE)$(filter 1,$(VALGRIND)),)
TEST_PASSES := plain
endif

TEST_SUMMARY := $(abspath .test-summary)
export TEST_SUMMARY

test:
	@sh tests/install-deps.sh
	@sh tests/tools/libcap_ref.sh --setup
	@rm -f $(TEST_SUMMARY)
	@case " $$MAKEFLAGS" in *" -j"*) j= ;; *) j=-j$$(getconf _NPROCESSORS_ONLN) ;; esac; \
		$(MAKE) $$j all && $(MAKE) $$j -C tests all
	@PASSES="$(TEST_PASSES)" BUILD=$(BUILD) SANITIZE=$(SANITIZE) RUN_SH_BUILT=1 \
		TEST_LONG=$(TEST_LONG) SUITE_TIMEOUT=$(SUITE_TIMEOUT) sh tests/run.sh; \
		rc=$$?; awk '{ p += $$1; f += $$2; s += $$3 } END { \
		printf "total: %d passed, %d failed, %d skipped\n", p, f, s }' $(TEST_SUMMARY); \
		exit $$rc

# The reference libcaps the differential suites compare with, as Debian
# built them and pinned by SHA-256 (tests/tools/libcap_ref.sh): 2.66
# (Debian 12's, used where the system has not installed it), 2.75 and
# 2.78. Fetched once into a cache outside the tree (for root
# /var/cache/libcap-perfmon; LIBCAP_REF_CACHE=dir for another) and reused
# offline; make test does this first. Without the network and an empty
# cache it says so and the suites that need them skip, naming what to do.
test-refs:
	@sh tests/tools/libcap_ref.sh --setup

# Debian packages (libcap2, libcap2-bin, libpam-cap, libcap-dev) built with
# dpkg-buildpackage from a clean copy of the tree; the .debs go to build/deb
# (DEB_OUT=dir for elsewhere). See docs/deployment.md and debian/libcap2-bin.README.Debian.
DEB_OUT ?= build/deb
deb:
	@sh debian/make-deb.sh $(DEB_OUT)

# Builds with gcc, clang, _FORTIFY_SOURCE=3, ASan+UBSan and static programs,
# each in build/distcheck/<name>, runs the unit tier of each, and checks that
# uninstall removes what install wrote (tools/distcheck.sh).
distcheck:
	@sh tools/distcheck.sh

abi-check: all
	@BUILD=$(BUILD) TOP=$(CURDIR) sh tests/cli/libcap_abi_exports.sh

# The main job, end to end: perf refused to nobody, our setcap grants
# cap_perfmon, getcap audits it, perf allowed. Needs root.
demo:
	@sh tests/install-deps.sh --build
	@$(MAKE) -s all
	@$(MAKE) -s -C tests $(BUILD)/tests/bin/perfprobe
	@BUILD=$(BUILD) sh demo/demo.sh

bench: all
	@$(MAKE) -C bench run

# libFuzzer harnesses (clang), each for FUZZ_SECONDS (default 60).
fuzz:
	@$(MAKE) -C tests/fuzz fuzz

# The recipes of docs/hacking.md ("Adding things"), each followed in a
# scratch clone and checked (tests/tools/recipes.sh); minutes, so not
# part of make test. RECIPES=capability (option, json, suite) for one.
recipes:
	@sh tests/tools/recipes.sh $(RECIPES)

# make test with the long settings (TEST_LONG=1, see tests/lib.sh's
# long_or): the races and the fuzz smoke run several times longer, the
# valgrind pass takes every cli suite, and a suite has 30 minutes.
test-long:
	@$(MAKE) test TEST_LONG=1 SUITE_TIMEOUT=1800

clean:
	@for d in $(SUBDIRS) tests tests/fuzz bench; do \
		[ -f $$d/Makefile ] && $(MAKE) -C $$d clean; done; true
	rm -rf $(BUILD)

.PHONY: all install uninstall test test-refs test-long recipes deb distcheck abi-check demo bench fuzz clean
