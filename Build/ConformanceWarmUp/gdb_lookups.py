"""gdb script (loaded by record.py): logs each conformance question the Swift runtime is asked
for the first time, as `type-descriptor-symbol <TAB> protocol-descriptor-symbol <TAB> flags`,
to the file named by the environment variable WARM_UP_LOG. Flags: `generic` (the type's
accessor needs generic arguments), `early` (asked before `RunCommand.run` began: while the
command line was parsed, which record.py puts first, last first), `nominal` (the type has a
descriptor)."""
import os

import gdb

LOG = open(os.environ["WARM_UP_LOG"], "w")
SEEN: set[tuple[int, int]] = set()
PARSED = [False]
# Where the command line has been parsed: the headless command's run begins.
RUN_BEGINS = "$s8checkout10RunCommandV3runyyYaKF"
# Swift metadata kinds (docs/ABI/TypeMetadata.rst): classes are 0 (or an isa pointer), value
# types 0x200-0x202. A class keeps its descriptor at 0x28 without Objective-C, a value type at 8.
VALUE_KINDS = (0x200, 0x201, 0x202)
GENERIC_FLAG = 0x80


def read(address: int, size: int) -> int:
    return int.from_bytes(gdb.selected_inferior().read_memory(address, size).tobytes(), "little")


def symbol(address: int) -> str:
    text = gdb.execute(f"info symbol {address}", to_string=True).strip()
    return text.split(" in section")[0] if " in section" in text else ""


class Question(gdb.Breakpoint):
    def stop(self) -> bool:
        try:
            metadata = int(gdb.parse_and_eval("$rdi"))
            protocol = int(gdb.parse_and_eval("$rsi"))
            if (metadata, protocol) in SEEN:
                return False
            SEEN.add((metadata, protocol))
            kind = read(metadata, 8)
            if kind == 0 or kind > 0x7FF:
                descriptor = read(metadata + 0x28, 8)
            elif kind in VALUE_KINDS:
                descriptor = read(metadata + 8, 8)
            else:
                descriptor = 0
            flags = []
            if descriptor:
                flags.append("nominal")
                if read(descriptor, 4) & GENERIC_FLAG:
                    flags.append("generic")
            if not PARSED[0]:
                flags.append("early")
            LOG.write(f"{symbol(descriptor) if descriptor else '-'}\t{symbol(protocol)}\t{','.join(flags)}\n")
            LOG.flush()
        except gdb.error as error:
            LOG.write(f"#\t{error}\n")
        return False


class RunBegins(gdb.Breakpoint):
    def stop(self) -> bool:
        PARSED[0] = True
        return False


RunBegins(RUN_BEGINS, internal=True)
for function in ("swift_conformsToProtocol", "swift_conformsToProtocolCommon", "swift_conformsToProtocolWithExecutionContext"):
    Question(function, internal=True)
