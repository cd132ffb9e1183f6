"""Square's Payments API (Tests/Conformance/specs/square/payments-api.json, reduced by square/reduce.py).

The sandbox serves Square under /v2/payments with any `Bearer EAAA…` token. Square's api.json
lists only `200` for every operation (its errors are named per endpoint in `x-endpoint-errors`,
without statuses), so status_code_conformance is not checked, and an error answer is checked
for its content type and for not being a 5xx, but has no documented schema to meet.

Every operation of the document is emulated. `prepare` makes one APPROVED payment (delayed
capture) so GetPayment, UpdatePayment, CompletePayment and CancelPayment reach a real payment
rather than answering NOT_FOUND every time.
"""
import json
import urllib.request
import uuid

from document import Document

TOKEN = "EAAAcontract-run-token"
HEADERS = {
    "Authorization": f"Bearer {TOKEN}",
    # What Square's SDKs send with every call; it also tells Square's requests from Afterpay's on
    # the paths the two share (GET and PUT /v2/payments/{id}) when a negative case drops the token.
    "Square-Version": "2025-08-20",
}

OPERATIONS = (
    "GET /v2/payments",
    "POST /v2/payments",
    "POST /v2/payments/cancel",
    "GET /v2/payments/{payment_id}",
    "PUT /v2/payments/{payment_id}",
    "POST /v2/payments/{payment_id}/cancel",
    "POST /v2/payments/{payment_id}/complete",
)


def prepare(base: str) -> dict[str, str]:
    """One APPROVED payment (autocomplete false, 7-day delay): its id for every {payment_id}."""
    body = {
        "source_id": "cnon:card-nonce-ok",
        "idempotency_key": str(uuid.uuid4()),
        "amount_money": {"amount": 1234, "currency": "USD"},
        "autocomplete": False,
        "reference_id": "contract-run",
    }
    request = urllib.request.Request(
        base + "/v2/payments", data=json.dumps(body).encode(), method="POST",
        headers={**HEADERS, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        payment = json.load(response)["payment"]
    if payment.get("status") != "APPROVED":
        raise RuntimeError(f"square prepare: CreatePayment answered status {payment.get('status')!r}, expected APPROVED")
    return {"path.payment_id": payment["id"]}


DOCUMENTS = [
    Document(
        name="square-payments",
        spec="Tests/Conformance/specs/square/payments-api.json",
        base_path="",
        headers=HEADERS,
        operations=OPERATIONS,
        excluded={},
        status_codes=False,
        status_codes_reason="Square's api.json lists only 200 on every operation (errors are named, without statuses)",
        max_examples=6,
        prepare=prepare,
    ),
]
