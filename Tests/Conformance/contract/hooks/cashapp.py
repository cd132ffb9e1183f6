"""schemathesis hooks for the Cash App and Afterpay documents (documents/cashapp.py): the statuses
the real APIs answer that the third-party copies leave out.

status_code_conformance holds every answer to the statuses an operation lists. The copies list
some error statuses but not all the real APIs answer (no 401 anywhere in Afterpay's, only 201 on
Cash App's create-request), and a few operations the sandbox does not emulate answer Afterpay's
error for an unsupported call. Each such status is added here, on its one operation, with the
reason, to the document as schemathesis loads it (description only: no schema is invented for
it); every other status stays undocumented and fails the check. The files themselves are not
changed.
"""
import schemathesis

UNAUTHORIZED = ("401", "Afterpay answers `unauthorized` 401 to missing or wrong Basic credentials (the run's negative "
                       "cases drop them); the copy lists no 401 anywhere")
BAD_JSON = ("400", "Afterpay answers `invalid_json` 400 to a body that is not the endpoint's JSON (the copy lists it on "
                   "create-checkout but not here)")
NOT_EMULATED_404 = ("404", "not emulated: the sandbox answers Afterpay's `not_found` 404, as Afterpay answers a path it "
                           "does not serve")
NOT_EMULATED_405 = ("405", "not emulated: the sandbox answers Afterpay's `method_not_allowed` 405 (Allow: GET), as Afterpay "
                           "answers a method a path does not take")

# "METHOD /path" (as the document writes it) -> the statuses added to it, with the reason.
ADDED_STATUSES = {
    # Cash App's Customer Request API: the copy lists only 201 for create-request, though it lists
    # 400 and 404 (ErrorResponse) on update-request.
    "POST /requests": [
        ("400", "the real API answers INVALID_REQUEST_ERROR 400 for a body it refuses (an empty idempotency_key, no "
                "actions, a bad redirect_url), as the copy lists for update-request"),
        ("404", "the real API answers BRAND_ERROR BRAND_NOT_FOUND 404 for a scope_id it does not know (the sandbox "
                "knows BRAND_… and MMI_… ids), as update-request's 404"),
    ],
    # Afterpay's checkouts.
    "POST /v2/checkouts": [UNAUTHORIZED],
    "GET /v2/checkouts/{token}": [UNAUTHORIZED],
    # Afterpay's payments: the emulated ones.
    "POST /v2/payments/capture": [UNAUTHORIZED, BAD_JSON],
    "GET /v2/payments/{orderId}": [UNAUTHORIZED],
    "GET /v2/payments/token:{token}": [UNAUTHORIZED],
    # Afterpay's payments the sandbox does not emulate.
    "POST /v2/payments/auth": [NOT_EMULATED_405],
    "PUT /v2/payments/{orderId}": [NOT_EMULATED_405],
    "POST /v2/payments/{orderId}/capture": [NOT_EMULATED_404],
    "PUT /v2/payments/{orderId}/courier": [NOT_EMULATED_404],
    "POST /v2/payments/{orderId}/refund": [NOT_EMULATED_404],
    "POST /v2/payments/{orderId}/void": [NOT_EMULATED_404],
    "POST /v2/payments/token:{token}/reversal": [NOT_EMULATED_404],
}


@schemathesis.hook
def before_load_schema(context, raw_schema):
    paths = raw_schema.get("paths", {})
    for operation, statuses in ADDED_STATUSES.items():
        method, path = operation.split(" ", 1)
        item = paths.get(path, {}).get(method.lower())
        if item is None:
            continue  # another document's operation
        responses = item.setdefault("responses", {})
        for status, reason in statuses:
            responses.setdefault(status, {"description": f"Added by the contract run (hooks/cashapp.py): {reason}"})
