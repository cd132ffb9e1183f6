"""Our client's requests against the providers' published API documents.

Reads every HAR transcript (`checkout run --record`) in the directories or files given and
validates each recorded request whose provider has a document in Tests/Conformance/specs/
against its operation there (openapi-core 0.23.1: the path and query parameters, the headers
the document requires and the JSON body against the operation's request schema). A request
that does not validate fails the run with the transcript, the operation, the field path and
the validator's message. Requests no document covers (Antom: no document; Afterpay's signing
service; the sandbox's own routes; the wallet's token and rates services) are listed as not
checked, with the reason. The run fails, too, when a provider's request maps to no
operation of its document and is not in the list of known undocumented routes below, so a new
call cannot slip by unchecked.

Transcripts redact secrets: `Authorization` keeps only its scheme (`Client [REDACTED]`,
`Basic [REDACTED]`, `Bearer [REDACTED]`) and API keys become `[REDACTED]` (`X-API-Key`). The
documents only require these headers to be present, so redaction does not change the outcome;
no body field the client sends carries a secret.

Usage: validate_client_requests.py [--json SUMMARY.json] HAR_OR_DIR...
       validate_client_requests.py --self-test
Prints `client requests ok: N validated` and exits 0, or lists each failure and exits 1.
"""

import argparse
import collections
import json
import pathlib
import sys
import warnings
from urllib.parse import parse_qsl, urlsplit

from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest

# Square's document secures its operations with OAuth 2, which openapi-core does not check
# (it warns "Unsupported scheme type" and accepts): the bearer token is not validated.
warnings.filterwarnings("ignore", message="Unsupported scheme type")

SPECS = pathlib.Path(__file__).resolve().parent / "specs"

# provider id (the transcript entry's `_provider`) → [(path prefix, document, real host)].
# The sandbox serves each provider under the real paths, so a recorded path is the real path
# on the provider's documented host.
DOCUMENTS = {
    "adyen": [("/v71/", "adyen/CheckoutService-v71.json", "https://checkout-test.adyen.com")],
    "cashapp": [("/customer-request/v1/", "cashapp/cash-app-customer-request-api-openapi.json", "https://sandbox.api.cash.app")],
    "afterpay": [
        ("/v2/checkouts", "cashapp/cash-app-checkouts-openapi.json", "https://global-api-sandbox.afterpay.com"),
        ("/v2/payments", "cashapp/cash-app-payments-openapi.json", "https://global-api-sandbox.afterpay.com"),
        ("/v2/configuration", "cashapp/cash-app-configuration-openapi.json", "https://global-api-sandbox.afterpay.com"),
    ],
    "square": [("/v2/payments", "square/payments-api.json", "https://connect.squareup.com")],
}

# Requests no document covers: (provider, method, path prefix) → why.
NOT_COVERED = [
    (None, None, "/sandbox/", "a sandbox-only route (simulated customer, webhook registration, cashier data): no provider has it"),
    ("antom", None, "/ams/", "Antom publishes no OpenAPI document; its official SDK run (antom_conformance.py) is its check"),
    ("afterpay", "POST", "/v2/payments/sign-payment",
     "Afterpay's Cash App Pay signing service: not in the checkouts or payments documents (PayKit's seed describes it)"),
    ("afterpay", "POST", "/v2/payments/validate-payment",
     "Afterpay's Cash App Pay signing service: not in the checkouts or payments documents (PayKit's seed describes it)"),
    ("adyen", "POST", "/checkoutshopper/",
     "Adyen's client-key API (its components' setup, payments and paymentDetails on a session): Adyen publishes no "
     "OpenAPI document for it; the paths and bodies follow adyen-ios AdyenSession/API/ and adyen-web's sessions services"),
    ("adyen", "GET", "/checkoutshopper/",
     "Adyen's client-key API: no published document (the shopper's visit of a redirect action's page is on the sandbox's own host)"),
    ("wallet", "POST", "/wallet/tokens", "the sandbox's stand-in for PassKit issuing a wallet token: no provider API"),
    ("wallet", "GET", "/rates", "the merchant's shipping-rates backend (the seed's shape): no provider document"),
]


# Where a document is wrong, one check on one operation, with the reason.
# Cash App's update-request says "To clear a field, set it to `null`" (as Block's reference
# and the sandbox do) but its schema gives `metadata` and `reference_id` no null type: a null
# there, which the client sends to clear the order's metadata, is not an error.
# Square's CreatePayment documents `offline_payment_details` as "intended for internal
# 1st-party callers only" and marks its `client_created_at` read-only: the offline upload is
# the Mobile Payments SDK's own call, which the checkout plays, so it sends the time the reader
# took the card there (as the SDK does). Only that read-only check on that field is waived.
EXCLUSIONS = [
    ("update-request", {"request.metadata", "request.reference_id"}, "None is not of type"),
    ("CreatePayment", {"offline_payment_details.client_created_at"}, "Tried to write read-only property"),
]


def excluded(operation, field, message):
    return any(operation == op and field in fields and message.startswith(prefix) for op, fields, prefix in EXCLUSIONS)


def not_covered(provider, method, path):
    for p, m, prefix, reason in NOT_COVERED:
        if (p is None or p == provider) and (m is None or m == method) and path.startswith(prefix):
            return reason
    return None


class Documents:
    """Loads each document once, on first use."""

    def __init__(self):
        self._loaded = {}

    def get(self, name):
        if name not in self._loaded:
            # The documents' own structure is not checked here (that is the contract run's
            # business): Square's has `info.externalDocs`, which OpenAPI 3.0 does not allow.
            config = Config(spec_validator_cls=None)
            self._loaded[name] = OpenAPI.from_file_path(str(SPECS / name), config=config)
        return self._loaded[name]


def field_errors(error):
    """(field path, message) for each schema error under an openapi-core error, else its text."""
    found = []
    seen = set()
    stack = [error]
    while stack:
        current = stack.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        for schema_error in getattr(current, "schema_errors", None) or []:
            for leaf in leaves(schema_error):
                found.append((path_text(leaf.absolute_path), leaf.message))
        stack.append(current.__cause__)
        stack.append(current.__context__)
    return found or [("", f"{type(error).__name__}: {error}")]


def leaves(schema_error):
    """The most specific errors of a oneOf/anyOf failure (they name the real field)."""
    if not schema_error.context:
        return [schema_error]
    best = max(schema_error.context, key=lambda e: len(e.absolute_path))
    deepest = [e for e in schema_error.context if len(e.absolute_path) == len(best.absolute_path)]
    return [schema_error] if len(best.absolute_path) <= len(schema_error.absolute_path) else deepest


def path_text(parts):
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(body)"


def operation_name(api, method, path):
    """The document's operationId for METHOD PATH, or METHOD TEMPLATE."""
    for template, item in api.spec.get("paths", {}).items():
        if matches(template, path) and method.lower() in item:
            return item[method.lower()].get("operationId") or f"{method} {template}"
    return None


def matches(template, path):
    t_parts, p_parts = template.strip("/").split("/"), path.strip("/").split("/")
    if len(t_parts) != len(p_parts):
        return False
    for t, p in zip(t_parts, p_parts):
        if "{" in t:
            prefix = t.split("{", 1)[0]
            if not p.startswith(prefix) or len(p) == len(prefix):
                return False
        elif t != p:
            return False
    return True


def validate_request(api, host, method, url, headers, body, mime):
    """Returns (operation, [(field, message)]) for one request; an empty list means valid."""
    parts = urlsplit(url)
    request = MockRequest(
        host, method.lower(), parts.path, args=dict(parse_query(parts.query)), headers=headers,
        data=body, content_type=mime or "application/json")
    doc_path = parts.path
    for server in api.spec.get("servers", []) or []:
        base = urlsplit(server["url"]).path.rstrip("/")
        if base and doc_path.startswith(base + "/"):
            doc_path = doc_path[len(base):]
            break
    operation = operation_name(api, method, doc_path)
    errors = []
    for error in api.iter_request_errors(request):  # parameters, security, body: each its own error
        errors += [(field, message) for field, message in field_errors(error) if not excluded(operation, field, message)]
    return operation, errors


def parse_query(query):
    return parse_qsl(query, keep_blank_values=True)


def har_files(arguments):
    for argument in arguments:
        path = pathlib.Path(argument)
        if path.is_dir():
            yield from sorted(path.glob("*.har"))
        else:
            yield path


def check(files, documents):
    validated = collections.Counter()
    unchecked = collections.Counter()
    failures = []
    for har in files:
        entries = json.loads(har.read_text())["log"]["entries"]
        for entry in entries:
            request = entry["request"]
            provider = entry.get("_provider", "?")
            method = request["method"]
            url = request["url"]
            path = urlsplit(url).path
            reason = not_covered(provider, method, path)
            if reason:
                unchecked[(provider, method, generic(path), reason)] += 1
                continue
            target = next(
                ((doc, host) for prefix, doc, host in DOCUMENTS.get(provider, []) if path.startswith(prefix)), None)
            if target is None:
                failures.append(f"{har.name}: {provider} {method} {path}: no document covers it and it is not listed as uncovered")
                continue
            doc, host = target
            api = documents.get(doc)
            headers = {h["name"]: h["value"] for h in request.get("headers", [])}
            post = request.get("postData")
            body = post.get("text") if post else None
            operation, errors = validate_request(api, host, method, url, headers, body, post.get("mimeType") if post else None)
            if operation is None:
                failures.append(f"{har.name}: {provider} {method} {path}: no operation in {doc}")
                continue
            for field, message in errors:
                failures.append(f"{har.name}: {doc} {operation} ({method} {path}): {field}: {message}")
            if not errors:
                validated[(doc, operation, "with body" if body else "no body")] += 1
    return validated, unchecked, failures


def generic(path):
    """A path with its ids folded, for the not-checked list."""
    parts = []
    for part in path.split("/"):
        parts.append("{id}" if any(c.isdigit() for c in part) and len(part) > 8 else part)
    return "/".join(parts)


def self_test(documents):
    """A deliberately broken body must be rejected with its field path (proves the check can fail)."""
    cases = [
        ("square/payments-api.json", "https://connect.squareup.com", "POST", "https://connect.squareup.com/v2/payments",
         {"idempotency_key": "k1", "source_id": "cnon:card-nonce-ok", "amount_money": {"amount": "45.05", "currency": "USD"}},
         "amount_money.amount"),
        ("adyen/CheckoutService-v71.json", "https://checkout-test.adyen.com", "POST", "https://checkout-test.adyen.com/v71/payments",
         {"amount": {"currency": "USD", "value": 4505}, "merchantAccount": "M", "reference": "r",
          "paymentMethod": {"type": "cashapp"}, "shopperReference": "ab"},
         "shopperReference"),
        ("cashapp/cash-app-customer-request-api-openapi.json", "https://sandbox.api.cash.app", "POST",
         "https://sandbox.api.cash.app/customer-request/v1/requests",
         {"idempotency_key": "k", "request": {"actions": [{"type": "ONE_TIME_PAYMENT", "scope_id": "BRAND_x", "amount": 1}],
                                               "channel": "NOWHERE"}},
         "request.channel"),
        # The null exclusion on update-request is narrow: any other wrong type is still an error.
        ("cashapp/cash-app-customer-request-api-openapi.json", "https://sandbox.api.cash.app", "PATCH",
         "https://sandbox.api.cash.app/customer-request/v1/requests/GRR_1", {"request": {"metadata": "cart_items=3"}},
         "request.metadata"),
        ("square/payments-api.json", "https://connect.squareup.com", "POST", "https://connect.squareup.com/v2/payments",
         {"idempotency_key": "k2", "source_id": "cnon:card-nonce-ok", "amount_money": {"amount": 100, "currency": "USD"},
          "offline_payment_details": {"client_created_at": "2026-11-26T08:18:22.412Z and then some more"}},
         "offline_payment_details.client_created_at"),
    ]
    problems = []
    headers = {"Authorization": "Client [REDACTED]", "X-API-Key": "[REDACTED]", "Accept": "application/json"}
    for doc, host, method, url, body, field in cases:
        operation, errors = validate_request(documents.get(doc), host, method, url, headers, json.dumps(body), "application/json")
        fields = [f for f, _ in errors]
        if field not in fields:
            problems.append(f"{doc} {operation}: a broken {field} was not rejected with its path (got {errors})")
        else:
            message = next(m for f, m in errors if f == field)
            print(f"rejected as it should be: {doc} {operation}: {field}: {message}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--json", help="write the counts here")
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    documents = Documents()
    if arguments.self_test:
        problems = self_test(documents)
        for problem in problems:
            print("FAIL " + problem)
        print("self-test ok" if not problems else f"self-test: {len(problems)} failures")
        return 1 if problems else 0

    files = list(har_files(arguments.paths))
    if not files:
        print("FAIL no transcripts given")
        return 1
    validated, unchecked, failures = check(files, documents)
    for (doc, operation, kind), count in sorted(validated.items()):
        print(f"validated {count:3} {doc} {operation} ({kind})")
    for (provider, method, path, reason), count in sorted(unchecked.items()):
        print(f"not checked {count:3} {provider} {method} {path}: {reason}")
    if arguments.json:
        pathlib.Path(arguments.json).write_text(json.dumps({
            "validated": [{"document": d, "operation": o, "kind": k, "count": c} for (d, o, k), c in sorted(validated.items())],
            "not_checked": [{"provider": p, "method": m, "path": path, "reason": r, "count": c}
                            for (p, m, path, r), c in sorted(unchecked.items())],
            "failures": failures,
        }, indent=1))
    for failure in failures:
        print("FAIL " + failure)
    if failures:
        print(f"client requests: {len(failures)} failures in {len(files)} transcripts")
        return 1
    print(f"client requests ok: {sum(validated.values())} validated in {len(files)} transcripts, "
          f"{sum(unchecked.values())} not checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
