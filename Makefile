# The README's two commands are `make demo` and `make test`; each installs what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
DEMO_PROGRAMS ?= 600

.PHONY: web-assets install install-dev demo serve test test-fast test-production test-trainers bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The dashboard's charting library and Swagger UI (/docs) come from the npm registry at setup (never committed).
web-assets:
	bash scripts/install_web_assets.sh

install: $(BIN)/python web-assets
	$(BIN)/pip install --quiet -e .

install-dev: $(BIN)/python web-assets
	$(BIN)/pip install --quiet -e '.[dev]'

# The main job on embedded defaults (SQLite, filesystem broker, builtin teacher): a C1-C6
# batch, then verl and LLaMA-Factory exports with dataset cards under ./execsynth-data.
demo: install
	$(BIN)/execsynth demo --programs $(DEMO_PROGRAMS)

test: install-dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# the tests that need no service (no Postgres, no Redis) and start no child process of the
# CLI, a worker or a browser (marked slow): a quick loop while editing
test-fast: install-dev
	$(BIN)/python -m pytest -m "not services and not slow" -q $(PYTEST_ARGS)

# production mode from a plain `pip install .` in a fresh virtualenv (its own Redis and
# Postgres database, `execsynth worker` + `execsynth serve`, batches over REST)
test-production: web-assets
	$(PYTHON) scripts/production_check.py

# The trainer recipes on the CPU: TRL, verl, OpenRLHF, LLaMA-Factory, each in its own virtualenv
# cached under ~/.cache/execsynth/trainers (training/README.md section 4). TRAINERS="trl verl" runs some.
TRAINERS ?=
test-trainers: install
	EXECSYNTH_CLI=$(abspath $(BIN))/execsynth $(PYTHON) scripts/trainer_envs.py test $(TRAINERS)

# Each benchmark prints its figures and the ratio to its issue's baseline or target.
# BENCH_ARGS= (empty) runs the full sizes; the quick forms keep `make bench` to minutes.
BENCH_QUICK ?= 1
bench: install-dev
	-$(BIN)/python -m bench.sandbox $(if $(BENCH_QUICK),--repeat 1)
	-$(BIN)/python -m bench.generation $(if $(BENCH_QUICK),--quick)
	-$(BIN)/python -m bench.naturalness $(if $(BENCH_QUICK),--quick)
	-$(BIN)/python -m bench.target_calls $(if $(BENCH_QUICK),--slots 1)
	-$(BIN)/python -m bench.gate_adversary --quiet
	-$(BIN)/python -m bench.pipeline $(if $(BENCH_QUICK),--quick)
	-$(BIN)/python -m bench.rewards $(if $(BENCH_QUICK),--quick)
	-$(BIN)/python -m bench.rationale $(if $(BENCH_QUICK),--quick)
	-$(BIN)/python -m bench.export $(if $(BENCH_QUICK),--samples 20000)
	-$(BIN)/python -m bench.api $(if $(BENCH_QUICK),--quick)
	-$(BIN)/python -m bench.scale $(if $(BENCH_QUICK),--quick)

clean:
	rm -rf $(VENV) execsynth-data .pytest_cache app/web/vendor test-artifacts
