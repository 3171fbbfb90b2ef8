"""A student without a browser, for the class load test (issue #32 item 1): what an app page asks of the server,
over the same HTTP request and kernel websocket, with none of the page's drawing.

``ProtocolStudent`` loads the app page over HTTP (the server takes a preheated kernel, hands it the page's query
and renders the notebook: all the server's work for a page), reads the page's kernel id, connects to the kernel's
websocket as Voila's page does (``/api/kernels/<id>/channels``, Jupyter's JSON websocket protocol), and speaks
ipywidgets' comm protocol as the page's widget manager does (``@jupyter-widgets/base-manager``
``_loadFromKernel``): it opens a ``jupyter.widget.control`` comm and asks ``request_states``, which makes the
kernel serialise every widget model of the page (the ~70 models of the first view).  It then does what the
classroom template's script does once the first view is up (presses the hidden draw-map button, so the kernel
sends the map's Bokeh document), keeps every model's state up to date from the kernel's ``update`` and
``comm_open`` messages, presses Apply (a ``custom`` ``click`` message) and waits for the decision text to change,
and at the end asks Voila to shut its kernel down as the page's ``beforeunload`` handler does.

So the server does all its real work for each such student while the bench's processor is spent only on JSON;
the figure a student would see is measured by the few real Chromium students of the same run
(``bench_class.py --browsers``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
import struct
import time
import uuid
from typing import Any

#: ipywidgets' control comm and widget comm targets (ipywidgets 8's widget manager)
CONTROL_TARGET = "jupyter.widget.control"


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def _decode(raw: str | bytes) -> dict[str, Any]:
    """A websocket frame of Jupyter's legacy protocol: JSON text, or (a message with buffers) the binary frame:
    the count of parts, their offsets, then the JSON message and its buffers."""
    if isinstance(raw, str):
        return json.loads(raw)
    n = struct.unpack("!I", raw[:4])[0]
    offsets = [*struct.unpack(f"!{n}I", raw[4 : 4 + 4 * n]), len(raw)]
    msg = json.loads(raw[offsets[0] : offsets[1]].decode())
    msg["buffers"] = [raw[offsets[i] : offsets[i + 1]] for i in range(1, n)]
    return msg


class ProtocolStudent:
    """One student's page as protocol messages (see the module docstring).

    ``base``: the server's address (``http://127.0.0.1:PORT/``); ``query``: the page's query string; ``side``: the
    student's side, whose "<side> to decide (a person)" line is the first decision."""

    def __init__(self, base: str, query: str, side: str, timeout: float = 240.0):
        self.base, self.query, self.side, self.timeout = base.rstrip("/") + "/", query, side, timeout
        self.session = uuid.uuid4().hex
        self.models: dict[str, dict[str, Any]] = {}  # model id -> its state
        self.kernel_id = ""
        self.ws: Any = None
        self.changed = asyncio.Event()
        self.page_bytes = 0
        self._reader: asyncio.Task | None = None
        self._control_reply: asyncio.Future | None = None

    # ------------------------------------------------------------------ the wire
    def _msg(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> str:
        return json.dumps(
            {
                "header": {
                    "msg_id": uuid.uuid4().hex,
                    "username": "student",
                    "session": self.session,
                    "msg_type": msg_type,
                    "version": "5.3",
                    "date": _now(),
                },
                "parent_header": {},
                "metadata": metadata or {},
                "content": content,
                "channel": "shell",
                "buffers": [],
            }
        )

    async def _send(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None):
        await self.ws.write_message(self._msg(msg_type, content, metadata))

    async def _read(self) -> None:
        """Every message from the kernel: widget states kept up to date, the control comm's answer handed over."""
        while True:
            raw = await self.ws.read_message()
            if raw is None:
                return
            msg = _decode(raw)
            kind, content = msg.get("msg_type") or msg["header"]["msg_type"], msg.get("content", {})
            data = content.get("data") or {}
            if kind == "comm_msg" and data.get("method") == "update_states":
                if self._control_reply is not None and not self._control_reply.done():
                    self._control_reply.set_result(data)
            elif kind == "comm_msg" and data.get("method") in ("update", "echo_update"):
                self.models.setdefault(content["comm_id"], {}).update(data.get("state", {}))
                self.changed.set()
            elif kind == "comm_open" and content.get("target_name") == "jupyter.widget":
                self.models[content["comm_id"]] = dict(data.get("state", {}))
                self.changed.set()
            elif kind == "comm_close":
                self.models.pop(content.get("comm_id"), None)

    # ------------------------------------------------------------------ what the page does
    async def open_page(self) -> float:
        """GET the app page (the whole render); returns the seconds to its first byte."""
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest

        t0 = time.time()
        first: list[float] = []
        chunks: list[bytes] = []

        def on_chunk(chunk: bytes) -> None:
            if not first:
                first.append(time.time() - t0)
            chunks.append(chunk)

        req = HTTPRequest(
            self.base + ("?" + self.query if self.query else ""),
            request_timeout=self.timeout,
            connect_timeout=self.timeout,
            streaming_callback=on_chunk,
        )
        await AsyncHTTPClient().fetch(req)
        page = b"".join(chunks).decode()
        self.page_bytes = len(page)
        found = re.search(
            r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S
        )
        if not found:
            raise RuntimeError("the page has no jupyter-config-data")
        self.kernel_id = json.loads(found.group(1))["kernelId"]
        return first[0] if first else time.time() - t0

    async def connect(self) -> None:
        """The kernel's websocket, then the widget states as the widget manager asks for them."""
        from tornado.websocket import websocket_connect

        url = (
            self.base.replace("http", "ws", 1)
            + f"api/kernels/{self.kernel_id}/channels?session_id={self.session}"
        )
        self.ws = await websocket_connect(url, max_message_size=256 * 1024 * 1024)
        self._reader = asyncio.ensure_future(self._read())
        await self._send("kernel_info_request", {})
        self._control_reply = asyncio.get_running_loop().create_future()
        control = uuid.uuid4().hex
        await self._send(
            "comm_open", {"comm_id": control, "target_name": CONTROL_TARGET, "data": {}}, {"version": "1.0.0"}
        )
        await self._send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        reply = await asyncio.wait_for(self._control_reply, self.timeout)
        await self._send("comm_close", {"comm_id": control, "data": {}})
        for model_id, entry in reply["states"].items():
            self.models.setdefault(model_id, {}).update(entry.get("state", {}))

    def decision_text(self) -> str:
        """The text of the page's decision line ("<side> to decide (a person) ..."), or ""."""
        for state in self.models.values():
            value = state.get("value")
            if isinstance(value, str) and "to decide (a person)" in value:
                return value
        return ""

    def button(self, *, description: str = "", dom_class: str = "") -> str | None:
        """The model id of a button by its label or its CSS class (None if the page has none)."""
        for model_id, state in self.models.items():
            if state.get("_model_name") != "ButtonModel":
                continue
            if description and state.get("description") == description:
                return model_id
            if dom_class and dom_class in (state.get("_dom_classes") or ()):
                return model_id
        return None

    async def click(self, model_id: str) -> None:
        await self._send(
            "comm_msg", {"comm_id": model_id, "data": {"method": "custom", "content": {"event": "click"}}}
        )

    async def first_decision(self) -> None:
        """Wait until the student's decision and its Apply button are in the models; then press the map button
        as the classroom template does once the first view is up."""
        deadline = time.time() + self.timeout
        while f"{self.side} to decide (a person)" not in self.decision_text() or not self.button(
            description="Apply"
        ):
            await self._wait_change(deadline)
        draw = self.button(dom_class="wargames-draw-map")
        if draw:
            await self.click(draw)

    async def _wait_change(self, deadline: float) -> None:
        self.changed.clear()
        left = deadline - time.time()
        if left <= 0:
            raise TimeoutError("the page's widgets did not change in time")
        try:
            await asyncio.wait_for(self.changed.wait(), left)
        except TimeoutError:
            raise TimeoutError("the page's widgets did not change in time") from None

    async def apply(self) -> float:
        """Press Apply; the seconds until the decision line shows the student's next decision."""
        before = self.decision_text()
        apply = self.button(description="Apply")
        if apply is None:
            raise RuntimeError("no Apply button on the page")
        t0 = time.time()
        await self.click(apply)
        deadline = t0 + self.timeout
        while True:
            now = self.decision_text()
            if now and now != before:
                return time.time() - t0
            await self._wait_change(deadline)

    async def close(self) -> None:
        """What the page's ``beforeunload`` does: ask Voila to shut the kernel down; then hang up."""
        from tornado.httpclient import AsyncHTTPClient

        if self.kernel_id:
            try:
                await AsyncHTTPClient().fetch(
                    self.base + f"voila/api/shutdown/{self.kernel_id}",
                    method="POST",
                    body=b"",
                    request_timeout=30,
                )
            except Exception:  # a refused or failed goodbye: the server log counts refusals
                pass
        if self.ws is not None:
            self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
