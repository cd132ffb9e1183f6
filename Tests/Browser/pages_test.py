#!/usr/bin/env python3
"""The sandbox's pages in a real browser: headless Chromium driven by selenium (pinned in the venv).

Usage: pages_test.py --bin-dir DIR [--artifacts DIR]

Starts `DIR/checkout sandbox --port 0` itself, then opens what the sandbox serves for a browser,
clicks what a customer clicks and reads the page state after each click:

- Cash App's authorize page (the request's `mobile_url`): Approve on one request, Decline on
  another; after each click the page shows the outcome AND GET /customer-request/v1/requests/{id}
  says APPROVED (with grants) or DECLINED. An unknown id gets the not-found page (404). On a
  second sandbox rotating its triggers every second (`--trigger-rotation 1`), a link from before
  the rotation shows the "link has rotated" notice and still approves, and the old QR image is
  refused (410: a broken image, never an outdated code).
- The QR images (`qr_code_svg_url`, `qr_code_image_url`): each opens as an image document of
  its content type, loads in an <img> (complete, natural width > 0), `zbarimg` decodes the PNG
  to the request's `mobile_url`, and the SVG as the browser drew it (on a canvas) decodes too.
- Antom's cashier page (`normalUrl` of a signed createPaymentSession) in en_US, th_TH and
  in_ID: it lists the session's banks (bankName and the locale's name for each); on a bank's
  page Pay, Fail and Leave each end with the outcome in the page's language, and a signed
  inquiryPayment answers SUCCESS, FAIL (USER_BALANCE_NOT_ENOUGH) or CANCELLED (ORDER_IS_CLOSED).
- Antom's refusal: a Pay form posted after the session closed gets the 409 page with its
  notice and no buttons; an unknown session gets the not-found page (404) in its locale.
- Square's receipt page (`receipt_url` of a CreatePayment): amount, total, status, card brand
  and last 4, and the note and reference id as text (escaped, never markup); an unknown id 404.
- Afterpay's `redirectCheckoutUrl` (POST /v2/checkouts): the checkout's amount and order, and
  how this sandbox pays it (Cash App Pay); an unknown token 404.
- `/favicon.ico`: every page asks for it, so it answers without an error.

Every sandbox here is started with a control token (CHECKOUT_SANDBOX_CONTROL_TOKEN), as a team
sandbox is, and the browser never sends it: each page above, its images and its buttons work for
whoever holds the link alone (a phone scanning the QR code has no team token). Only the test's
own control call (GET /sandbox/antom/keys) sends it; without it that route answers 401 with
WWW-Authenticate: Bearer, and so does the ledger a browser opens.

Text from requests (an order id, a note, an unknown id in the path) carries markup characters;
each page must show it as text.

Every page opened expecting success is checked for console errors (SEVERE entries of the
browser log: a failed resource, a script error); pages that are meant to answer 404 or 409 are
allowed exactly the one "Failed to load resource" entry their status causes. A failing check
saves a screenshot and the page source under `.build/browser-failures/`.

Chromium (`chromium`, Debian's package) and its driver (`chromedriver`, `chromium-driver`) are
found on PATH. Without them the run prints why and is skipped (exit 0), unless CI is set, where
a missing browser is a failure (exit 1). Chromium runs with --headless=new --no-sandbox and a
temporary profile; the sandbox, the driver and the browser are stopped at the end. Nothing waits
a fixed time: every wait is a WebDriverWait on a condition, with a deadline.

Prints one line per check; exits 1 when any check failed.
"""
import argparse
import base64
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import secrets
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASH_APP_CLIENT = "CAS-CI_BROWSER_TEST"
CASH_APP_BRAND = "BRAND_browser"
SQUARE_TOKEN = "EAAAsandbox-browser-test"
SQUARE_VERSION = "2026-09-16"
WAIT = 15  # seconds: the deadline of every wait for a page state
# Text that must reach a page as text: escaped, never markup.
HOSTILE = "<b>bold</b> & \"quoted\" 'x'"
# The same in one path segment (no slash).
HOSTILE_ID = "<b>bold<b>&\"quoted\"'x'"
AFTERPAY_CREDENTIALS = base64.b64encode(b"100101:sandbox-secret-key").decode()
# Every sandbox this test starts needs it on its /sandbox/ control routes; the browser never has it.
CONTROL_TOKEN = secrets.token_hex(24)
CONTROL = {"Authorization": f"Bearer {CONTROL_TOKEN}"}

# What each cashier locale shows (the sandbox's words, AntomLocale.Words).
ANTOM_LOCALES = {
    "en_US": {"currency": "THB", "country": "TH", "lang": "en", "choose": "Choose your bank", "pay": "Pay",
              "fail": "Fail (balance not enough)", "leave": "Leave without paying",
              "paid": "Paid. You can return to the merchant.", "failed": "The payment failed",
              "closed": "This payment is closed", "abandoned": "you left without paying."},
    "th_TH": {"currency": "THB", "country": "TH", "lang": "th", "choose": "เลือกธนาคารของคุณ", "pay": "ชำระเงิน",
              "fail": "ไม่สำเร็จ (ยอดเงินไม่พอ)", "leave": "ออกโดยไม่ชำระเงิน",
              "paid": "ชำระเงินแล้ว คุณกลับไปที่ร้านค้าได้", "failed": "การชำระเงินไม่สำเร็จ",
              "closed": "การชำระเงินนี้ปิดแล้ว", "abandoned": "คุณออกไปโดยไม่ได้ชำระเงิน"},
    "in_ID": {"currency": "IDR", "country": "ID", "lang": "id", "choose": "Pilih bank Anda", "pay": "Bayar",
              "fail": "Gagal (saldo tidak cukup)", "leave": "Keluar tanpa membayar",
              "paid": "Sudah dibayar. Anda dapat kembali ke penjual.", "failed": "Pembayaran gagal",
              "closed": "Pembayaran ini sudah ditutup", "abandoned": "Anda keluar tanpa membayar."},
}
# The banks of each country, as the README lists them.
ANTOM_BANKS = {"TH": ["SCB", "KBANK", "BBL", "KTB", "BAY"], "ID": ["BCA", "MANDIRI", "BNI", "BRI"]}
# What inquiryPayment says after each button: (paymentStatus, paymentResultCode).
ANTOM_OUTCOMES = {"pay": ("SUCCESS", None), "fail": ("FAIL", "USER_BALANCE_NOT_ENOUGH"), "abandon": ("CANCELLED", "ORDER_IS_CLOSED")}


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# MARK: - HTTP to the sandbox


def http(method, url, body=None, headers=None, raw=False):
    """(status, headers, parsed JSON or raw bytes); never raises for an HTTP status."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None and "Content-Type" not in request.headers:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            status, answer_headers, text = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, answer_headers, text = error.code, error.headers, error.read()
    if raw:
        return status, answer_headers, text
    try:
        return status, answer_headers, json.loads(text) if text else None
    except ValueError:
        return status, answer_headers, text.decode(errors="replace")


class Sandbox:
    """`checkout sandbox --port 0` from the bin dir: the first line it prints is its URL."""

    def __init__(self, bin_dir, *flags):
        binary = os.path.join(bin_dir, "checkout")
        check(os.access(binary, os.X_OK), f"no checkout binary at {binary} (build it first: swift build)")
        self.stderr = tempfile.TemporaryFile()
        environment = dict(os.environ, CHECKOUT_SANDBOX_CONTROL_TOKEN=CONTROL_TOKEN)
        self.process = subprocess.Popen([binary, "sandbox", "--port", "0", *flags], stdout=subprocess.PIPE,
                                        stderr=self.stderr, stdin=subprocess.DEVNULL, env=environment)
        deadline = time.monotonic() + WAIT
        line = b""
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            readable, _, _ = select.select([self.process.stdout], [], [], max(remaining, 0))
            if not readable:
                self.stop()
                raise Failure(f"checkout sandbox printed no URL within {WAIT} s")
            chunk = os.read(self.process.stdout.fileno(), 1)
            if not chunk:
                self.stop()
                raise Failure(f"checkout sandbox exited before printing its URL: {self.stderr_text()}")
            line += chunk
        self.base = line.decode().strip().rstrip("/")
        check(self.base.startswith("http://127.0.0.1:"), f"checkout sandbox printed {self.base!r}, not its URL")

    def stderr_text(self):
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")[-2000:]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.stderr.close()


# MARK: - The providers' APIs (to make what the pages show)


def cash_app_request(base, amount=4505):
    status, _, answer = http("POST", base + "/customer-request/v1/requests", {
        "idempotency_key": str(uuid.uuid4()),
        "request": {"actions": [{"type": "ONE_TIME_PAYMENT", "scope_id": CASH_APP_BRAND, "amount": amount, "currency": "USD"}],
                    "channel": "ONLINE", "redirect_url": "https://shop.example/return", "reference_id": "browser-1"}},
        {"Authorization": f"Client {CASH_APP_CLIENT}", "Accept": "application/json"})
    check(status == 201, f"POST /customer-request/v1/requests answered {status}: {answer!r:.300}")
    return answer["request"]


def cash_app_get(base, request_id):
    status, _, answer = http("GET", f"{base}/customer-request/v1/requests/{request_id}",
                             headers={"Authorization": f"Client {CASH_APP_CLIENT}", "Accept": "application/json"})
    check(status == 200, f"GET /customer-request/v1/requests/{request_id} answered {status}: {answer!r:.300}")
    return answer["request"]


class Antom:
    """Signed calls to the sandbox's Antom API as its test client (keys from GET /sandbox/antom/keys),
    signed by the official SDK's signature_tool."""

    def __init__(self, base):
        from com.alipay.ams.api.tools import signature_tool
        self.sign = signature_tool.sign
        self.base = base
        status, _, keys = http("GET", base + "/sandbox/antom/keys", headers=CONTROL)
        check(status == 200, f"GET /sandbox/antom/keys answered {status}: {keys!r:.300}")
        self.client_id = keys["test_client"]["client_id"]
        self.private_key = keys["test_client"]["private_key"]
        self.paths = keys["paths"]

    def call(self, path, body):
        text = json.dumps(body)
        when = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
        signature = self.sign("POST", path, self.client_id, when, text, self.private_key)
        status, _, answer = http("POST", self.base + path, text.encode(), {
            "Content-Type": "application/json; charset=UTF-8", "client-id": self.client_id, "Request-Time": when,
            "Signature": f"algorithm=RSA256,keyVersion=1,signature={signature}"})
        check(status == 200 and isinstance(answer, dict), f"POST {path} answered {status}: {answer!r:.300}")
        return answer

    def session(self, currency, country, order):
        value = "129000" if currency == "THB" else "12900000"
        answer = self.call(self.paths["create_payment_session"], {
            "productCode": "CASHIER_PAYMENT", "paymentRequestId": "browser-" + uuid.uuid4().hex[:12],
            "paymentAmount": {"currency": currency, "value": value},
            "order": {"referenceOrderId": order, "orderDescription": "Browser check",
                      "orderAmount": {"currency": currency, "value": value}},
            "paymentMethod": {"paymentMethodType": "BANK", "paymentMethodMetaData": {"paymentMethodRegion": country}},
            "paymentRedirectUrl": "https://shop.example/return", "settlementStrategy": {"settlementCurrency": "USD"}})
        check(answer.get("result", {}).get("resultStatus") == "S", f"createPaymentSession: {answer!r:.300}")
        return answer

    def inquire(self, payment_request_id):
        return self.call(self.paths["inquiry_payment"], {"paymentRequestId": payment_request_id})


def square_payment(base, note, reference):
    status, _, answer = http("POST", base + "/v2/payments", {
        "source_id": "cnon:card-nonce-ok", "idempotency_key": str(uuid.uuid4()),
        "amount_money": {"amount": 4505, "currency": "USD"}, "note": note, "reference_id": reference},
        {"Authorization": f"Bearer {SQUARE_TOKEN}", "Square-Version": SQUARE_VERSION})
    check(status == 200, f"POST /v2/payments answered {status}: {answer!r:.300}")
    return answer["payment"]


# MARK: - The browser


def find_browser():
    """(chromium, chromedriver) paths, or a reason they cannot be used."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    # macOS: the apps Homebrew's casks install (chromium or google-chrome), not on PATH.
    for app in ("/Applications/Chromium.app/Contents/MacOS/Chromium", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"):
        if not chromium and os.access(app, os.X_OK):
            chromium = app
    driver = shutil.which("chromedriver")
    missing = [name for name, path in (("chromium", chromium), ("chromedriver (chromium-driver)", driver)) if not path]
    if missing:
        return None, None, f"{' and '.join(missing)} not found on PATH"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return None, None, "selenium is not importable (run .ci/ensure-packages.sh --with-python)"
    return chromium, driver, None


class Browser:
    def __init__(self, chromium, chromedriver, artifacts):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        self.artifacts = artifacts
        self.profile = tempfile.mkdtemp(prefix="checkout-browser-")
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in ("--headless=new", "--no-sandbox", f"--user-data-dir={self.profile}", "--disable-gpu",
                         "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--disable-crash-reporter", "--disable-breakpad", "--window-size=900,1100", "--lang=en-US"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # The driver is given: Selenium Manager must not look for (or download) another.
        os.environ["SE_OFFLINE"] = "true"
        self.service = Service(executable_path=chromedriver, log_output=subprocess.DEVNULL)
        try:
            self.driver = webdriver.Chrome(options=options, service=self.service)
        except Exception:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self.driver.set_page_load_timeout(WAIT)

    def open(self, url):
        self.driver.get(url)
        return self

    def wait(self, condition, what):
        from selenium.common.exceptions import TimeoutException, WebDriverException
        from selenium.webdriver.support.ui import WebDriverWait

        def holds(driver):
            try:
                return condition(driver) or None
            except WebDriverException:  # the document went away mid-call (a navigation): not yet
                return None
        try:
            return WebDriverWait(self.driver, WAIT).until(holds)
        except TimeoutException:
            raise Failure(f"waited {WAIT} s for {what}; the page at {self.driver.current_url} says: {self.text()[:300]!r}")

    def text(self):
        try:
            return self.driver.find_element("tag name", "body").text
        except Exception:
            return ""

    def click_button(self, label):
        from selenium.webdriver.common.by import By
        buttons = [b for b in self.driver.find_elements(By.TAG_NAME, "button") if b.text.strip() == label]
        check(len(buttons) == 1, f"expected one button {label!r} on {self.driver.current_url}, found "
                                 f"{[b.text for b in self.driver.find_elements(By.TAG_NAME, 'button')]}")
        # The form posts and the sandbox answers 303 to the page again: wait for the new document.
        self.navigate(buttons[0].click, f"the page after clicking {label!r}")

    def navigate(self, action, what, then=lambda driver: True):
        """Runs `action` (a click, a form submit) and waits until another document has loaded and
        `then` holds: the old document carries a mark the new one lacks."""
        self.driver.execute_script("window.pagesTestMark = true")
        action()
        self.wait(lambda driver: driver.execute_script("return !window.pagesTestMark && document.readyState === 'complete'")
                  and then(driver), what)

    def console_errors(self, allowed=0):
        """The SEVERE browser-log entries since the last call; `allowed` "Failed to load resource"
        entries are expected (a page that answers 404 or 409 on purpose)."""
        entries = [e for e in self.driver.get_log("browser") if e.get("level") == "SEVERE"]
        resource = [e for e in entries if "Failed to load resource" in e.get("message", "")]
        others = [e for e in entries if e not in resource]
        if len(resource) <= allowed:
            resource = []
        return [e["message"] for e in others + resource]

    def require_no_console_errors(self, where, allowed=0):
        errors = self.console_errors(allowed)
        check(not errors, f"console errors on {where}: {errors}")

    def save_failure(self, name):
        os.makedirs(self.artifacts, exist_ok=True)
        stem = os.path.join(self.artifacts, re.sub(r"[^A-Za-z0-9_.-]+", "-", name))
        saved = []
        try:
            self.driver.save_screenshot(stem + ".png")
            saved.append(stem + ".png")
            with open(stem + ".html", "w", encoding="utf-8") as file:
                file.write(f"<!-- {self.driver.current_url} -->\n" + self.driver.page_source)
            saved.append(stem + ".html")
        except Exception as error:  # the browser may be what failed
            saved.append(f"(could not save: {error})")
        return saved

    def quit(self):
        try:
            self.driver.quit()
        finally:
            self.service.stop()
            shutil.rmtree(self.profile, ignore_errors=True)


# MARK: - The checks


def check_cash_app(browser, base, approve):
    from selenium.webdriver.common.by import By
    request = cash_app_request(base)
    mobile_url = request["auth_flow_triggers"]["mobile_url"]
    check(mobile_url.startswith(f"{base}/sandbox/customer-requests/{request['id']}/authorize"), f"mobile_url is {mobile_url}")
    browser.open(mobile_url)
    check(browser.driver.title == "Cash App Pay sandbox", f"title {browser.driver.title!r}")
    text = browser.text()
    check("asks you to pay $45.05" in text and request["id"] in text, f"the pending page says {text!r}")
    browser.require_no_console_errors("the pending authorize page")
    label = "Approve" if approve else "Decline"
    browser.click_button(label)
    want = "Approved: $45.05 to" if approve else "Declined. Nothing was charged."
    browser.wait(lambda _: want in browser.text(), f"{want!r} after {label}")
    check(not browser.driver.find_elements(By.TAG_NAME, "button"), "the decided page still offers buttons")
    browser.require_no_console_errors(f"the authorize page after {label}")
    after = cash_app_get(base, request["id"])
    status = "APPROVED" if approve else "DECLINED"
    check(after["status"] == status, f"GET …/requests/{request['id']}: status {after['status']}, expected {status}")
    if approve:
        check(len(after.get("grants") or []) == 1 and after["grants"][0]["status"] == "ACTIVE", f"grants: {after.get('grants')}")
    return f"{request['id']} page '{want}', API status {after['status']}"


def check_cash_app_not_found(browser, base):
    from selenium.webdriver.common.by import By
    browser.open(f"{base}/sandbox/customer-requests/GRR_{urllib.parse.quote(HOSTILE_ID)}/authorize")
    browser.wait(lambda _: "No such request" in browser.text(), "the not-found page")
    check(not browser.driver.find_elements(By.CSS_SELECTOR, "p b"), "the unknown id became markup")
    # The id as the path carried it (percent-encoded: the sandbox does not decode path parameters).
    check(f"GRR_{urllib.parse.quote(HOSTILE_ID)}" in browser.text(), f"the unknown id is not shown as text: {browser.text()!r}")
    browser.require_no_console_errors("the not-found authorize page", allowed=1)
    return "404 page, the id shown as text"


def check_cash_app_rotated(browser, bin_dir):
    """A link and a QR code from before a trigger rotation, on a sandbox that rotates every second:
    the page still works with a notice; the old image is 410 (a broken image, never an old code)."""
    from selenium.webdriver.common.by import By
    sandbox = Sandbox(bin_dir, "--trigger-rotation", "1")
    try:
        base = sandbox.base
        request = cash_app_request(base)
        old = request["auth_flow_triggers"]
        browser.wait(lambda _: cash_app_get(base, request["id"])["auth_flow_triggers"]["mobile_url"] != old["mobile_url"],
                     "the triggers to rotate (--trigger-rotation 1)")
        browser.open(old["mobile_url"])
        check("This link has rotated" in browser.text(), f"no rotation notice on the old link: {browser.text()!r}")
        check(len(browser.driver.find_elements(By.TAG_NAME, "button")) == 2, "the old link's page lost its buttons")
        browser.require_no_console_errors("the authorize page from a rotated link")
        loaded = browser.driver.execute_async_script("""
            const [url, done] = arguments;
            const image = new Image();
            image.onload = () => done("loaded " + image.naturalWidth);
            image.onerror = () => done("error");
            image.src = url;""", old["qr_code_image_url"])
        check(loaded == "error", f"the rotated QR image {old['qr_code_image_url']} {loaded}, expected a refusal")
        browser.require_no_console_errors("the authorize page loading a rotated QR image (410)", allowed=1)
        status, _, _ = http("GET", old["qr_code_svg_url"], raw=True)
        check(status == 410, f"GET the rotated qr.svg answered {status}, expected 410")
        browser.click_button("Approve")
        browser.wait(lambda _: "Approved: $45.05" in browser.text(), "'Approved' after Approve on the rotated link")
        check(cash_app_get(base, request["id"])["status"] == "APPROVED", "the API does not say APPROVED")
        return "old link shows the notice and approves; old QR image refused (410)"
    finally:
        sandbox.stop()


def check_qr(browser, base, zbarimg, artifacts):
    request = cash_app_request(base, amount=1234)
    triggers = cash_app_get(base, request["id"])["auth_flow_triggers"]
    mobile_url = triggers["mobile_url"]
    details = []
    for kind, url, content_type in (("svg", triggers["qr_code_svg_url"], "image/svg+xml"),
                                    ("png", triggers["qr_code_image_url"], "image/png")):
        # Opened on its own: the browser takes it as an image document of its type.
        browser.open(url)
        check(browser.driver.execute_script("return document.contentType") == content_type,
              f"{kind}: document.contentType is {browser.driver.execute_script('return document.contentType')!r}")
        browser.require_no_console_errors(f"the {kind} image opened on its own")
        # In an <img>: loaded, not broken.
        browser.open(mobile_url)
        size = browser.driver.execute_async_script("""
            const [url, done] = arguments;
            const image = new Image();
            image.onload = () => done([image.naturalWidth, image.naturalHeight, image.complete]);
            image.onerror = () => done("error");
            image.src = url;
            document.body.appendChild(image);""", url)
        check(size != "error" and size[0] > 0 and size[1] > 0 and size[2], f"{kind} in an <img>: {size}")
        browser.require_no_console_errors(f"the authorize page with the {kind} image")
        details.append(f"{kind} {size[0]}x{size[1]}")
    # The PNG's bytes, as a scanner reads them.
    status, headers, png = http("GET", triggers["qr_code_image_url"], raw=True)
    check(status == 200 and headers.get("Content-Type") == "image/png", f"GET qr.png: {status} {headers.get('Content-Type')}")
    decoded = zbar(zbarimg, png, artifacts, "qr-png")
    check(decoded == mobile_url, f"zbarimg read {decoded!r} from the PNG, expected {mobile_url!r}")
    # The SVG as the browser drew it: on a white canvas, 4 pixels a pixel, then scanned.
    drawn = browser.driver.execute_async_script("""
        const [url, done] = arguments;
        const image = new Image();
        image.onload = () => {
            const margin = 32, scale = 4;
            const canvas = document.createElement("canvas");
            canvas.width = image.naturalWidth * scale + 2 * margin;
            canvas.height = image.naturalHeight * scale + 2 * margin;
            const context = canvas.getContext("2d");
            context.fillStyle = "#fff";
            context.fillRect(0, 0, canvas.width, canvas.height);
            context.imageSmoothingEnabled = false;
            context.drawImage(image, margin, margin, image.naturalWidth * scale, image.naturalHeight * scale);
            done(canvas.toDataURL("image/png"));
        };
        image.onerror = () => done("error");
        image.src = url;""", triggers["qr_code_svg_url"])
    check(drawn.startswith("data:image/png;base64,"), f"drawing the SVG on a canvas: {drawn[:80]!r}")
    decoded_svg = zbar(zbarimg, base64.b64decode(drawn.split(",", 1)[1]), artifacts, "qr-svg-drawn")
    check(decoded_svg == mobile_url, f"zbarimg read {decoded_svg!r} from the SVG as drawn, expected {mobile_url!r}")
    browser.require_no_console_errors("the authorize page drawing the SVG")
    return ", ".join(details) + "; zbarimg decodes the PNG and the drawn SVG to mobile_url"


def zbar(zbarimg, image, artifacts, name):
    with tempfile.NamedTemporaryFile(suffix=".png") as file:
        file.write(image)
        file.flush()
        result = subprocess.run([zbarimg, "--raw", "-q", file.name], capture_output=True, timeout=WAIT)
        if result.returncode != 0:
            os.makedirs(artifacts, exist_ok=True)
            shutil.copy(file.name, os.path.join(artifacts, name + ".png"))
            raise Failure(f"zbarimg exited {result.returncode} on {name} (4 = no code found; saved {artifacts}/{name}.png): "
                          f"{result.stderr.decode(errors='replace')}")
    return result.stdout.decode().rstrip("\n")


def check_antom(browser, base, antom, locale, action, bank_index):
    from selenium.webdriver.common.by import By
    words = ANTOM_LOCALES[locale]
    order = f"order {HOSTILE} {uuid.uuid4().hex[:6]}"
    session = antom.session(words["currency"], words["country"], order)
    session_id = session["paymentSessionId"]
    status, _, cashier = http("GET", f"{base}/sandbox/antom/cashier/{session_id}")
    check(status == 200, f"GET /sandbox/antom/cashier/{session_id}: {status} {cashier!r:.200}")
    banks = cashier["banks"]
    check([b["bankName"] for b in banks] == ANTOM_BANKS[words["country"]],
          f"the session offers {[b['bankName'] for b in banks]}, expected {ANTOM_BANKS[words['country']]}")
    page = session["normalUrl"] + f"?locale={locale}"
    browser.open(page)
    check(browser.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == words["lang"], "html lang")
    check(words["choose"] in browser.text(), f"{locale}: no {words['choose']!r} on the cashier page")
    items = browser.driver.find_elements(By.CSS_SELECTOR, "ul.banks li")
    shown = [(item.find_element(By.TAG_NAME, "a").text, item.find_element(By.CSS_SELECTOR, ".kind").text) for item in items]
    expected = [(b["localName"] if locale == "th_TH" and words["country"] == "TH" else b["displayName"], b["bankName"]) for b in banks]
    check(shown == expected, f"{locale}: the cashier lists {shown}, expected {expected}")
    check(order in browser.text() and not browser.driver.find_elements(By.CSS_SELECTOR, "td b"),
          f"the order id is not shown as text: {browser.text()[:300]!r}")
    browser.require_no_console_errors(f"the {locale} cashier page")
    # The customer chooses a bank, then acts.
    bank = banks[bank_index % len(banks)]
    link = items[bank_index % len(banks)].find_element(By.TAG_NAME, "a")
    browser.navigate(link.click, "the bank's page", lambda driver: f"/banks/{bank['bankName']}" in driver.current_url)
    browser.require_no_console_errors(f"the {locale} page of {bank['bankName']}")
    label = {"pay": words["pay"], "fail": words["fail"], "abandon": words["leave"]}[action]
    browser.click_button(label)
    want = {"pay": words["paid"], "fail": words["failed"], "abandon": words["abandoned"]}[action]
    browser.wait(lambda _: want in browser.text(), f"{want!r} after {label!r}")
    check(not browser.driver.find_elements(By.TAG_NAME, "button"), "the closed session's page still offers buttons")
    if action == "pay":
        links = [a.get_attribute("href") for a in browser.driver.find_elements(By.TAG_NAME, "a")]
        check("https://shop.example/return" in links, f"no link back to the merchant: {links}")
    browser.require_no_console_errors(f"the {locale} page after {action}")
    inquiry = antom.inquire(cashier["paymentRequestId"])
    status, code = ANTOM_OUTCOMES[action]
    check(inquiry.get("paymentStatus") == status and inquiry.get("paymentResultCode") == code,
          f"inquiryPayment: paymentStatus {inquiry.get('paymentStatus')}, paymentResultCode {inquiry.get('paymentResultCode')}; "
          f"expected {status}, {code}")
    return f"{len(banks)} banks listed; {bank['bankName']} '{label}' → '{want}', inquiryPayment {status}{' ' + code if code else ''}"


def check_antom_refused(browser, base, antom):
    """A customer acting on a session that moved on (a stale page's button): 409, the page says why."""
    from selenium.webdriver.common.by import By
    session = antom.session("THB", "TH", f"order-{uuid.uuid4().hex[:8]}")
    session_id = session["paymentSessionId"]
    status, _, outcome = http("POST", f"{base}/sandbox/antom/cashier/{session_id}/abandon", {})
    check(status == 200 and outcome.get("paymentStatus") == "CANCELLED", f"POST …/abandon (JSON): {status} {outcome!r:.200}")
    browser.open(session["normalUrl"] + "?locale=en_US")
    browser.wait(lambda _: "you left without paying." in browser.text(), "the closed session's cashier page")
    # The bank page's Pay form, posted after the session closed.
    browser.navigate(lambda: browser.driver.execute_script("""
        const form = document.createElement("form");
        form.method = "post";
        form.action = arguments[0];
        document.body.appendChild(form);
        form.submit();""", f"/sandbox/antom/cashier/{session_id}/pay?bank=SCB&locale=en_US"),
        "the refusal's notice", lambda driver: driver.find_elements(By.CSS_SELECTOR, ".notice"))
    notice = browser.driver.find_element(By.CSS_SELECTOR, ".notice").text
    check("can no longer act" in notice and "CANCELLED" in notice, f"the notice says {notice!r}")
    check(not browser.driver.find_elements(By.TAG_NAME, "button"), "the refusal still offers buttons")
    browser.require_no_console_errors("the refused cashier page (409)", allowed=1)
    browser.open(f"{base}/sandbox/antom/cashier/{urllib.parse.quote(HOSTILE_ID)}/page?locale=th_TH")
    browser.wait(lambda _: "ไม่พบรายการชำระเงินนี้" in browser.text(), "the Thai not-found page")
    check(urllib.parse.quote(HOSTILE_ID) in browser.text() and not browser.driver.find_elements(By.CSS_SELECTOR, "p b"),
          f"the unknown id is not shown as text: {browser.text()!r}")
    browser.require_no_console_errors("the not-found cashier page (404)", allowed=1)
    return "409 page with the notice after the session closed; unknown session 404 in Thai"


def check_square(browser, base):
    from selenium.webdriver.common.by import By
    payment = square_payment(base, note=f"Note {HOSTILE}", reference="ref-<i>1</i>")
    check(payment["status"] == "COMPLETED", f"CreatePayment status {payment['status']}")
    url = payment["receipt_url"]
    check(url == f"{base}/sandbox/square/receipts/{payment['id']}", f"receipt_url is {url}")
    browser.open(url)
    check(browser.driver.title == "Receipt", f"title {browser.driver.title!r}")
    rows = {row.find_element(By.TAG_NAME, "th").text: row.find_element(By.TAG_NAME, "td").text
            for row in browser.driver.find_elements(By.CSS_SELECTOR, "table tr")}
    card = payment["card_details"]["card"]
    want = {"Amount": "45.05 USD", "Total": "45.05 USD", "Status": "COMPLETED",
            "Card": f"{card['card_brand']} •••• {card['last_4']}", "Note": f"Note {HOSTILE}",
            "Reference": "ref-<i>1</i>", "Payment": payment["id"]}
    wrong = {k: (rows.get(k), v) for k, v in want.items() if rows.get(k) != v}
    check(not wrong, f"receipt rows (shown, expected): {wrong}")
    check(not browser.driver.find_elements(By.CSS_SELECTOR, "td b, td i"), "text on the receipt became markup")
    browser.require_no_console_errors("the receipt page")
    browser.open(f"{base}/sandbox/square/receipts/{payment['id']}x")
    browser.wait(lambda _: "Receipt not found" in browser.text(), "the not-found receipt")
    browser.require_no_console_errors("the not-found receipt page", allowed=1)
    return f"{payment['id']}: 45.05 USD, COMPLETED, {want['Card']}; unknown id 404"


def check_afterpay_checkout(browser, base):
    """The page a checkout's redirectCheckoutUrl opens."""
    from selenium.webdriver.common.by import By
    reference = f"order {HOSTILE}"
    status, _, checkout = http("POST", base + "/v2/checkouts", {
        "amount": {"amount": "45.05", "currency": "USD"}, "consumer": {"email": "ada@example.com"},
        "merchantReference": reference, "isCashAppPay": True,
        "merchant": {"redirectConfirmUrl": "https://shop.example/confirm", "redirectCancelUrl": "https://shop.example/cancel"}},
        {"Authorization": f"Basic {AFTERPAY_CREDENTIALS}"})
    check(status == 201, f"POST /v2/checkouts answered {status}: {checkout!r:.300}")
    url = checkout["redirectCheckoutUrl"]
    check(url.startswith(f"{base}/sandbox/afterpay/checkout?token="), f"redirectCheckoutUrl is {url}")
    browser.open(url)
    check(browser.driver.title == "Afterpay checkout (sandbox)", f"title {browser.driver.title!r}")
    rows = {row.find_element(By.TAG_NAME, "th").text: row.find_element(By.TAG_NAME, "td").text
            for row in browser.driver.find_elements(By.CSS_SELECTOR, "table tr")}
    check(rows.get("Amount") == "45.05 USD" and rows.get("Order") == reference, f"the checkout page's rows: {rows}")
    check(not browser.driver.find_elements(By.CSS_SELECTOR, "td b"), "the merchant reference became markup")
    check("Cash App Pay" in browser.text(), f"the page does not say how the checkout is paid: {browser.text()!r}")
    browser.require_no_console_errors("the Afterpay checkout page")
    browser.open(f"{base}/sandbox/afterpay/checkout?token=002.unknown")
    browser.wait(lambda _: "Checkout not found" in browser.text(), "the not-found checkout")
    browser.require_no_console_errors("the not-found Afterpay checkout page (404)", allowed=1)
    return "redirectCheckoutUrl shows amount and order; unknown token 404"


def check_favicon(browser, base):
    status, headers, body = http("GET", base + "/favicon.ico", raw=True)
    check(status in (200, 204), f"GET /favicon.ico answered {status}")
    check(status == 204 or headers.get("Content-Type", "").startswith("image/"), f"/favicon.ico is {headers.get('Content-Type')}")
    # Whatever the pages before made the browser ask for last.
    browser.open("about:blank")
    browser.require_no_console_errors("the pages opened so far (late favicon requests)")
    return f"GET /favicon.ico {status}"


def check_control_routes(browser, base):
    """The control routes the pages never need refuse whoever has no control token: the browser too."""
    for path in ("/sandbox/ledger", "/sandbox/faults", "/sandbox/antom/keys"):
        status, headers, body = http("GET", base + path)
        check(status == 401, f"GET {path} without the control token answered {status}")
        check(headers.get("WWW-Authenticate", "").startswith("Bearer"), f"GET {path}: WWW-Authenticate is {headers.get('WWW-Authenticate')!r}")
        code = (body or {}).get("errors", [{}])[0].get("code")
        check(code == "CONTROL_TOKEN_REQUIRED", f"GET {path}: errors[0].code is {code!r}")
    status, _, _ = http("GET", base + "/sandbox/ledger", headers=CONTROL)
    check(status == 200, f"GET /sandbox/ledger with the control token answered {status}")
    browser.open(f"{base}/sandbox/ledger")
    browser.wait(lambda _: "CONTROL_TOKEN_REQUIRED" in browser.text(), "the ledger's 401 in the browser")
    browser.require_no_console_errors("the ledger opened without the control token (401)", allowed=1)
    check(CONTROL_TOKEN not in browser.driver.page_source, "the control token shows in the page")
    return "ledger, faults, antom keys: 401 Bearer without the token, 200 with it; the browser gets the 401"


# MARK: - The run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", required=True, help="where `checkout` is (swift build --show-bin-path)")
    parser.add_argument("--artifacts", default=os.path.join(ROOT, ".build", "browser-failures"),
                        help="where a failing check saves its screenshot and page source")
    arguments = parser.parse_args()
    started = time.monotonic()
    in_ci = bool(os.environ.get("CI"))

    chromium, chromedriver, missing = find_browser()
    zbarimg = shutil.which("zbarimg")
    if missing or not zbarimg:
        reason = missing or "zbarimg (zbar-tools) not found on PATH"
        if sys.platform == "darwin":
            install = "brew install --cask chromium chromedriver && brew install zbar"
        else:
            install = "sudo apt-get install -y chromium chromium-driver zbar-tools (or as root: .ci/ensure-packages.sh --with-browser)"
        if in_ci:
            print(f"FAIL browser checks: {reason}; CI is set, so the browser checks must run. Install: {install}")
            return 1
        print(f"SKIP browser checks: {reason}. They need Chromium (or Chrome) and its driver; install: {install}")
        return 0

    shutil.rmtree(arguments.artifacts, ignore_errors=True)
    results = []
    sandbox = browser = None
    try:
        sandbox = Sandbox(arguments.bin_dir)
        browser = Browser(chromium, chromedriver, arguments.artifacts)
        base = sandbox.base
        antom = Antom(base)

        def run(name, function, *args):
            browser.console_errors()  # what an earlier check left is not this one's
            try:
                detail = function(*args)
                results.append((name, True))
                print(f"ok   {name}: {detail}", flush=True)
            except Exception as error:  # one failed check does not stop the others
                saved = browser.save_failure(name)
                results.append((name, False))
                message = str(error) if isinstance(error, Failure) else traceback.format_exc(limit=3).strip()
                print(f"FAIL {name}: {message}\n     saved: {', '.join(saved)}", flush=True)

        run("cashapp authorize approve", check_cash_app, browser, base, True)
        run("cashapp authorize decline", check_cash_app, browser, base, False)
        run("cashapp authorize unknown id", check_cash_app_not_found, browser, base)
        run("cashapp qr svg and png", check_qr, browser, base, zbarimg, arguments.artifacts)
        run("cashapp authorize rotated link", check_cash_app_rotated, browser, arguments.bin_dir)
        for index, (locale, action) in enumerate((l, a) for l in ANTOM_LOCALES for a in ("pay", "fail", "abandon")):
            run(f"antom cashier {locale} {action}", check_antom, browser, base, antom, locale, action, index)
        run("antom cashier refused and unknown", check_antom_refused, browser, base, antom)
        run("square receipt", check_square, browser, base)
        run("afterpay checkout page", check_afterpay_checkout, browser, base)
        run("favicon", check_favicon, browser, base)
        run("control routes need the token", check_control_routes, browser, base)
    except Failure as failure:
        print(f"FAIL browser checks could not start: {failure}")
        return 1
    finally:
        if browser:
            browser.quit()
        if sandbox:
            sandbox.stop()

    failed = [name for name, ok in results if not ok]
    elapsed = time.monotonic() - started
    print(f"browser checks: {len(results) - len(failed)} of {len(results)} passed in {elapsed:.1f} s"
          + (f"; failed: {', '.join(failed)} (screenshots and sources in {arguments.artifacts})" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
