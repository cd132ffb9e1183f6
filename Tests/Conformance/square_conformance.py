#!/usr/bin/env python3
"""Conformance of the sandbox's Square emulation with Square's official Python SDK (squareup 46.0.0.20260916).

Usage: square_conformance.py BASE_URL [ACCESS_TOKEN]

The SDK is used unchanged: the client is made with its own `base_url=` parameter pointing at the
sandbox and a sandbox access token (EAAA…); it sends its own Square-Version header and keeps its
own retries (it retries 408, 409, 429 and 5xx answers twice, after about 1 s and 2 s). Every call
goes through the SDK's Payments client, every answer is parsed by it, and every non-2xx answer
must reach this script as the SDK's `ApiError` with the right status and error code.
Issue 28's steps: UpdatePayment adding a tip to an APPROVED payment (total recomputed, version
token checked, idempotent), and `accept_partial_authorization` on the sandbox's gift card (APPROVED
for its balance, the remainder on a card, both voided).
Prints one line per step; exits non-zero on the first failure.
"""
import importlib.metadata
import json
import sys
import urllib.request
import uuid

from square import Square
from square.core.api_error import ApiError

ACCESS_TOKEN = "EAAAterminalcheckout_sandbox_token"
BAD_TOKEN = "not-a-square-access-token"
CURRENCY = "USD"

# Square's sandbox test nonces that fail, and the error code each payment must fail with.
DECLINES = [
    ("cnon:card-nonce-declined", "GENERIC_DECLINE"),
    ("cnon:card-nonce-rejected-cvv", "CVV_FAILURE"),
    ("cnon:card-nonce-rejected-postalcode", "ADDRESS_VERIFICATION_FAILURE"),
    ("cnon:card-nonce-rejected-expiration", "INVALID_EXPIRATION"),
    ("cnon:card-nonce-already-used", "CARD_TOKEN_USED"),
    ("cnon:card-nonce-insufficient-funds", "INSUFFICIENT_FUNDS"),
]
OK_NONCE = "cnon:card-nonce-ok"
# The sandbox's own gift card (Square documents no test value that approves less than asked):
# it holds 1000 minor units.
GIFT_NONCE = "cnon:card-nonce-gift-card-partial"
GIFT_BALANCE = 1000


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def money(amount):
    return {"amount": amount, "currency": CURRENCY}


def check_money(payment, field, amount):
    value = getattr(payment, field)
    check(value is not None, f"{field} is missing from payment {payment.id}")
    check(isinstance(value.amount, int) and value.amount == amount and value.currency == CURRENCY,
          f"{field} of {payment.id} is {value.amount!r} {value.currency!r}, expected {amount} {CURRENCY}")


def check_payment(payment, status, what):
    """The fields every payment answer has, as the SDK parsed them."""
    check(payment is not None, f"{what}: the answer has no payment")
    check(isinstance(payment.id, str) and payment.id, f"{what}: payment id {payment.id!r}")
    check(payment.status == status, f"{what}: payment {payment.id} is {payment.status}, expected {status}")
    check(isinstance(payment.created_at, str) and payment.created_at, f"{what}: created_at {payment.created_at!r}")
    check(payment.source_type == "CARD", f"{what}: source_type {payment.source_type!r}, expected CARD")
    return payment


def card_status(payment):
    return payment.card_details.status if payment.card_details is not None else None


def expect_api_error(call, status_codes, code, what):
    """Runs `call`, which must raise the SDK's ApiError with a status in `status_codes` and error `code`."""
    try:
        answer = call()
    except ApiError as error:
        codes = [e.code for e in error.errors]
        check(error.status_code in status_codes,
              f"{what}: ApiError status {error.status_code}, expected {' or '.join(map(str, status_codes))}; body {error.body}")
        check(codes and codes[0] == code, f"{what}: ApiError codes {codes}, expected {code}; body {error.body}")
        return error
    raise Failure(f"{what}: succeeded ({answer!r:.300}), expected ApiError {code}")


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    base = sys.argv[1].rstrip("/")
    token = sys.argv[2] if len(sys.argv) > 2 else ACCESS_TOKEN

    client = Square(base_url=base, token=token, timeout=15)
    payments = client.payments
    run = uuid.uuid4().hex[:10]

    steps = []

    def step(name, function):
        try:
            detail = function()
        except Failure as failure:
            print(f"FAIL {name}: {failure}")
            raise
        except ApiError as error:  # the SDK raises ApiError for every non-2xx answer
            print(f"FAIL {name}: ApiError {error.status_code}: {error.body}")
            raise Failure(name) from error
        except Exception as error:
            print(f"FAIL {name}: {type(error).__name__}: {error}")
            raise Failure(name) from error
        print(f"ok   {name}" + (f": {detail}" if detail else ""))
        steps.append(name)

    state = {}

    def create(source_id, amount, reference, key=None, **extra):
        key = key or str(uuid.uuid4())
        answer = payments.create(source_id=source_id, idempotency_key=key, amount_money=money(amount),
                                 reference_id=reference, **extra)
        return answer, key

    def pay_with_wallet_nonce():
        request = json.dumps({"merchantIdentifier": "merchant.com.terminalcheckout.sandbox", "network": "mastercard", "last4": "4444",
                              "amount": 5330, "currency": "USD", "transactionIdentifier": str(uuid.uuid4())}).encode()
        post = urllib.request.Request(base + "/wallet/tokens", data=request, method="POST", headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(post, timeout=10) as response:
            nonce = json.loads(response.read())["square_nonce"]
        answer, key = create(nonce, 5330, f"conformance-{run}-wallet")
        payment = check_payment(answer.payment, "COMPLETED", "CreatePayment with a wallet nonce")
        check(payment.card_details.card.last4 == "4444", f"last4 {payment.card_details.card.last4!r}")
        check(payment.card_details.card.card_brand == "MASTERCARD", f"card_brand {payment.card_details.card.card_brand!r}")
        replay, _ = create(nonce, 5330, f"conformance-{run}-wallet", key=key)
        check(replay.payment.id == payment.id, "the same idempotency key paid twice")
        return f"{payment.id} MASTERCARD 4444, replayed with the same key"

    def pay_with_tip_and_fee():
        reference = f"conformance-{run}-1"
        answer, key = create(OK_NONCE, 1000, reference, tip_money=money(200), app_fee_money=money(50), note="conformance")
        check(not answer.errors, f"errors beside a successful payment: {answer.errors}")
        payment = check_payment(answer.payment, "COMPLETED", "CreatePayment")
        check_money(payment, "amount_money", 1000)
        check_money(payment, "tip_money", 200)
        check_money(payment, "total_money", 1200)
        check_money(payment, "app_fee_money", 50)
        check(payment.reference_id == reference, f"reference_id {payment.reference_id!r}, expected {reference!r}")
        check(card_status(payment) == "CAPTURED", f"card_details.status {card_status(payment)!r}, expected CAPTURED")
        card = payment.card_details.card
        check(card is not None and card.last4 and card.card_brand, f"card_details.card {card!r}")
        state.update(paid=payment, paid_key=key, paid_reference=reference)
        version = importlib.metadata.version("squareup")
        square_version = client._client_wrapper.get_headers()["Square-Version"]
        return (f"{payment.id} COMPLETED, amount 1000 + tip 200 = total 1200, app fee 50, {card.card_brand} {card.last4} "
                f"(squareup {version}, Square-Version {square_version})")

    def idempotent_replay():
        paid = state["paid"]
        answer, _ = create(OK_NONCE, 1000, state["paid_reference"], key=state["paid_key"], tip_money=money(200),
                           app_fee_money=money(50), note="conformance")
        check(answer.payment is not None and answer.payment.id == paid.id,
              f"the same idempotency key paid again: {answer.payment.id if answer.payment else None} != {paid.id}")
        check(answer.payment.status == "COMPLETED", f"replay answered {answer.payment.status}")
        expect_api_error(lambda: create(OK_NONCE, 999, state["paid_reference"], key=state["paid_key"]),
                         (400,), "IDEMPOTENCY_KEY_REUSED", "the same key with another amount")
        return f"same key, same body → {paid.id} again; same key, another amount → 400 IDEMPOTENCY_KEY_REUSED"

    def decline(nonce, code):
        def run_decline():
            reference = f"conformance-{run}-{nonce.rsplit('-', 1)[-1]}"  # at most 40 characters, as Square allows
            error = expect_api_error(lambda: create(nonce, 700, reference), (400, 402), code, f"CreatePayment with {nonce}")
            failed = error.body.get("payment") if isinstance(error.body, dict) else None
            if failed is not None:
                check(failed.get("status") == "FAILED", f"the declined payment is {failed.get('status')}, expected FAILED")
            category = error.errors[0].category
            return f"ApiError {error.status_code} {category} {code}" + (f", payment {failed['id']} FAILED" if failed else "")
        return run_decline

    def delayed_capture():
        reference = f"conformance-{run}-delayed"
        answer, _ = create(OK_NONCE, 1500, reference, autocomplete=False, delay_duration="PT10M")
        payment = check_payment(answer.payment, "APPROVED", "CreatePayment autocomplete=false")
        check(payment.delay_duration == "PT10M", f"delay_duration {payment.delay_duration!r}, expected PT10M")
        check(isinstance(payment.delayed_until, str) and payment.delayed_until, f"delayed_until {payment.delayed_until!r}")
        check(card_status(payment) == "AUTHORIZED", f"card_details.status {card_status(payment)!r}, expected AUTHORIZED")
        check_money(payment, "total_money", 1500)
        completed = payments.complete(payment.id, version_token=payment.version_token).payment
        check_payment(completed, "COMPLETED", "CompletePayment")
        check(completed.id == payment.id, f"CompletePayment answered {completed.id}, not {payment.id}")
        check(card_status(completed) == "CAPTURED", f"card_details.status {card_status(completed)!r}, expected CAPTURED")
        check(isinstance(completed.receipt_number, str) and completed.receipt_number, f"receipt_number {completed.receipt_number!r}")
        check(isinstance(completed.receipt_url, str) and completed.receipt_url.startswith("http"), f"receipt_url {completed.receipt_url!r}")
        state["completed"] = completed
        state["delayed_reference"] = reference
        return (f"{payment.id} APPROVED (delay PT10M until {payment.delayed_until}, action {payment.delay_action}), "
                f"completed: COMPLETED, receipt {completed.receipt_number} {completed.receipt_url}")

    def cancel_approved():
        reference = f"conformance-{run}-cancel"
        answer, _ = create(OK_NONCE, 800, reference, autocomplete=False)
        payment = check_payment(answer.payment, "APPROVED", "CreatePayment autocomplete=false")
        canceled = payments.cancel(payment.id).payment
        check_payment(canceled, "CANCELED", "CancelPayment")
        check(canceled.id == payment.id, f"CancelPayment answered {canceled.id}, not {payment.id}")
        check(card_status(canceled) == "VOIDED", f"card_details.status {card_status(canceled)!r}, expected VOIDED")
        state["canceled"] = canceled
        return f"{payment.id} APPROVED, then CANCELED (card VOIDED)"

    def cancel_by_idempotency_key():
        reference = f"conformance-{run}-cancel-by-key"
        answer, key = create(OK_NONCE, 650, reference, autocomplete=False)
        payment = check_payment(answer.payment, "APPROVED", "CreatePayment autocomplete=false")
        result = payments.cancel_by_idempotency_key(idempotency_key=key)
        check(not result.errors, f"CancelPaymentByIdempotencyKey errors {result.errors}")
        after = payments.get(payment.id).payment
        check_payment(after, "CANCELED", "GetPayment after CancelPaymentByIdempotencyKey")
        return f"{payment.id} APPROVED, canceled by its idempotency key: GetPayment says CANCELED"

    def tip_after_authorization():
        """UpdatePayment: a tip added to an APPROVED payment; total_money follows; a stale
        version_token is VERSION_MISMATCH; the same key again changes nothing twice."""
        reference = f"conformance-{run}-tip"
        answer, _ = create(OK_NONCE, 2000, reference, autocomplete=False)
        payment = check_payment(answer.payment, "APPROVED", "CreatePayment autocomplete=false")
        key = str(uuid.uuid4())
        updated = payments.update(payment.id, idempotency_key=key,
                                  payment={"tip_money": money(300), "version_token": payment.version_token}).payment
        check_payment(updated, "APPROVED", "UpdatePayment")
        check_money(updated, "tip_money", 300)
        check_money(updated, "total_money", 2300)
        check_money(updated, "amount_money", 2000)
        check(updated.version_token != payment.version_token, "UpdatePayment kept the version_token although the tip changed")
        again = payments.update(payment.id, idempotency_key=key,
                                payment={"tip_money": money(300), "version_token": payment.version_token}).payment
        check_money(again, "total_money", 2300)
        expect_api_error(lambda: payments.update(payment.id, idempotency_key=str(uuid.uuid4()),
                                                 payment={"tip_money": money(500), "version_token": payment.version_token}),
                         (400,), "VERSION_MISMATCH", "UpdatePayment with a stale version_token")
        completed = payments.complete(payment.id, version_token=updated.version_token).payment
        check_payment(completed, "COMPLETED", "CompletePayment after UpdatePayment")
        check_money(completed, "total_money", 2300)
        expect_api_error(lambda: payments.update(payment.id, idempotency_key=str(uuid.uuid4()), payment={"tip_money": money(100)}),
                         (400,), "DELAYED_TRANSACTION_CAPTURED", "UpdatePayment of a COMPLETED payment")
        return f"{payment.id} APPROVED 2000, tip 300 added (total 2300), replayed, stale token refused, completed at 2300"

    def partial_authorization():
        """accept_partial_authorization on the gift card: APPROVED for its balance; the remainder
        on a card; cancelling the sale voids both; without the flag the gift card declines."""
        reference = f"conformance-{run}-split"
        answer, _ = create(GIFT_NONCE, 4505, reference, autocomplete=False, accept_partial_authorization=True)
        gift = check_payment(answer.payment, "APPROVED", "CreatePayment gift card accept_partial_authorization")
        check_money(gift, "amount_money", GIFT_BALANCE)
        check_money(gift, "total_money", GIFT_BALANCE)
        check_money(gift, "approved_money", GIFT_BALANCE)
        check(gift.card_details.card.card_brand == "SQUARE_GIFT_CARD", f"card_brand {gift.card_details.card.card_brand!r}")
        rest, _ = create(OK_NONCE, 4505 - GIFT_BALANCE, reference, autocomplete=False, accept_partial_authorization=True)
        card = check_payment(rest.payment, "APPROVED", "CreatePayment for the remainder")
        check_money(card, "total_money", 4505 - GIFT_BALANCE)
        for payment in (gift, card):
            canceled = payments.cancel(payment.id).payment
            check_payment(canceled, "CANCELED", "CancelPayment of the split sale")
        expect_api_error(lambda: create(GIFT_NONCE, 4505, reference, autocomplete=False),
                         (400, 402), "INSUFFICIENT_FUNDS", "CreatePayment gift card without accept_partial_authorization")
        expect_api_error(lambda: create(GIFT_NONCE, 4505, reference, accept_partial_authorization=True),
                         (400,), "CONFLICTING_PARAMETERS", "accept_partial_authorization with autocomplete")
        return (f"gift {gift.id} APPROVED {GIFT_BALANCE} of 4505, card {card.id} APPROVED {4505 - GIFT_BALANCE}, both CANCELED; "
                f"without the flag INSUFFICIENT_FUNDS; with autocomplete CONFLICTING_PARAMETERS")

    def get_payment():
        completed = state["completed"]
        got = payments.get(completed.id).payment
        check_payment(got, "COMPLETED", "GetPayment")
        check(got.id == completed.id, f"GetPayment answered {got.id}, not {completed.id}")
        check_money(got, "amount_money", 1500)
        check(got.receipt_number == completed.receipt_number, f"receipt_number {got.receipt_number} != {completed.receipt_number}")
        check(got.reference_id == state["delayed_reference"], f"reference_id {got.reference_id!r}")
        return f"{got.id} COMPLETED, 1500 {CURRENCY}, receipt {got.receipt_number}"

    def list_payments():
        wanted = {state["paid_reference"]: ("COMPLETED", state["paid"].id),
                  state["delayed_reference"]: ("COMPLETED", state["completed"].id),
                  state["canceled"].reference_id: ("CANCELED", state["canceled"].id)}
        found = {}
        seen = 0
        for payment in payments.list(sort_order="DESC", limit=100):  # the SDK's pager follows the cursor
            seen += 1
            if payment.reference_id in wanted:
                found[payment.reference_id] = payment
            if len(found) == len(wanted) or seen >= 5000:
                break
        for reference, (status, payment_id) in wanted.items():
            check(reference in found, f"no payment with reference_id {reference} among {seen} listed")
            check(found[reference].id == payment_id and found[reference].status == status,
                  f"{reference} listed as {found[reference].id} {found[reference].status}, expected {payment_id} {status}")
        return f"found {len(found)} of this run's payments by reference_id among {seen} listed"

    def unknown_payment():
        error = expect_api_error(lambda: payments.get(f"no-such-payment-{run}"), (404,), "NOT_FOUND", "GetPayment of an unknown id")
        return f"ApiError 404 {error.errors[0].category} NOT_FOUND"

    def bad_token():
        bad = Square(base_url=base, token=BAD_TOKEN, timeout=15)
        error = expect_api_error(lambda: bad.payments.create(source_id=OK_NONCE, idempotency_key=str(uuid.uuid4()), amount_money=money(100)),
                                 (401,), "UNAUTHORIZED", "CreatePayment with a bad access token")
        check(error.errors[0].category == "AUTHENTICATION_ERROR", f"category {error.errors[0].category}, expected AUTHENTICATION_ERROR")
        return "ApiError 401 AUTHENTICATION_ERROR UNAUTHORIZED"

    try:
        step("CreatePayment with tip and app fee", pay_with_tip_and_fee)
        step("idempotent replay", idempotent_replay)
        step("CreatePayment with a wallet's nonce", pay_with_wallet_nonce)
        for nonce, code in DECLINES:
            step(f"CreatePayment {nonce}", decline(nonce, code))
        step("delayed capture, CompletePayment", delayed_capture)
        step("CancelPayment", cancel_approved)
        step("CancelPaymentByIdempotencyKey", cancel_by_idempotency_key)
        step("UpdatePayment: a tip after authorization", tip_after_authorization)
        step("partial authorization and split tender", partial_authorization)
        step("GetPayment", get_payment)
        step("ListPayments", list_payments)
        step("GetPayment of an unknown id", unknown_payment)
        step("bad access token", bad_token)
    except Failure:
        print(f"conformance FAILED after {len(steps)} steps")
        return 1
    print(f"conformance ok: {len(steps)} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
