# The README's two commands are `make demo` and `make test`; each installs what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
DEMO_PROGRAMS ?= 600

.PHONY: web-assets install install-dev demo serve test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The dashboard's charting library comes from the npm registry at setup (never committed).
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

bench: install-dev
	@for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script --quick || exit 1; done

clean:
	rm -rf $(VENV) execsynth-data .pytest_cache app/web/vendor test-artifacts
