#!/usr/bin/env python3
"""Reduces Square's whole Connect API document (api.json, 3 MB) to the Payments operations and
the schemas they reference, so the repository carries 1/20th of it.

    python3 reduce.py FULL_API_JSON > payments-api.json

The input is `api.json` of square/connect-api-specification (SOURCES.md names the commit). The
output keeps the document's own text: only paths outside /v2/payments and the components no kept
operation reaches are left out, and keys keep their order, so a diff against a newer upstream
file shows Square's changes and nothing of ours.
"""
import json
import sys

# Every path of the Payments API (CreatePayment, ListPayments, GetPayment, UpdatePayment,
# CompletePayment, CancelPayment, CancelPaymentByIdempotencyKey).
KEPT_PATH_PREFIX = "/v2/payments"


def references(value):
    """Every `$ref` target inside a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str):
                yield item
            else:
                yield from references(item)
    elif isinstance(value, list):
        for item in value:
            yield from references(item)


def component(document, ref):
    """(section, name) of a local `#/components/SECTION/NAME` reference."""
    parts = ref.split("/")
    if len(parts) != 4 or parts[:2] != ["#", "components"]:
        raise SystemExit(f"reduce.py: unexpected reference {ref!r}: only #/components/SECTION/NAME is handled")
    section, name = parts[2], parts[3]
    if name not in document.get("components", {}).get(section, {}):
        raise SystemExit(f"reduce.py: {ref!r} names no component in the input")
    return section, name


def reduce(document):
    paths = {path: item for path, item in document["paths"].items()
             if path == KEPT_PATH_PREFIX or path.startswith(KEPT_PATH_PREFIX + "/")}
    if not paths:
        raise SystemExit(f"reduce.py: the input has no path under {KEPT_PATH_PREFIX}: is it Square's api.json?")
    kept = set()
    pending = list(references(paths))
    while pending:
        section, name = component(document, pending.pop())
        if (section, name) in kept:
            continue
        kept.add((section, name))
        pending.extend(references(document["components"][section][name]))
    components = {}
    for section, items in document.get("components", {}).items():
        # Square's own x- extensions (API catalogue, categories) describe its whole platform.
        if section.startswith("x-"):
            continue
        if section == "securitySchemes":
            components[section] = items
            continue
        chosen = {name: item for name, item in items.items() if (section, name) in kept}
        if chosen:
            components[section] = chosen
    reduced = {key: value for key, value in document.items() if key not in ("paths", "components")}
    reduced["paths"] = paths
    reduced["components"] = components
    return reduced


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: reduce.py FULL_API_JSON > payments-api.json")
    with open(sys.argv[1], encoding="utf-8") as source:
        document = json.load(source)
    json.dump(reduce(document), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
