"""The sandbox's webhooks against Adyen's published webhook documents.

Reads a JSON-lines file of captured deliveries (one object a line: `{"body": "<the raw
JSON body>", "headers": {...}}`, as the webhook receiver of ClientRequestConformanceTests
writes them) and validates each body against its event's request schema in the
`webhooks` section of Tests/Conformance/specs/adyen/Webhooks-v1.json (standard
notifications: the event is each item's `eventCode`, the webhook `/EVENTCODE`) or
TokenizationNotification-v1.json (the event is the body's `type`, e.g.
`recurring.token.created`). Both documents are OpenAPI 3.1, so their schemas are JSON Schema
2020-12 (jsonschema 4.26.0, with format checking: `eventDate` and `createdAt` are date-times).
A body that does not validate fails the run with the event code, the field path and the
validator's message; a body whose event no document lists fails too.

Usage: validate_webhooks.py [--expect EVENT,...] DELIVERIES.jsonl
       validate_webhooks.py --self-test
`--expect` fails the run when one of the listed events (EVENT or EVENT:success|failure for a
standard notification) was not among the deliveries, so a flow that stops sending one is seen.
Prints `webhooks ok: N validated` and exits 0, or lists each failure and exits 1.
"""

import argparse
import collections
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPECS = pathlib.Path(__file__).resolve().parent / "specs" / "adyen"
STANDARD = "Webhooks-v1.json"
TOKENIZATION = "TokenizationNotification-v1.json"


class Document:
    """One webhooks document: a validator per event, built on first use."""

    def __init__(self, name):
        self.name = name
        self.uri = f"urn:adyen:{name}"
        self.spec = json.loads((SPECS / name).read_text())
        resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(self.uri, resource)
        self.validators = {}

    def events(self):
        return {key.lstrip("/") for key in self.spec.get("webhooks", {})}

    def validator(self, event):
        if event not in self.validators:
            webhook = self.spec["webhooks"].get("/" + event) or self.spec["webhooks"].get(event)
            if webhook is None:
                return None
            schema = webhook["post"]["requestBody"]["content"]["application/json"]["schema"]
            reference = {"$ref": self.uri + schema["$ref"]} if "$ref" in schema else schema
            self.validators[event] = Draft202012Validator(
                reference, registry=self.registry, format_checker=Draft202012Validator.FORMAT_CHECKER)
        return self.validators[event]


def path_text(parts):
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(body)"


def events_of(body):
    """(document, event, label) for a body: each standard item's eventCode, or the token type."""
    if isinstance(body, dict) and "notificationItems" in body:
        found = []
        for item in body.get("notificationItems") or []:
            inner = (item or {}).get("NotificationRequestItem") or {}
            code = inner.get("eventCode", "?")
            outcome = "success" if inner.get("success") == "true" else "failure"
            found.append((STANDARD, code, f"{code}:{outcome}"))
        return found or [(STANDARD, "?", "?")]
    if isinstance(body, dict) and "type" in body:
        return [(TOKENIZATION, body["type"], body["type"])]
    return [(None, "?", "?")]


def check(bodies, documents):
    """Validates each body; returns (Counter of labels validated, failures)."""
    validated = collections.Counter()
    failures = []
    for number, body in bodies:
        for document_name, event, label in events_of(body):
            document = documents.get(document_name)
            validator = document.validator(event) if document else None
            if validator is None:
                failures.append(f"delivery {number}: event {event}: no Adyen webhooks document lists it")
                continue
            errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
            for error in errors:
                failures.append(f"delivery {number}: {document_name} {event}: {path_text(error.absolute_path)}: {error.message}")
            if not errors:
                validated[label] += 1
    return validated, failures


def load(path):
    bodies = []
    for number, line in enumerate(pathlib.Path(path).read_text().splitlines(), start=1):
        if line.strip():
            bodies.append((number, json.loads(json.loads(line)["body"])))
    return bodies


def self_test(documents):
    """Deliberately broken notifications must be rejected with their field paths."""
    item = {
        "amount": {"currency": "USD", "value": 4505}, "eventCode": "AUTHORISATION", "eventDate": "2026-11-22T19:46:24+00:00",
        "merchantAccountCode": "M", "merchantReference": "r", "pspReference": "P", "success": "true",
    }
    broken_item = dict(item, success=True, eventDate="yesterday")
    token = {
        "createdAt": "2026-11-22T19:46:24+00:00", "environment": "test", "eventId": "E", "type": "recurring.token.created",
        "data": {"merchantAccount": "M", "shopperReference": "s", "storedPaymentMethodId": "X", "type": "cashapp", "operation": "created"},
    }
    cases = [
        ({"live": "false", "notificationItems": [{"NotificationRequestItem": broken_item}]},
         {"notificationItems[0].NotificationRequestItem.success", "notificationItems[0].NotificationRequestItem.eventDate"}),
        (dict(token, environment="sandbox"), {"environment"}),
    ]
    problems = []
    _, valid_failures = check([(0, {"live": "false", "notificationItems": [{"NotificationRequestItem": item}]}), (0, token)], documents)
    problems += [f"a valid notification was rejected: {f}" for f in valid_failures]
    for body, fields in cases:
        _, failures = check([(0, body)], documents)
        for field in fields:
            hit = [f for f in failures if f": {field}: " in f]
            if hit:
                print("rejected as it should be: " + hit[0])
            else:
                problems.append(f"a broken {field} was not rejected with its path (got {failures})")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("deliveries", nargs="?")
    parser.add_argument("--expect", default="", help="events that must have been delivered, comma-separated")
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    documents = {STANDARD: Document(STANDARD), TOKENIZATION: Document(TOKENIZATION)}
    if arguments.self_test:
        problems = self_test(documents)
        for problem in problems:
            print("FAIL " + problem)
        print("self-test ok" if not problems else f"self-test: {len(problems)} failures")
        return 1 if problems else 0
    if not arguments.deliveries:
        parser.error("give the deliveries file")

    bodies = load(arguments.deliveries)
    validated, failures = check(bodies, documents)
    for label, count in sorted(validated.items()):
        print(f"validated {count:3} {label}")
    seen = set(validated) | {label.split(":")[0] for label in validated}
    for expected in filter(None, arguments.expect.split(",")):
        if expected not in seen:
            failures.append(f"event {expected}: never delivered (expected from the flows)")
    for failure in failures:
        print("FAIL " + failure)
    if failures:
        print(f"webhooks: {len(failures)} failures in {len(bodies)} deliveries")
        return 1
    print(f"webhooks ok: {sum(validated.values())} validated in {len(bodies)} deliveries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
