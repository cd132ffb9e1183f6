"""Adyen's Checkout API v71 (Tests/Conformance/specs/adyen/CheckoutService-v71.json).

The sandbox serves Adyen under /v71/ with any `AQE…` key. Emulating an operation (issue 27's
/sessions, say) is moving its line from EXCLUDED to OPERATIONS.
"""
from document import Document

NOT_SERVED = "not emulated: the sandbox serves no such path (Cash App Pay checkouts do not use it)"

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
    "POST /sessions": NOT_SERVED + " (issue 27 adds it)",
    "GET /sessions/{sessionId}": NOT_SERVED + " (issue 27 adds it)",
    "POST /validateShopperId": NOT_SERVED,
}

DOCUMENTS = [
    Document(
        name="adyen-checkout",
        spec="Tests/Conformance/specs/adyen/CheckoutService-v71.json",
        base_path="/v71",
        headers={"X-API-Key": "AQEcontract-run-key"},
        operations=OPERATIONS,
        excluded=EXCLUDED,
        status_codes=True,
        max_examples=10,
    ),
]
