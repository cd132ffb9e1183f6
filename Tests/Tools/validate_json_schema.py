#!/usr/bin/env python3
"""Validates JSON output against one of the schemas in Schemas/ (JSON Schema draft 2020-12).

    validate_json_schema.py SCHEMA FILE [--lines]

FILE holds one JSON document, or with --lines one document per non-empty line (what the
commands' --json prints). Every *.schema.json beside SCHEMA is loaded first, so references
between them (replay.schema.json uses run.schema.json's lines) resolve with no network.

Exit 0: every document is valid ("valid: N documents"). Exit 1: the first invalid or unparsable
document, with its line, the path inside it and the message. Exit 2: bad usage, an unreadable
file, or a schema that is not itself valid draft 2020-12.
Runs in the venv .ci/ensure-packages.sh --with-python makes (PyPI jsonschema, pinned there).
"""
import json
import pathlib
import sys
import urllib.parse

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource


def load_schemas(schema_dir: pathlib.Path) -> dict:
    """Every schema in the folder, by its $id."""
    schemas = {}
    for path in sorted(schema_dir.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        schemas[contents["$id"]] = contents
    return schemas


def resolve(schemas: dict, base: str, ref: str) -> tuple[str, dict]:
    """A $ref among our own schemas (a file and a JSON pointer into it): its name and schema."""
    url, _, pointer = urllib.parse.urljoin(base, ref).partition("#")
    target = schemas[url]
    for part in [p for p in pointer.split("/") if p]:
        target = target[part]
    return pointer.rsplit("/", 1)[-1] or url.rsplit("/", 1)[-1], target


def explain(error, instance, schema: dict, schemas: dict):
    """For a line that matches none of a oneOf's kinds, the errors of the kind it claims to be:
    the kind whose first required property (its discriminator) the line has."""
    if not isinstance(instance, dict):
        return "", best_match([error])
    claimed = []
    for index, branch in enumerate(schema.get("oneOf", [])):
        name, target = resolve(schemas, schema["$id"], branch["$ref"]) if "$ref" in branch else (str(index), branch)
        required = target.get("required", [])
        if required and required[0] in instance:
            claimed.append((index, name))
    if len(claimed) != 1:
        return "", best_match([error])
    index, name = claimed[0]
    errors = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == index]
    # A wrong value inside the line says more than the rules it then breaks about the whole line.
    return f" (a {name})", best_match([e for e in errors if e.absolute_path] or errors) or error


def documents(text: str, lines: bool):
    """(line number, text) of each document: the whole file, or each non-empty line."""
    if not lines:
        yield 1, text
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line


def main(argv: list[str]) -> int:
    arguments = [a for a in argv if a != "--lines"]
    if len(arguments) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    schema_path, file_path = pathlib.Path(arguments[0]), pathlib.Path(arguments[1])
    try:
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        schemas = load_schemas(schema_path.parent)
        registry = Registry().with_resources((id, Resource.from_contents(contents)) for id, contents in schemas.items())
        text = file_path.read_text(encoding="utf-8")
    except (OSError, ValueError, KeyError) as error:
        print(f"cannot read: {error}", file=sys.stderr)
        return 2
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as error:  # SchemaError: the schema itself is broken
        print(f"{schema_path.name} is not a valid draft 2020-12 schema: {error}", file=sys.stderr)
        return 2
    validator = Draft202012Validator(schema, registry=registry)
    count = 0
    for number, document in documents(text, lines="--lines" in argv):
        try:
            instance = json.loads(document)
        except ValueError as error:
            print(f"{file_path.name}:{number}: not JSON ({error}): {document[:200]}", file=sys.stderr)
            return 1
        errors = list(validator.iter_errors(instance))
        if errors:
            # A line that is none of the kinds is explained as the kind it claims to be.
            root = next((e for e in errors if e.validator == "oneOf" and not e.absolute_path), None)
            wrong_type = next((e for e in errors if e.validator == "type" and not e.absolute_path), None)
            kind, error = ("", wrong_type) if wrong_type else explain(root, instance, schema, schemas) if root else ("", best_match(errors))
            where = "/" + "/".join(str(part) for part in error.absolute_path)
            print(f"{file_path.name}:{number}{kind}: at {where}: {error.message}\n  document: {document[:500]}", file=sys.stderr)
            return 1
        count += 1
    print(f"valid: {count} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
