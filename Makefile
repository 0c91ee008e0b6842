SHELL := /bin/bash
# Everything runs from a fresh clone with only python3 (>= 3.11), make and (for the spec linter) npm.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NPM_STAMP := node_modules/.installed
GEN_PKG := generated/printmgmt_api
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: help venv demo wheels docs generate generate-sync check-generated lint format spec typecheck unit sim-test contract wheel-test rehearsal test bench budget clean lock

help:
	@echo "make demo      build .venv-demo (printmgmt with printmgmt-sim only), start the local simulator, run examples/demo.py"
	@echo "make test      build .venv and run lint, spec checks, drift check, mypy --strict, schemathesis, wheel tests, tests"
	@echo "make generate  regenerate generated/printmgmt_api from openapi.yaml"
	@echo "make generate-sync  regenerate the sync client (overlay/printmgmt/_sync) from overlay/printmgmt/_async"
	@echo "make lint      ruff on overlay/ and tests/"
	@echo "make wheels    build the wheels and sdists of printmgmt, printmgmt-sim and printmgmt-cli into dist/"
	@echo "make budget    the SDK's hand-written lines against line-budget.toml"
	@echo "make docs      build the documentation site into site/ (strict)"
	@echo "make rehearsal  three kinds of spec change in copies of the repository: only the expected files need a hand edit"
	@echo "make bench     benchmarks (not part of make test): bench/results.json and BENCHMARKS.md"

# the three distributions of this repository: the SDK (.), the simulator and the command line; one pip command
# each time, so printmgmt's extras [sim] and [cli] resolve to these checkouts and never to an index
DISTS := . simulator cli
PYPROJECTS := pyproject.toml simulator/pyproject.toml cli/pyproject.toml

$(STAMP): $(PYPROJECTS) requirements-dev.txt
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 is required"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps $(addprefix -e ./,$(DISTS))
	touch $@

venv: $(STAMP)

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Generation: pinned generator and ruff (requirements-dev.txt), isolated ruff post-hooks, warnings fatal.
# OUT lets the drift check generate elsewhere.
OUT ?= $(GEN_PKG)
generate: $(STAMP)
	$(BIN)/openapi-python-client generate --path openapi.yaml --config openapi-python-client.yaml \
	    --custom-template-path templates --meta none --output-path $(OUT) --overwrite --fail-on-warning
	@# operation-level x-printmgmt extensions do not reach the generator's templates: a table of its own
	$(BIN)/python templates/operations_table.py openapi.yaml $(OUT)
	$(BIN)/ruff format --isolated --no-cache --quiet --line-length 120 $(OUT)/operations.py $(OUT)/endpoints.py
	@# the typed field paths of each listed collection (printmgmt.odata.jobs, the query checks' known fields)
	$(BIN)/python templates/field_catalog.py openapi.yaml $(OUT)
	$(BIN)/ruff format --isolated --no-cache --quiet --line-length 120 $(OUT)/field_catalog.py
	@# the schemas themselves: the simulator's contract (the bodies it accepts, the fields its documents carry)
	$(BIN)/python templates/schemas_table.py openapi.yaml $(OUT)
	$(BIN)/ruff format --isolated --no-cache --quiet --line-length 120 $(OUT)/schemas.py
	@# the generator writes no py.typed with --meta none; users' type checkers need it
	touch $(OUT)/py.typed
	@# openapi-python-client 0.29 always writes Client classes (client.py), their errors (errors.py) and a
	@# package __init__ that imports them, and has no option to skip them; printmgmt sends every request
	@# through its own invoker, so they go, and __init__ keeps only the package's docstring
	rm -f $(OUT)/client.py $(OUT)/errors.py
	echo '"""The generated layer of printmgmt: models, and one request builder per operation (make generate)."""' \
	    > $(OUT)/__init__.py
	@# README's operations table follows the spec (not when the drift check generates elsewhere)
	if [ "$(OUT)" = "$(GEN_PKG)" ]; then $(BIN)/python scripts/operations_table.py; fi

check-generated: $(STAMP)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(MAKE) --no-print-directory generate OUT=$$tmp/printmgmt_api >/dev/null && \
	if diff -r -q -x __pycache__ $$tmp/printmgmt_api $(GEN_PKG); then echo "generated/ is up to date"; \
	else echo "generated/ differs from what 'make generate' writes: run make generate and commit"; exit 1; fi
	$(BIN)/python scripts/unasync.py --check

# the sync client (and the sync twin of the simulator suite) from the async sources
generate-sync: $(STAMP)
	$(BIN)/python scripts/unasync.py

# standard library only, no venv: .ci/run calls it first
budget:
	$(PYTHON) scripts/line_budget.py

LINTED := overlay cli tests simulator examples bench templates scripts docs

lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	@# the layers of README's "Maintaining" section (contracts in pyproject.toml)
	$(BIN)/lint-imports --no-cache

format: $(STAMP)
	$(BIN)/ruff check --fix $(LINTED)
	$(BIN)/ruff format $(LINTED)

spec: $(STAMP) $(NPM_STAMP)
	$(BIN)/openapi-spec-validator openapi.yaml
	REDOCLY_TELEMETRY=off node_modules/.bin/redocly lint openapi.yaml --format stylish 2>&1 | grep -v -e '^ *║' -e '^ *╔' -e '^ *╚'; exit $${PIPESTATUS[0]}

# the tests and the code users copy (README's python blocks, examples/*.py, the notebook: typecheck_docs.py)
# too, so a changed signature lists all its stale call sites in one go: each check runs even after one fails.
# One mypy run per folder with a conftest.py (mypy names a module by its folder, and `conftest` once a run).
typecheck: $(STAMP)
	@failed=0; for args in "--strict overlay simulator/printmgmt_sim cli/printmgmt_cli bench" "tests/*.py tests/wheel" \
	    tests/cli tests/referees simulator/tests; do \
	    echo "mypy $$args"; $(BIN)/mypy $$args || failed=1; done; \
	echo "python tests/typecheck_docs.py"; $(BIN)/python tests/typecheck_docs.py || failed=1; exit $$failed

# the demo needs only what a user installs: the library with its [sim] extra (printmgmt-sim, which brings
# printmgmt-cli for the server's profile), from this checkout, in an environment of its own (not the development
# one); it starts its own simulator on a free loopback port and stops it
DEMO_VENV  := .venv-demo
DEMO_STAMP := $(DEMO_VENV)/.installed

$(DEMO_STAMP): $(PYPROJECTS)
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 is required"'
	$(PYTHON) -m venv $(DEMO_VENV)
	$(DEMO_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -e '.[sim]' -e ./simulator -e ./cli
	touch $@

demo: $(DEMO_STAMP)
	$(DEMO_VENV)/bin/python examples/demo.py

unit: $(STAMP) $(NPM_STAMP)
	$(BIN)/pytest -q

# the SDK against the simulator over real HTTP on 127.0.0.1, the async client and the sync client's twin of the
# suite (simulator/tests/_sync, generated from _async)
sim-test: $(STAMP)
	$(BIN)/pytest -q simulator/tests

# schemathesis checks the simulator against openapi.yaml (all checks, fixed seed, bounded examples)
contract: $(STAMP)
	$(BIN)/python simulator/run_schemathesis.py

# the wheel and sdist of each distribution, into dist/
wheels: $(STAMP)
	rm -rf dist && for dist in $(DISTS); do $(BIN)/python -m build --sdist --wheel --outdir dist $$dist || exit 1; done

# the built wheels, installed with each extra into fresh environments outside the checkout, used as a user would
wheel-test: $(STAMP)
	$(BIN)/python tests/wheel/smoke.py

# the documentation site (mkdocs-material + mkdocstrings) from the guides in docs/ and the docstrings, in
# strict mode: a broken link or reference fails
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	@echo "site/ built (open site/index.html)"

# the three kinds of spec change docs/maintaining.md describes, rehearsed in copies of the repository: only the
# files its table names need a hand edit (scripts/rehearse_spec_changes.py; about two minutes)
rehearsal: $(STAMP)
	$(BIN)/python scripts/rehearse_spec_changes.py

# pytest runs last: CI reads the closing line of the output, and schemathesis' summary line counts no test
test: lint spec check-generated typecheck docs contract wheel-test rehearsal unit sim-test

# benchmarks against raw httpx and aiohttp, a canned loopback server and the simulator (each in its own process);
# not part of make test: figures are ratios measured in one run, never asserted. BENCH_ARGS=--quick for a smoke run
bench: $(STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) $(DEMO_VENV) dist node_modules .pytest_cache .mypy_cache .hypothesis

# Re-resolve the pinned development environment from pyproject.toml's [dev] extra.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]' -e ./simulator -e ./cli
	.lock-venv/bin/python -m pip freeze --exclude-editable --disable-pip-version-check > requirements-dev.txt
	rm -rf .lock-venv
