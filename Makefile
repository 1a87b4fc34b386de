# perfweave — thin wrapper around CMake.
#   make demo    install missing Debian packages, build, run on examples/
#   make build   the Release build, profile-guided (PGO=0: without a profile)
#   make test    build Release and ASan+UBSan builds, run every test in both,
#                then build the libFuzzer harnesses and run each briefly
.PHONY: all deps build build-asan build-fuzz test test-release test-asan test-fuzz demo bench fuzz install clean

MAKEFLAGS += --no-print-directory
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 15
PGO ?= 1
PW = build/release/perfweave

all: build

deps:
	@sh scripts/install-deps.sh

# Release is profile-guided (cmake/pgo.cmake): an instrumented build in
# build/pgo is trained on generated traces first.  PGO=0 skips it (a
# quicker build while editing; the programs are a few per cent slower).
build: deps
ifeq ($(PGO),1)
	@cmake -S . -B build/pgo -DCMAKE_BUILD_TYPE=Release -DPW_TESTS=OFF \
	  -DPW_PGO_GENERATE=$(CURDIR)/build/pgo/profile $(CMAKE_FLAGS) >/dev/null
	@cmake --build build/pgo -j $(JOBS) --target perfweave_cli gen_emu_trace gen_dumpi_bench gen_ross
	@sh scripts/pgo-train.sh build/pgo build/pgo/profile
endif
	@cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DPW_WERROR=ON \
	  -DPW_PGO_USE=$(if $(filter 1,$(PGO)),$(CURDIR)/build/pgo/profile) $(CMAKE_FLAGS) >/dev/null
	@cmake --build build/release -j $(JOBS)

build-asan: deps
	@cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DPW_SANITIZE=ON -DPW_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build build/asan -j $(JOBS)

build-fuzz: deps
	@CC=clang cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=Debug -DPW_FUZZ=ON -DPW_TESTS=OFF -DPW_WERROR=ON \
	  -DPW_FUZZ_SECONDS=$(FUZZ_SECONDS) $(CMAKE_FLAGS) >/dev/null
	@cmake --build build/fuzz -j $(JOBS)

test-release: build
	@cd build/release && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	@cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

test-fuzz: build-fuzz
	@cd build/fuzz && ctest --output-on-failure

test: test-release test-asan test-fuzz

demo: build
	@PW=$(PW) sh scripts/demo.sh

bench: build
	@sh bench/run.sh

fuzz: build-fuzz
	@cd build/fuzz && ctest --output-on-failure

install: build
	@cmake --install build/release

clean:
	rm -rf build
