"""Adyen's Checkout API v71 (Tests/Conformance/specs/adyen/CheckoutService-v71.json).

The sandbox serves Adyen under /v71/ with any `AQE…` key. Every operation of the document is
either tested (OPERATIONS) or excluded with the reason (EXCLUDED); emulating one more is moving
its line from EXCLUDED to OPERATIONS. The sessions flow's component calls (the client-key host's
/checkoutshopper/v1/sessions/{id}/setup|payments|paymentDetails) are in no Adyen document: the
Swift tests and adyen_conformance.py hold them to adyen-ios' and adyen-web's requests instead.

`prepare_operations` gives each modification its own Authorised Cash App Pay payment (USD, of
the merchant account the document's examples use), so the examples phase reaches a real payment
(201 and its response schema) rather than only "not a payment of this sandbox"; and gives the
stored-method operations a shopper with a stored method to list and delete; and gives
GET /sessions/{sessionId} a session of the sandbox, paid, with the sessionResult its payment answered. hooks/adyen.py gives
each request its own Idempotency-Key (the document's examples share one). The decisions for each
operation (emulated, answered as Adyen answers an unsupported call, not served) are in the README.
"""
import json
import urllib.error
import urllib.request
import uuid

from document import Document

API_KEY = "AQEcontract-run-key"
# The merchant account and shopper the document's examples use, so its examples meet our payments.
MERCHANT = "YOUR_MERCHANT_ACCOUNT"
SHOPPER = "YOUR_SHOPPER_REFERENCE"
RETURN_URL = "https://shop.example/return"
# Large enough for the examples' captures (2,000) and refunds; no magic amount (7001-7005).
AMOUNT = 500000

NOT_SERVED = "not emulated: the sandbox serves no such path (Cash App Pay checkouts do not use it)"
# The stored-method operations list only their success; Adyen answers their errors as it answers
# every other Checkout operation's (which list 400, 401, 403, 422 with a ServiceError).
STORED_ERRORS = {
    "400": "a body or query that is not what the operation takes (702), as every Checkout operation",
    "401": "no or a wrong X-API-Key (000), as every Checkout operation",
    "403": "a merchant account the key may not use (901), as every Checkout operation",
    "422": "a field missing or invalid (14_0, 800 contract not found, 905 details not supported), as every Checkout operation",
}

OPERATIONS = (
    "POST /paymentMethods",
    "POST /payments",
    "POST /payments/details",
    "POST /payments/{paymentPspReference}/captures",
    "POST /payments/{paymentPspReference}/cancels",
    "POST /payments/{paymentPspReference}/refunds",
    "POST /payments/{paymentPspReference}/reversals",
    "POST /payments/{paymentPspReference}/amountUpdates",
    "GET /storedPaymentMethods",
    "POST /storedPaymentMethods",
    "DELETE /storedPaymentMethods/{storedPaymentMethodId}",
    "POST /sessions",
    "GET /sessions/{sessionId}",
)

EXCLUDED = {
    "POST /applePay/sessions": NOT_SERVED,
    "POST /cancels": NOT_SERVED,
    "POST /cardDetails": NOT_SERVED,
    "POST /donationCampaigns": NOT_SERVED,
    "POST /donations": NOT_SERVED,
    "POST /forward": NOT_SERVED,
    "POST /orders": NOT_SERVED,
    "POST /orders/cancel": NOT_SERVED,
    "POST /originKeys": NOT_SERVED,
    "POST /paymentLinks": NOT_SERVED,
    "GET /paymentLinks/{linkId}": NOT_SERVED,
    "PATCH /paymentLinks/{linkId}": NOT_SERVED,
    "POST /paymentMethods/balance": NOT_SERVED,
    "POST /paypal/updateOrder": NOT_SERVED,
    "POST /validateShopperId": NOT_SERVED,
}

# The document is incomplete here, not the sandbox wrong: these statuses are added to its copy
# for these operations only; status_code_conformance still checks everything else.
# The session operations list only their success too; Adyen answers their errors as every other
# Checkout operation's (GET /sessions/{sessionId} has no body or merchant account: 401 and 422).
SESSION_RESULT_ERRORS = {
    "401": STORED_ERRORS["401"],
    "422": "an unknown session or a missing sessionResult (14_0), as every Checkout operation",
}

ADDED_STATUSES = {
    "POST /sessions": STORED_ERRORS,
    "GET /sessions/{sessionId}": SESSION_RESULT_ERRORS,
    "GET /storedPaymentMethods": STORED_ERRORS,
    "POST /storedPaymentMethods": STORED_ERRORS,
    "DELETE /storedPaymentMethods/{storedPaymentMethodId}": STORED_ERRORS,
}

PHASE_EXCLUSIONS = {
    # PaymentRequest has some 90 properties: the coverage phase makes over 7,000 cases of it
    # (90 s on the debug build), past the whole run's minute. Examples, fuzzing (positive and
    # negative) and the stateful phase still send it.
    "POST /payments": {"coverage": "PaymentRequest's coverage phase is 7,000+ cases, past the run's minute"},
}


def call(base, method, path, body=None, headers=None):
    """One JSON request to the sandbox; the answer's JSON (or a RuntimeError naming the call)."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None, method=method)
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"adyen prepare: {method} {path} answered {error.code}: {error.read()[:300]!r}") from error


def prepare_operations(base):
    """One Authorised payment per modification; a stored method for GET and DELETE."""
    origin = base[: -len("/v71")]
    adyen = {"X-API-Key": API_KEY}
    methods = call(base, "POST", "/paymentMethods", {"merchantAccount": MERCHANT}, adyen)
    cashapp = next(m for m in methods["paymentMethods"] if m["type"] == "cashapp")["configuration"]

    def approved(actions):
        created = call(origin, "POST", "/customer-request/v1/requests", {
            "idempotency_key": str(uuid.uuid4()),
            "request": {"actions": actions, "channel": "ONLINE", "redirect_url": RETURN_URL, "reference_id": "contract-run"},
        }, {"Authorization": f"Client {cashapp['clientId']}"})
        return call(origin, "POST", f"/sandbox/customer-requests/{created['request']['id']}/approve", {})["request"]

    one_time = {"type": "ONE_TIME_PAYMENT", "scope_id": cashapp["scopeId"], "amount": AMOUNT, "currency": "USD"}

    def authorised(extra=None, grants=None):
        grant = grants or approved([one_time])
        body = {"amount": {"currency": "USD", "value": AMOUNT}, "merchantAccount": MERCHANT, "reference": "contract-run",
                "returnUrl": RETURN_URL, "paymentMethod": {"type": "cashapp", "grantId": grant["grants"][0]["id"]}}
        body.update(extra or {})
        paid = call(base, "POST", "/payments", body, adyen)
        if paid.get("resultCode") != "Authorised":
            raise RuntimeError(f"adyen prepare: the payment was not Authorised: {paid}")
        return paid

    parameters = {}
    for kind in ("captures", "cancels", "refunds", "reversals", "amountUpdates"):
        psp = authorised()["pspReference"]
        if kind == "refunds":  # something to refund
            call(base, "POST", f"/payments/{psp}/captures", {"merchantAccount": MERCHANT, "amount": {"currency": "USD", "value": AMOUNT}}, adyen)
        parameters[f"POST /payments/{{paymentPspReference}}/{kind}"] = {"path.paymentPspReference": psp}

    grants = approved([one_time, {"type": "ON_FILE_PAYMENT", "scope_id": cashapp["scopeId"], "account_reference_id": SHOPPER}])
    by_type = {g["type"]: g for g in grants["grants"]}
    stored = authorised({
        "shopperReference": SHOPPER, "storePaymentMethod": True, "recurringProcessingModel": "CardOnFile", "shopperInteraction": "Ecommerce",
        "paymentMethod": {"type": "cashapp", "grantId": by_type["ONE_TIME"]["id"], "onFileGrantId": by_type["EXTENDED"]["id"],
                          "customerId": grants["customer_profile"]["id"], "cashtag": grants["customer_profile"]["cashtag"]},
    }, grants)["additionalData"]["tokenization.storedPaymentMethodId"]
    session = call(base, "POST", "/sessions", {"amount": {"currency": "USD", "value": AMOUNT}, "merchantAccount": MERCHANT,
                                               "reference": "contract-run", "returnUrl": RETURN_URL}, adyen)
    component = f"{origin}/checkoutshopper/v1/sessions/{session['id']}"
    client_key = "?clientKey=test_ADYENSANDBOXCLIENTKEY0001"
    setup = call(component, "POST", "/setup" + client_key, {"sessionData": session["sessionData"]})
    paid = call(component, "POST", "/payments" + client_key, {
        "sessionData": setup["sessionData"], "paymentMethod": {"type": "cashapp", "grantId": approved([one_time])["grants"][0]["id"]}})
    if paid.get("resultCode") != "Authorised":
        raise RuntimeError(f"adyen prepare: the session payment was not Authorised: {paid}")
    parameters["GET /sessions/{sessionId}"] = {"path.sessionId": session["id"], "query.sessionResult": paid["sessionResult"]}

    owner = {"query.shopperReference": SHOPPER, "query.merchantAccount": MERCHANT}
    parameters["GET /storedPaymentMethods"] = owner
    parameters["DELETE /storedPaymentMethods/{storedPaymentMethodId}"] = {**owner, "path.storedPaymentMethodId": stored}
    return parameters


DOCUMENTS = [
    Document(
        name="adyen-checkout",
        spec="Tests/Conformance/specs/adyen/CheckoutService-v71.json",
        base_path="/v71",
        headers={"X-API-Key": API_KEY},
        operations=OPERATIONS,
        excluded=EXCLUDED,
        status_codes=True,
        max_examples=25,
        added_statuses=ADDED_STATUSES,
        phase_exclusions=PHASE_EXCLUSIONS,
        prepare_operations=prepare_operations,
        hooks="Tests/Conformance/contract/hooks/adyen.py",
    ),
]
