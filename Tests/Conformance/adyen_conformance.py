#!/usr/bin/env python3
"""Conformance of the sandbox's Adyen emulation with Adyen's official Python library (16.0.0).

Usage: adyen_conformance.py BASE_URL [HMAC_KEY_HEX]

The library is used unchanged: only the base URL of its checkout services points at the
sandbox. The sessions flow's component calls (the client-key host's /checkoutshopper/v1/sessions/
{id}/setup|payments|paymentDetails, which the library does not make: Adyen's components do) go
through plain HTTP with the sandbox's test client key, as adyen-ios and adyen-web send them. The Cash App customer requests the grants come from are made and approved through
the sandbox's own HTTP routes (the simulated customer). Every webhook the sandbox sends is
collected by a small local receiver and its HMAC checked with the library's own helpers.
Prints one line per step; exits non-zero on the first failure.
"""
import base64
import json
import urllib.error
import urllib.parse
import sys
import threading
import time
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import Adyen
from Adyen import util
from Adyen.exceptions import AdyenAPIAuthenticationError, AdyenAPIUnprocessableEntity

SANDBOX_HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
API_KEY = "AQEconformance-key"
MERCHANT = "TerminalCheckoutConformance"
SHOPPER = "conformance-shopper"
RETURN_URL = "https://shop.example/return"
CLIENT_KEY = "test_ADYENSANDBOXCLIENTKEY0001"
REDIRECT_AMOUNT = 7006  # the sandbox's magic amount answering RedirectShopper with a redirect action


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Receiver(BaseHTTPRequestHandler):
    """Keeps every webhook (raw body and headers) and acknowledges it, as Adyen expects."""
    received = []
    lock = threading.Lock()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with Receiver.lock:
            Receiver.received.append((body, {k.lower(): v for k, v in self.headers.items()}))
        self.send_response(200)
        self.send_header("Content-Length", "8")
        self.end_headers()
        self.wfile.write(b"[accepted]"[:8])

    def log_message(self, *args):
        pass


def sandbox(base, method, path, body=None, headers=None):
    """Calls one of the sandbox's own routes (customer requests, control routes)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
        return json.loads(text) if text else None


def component(base, session_id, call, body):
    """One of the component's calls on a session, with the client key (never the API key)."""
    query = urllib.parse.urlencode({"clientKey": CLIENT_KEY})
    return sandbox(base, "POST", f"/checkoutshopper/v1/sessions/{session_id}/{call}?{query}", body)


def redirect_result(action_url):
    """The shopper's visit to a redirect action's page: the redirectResult it sends back to the returnUrl."""
    class Stop(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    try:
        urllib.request.build_opener(Stop).open(action_url, timeout=10)
    except urllib.error.HTTPError as answer:
        check(answer.code == 302, f"the action's page answered {answer.code}, not 302")
        location = answer.headers["Location"]
        check(location.startswith(RETURN_URL), f"the action's page sent the shopper to {location}, not the returnUrl")
        return urllib.parse.parse_qs(urllib.parse.urlparse(location).query)["redirectResult"][0]
    raise Failure("the action's page did not redirect")


def approved_grants(base, client_id, actions):
    """Creates a Cash App customer request with `actions` and has the simulated customer approve it."""
    created = sandbox(base, "POST", "/customer-request/v1/requests", {
        "idempotency_key": str(uuid.uuid4()),
        "request": {"actions": actions, "channel": "ONLINE", "redirect_url": RETURN_URL, "reference_id": "conformance"},
    }, {"Authorization": f"Client {client_id}"})
    request_id = created["request"]["id"]
    approved = sandbox(base, "POST", f"/sandbox/customer-requests/{request_id}/approve", {})["request"]
    check(approved["status"] == "APPROVED", f"customer request {request_id} is {approved['status']}, not APPROVED")
    return approved


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    base = sys.argv[1].rstrip("/")
    hmac_key = sys.argv[2] if len(sys.argv) > 2 else SANDBOX_HMAC_KEY

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    receiver_url = f"http://127.0.0.1:{server.server_address[1]}/webhooks"

    adyen = Adyen.Adyen()
    adyen.client.xapikey = API_KEY
    adyen.client.platform = "test"
    for service in (adyen.checkout.payments_api, adyen.checkout.modifications_api, adyen.checkout.recurring_api):
        service.baseUrl = f"{base}/v72"
    payments_api = adyen.checkout.payments_api
    modifications_api = adyen.checkout.modifications_api
    recurring_api = adyen.checkout.recurring_api

    steps = []
    expected_standard = 0
    expected_tokens = 0

    def step(name, function):
        try:
            detail = function()
        except Failure as failure:
            print(f"FAIL {name}: {failure}")
            raise
        except Exception as error:  # the library raises its own errors for non-2xx answers
            print(f"FAIL {name}: {type(error).__name__}: {error}")
            raise Failure(name) from error
        print(f"ok   {name}" + (f": {detail}" if detail else ""))
        steps.append(name)

    state = {}

    def register_receiver():
        answer = sandbox(base, "POST", "/sandbox/webhooks", {"url": receiver_url})
        check(answer["url"] == receiver_url, f"registered {answer}")
        return f"receiver {answer['id']}"

    def payment_methods():
        result = payments_api.payment_methods({"merchantAccount": MERCHANT, "amount": {"currency": "USD", "value": 1234},
                                               "countryCode": "US", "channel": "iOS", "shopperReference": SHOPPER})
        cashapp = [m for m in result.message["paymentMethods"] if m["type"] == "cashapp"]
        check(len(cashapp) == 1, f"no cashapp method in {result.message}")
        state["client_id"] = cashapp[0]["configuration"]["clientId"]
        state["scope_id"] = cashapp[0]["configuration"]["scopeId"]
        return f"clientId {state['client_id']}, scopeId {state['scope_id']}"

    def pay_with_grant():
        nonlocal expected_standard
        approved = approved_grants(base, state["client_id"], [
            {"type": "ONE_TIME_PAYMENT", "scope_id": state["scope_id"], "amount": 1234, "currency": "USD"}])
        request = {"amount": {"currency": "USD", "value": 1234}, "merchantAccount": MERCHANT, "reference": "conformance-1",
                   "returnUrl": RETURN_URL, "paymentMethod": {"type": "cashapp", "grantId": approved["grants"][0]["id"]}}
        key = str(uuid.uuid4())
        first = payments_api.payments(request, idempotency_key=key)
        again = payments_api.payments(request, idempotency_key=key)
        check(first.message["resultCode"] == "Authorised", f"resultCode {first.message}")
        check(again.message["pspReference"] == first.message["pspReference"], "the same Idempotency-Key paid twice")
        psp = first.message["pspReference"]
        check(len(psp) == 16 and psp.isalnum() and psp.upper() == psp, f"pspReference {psp} is not 16 [0-9A-Z]")
        state["psp"] = psp
        expected_standard += 1
        return f"Authorised {psp} (replayed with the same Idempotency-Key)"

    def pay_with_apple_pay():
        nonlocal expected_standard
        issued = sandbox(base, "POST", "/wallet/tokens", {
            "merchantIdentifier": "merchant.com.terminalcheckout.sandbox", "network": "visa", "last4": "4242",
            "amount": 5330, "currency": "USD", "transactionIdentifier": str(uuid.uuid4())})
        token = base64.b64encode(json.dumps(issued["token"]["paymentData"], separators=(",", ":")).encode()).decode()
        request = {"amount": {"currency": "USD", "value": 5330}, "merchantAccount": MERCHANT, "reference": "conformance-wallet",
                   "returnUrl": RETURN_URL, "paymentMethod": {"type": "applepay", "applePayToken": token}}
        key = str(uuid.uuid4())
        first = payments_api.payments(request, idempotency_key=key)
        again = payments_api.payments(request, idempotency_key=key)
        check(first.message["resultCode"] == "Authorised", f"resultCode {first.message}")
        check(again.message["pspReference"] == first.message["pspReference"], "the same Idempotency-Key paid twice")
        check(first.message.get("paymentMethod", {}).get("type") == "applepay", f"paymentMethod {first.message.get('paymentMethod')}")
        spent = payments_api.payments(dict(request, reference="conformance-wallet-again"), idempotency_key=str(uuid.uuid4()))
        check(spent.message["resultCode"] == "Refused", f"a spent Apple Pay token under a new key: {spent.message}")
        expected_standard += 1
        return f"Authorised {first.message['pspReference']} ({first.message['paymentMethod'].get('brand')}), replayed once, a second key refused"

    def payment_details():
        result = payments_api.payments_details({"details": {"pspReference": state["psp"]}})
        check(result.message["resultCode"] == "Authorised" and result.message["pspReference"] == state["psp"], f"{result.message}")
        return "Authorised"

    def capture():
        nonlocal expected_standard
        result = modifications_api.capture_authorised_payment(
            {"merchantAccount": MERCHANT, "amount": {"currency": "USD", "value": 1234}, "reference": "capture-1"}, state["psp"])
        check(result.status_code == 201 and result.message["status"] == "received", f"{result.status_code} {result.message}")
        check(result.message["paymentPspReference"] == state["psp"], f"{result.message}")
        expected_standard += 1
        return f"received {result.message['pspReference']}"

    def cancel_another():
        nonlocal expected_standard
        approved = approved_grants(base, state["client_id"], [
            {"type": "ONE_TIME_PAYMENT", "scope_id": state["scope_id"], "amount": 500, "currency": "USD"}])
        paid = payments_api.payments({"amount": {"currency": "USD", "value": 500}, "merchantAccount": MERCHANT, "reference": "conformance-2",
                                      "returnUrl": RETURN_URL, "paymentMethod": {"type": "cashapp", "grantId": approved["grants"][0]["id"]}})
        check(paid.message["resultCode"] == "Authorised", f"{paid.message}")
        result = modifications_api.cancel_authorised_payment_by_psp_reference({"merchantAccount": MERCHANT}, paid.message["pspReference"])
        check(result.status_code == 201 and result.message["status"] == "received", f"{result.status_code} {result.message}")
        expected_standard += 2
        return f"received {result.message['pspReference']} for {paid.message['pspReference']}"

    def store_and_delete():
        nonlocal expected_standard, expected_tokens
        approved = approved_grants(base, state["client_id"], [
            {"type": "ONE_TIME_PAYMENT", "scope_id": state["scope_id"], "amount": 700, "currency": "USD"},
            {"type": "ON_FILE_PAYMENT", "scope_id": state["scope_id"], "account_reference_id": SHOPPER}])
        grants = {g["type"]: g for g in approved["grants"]}
        paid = payments_api.payments({
            "amount": {"currency": "USD", "value": 700}, "merchantAccount": MERCHANT, "reference": "conformance-3", "returnUrl": RETURN_URL,
            "shopperReference": SHOPPER, "storePaymentMethod": True, "recurringProcessingModel": "CardOnFile", "shopperInteraction": "Ecommerce",
            "paymentMethod": {"type": "cashapp", "grantId": grants["ONE_TIME"]["id"], "onFileGrantId": grants["EXTENDED"]["id"],
                              "customerId": approved["customer_profile"]["id"], "cashtag": approved["customer_profile"]["cashtag"]}})
        data = paid.message.get("additionalData", {})
        stored_id = data.get("tokenization.storedPaymentMethodId")
        check(paid.message["resultCode"] == "Authorised" and stored_id, f"{paid.message}")
        check(data.get("tokenization.store.operationType") == "created", f"{data}")
        expected_standard += 1
        expected_tokens += 1
        query = {"shopperReference": SHOPPER, "merchantAccount": MERCHANT}
        listed = recurring_api.get_tokens_for_stored_payment_details(query_parameters=query)
        ids = [m["id"] for m in listed.message["storedPaymentMethods"]]
        check(stored_id in ids, f"{stored_id} not listed in {listed.message}")
        deleted = recurring_api.delete_token_for_stored_payment_details(stored_id, query_parameters=query)
        check(deleted.status_code == 204, f"DELETE answered {deleted.status_code}")
        after = recurring_api.get_tokens_for_stored_payment_details(query_parameters=query)
        check(stored_id not in [m["id"] for m in after.message.get("storedPaymentMethods", [])], f"{stored_id} still listed")
        return f"stored {stored_id} ({data.get('cashapp.cashtag')}), listed, deleted (204), gone"

    def session_pay_and_store():
        nonlocal expected_standard, expected_tokens
        request = {"amount": {"currency": "USD", "value": 900}, "merchantAccount": MERCHANT, "reference": "conformance-session",
                   "returnUrl": RETURN_URL, "countryCode": "US", "shopperReference": SHOPPER, "channel": "iOS",
                   "storePaymentMethodMode": "askForConsent", "recurringProcessingModel": "CardOnFile"}
        key = str(uuid.uuid4())
        created = payments_api.sessions(request, idempotency_key=key)
        again = payments_api.sessions(request, idempotency_key=key)
        check(created.status_code == 201, f"POST /sessions answered {created.status_code}")
        session = created.message
        check(again.message["id"] == session["id"], "the same Idempotency-Key made a second session")
        for field in ("id", "sessionData", "expiresAt", "amount", "merchantAccount", "reference", "returnUrl"):
            check(field in session, f"POST /sessions: no {field} in {session}")
        check(session["storePaymentMethodMode"] == "askForConsent", f"storePaymentMethodMode {session.get('storePaymentMethodMode')}")
        setup = component(base, session["id"], "setup", {"sessionData": session["sessionData"]})
        check(setup["sessionData"] != session["sessionData"], "setup did not give a new sessionData")
        check(setup["configuration"]["enableStoreDetails"] is True, f"askForConsent with a shopper: no toggle in {setup['configuration']}")
        cashapp = next(m for m in setup["paymentMethods"]["paymentMethods"] if m["type"] == "cashapp")["configuration"]
        approved = approved_grants(base, cashapp["clientId"], [
            {"type": "ONE_TIME_PAYMENT", "scope_id": cashapp["scopeId"], "amount": 900, "currency": "USD"},
            {"type": "ON_FILE_PAYMENT", "scope_id": cashapp["scopeId"], "account_reference_id": SHOPPER}])
        grants = {g["type"]: g for g in approved["grants"]}
        paid = component(base, session["id"], "payments", {
            "sessionData": setup["sessionData"], "storePaymentMethod": True,
            "paymentMethod": {"type": "cashapp", "grantId": grants["ONE_TIME"]["id"], "onFileGrantId": grants["EXTENDED"]["id"],
                              "customerId": approved["customer_profile"]["id"], "cashtag": approved["customer_profile"]["cashtag"]}})
        check(paid["resultCode"] == "Authorised" and paid.get("sessionResult"), f"session payment: {paid}")
        result = payments_api.get_result_of_payment_session(session["id"], query_parameters={"sessionResult": paid["sessionResult"]})
        check(result.message["id"] == session["id"] and result.message["status"] == "completed", f"session result: {result.message}")
        psp = result.message["payments"][0]["pspReference"]
        expected_standard += 1
        expected_tokens += 1
        return f"session {session['id']} (replayed with the same Idempotency-Key), setup, Authorised {psp}, stored, status completed"

    def session_redirect_and_details():
        nonlocal expected_standard
        session = payments_api.sessions({"amount": {"currency": "USD", "value": REDIRECT_AMOUNT}, "merchantAccount": MERCHANT,
                                         "reference": "conformance-session-redirect", "returnUrl": RETURN_URL}).message
        setup = component(base, session["id"], "setup", {"sessionData": session["sessionData"]})
        before = payments_api.get_result_of_payment_session(session["id"], query_parameters={"sessionResult": "none-yet"})
        check(before.message["status"] == "active", f"an unpaid session is {before.message}")
        cashapp = next(m for m in setup["paymentMethods"]["paymentMethods"] if m["type"] == "cashapp")["configuration"]
        approved = approved_grants(base, cashapp["clientId"], [
            {"type": "ONE_TIME_PAYMENT", "scope_id": cashapp["scopeId"], "amount": REDIRECT_AMOUNT, "currency": "USD"}])
        paid = component(base, session["id"], "payments", {
            "sessionData": setup["sessionData"], "paymentMethod": {"type": "cashapp", "grantId": approved["grants"][0]["id"]}})
        check(paid["resultCode"] == "RedirectShopper" and paid["action"]["type"] == "redirect", f"session payment: {paid}")
        pending = payments_api.get_result_of_payment_session(session["id"], query_parameters={"sessionResult": paid["sessionResult"]})
        check(pending.message["status"] == "paymentPending", f"after the action: {pending.message}")
        details = component(base, session["id"], "paymentDetails", {
            "sessionData": paid["sessionData"], "details": {"redirectResult": redirect_result(paid["action"]["url"])}})
        check(details["resultCode"] == "Authorised", f"session paymentDetails: {details}")
        done = payments_api.get_result_of_payment_session(session["id"], query_parameters={"sessionResult": details["sessionResult"]})
        check(done.message["status"] == "completed", f"after the details: {done.message}")
        expected_standard += 1
        return "active, RedirectShopper (paymentPending), paymentDetails Authorised (completed)"

    def redirect_through_payments_details():
        nonlocal expected_standard
        approved = approved_grants(base, state["client_id"], [
            {"type": "ONE_TIME_PAYMENT", "scope_id": state["scope_id"], "amount": REDIRECT_AMOUNT, "currency": "USD"}])
        paid = payments_api.payments({"amount": {"currency": "USD", "value": REDIRECT_AMOUNT}, "merchantAccount": MERCHANT,
                                      "reference": "conformance-redirect", "returnUrl": RETURN_URL,
                                      "paymentMethod": {"type": "cashapp", "grantId": approved["grants"][0]["id"]}})
        check(paid.message["resultCode"] == "RedirectShopper" and paid.message["action"]["type"] == "redirect", f"{paid.message}")
        details = payments_api.payments_details({"details": {"redirectResult": redirect_result(paid.message["action"]["url"])}})
        check(details.message["resultCode"] == "Authorised" and details.message["pspReference"] == paid.message["pspReference"],
              f"{details.message}")
        expected_standard += 1
        return f"RedirectShopper {paid.message['pspReference']}, then Authorised by /payments/details"

    def errors_in_adyen_shape():
        bad = Adyen.Adyen()
        bad.client.xapikey = "not-an-adyen-key"
        bad.client.platform = "test"
        bad.checkout.payments_api.baseUrl = f"{base}/v72"
        try:
            bad.checkout.payments_api.payment_methods({"merchantAccount": MERCHANT})
            raise Failure("a wrong API key was accepted")
        except AdyenAPIAuthenticationError as error:
            check(error.status_code == 401 and error.error_code == "000", f"{error.status_code} {error.error_code}")
        try:
            payments_api.payments({"amount": {"currency": "USD", "value": 100}, "merchantAccount": MERCHANT, "reference": "r",
                                   "paymentMethod": {"type": "cashapp", "grantId": "GRG_x"}})
            raise Failure("a payment without returnUrl was accepted")
        except AdyenAPIUnprocessableEntity as error:
            check(error.status_code == 422 and error.error_code == "14_030", f"{error.status_code} {error.error_code}")
        return "401 000 and 422 14_030 raised by the library as Adyen errors"

    def webhooks_signed():
        deadline = time.time() + 15
        while time.time() < deadline:
            with Receiver.lock:
                bodies = list(Receiver.received)
            standard = [json.loads(b) for b, _ in bodies if b"notificationItems" in b]
            tokens = [(b, h) for b, h in bodies if b"notificationItems" not in b]
            if len(standard) >= expected_standard and len(tokens) >= expected_tokens:
                break
            time.sleep(0.05)
        check(len(standard) >= expected_standard, f"{len(standard)} standard webhooks arrived, expected {expected_standard}")
        check(len(tokens) >= expected_tokens, f"{len(tokens)} token webhooks arrived, expected {expected_tokens}")
        codes = []
        for notification in standard:
            check(notification["live"] == "false", f"live is {notification['live']!r}")
            for container in notification["notificationItems"]:
                item = container["NotificationRequestItem"]
                check(util.is_valid_hmac_notification(item, hmac_key), f"HMAC of {item['eventCode']} {item['pspReference']} is invalid")
                check(isinstance(item["success"], str), "success is not a string")
                codes.append(item["eventCode"])
        for body, headers in tokens:
            check(util.is_valid_hmac_payload(headers.get("hmacsignature", ""), hmac_key, body), f"hmacsignature of {body[:80]} is invalid")
            check(json.loads(body)["type"].startswith("recurring.token."), f"{body[:80]}")
        return f"{len(standard)} standard ({', '.join(sorted(set(codes)))}) and {len(tokens)} token webhooks, all HMAC-valid"

    try:
        step("register webhook receiver", register_receiver)
        step("paymentMethods", payment_methods)
        step("payments with a ONE_TIME grant", pay_with_grant)
        step("payments/details", payment_details)
        step("payments with an Apple Pay token from the wallet", pay_with_apple_pay)
        step("capture", capture)
        step("cancel (another payment)", cancel_another)
        step("store a method, list it, delete it", store_and_delete)
        step("sessions: create, setup, pay and store, result", session_pay_and_store)
        step("sessions: a redirect action completed by paymentDetails", session_redirect_and_details)
        step("payments: a redirect action completed by payments/details", redirect_through_payments_details)
        step("error shapes", errors_in_adyen_shape)
        step("webhooks HMAC (Adyen.util)", webhooks_signed)
    except Failure:
        print(f"conformance FAILED after {len(steps)} steps")
        return 1
    finally:
        server.shutdown()
    print(f"conformance ok: {len(steps)} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
