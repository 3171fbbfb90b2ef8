"""The class load test's protocol student (``benchmarks/widgetclient.py``, issue #32 item 1): it reads the kernel's
websocket frames as Jupyter's legacy protocol writes them, and the bench seats its few Chromium students evenly
over the arrivals."""

from __future__ import annotations

import json
import struct

from benchmarks.bench_class import browser_seats
from benchmarks.widgetclient import ProtocolStudent, _decode


def test_a_binary_websocket_frame_is_read_with_its_buffers():
    msg = json.dumps({"msg_type": "comm_msg", "content": {"comm_id": "a"}}).encode()
    parts = [msg, b"\x01\x02", b"xyz"]
    head = 4 + 4 * len(parts)
    offsets, at = [], head
    for p in parts:
        offsets.append(at)
        at += len(p)
    frame = struct.pack(f"!I{len(parts)}I", len(parts), *offsets) + b"".join(parts)
    out = _decode(frame)
    assert out["content"] == {"comm_id": "a"} and out["buffers"] == [b"\x01\x02", b"xyz"]
    assert _decode('{"msg_type": "status"}') == {"msg_type": "status"}


def test_the_chromium_students_are_the_first_the_middle_and_the_last_to_arrive():
    assert browser_seats(30, 3) == {0, 14, 29} or browser_seats(30, 3) == {0, 15, 29}
    assert browser_seats(30, 1) == {15}
    assert browser_seats(3, 5) == {0, 1, 2} and browser_seats(30, 0) == set()


def test_the_protocol_student_finds_the_decision_and_its_buttons_in_the_widget_states():
    s = ProtocolStudent("http://127.0.0.1:1/", "", "Allied")
    s.models = {
        "h": {"_model_name": "HTMLModel", "value": "Turn 1 &mdash; Allied to decide (a person): move"},
        "b": {"_model_name": "ButtonModel", "description": "Apply"},
        "m": {"_model_name": "ButtonModel", "description": "", "_dom_classes": ["wargames-draw-map"]},
    }
    assert "Allied to decide" in s.decision_text()
    assert s.button(description="Apply") == "b" and s.button(dom_class="wargames-draw-map") == "m"
    assert s.button(description="Back") is None
