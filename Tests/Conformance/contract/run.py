#!/usr/bin/env python3
"""The contract run: the sandbox against the providers' published API documents.

Usage: run.py --bin-dir DIR [--only NAME,...] [--seed N]

Starts `DIR/checkout sandbox --port 0`, then runs schemathesis (the pinned one in .build/python)
against every document declared in documents/*.py (see document.py): positive and negative
generation, the examples, coverage, fuzzing and stateful phases (the stateful one chains calls
through the links a document declares or schemathesis infers; where there are none it still runs
its sequences of single calls), a fixed seed, no example database, and a bounded number of
examples per operation. Checks: response_schema_conformance, not_a_server_error,
content_type_conformance, and status_code_conformance for the documents that list their error
statuses. Documents run two at a time against the one sandbox.

Prints one line per document (operations tested, cases generated, failures per check) and the
operations it leaves out with the reason; stops the sandbox; exits non-zero on any failure,
printing the failing operation, check and a curl command that reproduces it. Reports (JSON,
NDJSON, schemathesis's own output) are kept under .build/contract/<name>/.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CONTRACT = Path(__file__).resolve().parent
ROOT = CONTRACT.parents[2]
sys.path.insert(0, str(CONTRACT))

from document import ALL_CHECKS, CHECKS, PHASES, STATUS_CHECK, Document  # noqa: E402

VENV_ST = ROOT / ".build/python/bin/st"
REPORTS = ROOT / ".build/contract"
# The sandbox's own request-body limit (64 KB by default) is no provider's: the documents allow
# fields (Adyen's threeDSResult, say) whose longest values make bigger bodies, which the real APIs
# take. The run lifts it to the most --max-body-bytes allows, so no case meets that guard.
SANDBOX_ARGS = ["--max-body-bytes", "2097152"]
# Documents run side by side, this many at a time (the sandbox serves them all).
PARALLEL = 2
DEFAULT_SEED = 26
START_DEADLINE = 30.0
DOCUMENT_DEADLINE = 240.0


class RunError(Exception):
    """Something around the run (not a contract failure) is wrong: says what, and how to fix it."""


def discover(only: set[str] | None) -> list[Document]:
    """Every DOCUMENTS of documents/*.py, in file order; `only` keeps the named ones."""
    documents: list[Document] = []
    for path in sorted((CONTRACT / "documents").glob("*.py")):
        if path.name.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(f"contract_documents_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        declared = getattr(module, "DOCUMENTS", None)
        if not isinstance(declared, list) or not all(isinstance(d, Document) for d in declared):
            raise RunError(f"{path.relative_to(ROOT)}: DOCUMENTS must be a list of document.Document")
        documents.extend(declared)
    names = [d.name for d in documents]
    if len(set(names)) != len(names):
        raise RunError(f"two documents share a name: {names}")
    if only is not None:
        unknown = only - set(names)
        if unknown:
            raise RunError(f"--only names no document: {', '.join(sorted(unknown))} (known: {', '.join(names)})")
        documents = [d for d in documents if d.name in only]
    return documents


def spec_operations(document: Document) -> list[str]:
    """The document's operations, "METHOD /path", in its order."""
    spec = json.loads((ROOT / document.spec).read_text())
    methods = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
    return [f"{m.upper()} {p}" for p, item in spec.get("paths", {}).items() for m in item if m in methods]


def validate(document: Document, operations: list[str]) -> None:
    """Every operation tested or excluded with a reason, none unknown, checks spelled right."""
    problems = []
    known = set(operations)
    for op in list(document.operations) + list(document.excluded) + list(document.check_exclusions) + list(document.added_statuses):
        if op not in known:
            problems.append(f"{op!r} is not an operation of {document.spec}")
    for op in set(document.operations) & set(document.excluded):
        problems.append(f"{op!r} is both tested and excluded")
    for op in operations:
        if op not in document.operations and op not in document.excluded:
            problems.append(f"{op!r} is neither in operations nor in excluded (with a reason)")
    for op, reason in document.excluded.items():
        if not reason.strip():
            problems.append(f"{op!r} is excluded without a reason")
    if document.hooks and not (ROOT / document.hooks).is_file():
        problems.append(f"hooks file {document.hooks} does not exist")
    for op, phases in document.phase_exclusions.items():
        if op not in known:
            problems.append(f"{op!r} is not an operation of {document.spec}")
        for phase, reason in phases.items():
            if phase not in PHASES:
                problems.append(f"{op!r}: unknown phase {phase!r} (phases: {', '.join(PHASES)})")
            if not reason.strip():
                problems.append(f"{op!r}: the {phase} phase is excluded without a reason")
    for op, checks in document.check_exclusions.items():
        for check, reason in checks.items():
            if check not in ALL_CHECKS:
                problems.append(f"{op!r}: unknown check {check!r} (checks: {', '.join(ALL_CHECKS)})")
            if not reason.strip():
                problems.append(f"{op!r}: {check} is excluded without a reason")
    for op, statuses in document.added_statuses.items():
        for status, reason in statuses.items():
            if not (status.isdigit() and len(status) == 3) or not reason.strip():
                problems.append(f"{op!r}: added status {status!r} needs three digits and a reason")
    if not document.status_codes and not document.status_codes_reason.strip():
        problems.append("status_codes is False without status_codes_reason")
    if problems:
        raise RunError(f"document {document.name}:\n  " + "\n  ".join(problems))


class Sandbox:
    """`checkout sandbox --port 0`, its URL read from the first line it prints."""

    def __init__(self, binary: Path):
        self.log = REPORTS / "sandbox.log"
        self.log_file = open(self.log, "wb")
        self.process = subprocess.Popen(
            [str(binary), "sandbox", "--port", "0", *SANDBOX_ARGS], stdout=subprocess.PIPE, stderr=self.log_file, cwd=ROOT)
        self.url = self._read_url()
        # Whatever it prints later goes on being read, so a full pipe can never stall it.
        threading.Thread(target=self._drain, daemon=True).start()
        self._wait_healthy()

    def _drain(self) -> None:
        for _ in iter(lambda: os.read(self.process.stdout.fileno(), 65536), b""):
            pass

    def _read_url(self) -> str:
        deadline = time.monotonic() + START_DEADLINE
        line = b""
        while time.monotonic() < deadline and not line.endswith(b"\n"):
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 1)
                if not chunk:
                    break
                line += chunk
        url = line.decode(errors="replace").strip()
        if not url.startswith("http://"):
            self.stop()
            raise RunError(f"the sandbox printed no URL within {START_DEADLINE:.0f} s (got {url!r}); see {self.log}")
        return url

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + START_DEADLINE
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/sandbox/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RunError(f"the sandbox at {self.url} never answered GET /sandbox/health; see {self.log}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log_file.close()


def toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a TOML basic string for the text used here


def config(document: Document, seed: int, checks: list[str], parameters: dict[str, str],
           per_operation: dict[str, dict[str, str]]) -> str:
    """The schemathesis.toml for one document: seed, bounds, checks, excluded operations, and one
    [[operations]] entry per operation with its narrow exclusions and prepared parameters.

    The checks are chosen here, not with --checks: the command line's choice overrides every
    operation's, and would undo the per-operation exclusions."""
    # No example database and no crash cache: every run generates the same cases from the seed alone.
    lines = [f"seed = {seed}", "", "[cache]", "enabled = false", "",
             "[generation]", f"max-examples = {document.max_examples}", 'mode = "all"', 'database = "none"', "",
             "[checks]", "enabled = false", ""]
    if document.hooks:
        lines[0:0] = [f"hooks = {toml_string(str(ROOT / document.hooks))}"]
    for check in checks:
        lines += [f"[checks.{check}]", "enabled = true", ""]
    if parameters:
        lines.append("[parameters]")
        lines += [f"{toml_string(k)} = {toml_string(v)}" for k, v in parameters.items()]
        lines.append("")
    for op in document.excluded:
        lines += ["[[operations]]", f"include-name = {toml_string(op)}", "enabled = false", ""]
    for op in document.operations:
        settings = [f"parameters.{toml_string(k)} = {toml_string(v)}" for k, v in per_operation.get(op, {}).items()]
        settings += [f"checks.{check}.enabled = false" for check in document.check_exclusions.get(op, {})]
        settings += [f"phases.{phase}.enabled = false" for phase in document.phase_exclusions.get(op, {})]
        if settings:
            lines += ["[[operations]]", f"include-name = {toml_string(op)}", *settings, ""]
    return "\n".join(lines)


def with_added_statuses(document: Document, folder: Path) -> Path:
    """The document, or a copy in `folder` with its `added_statuses` listed (description only)."""
    if not document.added_statuses:
        return ROOT / document.spec
    spec = json.loads((ROOT / document.spec).read_text())
    for op, statuses in document.added_statuses.items():
        method, path = op.split(" ", 1)
        responses = spec["paths"][path][method.lower()].setdefault("responses", {})
        for status, reason in statuses.items():
            responses.setdefault(status, {"description": f"Not in the document; added by the contract run: {reason}"})
    copy = folder / Path(document.spec).name
    copy.write_text(json.dumps(spec))
    return copy


def failures_section(output: str) -> str:
    """schemathesis's FAILURES block (each with its operation, check and curl reproduction)."""
    start = output.find(" FAILURES ")
    if start < 0:
        return ""
    start = output.rfind("\n", 0, start) + 1
    end = len(output)
    for marker in (" WARNINGS ", " SUMMARY ", " ERRORS "):
        at = output.find(marker, start + 10)
        if at >= 0:
            end = min(end, output.rfind("\n", 0, at) + 1)
    return output[start:end].rstrip()


def run_document(document: Document, sandbox: Sandbox, seed: int) -> tuple[bool, str]:
    """Runs schemathesis on one document: whether it passed, and what to print about it."""
    out: list[str] = []
    base = sandbox.url + document.base_path
    folder = REPORTS / document.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    parameters = dict(document.prepare(base)) if document.prepare else {}
    per_operation = {op: dict(values) for op, values in document.prepare_operations(base).items()} if document.prepare_operations else {}
    unknown = set(per_operation) - set(document.operations)
    if unknown:
        return False, f"{document.name}: FAILED: prepare_operations names operations it does not test: {sorted(unknown)}"
    checks = list(CHECKS) + ([STATUS_CHECK] if document.status_codes else [])
    (folder / "schemathesis.toml").write_text(config(document, seed, checks, parameters, per_operation))
    spec = with_added_statuses(document, folder)
    command = [str(VENV_ST), "--config-file", str(folder / "schemathesis.toml"), "run", str(spec),
               "--url", base, "--phases", ",".join(PHASES), "--workers", "1",
               "--seed", str(seed), "--max-examples", str(document.max_examples), "--mode", "all",
               "--report", "json,ndjson", "--report-json-path", str(folder / "report.json"),
               "--report-ndjson-path", str(folder / "events.ndjson"), "--output-sanitize", "false",
               "--no-color", "--suppress-health-check", "all", "--warnings", "off"]
    for op in document.operations:
        command += ["--include-name", op]
    for name, value in document.headers.items():
        command += ["--header", f"{name}: {value}"]
    started = time.monotonic()
    try:
        finished = run_child(command)
    except subprocess.TimeoutExpired:
        return False, f"{document.name}: FAILED: schemathesis ran over {DOCUMENT_DEADLINE:.0f} s (lower max_examples)"
    elapsed = time.monotonic() - started
    output = finished.stdout + finished.stderr
    (folder / "schemathesis.out").write_text(output)
    try:
        report = json.loads((folder / "report.json").read_text())
    except (OSError, ValueError):
        return False, f"{document.name}: FAILED: schemathesis exited {finished.returncode} without a report:\n{output[-4000:]}"

    per_check, ran = check_results(folder / "events.ndjson", checks)
    # The configuration is ours: a check it meant to run that never ran, or one it did not, is a failure too.
    wrong_checks = sorted(set(checks) - set(ran)) + sorted(set(ran) - set(checks))
    tested = report["operations"]["tested"]
    generated = report["test_cases"]["generated"]
    stateful = report["phases"]["stateful"]
    stateful_note = "stateful: " + ("ran" if stateful["status"] != "skip" else f"skipped ({stateful.get('skip_reason')})")
    status_note = "" if document.status_codes else f" [{STATUS_CHECK} not checked: {document.status_codes_reason}]"
    counts = ", ".join(f"{check} {count}" for check, count in per_check.items())
    out.append(f"{document.name}: {tested}/{len(document.operations)} operations tested "
               f"({len(document.excluded)} excluded), {generated} cases, {stateful_note}, {elapsed:.1f} s; "
               f"failures: {counts}{status_note}")
    for op, reason in document.excluded.items():
        out.append(f"  excluded {op}: {reason}")
    for op, exclusions in document.check_exclusions.items():
        for check, reason in exclusions.items():
            out.append(f"  {op}: {check} not checked: {reason}")
    for op, statuses in document.added_statuses.items():
        reasons = "; ".join(f"{status}: {reason}" for status, reason in statuses.items())
        out.append(f"  {op}: statuses added to the document's ({reasons})")
    for op, exclusions in document.phase_exclusions.items():
        for phase, reason in exclusions.items():
            out.append(f"  {op}: no {phase} phase: {reason}")
    errors = report.get("errors", [])
    passed = (finished.returncode == 0 and not report.get("failures") and not errors and not wrong_checks
              and tested == len(document.operations))
    if wrong_checks:
        out.append(f"{document.name}: FAILED: the checks that ran ({', '.join(sorted(ran))}) are not the ones configured "
                   f"({', '.join(checks)}): see {folder / 'schemathesis.toml'}")
    if not passed:
        out.append(f"{document.name}: FAILED (schemathesis exit {finished.returncode}; {len(errors)} errors; "
                   f"{tested} of {len(document.operations)} operations tested); full output in {folder / 'schemathesis.out'}")
        section = failures_section(output)
        out.append(section if section else output[-6000:])
    return passed, "\n".join(out)


# The schemathesis processes running now, so an interrupted run can stop them.
CHILDREN: set[subprocess.Popen] = set()
CHILDREN_LOCK = threading.Lock()


def run_child(command: list[str]) -> subprocess.CompletedProcess:
    """subprocess.run(capture_output, timeout DOCUMENT_DEADLINE), the process kept in CHILDREN meanwhile."""
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        with CHILDREN_LOCK:
            CHILDREN.add(process)
        try:
            stdout, stderr = process.communicate(timeout=DOCUMENT_DEADLINE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise
        finally:
            with CHILDREN_LOCK:
                CHILDREN.discard(process)
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def longest_first(documents: list[Document]) -> list[Document]:
    """The documents the last run found slowest first (so two at a time finish together); the
    declared order when there was no last run. Each document has its own schemathesis process and
    seed, so the order changes no case."""
    def last_time(document: Document) -> float:
        try:
            return float(json.loads((REPORTS / document.name / "report.json").read_text())["running_time"])
        except (OSError, ValueError, KeyError, TypeError):
            return 0.0
    return sorted(documents, key=last_time, reverse=True)


def guarded(document: Document, sandbox: Sandbox, seed: int) -> tuple[bool, str]:
    """run_document, with an exception (a `prepare` that failed, say) reported as the document's failure."""
    try:
        return run_document(document, sandbox, seed)
    except Exception as error:  # noqa: BLE001 - any error fails this document, not the whole run
        return False, f"{document.name}: FAILED: {type(error).__name__}: {error}"


def check_results(events: Path, checks: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """From the NDJSON events: distinct failures (operation, failure type, message) per check, and
    how many times each check ran."""
    seen: dict[str, set] = {check: set() for check in checks}
    ran: dict[str, int] = {}
    for line in events.read_text().splitlines():
        event = json.loads(line)
        recorder = event.get("ScenarioFinished", {}).get("recorder")
        if not recorder:
            continue
        for results in recorder.get("checks", {}).values():
            for result in results:
                ran[result["name"]] = ran.get(result["name"], 0) + 1
                if result.get("status") != "failure":
                    continue
                failure = (result.get("failure_info") or {}).get("failure", {})
                key = (failure.get("operation", recorder.get("label")), failure.get("type"), failure.get("message"))
                seen.setdefault(result["name"], set()).add(key)
    return {check: len(keys) for check, keys in seen.items()}, ran


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True, type=Path, help="where the built `checkout` is")
    parser.add_argument("--only", help="comma-separated document names")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()

    binary = args.bin_dir / "checkout"
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        raise RunError(f"no checkout binary at {binary}: build it with `swift build --product checkout`")
    if not VENV_ST.is_file():
        raise RunError(f"no schemathesis at {VENV_ST}: make the test venv with `.ci/ensure-packages.sh --with-python`")
    documents = discover(set(args.only.split(",")) if args.only else None)
    for document in documents:
        validate(document, spec_operations(document))

    REPORTS.mkdir(parents=True, exist_ok=True)
    # Terminated, it still stops the sandbox it started (SystemExit runs the `finally` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    sandbox = Sandbox(binary)
    pool = ThreadPoolExecutor(max_workers=PARALLEL)
    try:
        # Started slowest first, printed in the declared order.
        futures = {document.name: pool.submit(guarded, document, sandbox, args.seed) for document in longest_first(documents)}
        results = []
        for document in documents:
            passed, text = futures[document.name].result()
            print(text, flush=True)
            results.append(passed)
    finally:
        # Interrupted (Ctrl-C, SIGTERM): stop what is running, then wait for the threads to notice.
        with CHILDREN_LOCK:
            for child in CHILDREN:
                child.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        sandbox.stop()
    failed = [d.name for d, ok in zip(documents, results) if not ok]
    print(f"contract run: {len(documents)} documents, seed {args.seed}, {time.monotonic() - started:.1f} s: "
          + (f"FAILED ({', '.join(failed)})" if failed else "0 failures"))
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RunError as error:
        print(f"contract run: {error}", file=sys.stderr)
        sys.exit(2)
