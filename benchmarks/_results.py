"""What the benchmarks share when they write their figures to ``benchmarks/results/*.md``: the machine they ran on,
and replacing one labelled section of a results file (the rest of the file kept as it is)."""

from __future__ import annotations

import os
import platform
import re
from pathlib import Path


def machine() -> str:
    """The processor's model name (from /proc/cpuinfo where there is one), cores, Python and system."""
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def write_section(out: Path, head: str, label: str, body: str) -> None:
    """Put ``body`` (a section starting ``## <label>``) in the results file ``out`` in place of any section of that
    label, after the others; a new file starts with ``head``."""
    text = out.read_text(encoding="utf-8") if out.exists() else head
    sections = re.split(r"(?m)^(?=## )", text)
    kept = [s for s in sections[1:] if not s.startswith(f"## {label}\n")]
    out.write_text(
        sections[0].rstrip() + "\n\n" + "\n".join(s.rstrip() + "\n" for s in [*kept, body]), encoding="utf-8"
    )
