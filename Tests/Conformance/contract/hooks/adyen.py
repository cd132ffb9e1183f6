"""schemathesis hooks for Adyen's Checkout document: an Idempotency-Key per request.

The document's examples give every POST the same Idempotency-Key, and schemathesis reuses that
example in most cases it makes, so nearly every request after the first met Adyen's (and the
sandbox's) 422 `704` "this Idempotency-Key was used with another request" and never reached the
operation. A valid key (1 to 64 characters) is replaced by a digest of the request it is sent
with: the same request keeps the same key (a replay, as Adyen answers it), another request gets
another key. Keys the negative cases make invalid on purpose are sent as they are.
"""
import hashlib
import json

import schemathesis

HEADER = "idempotency-key"
MAX_LENGTH = 64


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = case.headers or {}
    for name, value in list(headers.items()):
        if name.lower() != HEADER or not isinstance(value, str) or not 1 <= len(value) <= MAX_LENGTH:
            continue
        try:
            body = json.dumps(case.body, sort_keys=True, default=repr)
        except (TypeError, ValueError):
            body = repr(case.body)
        request = json.dumps([case.method, case.formatted_path, case.query or {}, body, value], sort_keys=True, default=repr)
        headers[name] = hashlib.sha256(request.encode()).hexdigest()[:MAX_LENGTH]
