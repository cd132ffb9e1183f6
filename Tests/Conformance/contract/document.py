"""What the contract run (run.py) needs to know about one provider's API document.

Each file in documents/ exports DOCUMENTS, a list of Document. Operations are named as
schemathesis names them: "METHOD /path", the path as the document writes it (without the
server's base path). Every operation of the document is either in `operations` (tested) or in
`excluded` (with the reason); run.py refuses a document that leaves one out or names one the
document does not have, so a new operation in the document, or a new emulated one, is one line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

# The checks every document runs; status_code_conformance only where `status_codes` is set.
CHECKS = ("response_schema_conformance", "not_a_server_error", "content_type_conformance")
STATUS_CHECK = "status_code_conformance"
ALL_CHECKS = CHECKS + (STATUS_CHECK,)
# schemathesis's phases, in the order it runs them (stateful chains calls through the document's
# links or those schemathesis infers; without any it runs sequences of single calls).
PHASES = ("examples", "coverage", "fuzzing", "stateful")


@dataclass(frozen=True)
class Document:
    # Short name printed in the summary, e.g. "adyen-checkout".
    name: str
    # The document, relative to the repository root.
    spec: str
    # Where the document's paths live on the sandbox, e.g. "/v71" ("" for none).
    base_path: str
    # Headers every request carries (the sandbox's test credentials).
    headers: Mapping[str, str]
    # "METHOD /path" operations the sandbox emulates: tested.
    operations: tuple[str, ...]
    # "METHOD /path" -> why it is not tested (not emulated, no such path on the sandbox, ...).
    excluded: Mapping[str, str]
    # Whether the document lists its error statuses, so status_code_conformance is checked.
    status_codes: bool
    # When status_codes is False: why (e.g. "the document lists only success responses").
    status_codes_reason: str = ""
    # Hypothesis examples per operation in the fuzzing and stateful phases, which bounds the run's
    # length; the coverage phase is exhaustive and not bounded by it (see phase_exclusions).
    max_examples: int = 10
    # "METHOD /path" -> {check name: reason}: one check off on one operation, with the reason.
    check_exclusions: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # "METHOD /path" -> {status: reason}: a status the real API answers on that operation that the
    # document does not list (e.g. 401 for missing credentials), added (description only) to the
    # copy of the document the run reads, so status_code_conformance still checks every other one.
    added_statuses: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # "METHOD /path" -> {phase: reason}: one phase off for one operation, with the reason (e.g. a
    # coverage phase of thousands of cases that would not fit the run's minute).
    phase_exclusions: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # Optional: a schemathesis hooks file (relative to the repository root) loaded for this
    # document only, e.g. to give each request a fresh idempotency key.
    hooks: str = ""
    # Optional: called with the sandbox's base URL (origin + base_path) before the run; returns
    # fixed parameter values, e.g. {"path.paymentPspReference": "..."} (schemathesis's
    # [parameters] keys: "location.name" or "name"), so operations on an existing resource
    # reach it instead of always answering "not found".
    prepare: Callable[[str], Mapping[str, str]] | None = None
    # Optional, the same per operation: returns {"METHOD /path": {"path.name": "...", ...}}, for
    # operations that each need a resource of their own (one payment to capture, another to cancel).
    prepare_operations: Callable[[str], Mapping[str, Mapping[str, str]]] | None = None
