#!/usr/bin/env python3
"""Build/ICUData/trim.py: what it keeps of ICU's data, and that the package it writes reads back.

On Linux with the toolchain's static ICU, also the real package: every item a checkout's
Foundation reaches is still there, and it shrinks to under a third."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "Build", "ICUData"))
import trim  # noqa: E402


def synthetic_package(names: list[str]) -> bytes:
    """A common data package as ICU writes one: a 32-byte header naming CmnD, then the items."""
    header = struct.pack("<H2sHHBBBB4s4s4s", 32, b"\xda\x27", 20, 0, 0, 0, 2, 0, b"CmnD", b"\1\0\0\0", b"\0\0\0\0")
    header += b"\0" * (32 - len(header))
    return trim.package(header, [(name, f"data of {name}".encode()) for name in names])


class Policy(unittest.TestCase):
    def test_keeps_what_foundation_reaches(self) -> None:
        for name in ["icudt76l/root.res", "icudt76l/de.res", "icudt76l/en_US_POSIX.res", "icudt76l/zoneinfo64.res",
                     "icudt76l/metaZones.res", "icudt76l/nfkc.nrm", "icudt76l/uts46.nrm", "icudt76l/coll/ucadata.icu",
                     "icudt76l/coll/root.res", "icudt76l/coll/en.res", "icudt76l/zone/en_GB.res", "icudt76l/curr/pool.res",
                     "icudt76l/lang/res_index.res", "icudt76l/brkitr/word.brk", "icudt76l/brkitr/root.res"]:
            self.assertFalse(trim.dropped(name), name)

    def test_drops_what_a_checkout_never_asks_for(self) -> None:
        for name in ["icudt76l/ibm-1390_P110-2003.cnv", "icudt76l/unames.icu", "icudt76l/translit/root.res",
                     "icudt76l/brkitr/cjdict.dict", "icudt76l/coll/zh.res", "icudt76l/lang/de.res", "icudt76l/unit/fr.res",
                     "icudt76l/zone/ja.res", "icudt76l/rbnf/th.res"]:
            self.assertTrue(trim.dropped(name), name)


class Package(unittest.TestCase):
    def test_reads_back_sorted_and_aligned(self) -> None:
        names = ["icudt76l/b.res", "icudt76l/a.res", "icudt76l/coll/x.res"]
        written = synthetic_package(names)
        header, found = trim.items(written)
        self.assertEqual(len(header), 32)
        self.assertEqual([name for name, _ in found], sorted(names))
        for name, data in found:
            self.assertEqual(data.rstrip(b"\0"), f"data of {name}".encode())
        count, = struct.unpack_from("<I", written, 32)
        for index in range(count):
            _, data_at = struct.unpack_from("<II", written, 36 + 8 * index)
            self.assertEqual((32 + data_at) % 16, 0, "items start on 16-byte boundaries")

    def test_refuses_what_is_not_a_package(self) -> None:
        with self.assertRaises(SystemExit):
            trim.items(b"\x20\x00\xda\x27" + b"\0" * 8 + b"ResB" + b"\0" * 40)


def toolchain_archive() -> str | None:
    if sys.platform != "linux":
        return None
    try:
        info = subprocess.run([os.environ.get("SWIFT", "swift"), "-print-target-info"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    marker = '"runtimeResourcePath": "'
    if marker not in info:
        return None
    resources = info.split(marker, 1)[1].split('"', 1)[0]
    archive = resources + "_static/linux/lib_FoundationICU.a"
    return archive if os.path.isfile(archive) else None


@unittest.skipUnless(toolchain_archive(), "no static ICU in this toolchain")
class ToolchainData(unittest.TestCase):
    def test_the_real_package_keeps_what_is_reached_and_shrinks(self) -> None:
        archive = toolchain_archive()
        symbol, whole = trim.packaged_data(trim.archive_member(archive, trim.MEMBER))
        self.assertRegex(symbol, r"^icudt\d+_dat$")
        with tempfile.TemporaryDirectory() as out:
            done = subprocess.run([sys.executable, os.path.join(REPO, "Build", "ICUData", "trim.py"), "--archive", archive, "--out", out],
                                  capture_output=True, text=True, timeout=120)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(done.stdout.strip(), symbol)
            with open(os.path.join(out, "icudata.dat"), "rb") as file:
                trimmed = file.read()
        _, kept = trim.items(trimmed)
        names = {name.split("/", 1)[1] for name, _ in kept}
        for needed in ["root.res", "en.res", "en_US_POSIX.res", "zoneinfo64.res", "nfkc.nrm", "coll/ucadata.icu", "coll/root.res"]:
            self.assertIn(needed, names)
        self.assertLess(len(trimmed), len(whole) / 3)


if __name__ == "__main__":
    unittest.main(verbosity=1)
