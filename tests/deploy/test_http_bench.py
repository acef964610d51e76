"""`make bench-http` cannot pass on polluted figures: wrk with deploy/bench/deal_entry.lua
against a stand-in server that, like deal entry, takes each deal once and answers 409 to
it again. A client that uses all its matches stops there (no 409) and the figures are
refused; clients with matches to spare are not. No database: the stand-in is instant."""

from __future__ import annotations

import importlib.util
import json
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import ModuleType

import pytest

from tests.deploy.server import ROOT

pytestmark = pytest.mark.skipif(not shutil.which("wrk"), reason="needs wrk (apt install wrk)")
CLIENTS = 2


class Deals(BaseHTTPRequestHandler):
    """Deal entry's answer without its cost: 201 the first time a deal number reaches a
    match, 409 after. Keep-alive, as gunicorn's threaded workers."""

    protocol_version = "HTTP/1.1"
    stored: set[tuple[str, int]] = set()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        deal = (self.path, json.loads(body)["number"])
        status = 409 if deal in self.stored else 201
        self.stored.add(deal)
        self.send_response(status)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def bench(monkeypatch) -> ModuleType:
    monkeypatch.setenv("BENCH_CLIENTS", str(CLIENTS))
    spec = importlib.util.spec_from_file_location("http_bench", ROOT / "deploy/bench/http_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def server() -> Iterator[str]:
    Deals.stored = set()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Deals)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def run(bench: ModuleType, server: str, matches: int) -> dict:
    """One second of deal 1 into ``matches`` fresh matches per client, as the bench runs."""
    figures = bench.wrk(server, "deal_entry.lua", "1s", "a,b", "1", str(matches), "1")
    figures["prepared"] = matches
    return figures


def test_a_client_that_uses_all_its_matches_stops_and_the_figures_are_refused(bench, server):
    figures = run(bench, server, matches=3)

    assert figures["busiest"] == 3
    assert figures["requests"] == CLIENTS * 3
    assert figures["non_2xx"] == 0
    refused = bench.refusals({"deal 1": figures})
    assert refused[0].startswith("FIGURES REFUSED")
    assert "deal 1: a client used all 3 deal entries" in refused[1]


def test_an_answer_other_than_2xx_refuses_the_figures(bench, server):
    Deals.stored = {("/api/v1/matches/1/deals", 1)}  # client 0's first deal is taken

    figures = run(bench, server, matches=10**7)

    assert figures["non_2xx"] == 1
    assert bench.refusals({"deal 1": figures})[1] == "deal 1: 1 answers other than 2xx"


def test_clients_with_matches_to_spare_get_only_2xx_and_the_figures_stand(bench, server):
    figures = run(bench, server, matches=10**7)

    assert figures["non_2xx"] == 0
    assert 0 < figures["busiest"] <= figures["prepared"]
    assert bench.refusals({"deal 1": figures}) == []
