"""Cash App Pay's Customer Request API and Afterpay's checkouts, payments and configuration, from the third-party
copies in Tests/Conformance/specs/cashapp/ (API Evangelist's, not Block's: see SOURCES.md).

The sandbox serves the Customer Request API under /customer-request/v1 (`Authorization: Client
CAS-CI_…`) and Afterpay under /v2/ (HTTP Basic `100101:sandbox-secret-key`). The copies list some
error statuses, so status_code_conformance is checked; where the real API answers a status the
copy leaves out, `added_statuses` lists it on that one operation with the reason (run.py adds
it, description only, to the copy of the document the run reads; every other status still fails). The Network API
copy (cash-app-network-api-openapi.json) is not run: the sandbox serves no /network/v1 path.

Operations the sandbox does not emulate on paths it serves are run too, with the status Afterpay
answers for an unsupported call added (404 `not_found`, or 405 `method_not_allowed` where another
method is served on the path): that holds them to Afterpay's JSON error, and to no 5xx.

Each `prepare` makes the resource its {id} operations read (an approved customer request, with
its grant; a checkout; a captured checkout's payment), so they reach one instead of answering
404 every time.
"""
import base64
import json
import urllib.error
import urllib.request
import uuid

from document import Document

USER_AGENT = "TerminalCheckout-contract-run"


def post(url: str, body: dict, headers: dict[str, str], what: str) -> dict:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={**headers, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"cashapp prepare: {what} answered {error.code}: {error.read()[:300]!r}") from error


# MARK: - Cash App Pay: Customer Request API

CASH_APP_HEADERS = {
    "Authorization": "Client CAS-CI_contract_run",
    "Accept": "application/json",
    "User-Agent": USER_AGENT,
}


def prepare_customer_request(base: str) -> dict[str, str]:
    """A one-time-payment request the simulated customer approved: its id for every {request_id}.

    Approved, retrieve-request answers the whole shape (grants, customer_profile) for the schema
    check; update-request then answers its documented 400 (only a PENDING request changes).
    """
    body = {
        "idempotency_key": str(uuid.uuid4()),
        "request": {
            "actions": [{"type": "ONE_TIME_PAYMENT", "scope_id": "BRAND_contract_run", "amount": 1234, "currency": "USD"}],
            "channel": "ONLINE",
            "redirect_url": "https://merchant.example/return",
            "reference_id": "contract-run",
        },
    }
    created = post(base + "/requests", body, CASH_APP_HEADERS, "create-request")["request"]
    origin = base[: -len("/customer-request/v1")]
    approve = urllib.request.Request(f"{origin}/sandbox/customer-requests/{created['id']}/approve", data=b"", method="POST")
    with urllib.request.urlopen(approve, timeout=10):
        pass
    check = urllib.request.Request(f"{base}/requests/{created['id']}", headers=CASH_APP_HEADERS)
    with urllib.request.urlopen(check, timeout=10) as response:
        status = json.load(response)["request"]["status"]
    if status != "APPROVED":
        raise RuntimeError(f"cashapp prepare: request {created['id']} is {status} after the customer approved it")
    return {"path.request_id": created["id"]}


CUSTOMER_REQUEST = Document(
    name="cashapp-customer-request",
    spec="Tests/Conformance/specs/cashapp/cash-app-customer-request-api-openapi.json",
    base_path="/customer-request/v1",
    headers=CASH_APP_HEADERS,
    operations=(
        "POST /requests",
        "GET /requests/{request_id}",
        "PATCH /requests/{request_id}",
    ),
    excluded={},
    status_codes=True,
    added_statuses={
        # The copy lists only 201 for create-request, though it lists 400 and 404 on update-request.
        "POST /requests": {
            "400": "the real API answers INVALID_REQUEST_ERROR 400 for a body it refuses (an empty idempotency_key, "
                   "no actions, a bad redirect_url), as the copy lists for update-request",
            "404": "the real API answers BRAND_ERROR BRAND_NOT_FOUND 404 for a scope_id it does not know (the sandbox "
                   "knows BRAND_… and MMI_… ids), as update-request's 404",
        },
    },
    max_examples=10,
    prepare=prepare_customer_request,
)


# MARK: - Afterpay: checkouts and payments

AFTERPAY_CREDENTIALS = base64.b64encode(b"100101:sandbox-secret-key").decode()
AFTERPAY_HEADERS = {
    "Authorization": f"Basic {AFTERPAY_CREDENTIALS}",
    "Accept": "application/json",
    "User-Agent": USER_AGENT,
}

UNAUTHORIZED = {"401": "Afterpay answers `unauthorized` 401 to missing or wrong Basic credentials (the run's "
                       "negative cases drop them); the copy lists no 401 anywhere"}
BAD_JSON = {"400": "Afterpay answers `invalid_json` 400 to a body that is not the endpoint's JSON (the copy lists "
                   "it on create-checkout but not here)"}
NOT_EMULATED_404 = {"404": "not emulated: the sandbox answers Afterpay's `not_found` 404, as Afterpay answers a "
                           "path it does not serve"}
NOT_EMULATED_405 = {"405": "not emulated: the sandbox answers Afterpay's `method_not_allowed` 405 (Allow: GET), "
                           "as Afterpay answers a method a path does not take"}


def afterpay_checkout(base: str) -> str:
    """A new Cash App Pay checkout's token."""
    body = {
        "amount": {"amount": "12.34", "currency": "USD"},
        "consumer": {"email": "contract@example.com", "givenNames": "Contract", "surname": "Run"},
        "merchantReference": "contract-run",
        "merchant": {"redirectConfirmUrl": "https://merchant.example/confirm",
                     "redirectCancelUrl": "https://merchant.example/cancel"},
        "isCashAppPay": True,
    }
    return post(base + "/v2/checkouts", body, AFTERPAY_HEADERS, "create-checkout")["token"]


def prepare_checkouts(base: str) -> dict[str, str]:
    return {"path.token": afterpay_checkout(base)}


def prepare_payments(base: str) -> dict[str, str]:
    """A checkout captured without a grant (so DECLINED): its token and order id."""
    token = afterpay_checkout(base)
    payment = post(base + "/v2/payments/capture", {"token": token, "merchantReference": "contract-run"},
                   AFTERPAY_HEADERS, "capture")
    return {"path.token": token, "path.orderId": payment["id"]}


AFTERPAY_CHECKOUTS = Document(
    name="afterpay-checkouts",
    spec="Tests/Conformance/specs/cashapp/cash-app-checkouts-openapi.json",
    base_path="",
    headers=AFTERPAY_HEADERS,
    operations=(
        "POST /v2/checkouts",
        "GET /v2/checkouts/{token}",
    ),
    excluded={},
    status_codes=True,
    added_statuses={
        "POST /v2/checkouts": UNAUTHORIZED,
        "GET /v2/checkouts/{token}": UNAUTHORIZED,
    },
    max_examples=10,
    prepare=prepare_checkouts,
)

AFTERPAY_PAYMENTS = Document(
    name="afterpay-payments",
    spec="Tests/Conformance/specs/cashapp/cash-app-payments-openapi.json",
    base_path="",
    headers=AFTERPAY_HEADERS,
    operations=(
        "POST /v2/payments/capture",
        "GET /v2/payments/{orderId}",
        "GET /v2/payments/token:{token}",
        # Not emulated, answered as Afterpay answers an unsupported call (see added_statuses).
        "POST /v2/payments/auth",
        "PUT /v2/payments/{orderId}",
        "POST /v2/payments/{orderId}/capture",
        "PUT /v2/payments/{orderId}/courier",
        "POST /v2/payments/{orderId}/refund",
        "POST /v2/payments/{orderId}/void",
        "POST /v2/payments/token:{token}/reversal",
    ),
    excluded={
        "GET /v2/payments": "the path is Square's ListPayments on this sandbox (one server, both under /v2/payments): "
                            "Afterpay's List Payments is not emulated and a Basic-authenticated call gets Square's 401",
    },
    status_codes=True,
    added_statuses={
        "POST /v2/payments/capture": {**UNAUTHORIZED, **BAD_JSON},
        "GET /v2/payments/{orderId}": UNAUTHORIZED,
        "GET /v2/payments/token:{token}": UNAUTHORIZED,
        "POST /v2/payments/auth": NOT_EMULATED_405,
        "PUT /v2/payments/{orderId}": NOT_EMULATED_405,
        "POST /v2/payments/{orderId}/capture": NOT_EMULATED_404,
        "PUT /v2/payments/{orderId}/courier": NOT_EMULATED_404,
        "POST /v2/payments/{orderId}/refund": NOT_EMULATED_404,
        "POST /v2/payments/{orderId}/void": NOT_EMULATED_404,
        "POST /v2/payments/token:{token}/reversal": NOT_EMULATED_404,
    },
    max_examples=10,
    prepare=prepare_payments,
)

AFTERPAY_CONFIGURATION = Document(
    name="afterpay-configuration",
    spec="Tests/Conformance/specs/cashapp/cash-app-configuration-openapi.json",
    base_path="",
    headers=AFTERPAY_HEADERS,
    operations=(
        # The merchant's order limits, which the checkout reads before its first Create Checkout.
        "GET /v2/configuration",
        # The Cash App Pay brand the account is mapped to.
        "GET /v2/configuration/mappings",
    ),
    excluded={},
    status_codes=True,
    added_statuses={},
    max_examples=10,
)

DOCUMENTS = [CUSTOMER_REQUEST, AFTERPAY_CHECKOUTS, AFTERPAY_PAYMENTS, AFTERPAY_CONFIGURATION]
