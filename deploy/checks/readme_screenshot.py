"""`make readme-screenshot`: the README's picture of the table phone, taken anew.

A throw-away SQLite database gets the demo club (`load_demo`); Django's server runs on a
free port; Playwright drives Debian's /usr/bin/chromium at 390 x 844 in Italian, signs in
as demo / demo and opens the quick form of tonight's Tressette match (table 1). It types a
deal the way a player does ("6", the chip 2, the last trick to Nino & Salvo), waits for the
engine's live check, and photographs the form from its title to the save button. The
picture is reduced to 32 colours (Pillow) and written to docs/table-phone.png.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "table-phone.png"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def photograph(base: str, match: int, shot: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, locale="it-IT")
        page.goto(base + "/login")
        page.fill("input[name=username]", "demo")
        page.fill("input[name=password]", "demo")
        page.click("button[type=submit]")
        page.wait_for_load_state("networkidle")
        page.goto(f"{base}/m/{match}/deals/new")
        page.wait_for_load_state("networkidle")
        page.keyboard.type("6")  # the cursor starts in the points field
        page.locator('input[name="sides.A.thirds~figures"][value="2"]').check(force=True)
        page.locator('input[name="last_trick"][value="A"]').check(force=True)
        page.wait_for_timeout(1500)
        page.wait_for_load_state("networkidle")
        page.evaluate("window.scrollTo(0, 0)")
        top = page.locator("h1").first.bounding_box()["y"] - 12
        save = page.get_by_role("button", name=re.compile(r"^Salva la smazzata")).bounding_box()
        bottom = save["y"] + save["height"] + 12
        page.screenshot(
            path=str(shot),
            full_page=True,
            clip={"x": 0, "y": top, "width": 390, "height": bottom - top},
        )
        browser.close()


def main() -> None:
    from PIL import Image

    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/demo.sqlite3", "DEBUG": "true"}
        env.pop("CELERY_BROKER_URL", None)  # tasks eager, in-process
        manage(env, "migrate", "--noinput", "-v0")
        manage(env, "load_demo")
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(60):
                try:
                    urllib.request.urlopen(base + "/login", timeout=1)
                    break
                except OSError:
                    time.sleep(0.5)
            os.environ.update(
                DATABASE_URL=env["DATABASE_URL"], DJANGO_SETTINGS_MODULE="scorebook.settings"
            )
            import django

            sys.path.insert(0, str(ROOT))
            django.setup()
            from scorebook.matches.models import Match  # tonight's match at table 1

            match = Match.objects.get(
                status="open", table__number=1, night__status="open", night__club__slug="san-rocco"
            )
            shot = Path(folder) / "shot.png"
            photograph(base, match.pk, shot)
        finally:
            server.terminate()
            server.wait(timeout=10)
        image = Image.open(shot).convert("RGB")
        image.quantize(colors=32, dither=Image.Dither.NONE).save(OUT, optimize=True)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size:,} bytes, {image.width}x{image.height}")


if __name__ == "__main__":
    main()
