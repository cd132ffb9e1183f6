#!/usr/bin/env python3
"""ICU's data, trimmed to what a checkout tool can reach, for the Linux release link.

Foundation links ICU statically with its whole data package (icudtNN_dat, 34 MB of the binary's
read-only data). The package is ICU's "common data" format: a header, a table of contents sorted
by name, then the items. This keeps every item but those a checkout never asks for (see DROPPED),
writes the package again in the same format, and an object that defines the same symbol. Linked
ahead of the toolchain's archive, that object stands in for the archive's member, so ICU's code
is unchanged and finds a smaller package. ICU looks items up by name and falls back to the root
locale for any locale missing, as with any filtered ICU data build.

  trim.py --archive lib_FoundationICU.a --out DIR    writes DIR/icudata.S (defining
  checkout_icu_data) and DIR/icudata.dat, and prints the symbol ICU knows the data by
"""

from __future__ import annotations

import argparse
import os
import struct
import sys

MEMBER = b"icu_packaged_data.cpp.o"

# Trees of display names and per-language data a checkout never shows: kept for the root
# locale, English and the trees' shared files only.
LOCALE_TREES = ("coll", "curr", "lang", "region", "unit", "zone", "rbnf")
TREE_FILES_KEPT = ("root.", "en.", "en_", "pool.res", "res_index.res", "supplementalData", "tzdbNames")


def dropped(name: str) -> bool:
    """Whether the item `name` (e.g. icudt76l/coll/de.res) goes: codepage converters (Foundation
    converts UTF-8/16/32 and Latin-1 itself), transliterators, CJK/Thai word dictionaries,
    Unicode character names, and other languages' display names, units and collations."""
    parts = name.split("/")
    leaf = parts[-1]
    if len(parts) == 2:
        return leaf.endswith(".cnv") or leaf == "unames.icu"
    tree = parts[1]
    if tree == "translit":
        return True
    if tree == "brkitr":
        return leaf.endswith(".dict")
    if tree in LOCALE_TREES:
        if tree == "coll" and leaf == "ucadata.icu":
            return False
        return not leaf.startswith(TREE_FILES_KEPT)
    return False


def archive_member(path: str, wanted: bytes) -> bytes:
    """One member of a System V / GNU `ar` archive."""
    with open(path, "rb") as file:
        data = file.read()
    if not data.startswith(b"!<arch>\n"):
        raise SystemExit(f"trim.py: {path} is not an ar archive")
    offset, long_names = 8, b""
    while offset + 60 <= len(data):
        header = data[offset:offset + 60]
        name, size = header[:16].rstrip(), int(header[48:58])
        body = data[offset + 60:offset + 60 + size]
        if name == b"//":
            long_names = body
        elif name.startswith(b"/") and name[1:].isdigit():
            start = int(name[1:])
            name = long_names[start:long_names.index(b"\n", start)]
        if name.rstrip(b"/") == wanted:
            return body
        offset += 60 + size + (size & 1)
    raise SystemExit(f"trim.py: {path} has no member {wanted.decode()}")


def packaged_data(elf: bytes) -> tuple[str, bytes]:
    """The one data symbol of ICU's packaged-data object: its name and bytes (ELF64, little-endian)."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise SystemExit("trim.py: the packaged-data member is not a 64-bit little-endian ELF object")
    section_offset, = struct.unpack_from("<Q", elf, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, section_offset + i * entry_size) for i in range(count)]
    symbols = next(s for s in sections if s[1] == 2)  # SHT_SYMTAB
    strings = sections[symbols[6]]
    for index in range(symbols[5] // symbols[9]):
        name_at, info, _, section, value, size = struct.unpack_from("<IBBHQQ", elf, symbols[4] + index * symbols[9])
        if info >> 4 == 1 and info & 0xF == 1 and size > 0:  # a global data object
            name = elf[strings[4] + name_at:elf.index(b"\0", strings[4] + name_at)].decode()
            holder = sections[section]
            return name, elf[holder[4] + value:holder[4] + value + size]
    raise SystemExit("trim.py: no data symbol in ICU's packaged-data object")


def items(package: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """A common data package's header and its (name, bytes) items, in table order."""
    header_size, magic = struct.unpack_from("<H2s", package, 0)
    if magic != b"\xda\x27" or package[12:16] != b"CmnD":
        raise SystemExit("trim.py: ICU's data is not a common data package (CmnD)")
    count, = struct.unpack_from("<I", package, header_size)
    entries = [struct.unpack_from("<II", package, header_size + 4 + 8 * i) for i in range(count)]
    found = []
    for i, (name_at, data_at) in enumerate(entries):
        start = header_size + name_at
        name = package[start:package.index(b"\0", start)].decode()
        end = header_size + entries[i + 1][1] if i + 1 < count else len(package)
        found.append((name, package[header_size + data_at:end]))
    return package[:header_size], found


def package(header: bytes, kept: list[tuple[str, bytes]]) -> bytes:
    """Writes a common data package as ICU's pkgdata does: names after the table, each item at a
    16-byte boundary from the start of the package."""
    kept = sorted(kept, key=lambda item: item[0].encode())  # ICU finds items by binary search
    table_size = 4 + 8 * len(kept)
    names, name_offsets = b"", []
    for name, _ in kept:
        name_offsets.append(table_size + len(names))
        names += name.encode() + b"\0"
    body_at = len(header) + table_size + len(names)
    body_at += -body_at % 16
    body, data_offsets = b"", []
    for _, data in kept:
        data_offsets.append(body_at + len(body) - len(header))
        body += data + b"\0" * (-len(data) % 16)
    table = struct.pack("<I", len(kept)) + b"".join(struct.pack("<II", n, d) for n, d in zip(name_offsets, data_offsets))
    layout = header + table + names
    return layout + b"\0" * (body_at - len(layout)) + body


def main() -> int:
    parser = argparse.ArgumentParser(description="Trim ICU's packaged data for the release link.")
    parser.add_argument("--archive", required=True, help="the toolchain's lib_FoundationICU.a")
    parser.add_argument("--out", required=True, help="folder for icudata.dat and icudata.S")
    arguments = parser.parse_args()
    symbol, whole = packaged_data(archive_member(arguments.archive, MEMBER))
    header, every = items(whole)
    kept = [(name, data) for name, data in every if not dropped(name)]
    trimmed = package(header, kept)
    _, check = items(trimmed)
    written = dict(kept)
    if [name for name, _ in check] != sorted(written) or any(
            data.rstrip(b"\0") != written[name].rstrip(b"\0") for name, data in check):
        raise SystemExit("trim.py: the trimmed package does not read back as written")
    os.makedirs(arguments.out, exist_ok=True)
    data_path = os.path.join(os.path.abspath(arguments.out), "icudata.dat")
    with open(data_path, "wb") as file:
        file.write(trimmed)
    with open(os.path.join(arguments.out, "icudata.S"), "w") as file:
        file.write(f"""// ICU's data package ({symbol}), trimmed by Build/ICUData/trim.py.
    .section .rodata.checkout_icu_data,"a"
    .globl checkout_icu_data
    .type checkout_icu_data, @object
    .balign 16
checkout_icu_data:
    .incbin "{data_path}"
    .size checkout_icu_data, . - checkout_icu_data
    .section .note.GNU-stack,"",@progbits
""")
    print(f"ICU data {symbol}: {len(whole) / 1e6:.1f} MB, {len(every)} items → {len(trimmed) / 1e6:.1f} MB, {len(kept)} items",
          file=sys.stderr)
    print(symbol)
    return 0


if __name__ == "__main__":
    sys.exit(main())
