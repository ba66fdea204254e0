"""User-controlled text on every page is shown as text: no image, link or HTML from a name, a URL value, a
passage or a cell reaches the browser as markup, so a beacon server receives nothing (issue 25).

The hostile values point at a local beacon (an HTTP server on 127.0.0.1 counting requests): a Markdown image
in `?room=`, `?doc=`, `?sheet=` rendered live inside an error made the browser fetch it. Bare URLs are links
only when clicked, so the DOM is checked too: no <a> or <img> anywhere points at the beacon.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import ClassVar
from urllib.parse import quote

import pytest

from tests.browser.conftest import wait_idle
from tests.factories import csv_bytes, make_pdf

pytestmark = pytest.mark.browser

RLO = "\u202e"


class _Beacon(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Beacon.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def beacon() -> Iterator[str]:
    """http://127.0.0.1:<port>, a server that counts every request it gets."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Beacon)
    _Beacon.hits = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _markup_to(page, beacon: str) -> list[str]:
    """Elements of the page that point at the beacon (a live link or image made from user text)."""
    found = page.evaluate(
        """(beacon) => Array.from(document.querySelectorAll('a[href], img[src], [src], [href]'))
              .map(e => e.getAttribute('href') || e.getAttribute('src') || '')
              .filter(u => u.includes(beacon) || u.includes('beacon.png') || u.startsWith('javascript:'))""",
        beacon.removeprefix("http://"),
    )
    return list(found)


def test_hostile_names_url_values_and_passages_render_as_text(page, app_url: str, app_workbench, beacon: str) -> None:
    image, link = f"![x]({beacon}/img.png)", f"[click]({beacon}/link)"
    room = f"Deal {image} {link} {beacon}/bare{RLO}fdp.exe"
    wb = app_workbench
    wb.room(room, create=True)
    csv_name = f"![f](beacon.png) <img src=beacon.png> [l](javascript:void) {RLO}vsc.exe.csv"
    rows = [["Company", "Site"], ["Acme", f"see {beacon}/cell and {image}"], ["Beta", "www.example.com"]]
    assert wb.ingest_upload(csv_bytes(rows), csv_name, room, embed=False).status == "ready"
    passage = f"Our data room is at {beacon}/passage and www.beacon-example.com, mail deals@example.com. {image}"
    pdf = wb.ingest_upload(make_pdf([passage]), f"memo {link}.pdf", room, embed=False)
    assert pdf.status == "ready"
    sheet_doc = next(d for d in wb.documents(room) if d.kind == "sheet")
    with wb.db.connection() as conn:
        chunk = conn.execute(
            "SELECT chunk_index FROM chunks WHERE document_id = %s ORDER BY chunk_index LIMIT 1", (pdf.document_id,)
        ).fetchone()[0]

    q_room, q_image = quote(room), quote(image)
    visits = [
        f"/?room={q_image}",  # a room nobody has: its name in an error
        f"/?room={q_room}",  # the hostile room itself: a notice naming it (the session had the demo room)
        f"/sheet?room={q_room}&doc={q_image}&sheet={q_image}",
        f"/sheet?room={q_room}&doc={sheet_doc.id}&sheet={q_image}&row={q_image}",
        f"/documents?room={q_room}&doc={q_image}&page={q_image}&chunk={q_image}",
        f"/documents?room={q_room}&doc={pdf.document_id}&page=1&chunk={chunk}",
        f"/search?room={q_room}&doc={q_image}&page={q_image}",
        f"/analytics?room={q_room}",
        f"/members?room={q_room}",
        f"/?room={q_room}&conversation={q_image}",
    ]
    page.goto(app_url)
    wait_idle(page)
    seen = ""
    for path in visits:
        page.goto(app_url + path)
        wait_idle(page)
        page.wait_for_timeout(500)
        assert page.locator('[data-testid="stException"]').count() == 0, path
        assert _markup_to(page, beacon) == [], f"{path}: markup from user text"
        text = page.inner_text("body")
        assert RLO not in text, f"{path}: a bidi override reached the screen"
        seen += text
    # The text was there, shown literally: the test saw the hostile values, not an empty page.
    assert "![x](" in seen and "[U+202E]" in seen and "Our data room is at" in seen
    assert "<img src=beacon.png> [l](javascript:void) [U+202E]vsc.exe.csv" in seen
    assert _Beacon.hits == [], f"the beacon was fetched: {_Beacon.hits}"
