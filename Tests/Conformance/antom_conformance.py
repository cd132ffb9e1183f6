#!/usr/bin/env python3
"""Conformance of the sandbox's Antom emulation with Antom's official Python SDK (global-open-sdk-python 1.7.1).

Usage: antom_conformance.py BASE_URL

The SDK is used unchanged but for ONE function: its transport. `default_http_rpc.do_post` always
opens HTTPS on port 443 of the gateway's host, so this script replaces it (as the SDK's client
module imported it) with `PlainHTTPTransport.do_post` below, which sends exactly the same request — method
POST, the same request target (the SDK's own URL: the gateway, here the sandbox's base URL, plus
the path), the SDK's headers and body bytes — over plain HTTP to the sandbox, and hands back the
answer's headers and body as the SDK's function does (an HTTP status other than 200 raises, as
there). Everything else is the SDK's own code: `DefaultAlipayClient` builds the requests
(`AlipayPaymentSessionRequest`, `AlipayPayQueryRequest`), rewrites `/ams/api` to
`/ams/sandbox/api` for `SANDBOX_` client ids, signs them with `signature_tool`, and verifies every
answer's `signature` header against the sandbox's public key before this script sees a byte;
`AlipayPaymentSessionResponse` and `AlipayPayQueryResponse` parse the answers; `webhook_tool`
verifies the sandbox's notification.

Keys come from the sandbox: GET /sandbox/antom/keys gives its public key and a ready test client
(bare base64 DER, as Antom's portal shows them). The sandbox's own routes, which no SDK has,
are called with plain urllib: GET /sandbox/antom/cashier/{paymentSessionId} (the display mode it
read from what the SDK sent), POST …/{paymentSessionId}/pay, /fail and /abandon (the customer),
POST /sandbox/antom/clients (a second client with a key made here).
Prints one line per check; exits non-zero on the first failure.
"""
import base64
import http.client
import http.server
import importlib.metadata
import json
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid

import com.alipay.ams.api.default_alipay_client as sdk_client_module
from com.alipay.ams.api.default_alipay_client import DefaultAlipayClient
from com.alipay.ams.api.exception.exception import AlipayApiException
from com.alipay.ams.api.model.amount import Amount
from com.alipay.ams.api.model.order import Order
from com.alipay.ams.api.model.payment_method import PaymentMethod
from com.alipay.ams.api.model.product_code_type import ProductCodeType
from com.alipay.ams.api.model.result_status_type import ResultStatusType
from com.alipay.ams.api.model.settlement_strategy import SettlementStrategy
from com.alipay.ams.api.model.transaction_status_type import TransactionStatusType
from com.alipay.ams.api.request.notify.alipay_pay_result_notify import AlipayPayResultNotify
from com.alipay.ams.api.request.pay.alipay_pay_query_request import AlipayPayQueryRequest
from com.alipay.ams.api.request.pay.alipay_payment_session_request import AlipayPaymentSessionRequest
from com.alipay.ams.api.response.pay.alipay_pay_query_response import AlipayPayQueryResponse
from com.alipay.ams.api.response.pay.alipay_payment_session_response import AlipayPaymentSessionResponse
from com.alipay.ams.api.tools import signature_tool, webhook_tool
from com.alipay.ams.api.tools.constants import DEFAULT_CHARSET, DEFAULT_TIMEOUT

SDK = "global-open-sdk-python"
CURRENCY = "THB"
AMOUNT = "129000"  # minor units: ฿1,290.00
REDIRECT_URL = "https://merchant.example/antom/return"
# paymentMethodMetaData of each display mode. The SDK's PaymentMethod types it as a dict (a JSON
# object on the wire); this tool's own client sends the same object as a JSON string, which a
# separate check sends through the SDK too.
DISPLAY_MODES = [
    ("bank-country:TH", {"paymentMethodRegion": "TH"}),
    ("single-bank:SCB", {"bankName": "SCB"}),
    ("bank-type:ONLINE_BANKING", {"paymentMethodCategory": "ONLINE_BANKING"}),
]
ACKNOWLEDGEMENT = {"result": {"resultCode": "SUCCESS", "resultStatus": "S", "resultMessage": "success"}}


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# MARK: the one replaced function


class PlainHTTPTransport:
    """Stands in for `com.alipay.ams.api.net.default_http_rpc.do_post`, the SDK's only transport.

    The SDK's own function connects with `HTTPSConnection(host, port=443)` whatever the gateway
    says, which cannot reach a plain-HTTP sandbox on another port. This one connects with plain
    HTTP to the URL's host and port and otherwise does what the SDK's does: the same request
    target (`url`, as the SDK passes it), the SDK's headers unchanged, the body encoded as there,
    `AlipayApiException` on a status other than 200, and `(response.getheaders(), raw body)` back.
    It also keeps what went over the wire, for the checks' details, and can alter one byte of an
    answer's body (`tamper_next`) to show the SDK's verification is live.
    """

    def __init__(self):
        self.exchanges = []
        self.tamper_next = False

    def do_post(self, url, headers=None, req_body=None, charset=DEFAULT_CHARSET):
        target = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(target.hostname, port=target.port or 80, timeout=DEFAULT_TIMEOUT)
        try:
            connection.connect()
        except Exception as e:
            raise AlipayApiException("connect failed. " + str(e))
        body = req_body.encode(charset)
        try:
            connection.request("POST", url, body=body, headers=headers)
        except Exception as e:
            raise AlipayApiException("request failed. " + str(e))
        response = connection.getresponse()
        answer_headers = response.getheaders()
        result = response.read()
        exchange = {"url": url, "path": target.path, "headers": dict(headers or {}), "body": body,
                    "status": response.status, "answer_headers": answer_headers, "answer": result}
        self.exchanges.append(exchange)
        if response.status != 200:
            raise AlipayApiException("invalid http status " + str(response.status))
        try:
            response.close()
            connection.close()
        except Exception as e:
            raise AlipayApiException("close failed. " + str(e))
        if self.tamper_next:
            self.tamper_next = False
            # One byte of the signed body changes (a digit of the amount or a letter of a field).
            index = next((i for i, byte in enumerate(result) if chr(byte).isdigit()), len(result) // 2)
            altered = bytearray(result)
            altered[index] = ord("1") if altered[index] != ord("1") else ord("2")
            result = bytes(altered)
            exchange["tampered"] = result
        return answer_headers, result

    @property
    def last(self):
        return self.exchanges[-1] if self.exchanges else None


TRANSPORT = PlainHTTPTransport()
# The replacement: DefaultAlipayClient calls `do_post` by the name it imported from
# com.alipay.ams.api.net.default_http_rpc (`from … import *`); only that name is rebound.
sdk_client_module.do_post = TRANSPORT.do_post


def header(exchange, name):
    """An answer header by its exact name, as the SDK reads them (it compares names as sent)."""
    for key, value in exchange["answer_headers"]:
        if key == name:
            return value
    return None


def header_names(exchange):
    return [key for key, _ in exchange["answer_headers"]]


def sandbox_json(base, method, path, body=None):
    """One of the sandbox's own routes, with plain urllib."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data is not None else {})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            text = response.read()
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, text.decode(errors="replace")


def new_rsa_key():
    """A fresh RSA 2048 pair as the SDK takes keys: bare base64 DER, the private one as PKCS #1
    (the SDK wraps it in `-----BEGIN RSA PRIVATE KEY-----`), the public one as SubjectPublicKeyInfo."""
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa
    except ImportError:
        return new_rsa_key_with_openssl()
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(private).decode(), base64.b64encode(public).decode()


def new_rsa_key_with_openssl():
    import subprocess
    private_pem = subprocess.run(["openssl", "genrsa", "-traditional", "2048"], check=True, capture_output=True).stdout
    private = subprocess.run(["openssl", "rsa", "-traditional", "-outform", "DER"], input=private_pem, check=True,
                             capture_output=True).stdout
    public = subprocess.run(["openssl", "rsa", "-pubout", "-outform", "DER"], input=private_pem, check=True,
                            capture_output=True).stdout
    return base64.b64encode(private).decode(), base64.b64encode(public).decode()


class NotificationReceiver:
    """A merchant's paymentNotifyUrl on 127.0.0.1 port 0: keeps each POST (path, headers, raw body)
    and answers Antom's documented acknowledgement."""

    def __init__(self):
        received = self.received = []
        arrived = self.arrived = threading.Condition()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                answer = json.dumps(ACKNOWLEDGEMENT).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
                with arrived:
                    received.append({"path": self.path, "headers": self.headers, "body": body})
                    arrived.notify_all()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/antom/notify"

    def wait(self, predicate, timeout=20):
        with self.arrived:
            self.arrived.wait_for(lambda: any(predicate(n) for n in self.received), timeout=timeout)
            return next((n for n in self.received if predicate(n)), None)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    base = sys.argv[1].rstrip("/")
    run = uuid.uuid4().hex[:10]
    steps = []
    state = {}

    def step(name, function):
        try:
            detail = function()
        except Failure as failure:
            print(f"FAIL {name}: {failure}")
            raise
        except AlipayApiException as error:  # what the SDK raises: transport, signature, header errors
            last = TRANSPORT.last
            seen = ""
            if last is not None:
                seen = (f"; last exchange POST {last['url']} → {last['status']}, answer headers {header_names(last)}, "
                        f"body {last['answer'][:400]!r}")
            print(f"FAIL {name}: AlipayApiException: {error}{seen}")
            raise Failure(name) from error
        except Exception as error:
            print(f"FAIL {name}: {type(error).__name__}: {error}")
            raise Failure(name) from error
        print(f"ok   {name}" + (f": {detail}" if detail else ""))
        steps.append(name)

    def keys():
        status, answer = sandbox_json(base, "GET", "/sandbox/antom/keys")
        check(status == 200 and isinstance(answer, dict), f"GET /sandbox/antom/keys answered {status}: {answer!r:.300}")
        client = answer.get("test_client") or {}
        for field in ("client_id", "private_key", "public_key"):
            check(isinstance(client.get(field), str) and client[field], f"test_client.{field} is {client.get(field)!r}")
        check(isinstance(answer.get("sandbox_public_key"), str), f"sandbox_public_key is {answer.get('sandbox_public_key')!r}")
        state.update(sandbox_public_key=answer["sandbox_public_key"], client_id=client["client_id"],
                     private_key=client["private_key"], public_key=client["public_key"])
        state["client"] = DefaultAlipayClient(base, client["client_id"], client["private_key"], answer["sandbox_public_key"])
        return f"test client {client['client_id']}; {SDK} {importlib.metadata.version(SDK)}"

    def session_request(request_id, meta_data, amount=AMOUNT, currency=CURRENCY, redirect=REDIRECT_URL, notify=None):
        request = AlipayPaymentSessionRequest()
        request.product_code = ProductCodeType.CASHIER_PAYMENT
        request.payment_request_id = request_id
        request.payment_amount = Amount(currency, amount)
        order = Order()
        order.reference_order_id = f"order-{request_id}"
        order.order_description = "Terminal checkout conformance"
        order.order_amount = Amount(currency, amount)
        request.order = order
        method = PaymentMethod()
        method.payment_method_type = "BANK"
        method.payment_method_meta_data = meta_data
        request.payment_method = method
        request.payment_redirect_url = redirect
        if notify:
            request.payment_notify_url = notify
        settlement = SettlementStrategy()
        settlement.settlement_currency = "USD"
        request.settlement_strategy = settlement
        return request

    def create_session(request, client=None):
        """createPaymentSession through the SDK: its execute() signs, sends and verifies the answer."""
        body = (client or state["client"]).execute(request)
        exchange = TRANSPORT.last
        return AlipayPaymentSessionResponse(body), exchange

    def signed(exchange):
        """The answer carried the headers the SDK verified (execute() returned, so it verified them)."""
        names = header_names(exchange)
        for name in ("signature", "response-time", "client-id"):
            check(header(exchange, name), f"the answer lacks the `{name}` header the SDK reads (headers {names})")
        return f"signature verified over `POST {exchange['path']}`, client-id {header(exchange, 'client-id')}"

    def check_session(response, exchange, what):
        result = response.result
        check(result is not None, f"{what}: no result in {exchange['answer'][:300]!r}")
        check(result.result_status == ResultStatusType.S and result.result_code == "SUCCESS",
              f"{what}: result {result.result_code} {result.result_status}: {result.result_message}")
        for field in ("payment_session_data", "payment_session_id", "payment_session_expiry_time"):
            value = getattr(response, field)
            check(isinstance(value, str) and value, f"{what}: {field} is {value!r}")
        return response

    def create_in_mode(label, meta_data):
        def run_mode():
            request_id = f"conf-{run}-{label.split(':')[1].lower()}"
            response, exchange = create_session(session_request(request_id, meta_data))
            check_session(response, exchange, f"createPaymentSession ({label})")
            sent = json.loads(exchange["body"])["paymentMethod"]["paymentMethodMetaData"]
            # The sandbox's cashier (its own route) says which mode it read from what the SDK sent.
            path = f"/sandbox/antom/cashier/{urllib.parse.quote(response.payment_session_id, safe='')}"
            status, cashier = sandbox_json(base, "GET", path)
            check(status == 200 and isinstance(cashier, dict), f"GET {path} answered {status}: {cashier!r:.300}")
            check(cashier.get("displayMode") == label, f"the cashier shows mode {cashier.get('displayMode')!r}, expected {label}")
            banks = [bank.get("bankName") for bank in cashier.get("banks") or []]
            check(banks, f"the cashier of {label} offers no bank")
            state.setdefault("sessions", {})[label] = (request_id, response)
            return (f"S SUCCESS, session {response.payment_session_id}, expires {response.payment_session_expiry_time}, "
                    f"data {len(response.payment_session_data)} chars, metaData sent as {json.dumps(sent)}, cashier {label} "
                    f"offers {'/'.join(banks)}; {signed(exchange)}")
        return run_mode

    def meta_data_as_string():
        request_id = f"conf-{run}-metastring"
        text = json.dumps(DISPLAY_MODES[0][1], separators=(",", ":"))
        response, exchange = create_session(session_request(request_id, text))
        check_session(response, exchange, "createPaymentSession with paymentMethodMetaData as a JSON string")
        sent = json.loads(exchange["body"])["paymentMethod"]["paymentMethodMetaData"]
        check(sent == text, f"the SDK sent paymentMethodMetaData {sent!r}")
        return f"paymentMethodMetaData {json.dumps(text)} (a string, as this tool's client sends it) → S, session {response.payment_session_id}"

    def sandbox_path():
        # DefaultAlipayClient.adjust_sandbox_url: a client id starting SANDBOX_ turns /ams/api into /ams/sandbox/api.
        paths = {e["path"] for e in TRANSPORT.exchanges}
        check(state["client_id"].startswith("SANDBOX_"), f"the test client id {state['client_id']} is not a SANDBOX_ one")
        check(paths == {"/ams/sandbox/api/v1/payments/createPaymentSession"}, f"the SDK posted to {sorted(paths)}")
        first = TRANSPORT.exchanges[0]
        return (f"the SDK rewrote /ams/api to {first['path']} itself (request target {first['url']}); "
                f"request headers {sorted(first['headers'])}")

    def inquire(client=None, request_id=None, payment_id=None):
        request = AlipayPayQueryRequest()
        if request_id:
            request.payment_request_id = request_id
        if payment_id:
            request.payment_id = payment_id
        body = (client or state["client"]).execute(request)
        response = AlipayPayQueryResponse(body)
        return response, TRANSPORT.last

    def check_inquiry(response, exchange, status, what):
        result = response.result
        check(result is not None and result.result_status == ResultStatusType.S,
              f"{what}: result {result and result.result_code} {result and result.result_status}: {exchange['answer'][:300]!r}")
        check(response.payment_status == status, f"{what}: paymentStatus {response.payment_status}, expected {status}")
        return response

    def inquiry_processing():
        request_id, _ = state["sessions"]["bank-country:TH"]
        response, exchange = inquire(request_id=request_id)
        check_inquiry(response, exchange, TransactionStatusType.PROCESSING, "inquiryPayment before paying")
        check(response.payment_request_id == request_id, f"paymentRequestId {response.payment_request_id}")
        check(exchange["path"] == "/ams/sandbox/api/v1/payments/inquiryPayment", f"posted to {exchange['path']}")
        return f"{request_id} PROCESSING; {signed(exchange)}"

    def control(session_id, action):
        path = f"/sandbox/antom/cashier/{urllib.parse.quote(session_id, safe='')}/{action}"
        status, answer = sandbox_json(base, "POST", path, {})
        check(200 <= status < 300, f"POST {path} answered {status}: {answer!r:.300}")
        return status

    def pay_and_inquire():
        request_id, session = state["sessions"]["bank-country:TH"]
        control(session.payment_session_id, "pay")
        response, exchange = inquire(request_id=request_id)
        check_inquiry(response, exchange, TransactionStatusType.SUCCESS, "inquiryPayment after paying")
        check(isinstance(response.payment_id, str) and response.payment_id, f"paymentId {response.payment_id!r}")
        amount = response.payment_amount
        check(amount is not None and amount.currency == CURRENCY and amount.value == AMOUNT,
              f"paymentAmount {amount and amount.currency} {amount and amount.value}, expected {CURRENCY} {AMOUNT}")
        state["paid"] = (request_id, response.payment_id)
        return f"paid through the cashier: SUCCESS, paymentId {response.payment_id}, {amount.value} {amount.currency}, paymentTime {response.payment_time}"

    def inquiry_by_payment_id():
        request_id, payment_id = state["paid"]
        response, exchange = inquire(payment_id=payment_id)
        check_inquiry(response, exchange, TransactionStatusType.SUCCESS, "inquiryPayment by paymentId")
        check(response.payment_id == payment_id and response.payment_request_id == request_id,
              f"answered {response.payment_id} / {response.payment_request_id}, expected {payment_id} / {request_id}")
        return f"{payment_id} SUCCESS (paymentRequestId {request_id})"

    def settle_other(label, action, status):
        def run_settle():
            request_id, session = state["sessions"][label]
            control(session.payment_session_id, action)
            response, exchange = inquire(request_id=request_id)
            check_inquiry(response, exchange, status, f"inquiryPayment after {action}")
            return (f"{label} session {action} → {status.value}"
                    + (f" ({response.payment_result_code}: {response.payment_result_message})" if response.payment_result_code else ""))
        return run_settle

    def expect_error(call, code, what, status="F"):
        """Runs an SDK call that must come back (verified by the SDK) as result `code`."""
        body = call()
        exchange = TRANSPORT.last
        result = AlipayPaymentSessionResponse(body).result
        check(result is not None, f"{what}: no result in {body[:300]!r}")
        check(result.result_code == code and result.result_status == ResultStatusType.value_of(status),
              f"{what}: result {result.result_code} {result.result_status and result.result_status.value} "
              f"({result.result_message}), expected {code} {status}")
        return f"{status} {code} ({result.result_message}); {signed(exchange)}"

    def missing_redirect():
        request = session_request(f"conf-{run}-noredirect", DISPLAY_MODES[0][1], redirect=None)
        return expect_error(lambda: state["client"].execute(request), "PARAM_ILLEGAL", "createPaymentSession without paymentRedirectUrl")

    def currency(code):
        def run_currency():
            request = session_request(f"conf-{run}-{code.lower()}", DISPLAY_MODES[0][1], currency=code)
            return expect_error(lambda: state["client"].execute(request), "CURRENCY_NOT_SUPPORT", f"createPaymentSession in {code}")
        return run_currency

    def repeat_inconsistent():
        request_id = f"conf-{run}-repeat"
        first, exchange = create_session(session_request(request_id, DISPLAY_MODES[1][1]))
        check_session(first, exchange, "createPaymentSession (first)")
        again, exchange = create_session(session_request(request_id, DISPLAY_MODES[1][1]))
        check_session(again, exchange, "createPaymentSession (the same request again)")
        check(again.payment_session_id == first.payment_session_id,
              f"the same request again made session {again.payment_session_id}, not {first.payment_session_id}")
        request = session_request(request_id, DISPLAY_MODES[1][1], amount="129001")
        detail = expect_error(lambda: state["client"].execute(request), "REPEAT_REQ_INCONSISTENT",
                              "createPaymentSession again with the same paymentRequestId and another amount")
        return f"{request_id}: {AMOUNT} twice → the same session {first.payment_session_id}; then 129001 → {detail}"

    def wrong_private_key():
        wrong_private, _ = new_rsa_key()
        client = DefaultAlipayClient(base, state["client_id"], wrong_private, state["sandbox_public_key"])
        request = session_request(f"conf-{run}-wrongkey", DISPLAY_MODES[0][1])
        try:
            return expect_error(lambda: client.execute(request), "INVALID_SIGNATURE", "a request signed with another key")
        except AlipayApiException as error:
            # The SDK takes an unsigned F answer only past its header parsing, which (in 1.7.1)
            # raises first when no `signature` header came: say what the sandbox sent.
            last = TRANSPORT.last
            answer = json.loads(last["answer"]) if last and last["status"] == 200 else {}
            result = answer.get("result") or {}
            check(result.get("resultCode") == "INVALID_SIGNATURE" and result.get("resultStatus") == "F",
                  f"the SDK raised {error}; the answer was {last and last['answer'][:300]!r}")
            return (f"F INVALID_SIGNATURE, unsigned (headers {header_names(last)}): the SDK raised `{error}` "
                    "before it reached its own rule that lets an unsigned F answer through")

    def unknown_client():
        client = DefaultAlipayClient(base, f"SANDBOX_UNKNOWN{run.upper()}", state["private_key"], state["sandbox_public_key"])
        request = session_request(f"conf-{run}-unknownclient", DISPLAY_MODES[0][1])
        try:
            return expect_error(lambda: client.execute(request), "KEY_NOT_FOUND", "a request from an unknown client id")
        except AlipayApiException as error:
            last = TRANSPORT.last
            answer = json.loads(last["answer"]) if last and last["status"] == 200 else {}
            result = answer.get("result") or {}
            check(result.get("resultCode") == "KEY_NOT_FOUND" and result.get("resultStatus") == "F",
                  f"the SDK raised {error}; the answer was {last and last['answer'][:300]!r}")
            return (f"F KEY_NOT_FOUND, unsigned (headers {header_names(last)}): the SDK raised `{error}` "
                    "before it reached its own rule that lets an unsigned F answer through")

    def tampered_answer():
        request = session_request(f"conf-{run}-tamper", DISPLAY_MODES[0][1])
        TRANSPORT.tamper_next = True
        try:
            body = state["client"].execute(request)
        except AlipayApiException as error:
            check("verif" in str(error), f"the SDK raised {error}, not a verification failure")
            last = TRANSPORT.last
            check("tampered" in last, "the transport did not alter the answer")
            return f"one byte of the signed answer altered → the SDK raised `{error}`"
        finally:
            TRANSPORT.tamper_next = False
        raise Failure(f"the SDK accepted an altered answer: {body[:300]!r}")

    def second_client():
        private, public = new_rsa_key()
        client_id = f"2188{uuid.uuid4().int % 10**12:012d}"  # a production-style id: the SDK keeps /ams/api
        status, answer = sandbox_json(base, "POST", "/sandbox/antom/clients", {"client_id": client_id, "public_key": public})
        check(200 <= status < 300, f"POST /sandbox/antom/clients answered {status}: {answer!r:.300}")
        client = DefaultAlipayClient(base, client_id, private, state["sandbox_public_key"])
        request_id = f"conf-{run}-second"
        response, exchange = create_session(session_request(request_id, DISPLAY_MODES[0][1]), client=client)
        check_session(response, exchange, "createPaymentSession as the registered client")
        check(exchange["path"] == "/ams/api/v1/payments/createPaymentSession", f"posted to {exchange['path']}")
        inquiry, exchange = inquire(client=client, request_id=request_id)
        check_inquiry(inquiry, exchange, TransactionStatusType.PROCESSING, "inquiryPayment as the registered client")
        return f"registered {client_id} with a key made here: session {response.payment_session_id} on {exchange['path'].rsplit('/v1', 1)[0]}; {signed(exchange)}"

    def notification():
        receiver = NotificationReceiver()
        try:
            request_id = f"conf-{run}-notify"
            response, _ = create_session(session_request(request_id, DISPLAY_MODES[0][1], notify=receiver.url))
            check_session(response, TRANSPORT.last, "createPaymentSession with paymentNotifyUrl")
            control(response.payment_session_id, "pay")
            got = receiver.wait(lambda n: json.loads(n["body"] or b"{}").get("paymentRequestId") == request_id)
            check(got is not None, f"no notification for {request_id} reached {receiver.url} in 20 s ({len(receiver.received)} others)")
            headers = got["headers"]
            signature, client_id, request_time = headers.get("Signature"), headers.get("client-id"), headers.get("Request-Time")
            check(signature and client_id and request_time,
                  f"notification headers lack signature/client-id/request-time: {dict(headers.items())}")
            body = got["body"].decode("utf-8")
            # The SDK's notification helper, then signature_tool.verify itself, over
            # "POST <path>\n<client-id>.<request-time>.<body>" with the sandbox's public key.
            check(webhook_tool.check_signature("POST", got["path"], client_id, request_time, body, signature,
                                               state["sandbox_public_key"]),
                  f"webhook_tool.check_signature refused the notification (path {got['path']}, headers {dict(headers.items())})")
            value = signature.split("signature=")[1]
            check(signature_tool.verify("POST", got["path"], client_id, request_time, body, value, state["sandbox_public_key"]),
                  "signature_tool.verify refused the notification")
            try:
                forged = signature_tool.verify("POST", got["path"], client_id, request_time, body + " ", value, state["sandbox_public_key"])
            except Exception:
                forged = False
            check(not forged, "signature_tool.verify accepted an altered notification body")
            notify = AlipayPayResultNotify(body)
            check(notify.notify_type == "PAYMENT_RESULT", f"notifyType {notify.notify_type}")
            check(notify.result is not None and notify.result.result_status == ResultStatusType.S
                  and notify.result.result_code == "SUCCESS", f"notification result {body[:300]}")
            check(notify.payment_request_id == request_id and notify.payment_id, f"notification {body[:300]}")
            amount = notify.payment_amount
            amount_value = amount.get("value") if isinstance(amount, dict) else getattr(amount, "value", None)
            check(amount_value == AMOUNT, f"notification paymentAmount {amount!r}")
            return (f"PAYMENT_RESULT S for {request_id} ({notify.payment_id}) at {got['path']}, verified by webhook_tool and "
                    f"signature_tool (client-id {client_id}, request-time {request_time}); acknowledged {json.dumps(ACKNOWLEDGEMENT)}")
        finally:
            receiver.close()

    try:
        step("keys and the SDK client", keys)
        for label, meta_data in DISPLAY_MODES:
            step(f"createPaymentSession {label}", create_in_mode(label, meta_data))
        step("SANDBOX_ client id uses /ams/sandbox/api", sandbox_path)
        step("createPaymentSession with paymentMethodMetaData as a JSON string", meta_data_as_string)
        step("inquiryPayment by paymentRequestId: PROCESSING", inquiry_processing)
        step("pay, inquiryPayment: SUCCESS", pay_and_inquire)
        step("inquiryPayment by paymentId", inquiry_by_payment_id)
        step("fail, inquiryPayment: FAIL", settle_other("single-bank:SCB", "fail", TransactionStatusType.FAIL))
        step("abandon, inquiryPayment: CANCELLED", settle_other("bank-type:ONLINE_BANKING", "abandon", TransactionStatusType.CANCELLED))
        step("PARAM_ILLEGAL without paymentRedirectUrl", missing_redirect)
        step("CURRENCY_NOT_SUPPORT for XXX", currency("XXX"))
        step("CURRENCY_NOT_SUPPORT for EUR", currency("EUR"))
        step("REPEAT_REQ_INCONSISTENT", repeat_inconsistent)
        step("INVALID_SIGNATURE for another private key", wrong_private_key)
        step("KEY_NOT_FOUND for an unknown client id", unknown_client)
        step("the SDK rejects a tampered answer", tampered_answer)
        step("a registered second client", second_client)
        step("notifyPayment verified by the SDK", notification)
    except Failure:
        print(f"conformance FAILED after {len(steps)} steps")
        return 1
    print(f"conformance ok: {len(steps)} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
